// Sinusoid laws through the C interface. Model (as for RoPE, rope_model.h):
// the speed w_i = base^(-2i/d) carries eps_w(i) = max(eps_direct, eps_ladder(i))
// (computed directly or by a ladder of products), the angle m w one more
// rounding, sin and cos one ulp each, so an entry is within
//   t = |m| w (eps_w(i) + u) + 3u
// of sin(m w) / cos(m w).
#include "check/rope_model.h"
#include "check/law.h"
#include "posverify/sinusoid.h"

#include <cmath>

namespace pv::check {
namespace {

struct sin_case {
  std::size_t d;
  double base;
  std::vector<double> pos;
};

sin_case gen(rng& g, long P, std::size_t rows) {
  static const double bases[] = {10000, 10000, 100, 1e6};
  sin_case c;
  c.d = 2 * std::size_t(g.range(1, 32));
  c.base = bases[g.range(0, 3)];
  for (std::size_t i = 0; i < rows; ++i)
    c.pos.push_back(double(g.uniform() < 0.3 ? g.range(0, std::min(64L, P)) : g.range(0, P)));
  return c;
}

template <class T>
call sin_call(const sin_case& c) {
  call k;
  k.kind = op::sinusoid;
  k.t = dtype_of<T>();
  k.d = static_cast<std::int64_t>(c.d);
  k.base = c.base;
  k.pos = c.pos;
  k.n = static_cast<std::int64_t>(c.pos.size());
  return k;
}

std::string describe(const sin_case& c) {
  return "d = " + std::to_string(c.d) + ", base = " + to_decimal(c.base) + ", positions = " +
         positions_text(c.pos, 1);
}

// Not trig_of_angle_error: it takes stored speeds as exact; a user's kernel rounds w too (eps_w).
template <class T>
hp entry_tol(const context& cx, const hp& m, const hp& w, double base, std::size_t i, std::size_t d) {
  const rope_units u = rope_law_units<T>(cx);
  const hp ew = speed_error(base, i, d, u.angle);
  hp e = trig_abs_error_at(u.op);  // sin or cos of the rounded angle (2 ulps), then stored
  if (u.stored) e += u.op * (1 + e);
  return abs(m) * w * (ew + u.angle) + e;
}

const char* rule =
    "t = |m| w (eps_w(i) + u_angle) + e_sc per entry; eps_w(i) = max(eps_direct, eps_ladder(i)) covers "
    "a speed base^(-2i/d) computed directly (pow, reciprocal, exp/log, a table in T or float64: "
    "eps_direct = (4 + ln base) u) or by a ladder of products in T (eps_ladder(i) = "
    "(1 + eps_r)^i (1 + u)^i - 1, eps_r = (4 + (2/d) ln base) u); the angle m w one more "
    "rounding in T (u_angle, T's u even under a declared 16-bit storage class), so the error "
    "grows with the position; sin and cos e_sc = 4u each (2 ulps of a value <= 1), plus u(1 + "
    "e_sc) when a declared storage format coarser than T holds the result";

template <class T>
law_result law_reference(const context& cx) {
  law_run L(cx, "sinusoid.reference", type_name<T>(), "",
            "p(m)_{2i} = sin(m w_i), p(m)_{2i+1} = cos(m w_i), w_i = base^(-2i/d): formula and "
            "layout agree with the high-precision (MPFR) reference",
            rule);
  if (!L.selected()) return L.finish();
  const long P = std::max(1L, long(cx.max_position));
  auto ks = L.case_indices();
  std::vector<sin_case> cs;
  for (int k : ks) {
    auto g = L.rng_for(k);
    cs.push_back(gen(g, P, std::size_t(g.range(1, 6))));
    L.add(sin_call<T>(cs.back()));
  }
  L.run();
  auto describe_case = [&](std::size_t i) { return describe(cs[i]); };
  L.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& c = cs[i];
    auto out = from_bytes<T>(L.results()[i].out, c.pos.size(), c.d);
    auto w = geometric_speeds<hp>(c.d, convert<hp>(c.base));
    bool ok = true;
    for (std::size_t r = 0; r < c.pos.size() && ok; ++r)
      for (std::size_t q = 0; q < w.size() && ok; ++q) {
        hp m = convert<hp>(c.pos[r]), a = m * w[q];
        hp t = entry_tol<T>(cx, m, w[q], c.base, q, c.d);
        hp s = sin(a), co = cos(a);
        ok = L.within(ks[i], abs(convert<hp>(out(r, 2 * q)) - s), t,
                      "row " + std::to_string(r) + " entry " + std::to_string(2 * q) + " (sin): got " +
                          to_decimal(out(r, 2 * q)) + ", reference " + ref::to_decimal(s, 20),
                      desc) &&
             L.within(ks[i], abs(convert<hp>(out(r, 2 * q + 1)) - co), t,
                      "row " + std::to_string(r) + " entry " + std::to_string(2 * q + 1) +
                          " (cos): got " + to_decimal(out(r, 2 * q + 1)) + ", reference " +
                          ref::to_decimal(co, 20),
                      desc);
      }
    return ok;
  });
  return L.finish();
}

