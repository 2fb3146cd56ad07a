// Test helpers for the claims: run one claim by id, read its values, and an
// independent high-precision route (raw MPFR, 320 bits, its own formulas) to
// check the reported values to at least 25 significant digits.
#pragma once

#include "claims/registry.h"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace pv::claims::test {

/// Runs the registered claim `id` (not through run_claims, so proofs are not attached).
inline claim_result run_claim(const std::string& id, const claim_context& ctx = {}) {
  for (const auto& d : claim_registry())
    if (d.id == id) return d.compute(ctx);
  throw std::runtime_error("no claim registered as " + id);
}

/// A raw MPFR number at 320 bits: the independent reference of the tests.
class mp {
 public:
  static constexpr mpfr_prec_t prec = 320;
  mp() { mpfr_init2(v_, prec); mpfr_set_zero(v_, 1); }
  mp(double x) { mpfr_init2(v_, prec); mpfr_set_d(v_, x, MPFR_RNDN); }  // NOLINT: implicit on purpose
  explicit mp(const std::string& s) {
    mpfr_init2(v_, prec);
    if (mpfr_set_str(v_, s.c_str(), 10, MPFR_RNDN) != 0)
      throw std::runtime_error("not a decimal number: '" + s + "'");
  }
  mp(const mp& o) { mpfr_init2(v_, prec); mpfr_set(v_, o.v_, MPFR_RNDN); }
  mp& operator=(const mp& o) { mpfr_set(v_, o.v_, MPFR_RNDN); return *this; }
  ~mp() { mpfr_clear(v_); }

  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  double to_double() const { return mpfr_get_d(v_, MPFR_RNDN); }
  std::string str(int digits = 30) const {
    char buf[256];
    mpfr_snprintf(buf, sizeof buf, "%.*Re", digits - 1, v_);
    return buf;
  }

  friend mp operator+(const mp& a, const mp& b) { mp r; mpfr_add(r.v_, a.v_, b.v_, MPFR_RNDN); return r; }
  friend mp operator-(const mp& a, const mp& b) { mp r; mpfr_sub(r.v_, a.v_, b.v_, MPFR_RNDN); return r; }
  friend mp operator*(const mp& a, const mp& b) { mp r; mpfr_mul(r.v_, a.v_, b.v_, MPFR_RNDN); return r; }
  friend mp operator/(const mp& a, const mp& b) { mp r; mpfr_div(r.v_, a.v_, b.v_, MPFR_RNDN); return r; }
  mp operator-() const { mp r; mpfr_neg(r.v_, v_, MPFR_RNDN); return r; }
  mp& operator+=(const mp& b) { mpfr_add(v_, v_, b.v_, MPFR_RNDN); return *this; }
  friend bool operator<(const mp& a, const mp& b) { return mpfr_less_p(a.v_, b.v_); }
  friend bool operator>(const mp& a, const mp& b) { return mpfr_greater_p(a.v_, b.v_); }
  friend bool operator<=(const mp& a, const mp& b) { return mpfr_lessequal_p(a.v_, b.v_); }

 private:
  mpfr_t v_;
};

#define PV_MP_FN(name, call)                      \
  inline mp name(const mp& x) {                   \
    mp r;                                         \
    call(r.get(), x.get(), MPFR_RNDN);            \
    return r;                                     \
  }
PV_MP_FN(msin, mpfr_sin)
PV_MP_FN(mcos, mpfr_cos)
PV_MP_FN(mexp, mpfr_exp)
PV_MP_FN(msqrt, mpfr_sqrt)
PV_MP_FN(mabs, mpfr_abs)
PV_MP_FN(mlog, mpfr_log)
#undef PV_MP_FN
inline mp mpi() { mp r; mpfr_const_pi(r.get(), MPFR_RNDN); return r; }
inline mp mpow(const mp& x, const mp& y) { mp r; mpfr_pow(r.get(), x.get(), y.get(), MPFR_RNDN); return r; }
inline mp mfloor(const mp& x) { mp r; mpfr_floor(r.get(), x.get()); return r; }
inline mp mmax(const mp& a, const mp& b) { return a < b ? b : a; }

/// The reported value `name` of `r` (a decimal string).
inline std::string value_text(const claim_result& r, const std::string& name) {
  const json* v = r.values.find(name);
  if (!v) throw std::runtime_error(r.id + ": no value named " + name);
  return v->as_string();
}

