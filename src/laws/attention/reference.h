// attention.reference, written once: a kernel's softmax(q k^T / sqrt(d)) v
// agrees with the high-precision (MPFR) reference.
//
// Tolerance: FlashAttention's rule (Dao et al. 2022, their tests: the error
// at most c times the error of the plain same-dtype implementation, plus a
// floor), made scale-free: errors are counted in units of the any-order bound
// B of each entry (any_order_bound.h), R is the largest |plain - ref| / B over
// all cases of a run, and every entry must satisfy
//   |out - ref| <= c R B + floor,   c = 2, floor = 8 u max|v|.
// The plain implementation is pv::attention in the law's dtype, or
// plain_rounded() in a declared accuracy class (max-subtracted scores,
// left-to-right sums, one division per entry, every operation rounded to the
// class). Judge: the black-box check (blackbox/attention_laws.cpp), which
// draws the cases and supplies the class's rounding.
#pragma once

#include "laws/attention/any_order_bound.h"
#include "numerics/matrix.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pv::laws::attention_reference {

inline constexpr const char* id = "attention.reference";

/// c of the FlashAttention rule (their tests use 2 against a float32 reference
/// for fp16/bf16 kernels; we keep 2) and the floor in units of u max|V|.
inline constexpr int flash_c = 2;
inline constexpr int floor_ulps = 8;

inline std::string statement() {
  return "softmax(q k^T / sqrt(d)) v agrees with the high-precision (MPFR) reference";
}

inline std::string tolerance_rule() {
  return "FlashAttention's rule, made scale-free: |out - ref| <= c R B + " + std::to_string(floor_ulps) +
         " u max|v| per entry, c = " + std::to_string(flash_c) +
         ", R = the largest |plain - ref| / B over all cases of the run, where plain is the "
         "textbook same-dtype implementation (max-subtracted, left-to-right sums, one "
         "division per entry; with --accuracy, the same in the declared class: inputs "
         "rounded to its format, every operation rounded to float32 or, for "
         "float16-accumulation, to float16, and for float16-pv-accumulation the sum of p v to "
         "float16), ref is MPFR and B the a-priori bound of the entry (" +
         attention_bound::any_order_rule() +
         "); FlashAttention compares the largest error over a whole tensor, "
         "our cases are small and of very different scales, so errors are compared in units "
         "of B and maximised over the run";
}

/// The plain implementation of the rule in an emulated format: q, k and v
/// rounded by `store`, then the textbook order (max-subtracted scores,
/// left-to-right sums, one division per entry) with every operation's result
/// rounded by `op`. Computed in double, each result rounded explicitly (so
/// `op` and `store` must round to formats of at most 53 bits).
/// `pv` rounds each step of the weighted sum of v (a 16-bit accumulator;
/// the overload without it rounds those by `op` too).
template <class T, class Store, class Op, class Pv>
matrix<T> plain_rounded(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V, Store&& store, Op&& acc,
                        Pv&& pv) {
  auto st = [&](const matrix<T>& m) {
    matrix<double> r(m.rows, m.cols);
    for (std::size_t e = 0; e < m.a.size(); ++e) r.a[e] = store(double(m.a[e]));
    return r;
  };
  const auto q = st(Q), k = st(K), v = st(V);
  const std::size_t nq = q.rows, nk = k.rows, d = q.cols, dv = v.cols;
  const double scale = acc(1.0 / std::sqrt(double(d)));
  matrix<T> out(nq, dv);
  std::vector<double> e(nk);
  for (std::size_t i = 0; i < nq; ++i) {
    double m = -INFINITY, z = 0;
    for (std::size_t j = 0; j < nk; ++j) {
      double s = 0;
      for (std::size_t l = 0; l < d; ++l) s = acc(s + acc(q(i, l) * k(j, l)));
      e[j] = acc(s * scale);
      m = std::max(m, e[j]);
    }
    for (std::size_t j = 0; j < nk; ++j) z = acc(z + (e[j] = acc(std::exp(acc(e[j] - m)))));
    for (std::size_t col = 0; col < dv; ++col) {
      double o = 0;
      for (std::size_t j = 0; j < nk; ++j) o = pv(o + acc(e[j] * v(j, col)));
      out(i, col) = static_cast<T>(acc(o / z));
    }
  }
  return out;
}
template <class T, class Store, class Op>
matrix<T> plain_rounded(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V, Store&& store, Op&& acc) {
  return plain_rounded(Q, K, V, store, acc, acc);
}

/// R over one case: raises R to max |plain - ref| / B over the entries with B > 0.
template <class T>
void raise_plain_ratio(hp& R, const matrix<T>& plain, const matrix<hp>& ref, const matrix<hp>& B) {
  for (std::size_t e = 0; e < ref.a.size(); ++e)
    if (B.a[e] > 0) {
      const hp r = abs(convert<hp>(plain.a[e]) - ref.a[e]) / B.a[e];
      if (R < r) R = r;
    }
}

/// The floor of a case: floor_ulps u max_j |v_jc| over the whole of V.
template <class T>
hp floor_of(const matrix<T>& V, const hp& u) {
  hp vmax = 0;
  for (auto x : V.a) {
    const hp ax = abs(convert<hp>(x));
    if (vmax < ax) vmax = ax;
  }
  return floor_ulps * u * vmax;
}

/// The tolerance of one entry: c R B + floor.
inline hp tolerance(const hp& R, const hp& B, const hp& floor) { return flash_c * R * B + floor; }

/// Every entry's tolerance (for a diagnosis of a failure).
inline matrix<hp> tolerances(const hp& R, const matrix<hp>& B, const hp& floor) {
  matrix<hp> t(B.rows, B.cols);
  for (std::size_t e = 0; e < t.a.size(); ++e) t.a[e] = tolerance(R, B.a[e], floor);
  return t;
}

/// The entry with the largest error relative to its tolerance; found false
/// when no ratio is >= 0 (no entries, or only 0 / 0).
struct outcome {
  bool found = false;
  std::size_t row = 0, col = 0;
  hp ratio = -1, diff = 0, bound = 0;
  bool within = true;
};

/// The law body on one case: the kernel's `out` against the reference `ref`,
/// B its any-order bound, R the run's plain ratio and `floor` the case's.
template <class T>
outcome compare(const matrix<T>& out, const matrix<hp>& ref, const matrix<hp>& B, const hp& R, const hp& floor) {
  outcome o;
  for (std::size_t r = 0; r < out.rows; ++r)
    for (std::size_t c = 0; c < out.cols; ++c) {
      const hp tol = tolerance(R, B(r, c), floor);
      const hp e = abs(convert<hp>(out(r, c)) - ref(r, c));
      const hp q = e / tol;
      if (q > o.ratio) {
        o.ratio = q;
        o.row = r;
        o.col = c;
        o.found = true;
      }
    }
  if (o.found) {
    o.bound = tolerance(R, B(o.row, o.col), floor);
    o.diff = abs(convert<hp>(out(o.row, o.col)) - ref(o.row, o.col));
    o.within = o.diff <= o.bound;
  }
  return o;
}

}  // namespace pv::laws::attention_reference