template <class T>
law_result law_shift_map(const context& cx) {
  law_run L(cx, "sinusoid.shift_map", type_name<T>(), "",
            "a fixed linear map takes p(m) to p(m + k): p(m + k) = M_k p(m), M_k block-diagonal "
            "with 2 x 2 rotations by k w_i (independent of m)",
            std::string("|p(m+k) - M_k p(m)| <= t(m+k) + (|cos k w| + |sin k w|) t(m) per entry, "
                        "M_k exact (MPFR); ") + rule);
  if (!L.selected()) return L.finish();
  const long P = std::max(1L, long(cx.max_position));
  auto ks = L.case_indices();
  std::vector<sin_case> cs;
  for (int k : ks) {
    auto g = L.rng_for(k);
    auto c = gen(g, P / 2, 2);
    c.pos[1] = c.pos[0] + double(g.uniform() < 0.3 ? g.range(0, 64) : g.range(0, P / 2));
    cs.push_back(c);
    L.add(sin_call<T>(cs.back()));
  }
  L.run();
  auto describe_case = [&](std::size_t i) { return describe(cs[i]); };
  L.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& c = cs[i];
    auto out = from_bytes<T>(L.results()[i].out, 2, c.d);
    auto w = geometric_speeds<hp>(c.d, convert<hp>(c.base));
    auto M = sinusoid_shift_map(w, c.pos[1] - c.pos[0]);
    bool ok = true;
    for (std::size_t q = 0; q < w.size() && ok; ++q) {
      hp m0 = convert<hp>(c.pos[0]), m1 = convert<hp>(c.pos[1]);
      hp t0 = entry_tol<T>(cx, m0, w[q], c.base, q, c.d), t1 = entry_tol<T>(cx, m1, w[q], c.base, q, c.d);
      for (std::size_t e : {2 * q, 2 * q + 1}) {
        hp pred = M(e, 2 * q) * convert<hp>(out(0, 2 * q)) + M(e, 2 * q + 1) * convert<hp>(out(0, 2 * q + 1));
        hp tol = t1 + (abs(M(e, 2 * q)) + abs(M(e, 2 * q + 1))) * t0;
        ok = L.within(ks[i], abs(convert<hp>(out(1, e)) - pred), tol,
                      "entry " + std::to_string(e) + ": p(m+k) = " + to_decimal(out(1, e)) +
                          ", M_k p(m) = " + ref::to_decimal(pred, 20),
                      desc);
        if (!ok) break;
      }
    }
    return ok;
  });
  return L.finish();
}

}  // namespace

std::vector<law_result> sinusoid_laws(const context& cx) {
  std::vector<law_result> out;
  out.push_back(law_reference<float>(cx));
  out.push_back(law_shift_map<float>(cx));
  if (cx.float_only) return out;
  out.push_back(law_reference<double>(cx));
  out.push_back(law_shift_map<double>(cx));
  return out;
}

}  // namespace pv::check