inline mp value(const claim_result& r, const std::string& name) { return mp(value_text(r, name)); }

inline std::int64_t int_value(const claim_result& r, const std::string& name) {
  const json* v = r.values.find(name);
  if (!v || v->type() != json::kind::integer) throw std::runtime_error(r.id + ": " + name + " is not an integer");
  return v->as_integer();
}

inline std::vector<std::int64_t> int_array(const claim_result& r, const std::string& name) {
  const json* v = r.values.find(name);
  if (!v || v->type() != json::kind::array) throw std::runtime_error(r.id + ": " + name + " is not an array");
  std::vector<std::int64_t> out;
  for (const auto& kv : v->items()) out.push_back(kv.second.as_integer());
  return out;
}

/// Entry (i, j) of a reported matrix, or entry i of a vector (j < 0).
inline mp element(const claim_result& r, const std::string& name, int i, int j = -1) {
  const json* v = r.values.find(name);
  if (!v) throw std::runtime_error(r.id + ": no value named " + name);
  const json& row = v->items().at(static_cast<std::size_t>(i)).second;
  return j < 0 ? mp(row.as_string()) : mp(row.items().at(static_cast<std::size_t>(j)).second.as_string());
}

/// Agreement to at least `digits` significant digits: |got - want| <= 10^-digits |want|.
inline ::testing::AssertionResult agrees(const mp& got, const mp& want, int digits = 25) {
  mp tol = mabs(want) * mpow(mp(10), mp(-digits));
  mp err = mabs(got - want);
  if (err <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "reported " << got.str(40) << " vs independent "
                                       << want.str(40) << ": |diff| = " << err.str(6);
}

/// For values that are exactly zero in real arithmetic: |got| <= tol.
inline ::testing::AssertionResult near_zero(const mp& got, double tol = 1e-60) {
  if (mabs(got) <= mp(tol)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "reported " << got.str(40) << ", expected 0 (to " << tol << ")";
}

using mp_rows = std::vector<std::vector<mp>>;

/// softmax(Q K^T / sqrt(d)) V written plainly (no max subtraction, one
/// normalised weight at a time): a different route from pv::attention.
inline mp_rows mp_attention(const mp_rows& Q, const mp_rows& K, const mp_rows& V) {
  const std::size_t d = Q[0].size();
  mp scale = mp(1) / msqrt(mp(static_cast<double>(d)));
  mp_rows out;
  for (const auto& q : Q) {
    std::vector<mp> w;
    mp z = 0;
    for (const auto& k : K) {
      mp s = 0;
      for (std::size_t c = 0; c < d; ++c) s += q[c] * k[c];
      w.push_back(mexp(s * scale));
      z += w.back();
    }
    std::vector<mp> o(V[0].size(), mp(0));
    for (std::size_t j = 0; j < K.size(); ++j)
      for (std::size_t c = 0; c < o.size(); ++c) o[c] += (w[j] / z) * V[j][c];
    out.push_back(o);
  }
  return out;
}

inline mp_rows mp_self_attention(const mp_rows& X) { return mp_attention(X, X, X); }

/// Attention in an IEEE type T in the evaluation order the claims measure:
/// scores times 1/sqrt(d), minus the row maximum, exp, left-to-right sums,
/// one division per entry (identity projections, Q = K = V = X).
template <class T>
std::vector<std::vector<T>> ieee_attention(const std::vector<std::vector<T>>& X) {
  const std::size_t n = X.size(), d = X[0].size();
  const T inv = T(1) / std::sqrt(T(d));
  std::vector<std::vector<T>> out(n, std::vector<T>(d));
  std::vector<T> e(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      T s = 0;
      for (std::size_t c = 0; c < d; ++c) s += X[i][c] * X[j][c];
      e[j] = s * inv;
    }
    T m = e[0];
    for (auto v : e) m = v > m ? v : m;
    T z = 0;
    for (auto& v : e) {
      v = std::exp(T(v - m));
      z += v;
    }
    for (std::size_t c = 0; c < d; ++c) {
      T s = 0;
      for (std::size_t j = 0; j < n; ++j) s += e[j] * X[j][c];
      out[i][c] = s / z;
    }
  }
  return out;
}

}  // namespace pv::claims::test
