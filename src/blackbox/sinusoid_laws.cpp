// The sinusoid laws of `posverify check`, through the C interface: how each
// draws its cases, calls the kernel and reports a compared entry. The laws are
// laws/sinusoid/reference.h and laws/sinusoid/linear_shift.h. Their per-entry
// tolerance t counts the kernel's speed w_i = base^(-2i/d) within eps_w(i) =
// max(eps_direct, eps_ladder(i)) of the speed model shared with RoPE
// (rope_model.h, speed_error).
#include "blackbox/rope_model.h"
#include "blackbox/declines.h"
#include "blackbox/diagnose_sinusoid.h"
#include "blackbox/rows_outside.h"
#include "blackbox/law_run.h"
#include "blackbox/laws.h"
#include "laws/sinusoid/linear_shift.h"
#include "laws/sinusoid/reference.h"
#include "laws/sinusoid/rows.h"
#include "numerics/sinusoid.h"

#include <cmath>

namespace pv::blackbox {
namespace {

struct sin_case {
  std::size_t d;
  double base;
  std::vector<double> pos;
};

/// The bases a case is drawn from (10000 twice as often as the others).
constexpr double bases[] = {10000, 10000, 100, 1e6};

sin_case gen(rng& g, long P, std::size_t rows) {
  sin_case c;
  c.d = 2 * std::size_t(g.range(1, 32));
  c.base = bases[g.range(0, 3)];
  for (std::size_t i = 0; i < rows; ++i)
    c.pos.push_back(double(g.uniform() < 0.3 ? g.range(0, std::min(64L, P)) : g.range(0, P)));
  return c;
}

template <class T>
call sin_call(const sin_case& c) {
  return call(op::sinusoid, dtype_of<T>(), {std::int64_t(c.pos.size()), std::int64_t(c.d), c.base},
              {sandbox::bytes_of(c.pos)});
}

std::string describe(const sin_case& c) {
  return "d = " + std::to_string(c.d) + ", base = " + to_decimal(c.base) + ", positions = " +
         positions_text(c.pos, 1);
}

// Not trig_of_angle_error: it takes stored speeds as exact; a user's kernel rounds w too (eps_w).
template <class T>
hp entry_tol(const check_run& cx, const hp& m, const hp& w, double base, std::size_t i, std::size_t d) {
  const rope_units u = rope_law_units<T>(cx);
  return laws::sinusoid_reference::entry_tolerance(m, w, speed_error(base, i, d, u.angle), u.angle, u.op, u.stored);
}

template <class T>
law_result law_reference(const check_run& cx) {
  namespace law = laws::sinusoid_reference;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::entry_tolerance_rule());
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
    law::compare_on_kernel(
        out, c.pos, w,
        [&](std::size_t r, std::size_t q) { return entry_tol<T>(cx, convert<hp>(c.pos[r]), w[q], c.base, q, c.d); },
        [&](const law::entry<T>& e) {
          ok = L.within(ks[i], e.diff, e.bound,
                        "row " + std::to_string(e.row) + " entry " + std::to_string(e.col) +
                            (e.is_sin ? " (sin): got " : " (cos): got ") + to_decimal(e.got) + ", reference " +
                            ref::to_decimal(e.expected, 20),
                        desc);
          return ok;
        });
    if (!ok) L.diagnose(diagnose_sinusoid<T>(cx, c.d, c.base));
    return ok;
  });
  return L.finish();
}

template <class T>
law_result law_linear_shift(const check_run& cx) {
  namespace law = laws::linear_shift;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::any_speed_tolerance_rule());
  if (!L.selected()) return L.finish();
  const long P = std::max(1L, long(cx.max_position));
  auto ks = L.case_indices();
  std::vector<sin_case> cs;
  for (int k : ks) {
    // the stream law_run::rng_for gave the cases under the law's former id
    auto g = case_rng(cx.seed, std::string(law::check_case_stream) + "/", k);
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
    bool ok = true;
    law::compare_on_kernel(
        out, sinusoid_shift_map(w, c.pos[1] - c.pos[0]), w.size(),
        [&](std::size_t r, std::size_t q) { return entry_tol<T>(cx, convert<hp>(c.pos[r]), w[q], c.base, q, c.d); },
        [&](const law::entry<T, hp>& e) {
          ok = L.within(ks[i], e.diff, e.bound,
                        "entry " + std::to_string(e.index) + ": p(m+k) = " + to_decimal(e.shifted) +
                            ", M_k p(m) = " + ref::to_decimal(e.mapped, 20),
                        desc);
          return ok;
        });
    if (!ok) L.diagnose(diagnose_sinusoid<T>(cx, c.d, c.base));
    return ok;
  });
  return L.finish();
}

/// sinusoid.rows (laws/sinusoid/rows.h): one case per size; row r holds
/// position r mod D of the case's D distinct positions. The first D rows are
/// judged exactly (sinusoid.reference's body, which also gives each
/// position's reference and tolerance); every later row is compared in
/// binary64 against its position's (|got - ref| + 2^-52 |ref| <= t / 2, so
/// that it is inside t exactly), the entries not clearly inside and the worst
/// judged exactly.
template <class T>
law_result law_rows(const check_run& cx0) {
  namespace law = laws::sinusoid_rows;
  constexpr std::size_t D = law::distinct, S = std::size(law::sizes);
  check_run cx = cx0;  // one case per size
  cx.cases = int(S);
  cx.min_cases = std::min(cx0.min_cases, cx.cases);
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), laws::sinusoid_reference::entry_tolerance_rule());
  if (!L.selected()) return L.finish();
  const long P = std::max(1L, long(cx.max_position));
  const auto ks = L.case_indices();
  std::vector<sin_case> cs;  // the distinct positions of each case, then its n rows
  for (int k : ks) {
    auto g = L.rng_for(k);
    sin_case c = gen(g, P, D);
    const std::size_t n = law::sizes[std::size_t(k) % S];
    for (std::size_t r = D; r < n; ++r) c.pos.push_back(c.pos[r % D]);
    cs.push_back(c);
    L.add(sin_call<T>(cs.back()));
  }
  L.run();
  auto describe_case = [&](std::size_t i) {
    const auto& c = cs[i];
    return std::to_string(c.pos.size()) + " rows, row r at position r mod " + std::to_string(D) + " of the first " +
           std::to_string(D) + ": d = " + std::to_string(c.d) + ", base = " + to_decimal(c.base) +
           ", positions = " + positions_text({c.pos.begin(), c.pos.begin() + long(D)}, 1);
  };
  L.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& c = cs[i];
    const std::size_t n = c.pos.size();
    const auto out = from_bytes<T>(L.results()[i].out, n, c.d);
    const auto w = geometric_speeds<hp>(c.d, convert<hp>(c.base));
    matrix<hp> ref(D, c.d), tol(D, c.d);
    bool ok = true;
    auto where = [&](std::size_t r, std::size_t col, const T& got, const hp& expected) {
      return "row " + std::to_string(r) + " of " + std::to_string(n) + " entry " + std::to_string(col) +
             (col % 2 == 0 ? " (sin): got " : " (cos): got ") + to_decimal(got) + ", reference " +
             ref::to_decimal(expected, 20);
    };
    matrix<T> first(D, c.d);  // the first D rows: judged exactly, and each position's reference
    for (std::size_t r = 0; r < D; ++r)
      for (std::size_t col = 0; col < c.d; ++col) first(r, col) = out(r, col);
    laws::sinusoid_reference::compare_on_kernel(
        first, {c.pos.begin(), c.pos.begin() + long(D)}, w,
        [&](std::size_t r, std::size_t q) { return entry_tol<T>(cx, convert<hp>(c.pos[r]), w[q], c.base, q, c.d); },
        [&](const laws::sinusoid_reference::entry<T>& e) {
          ref(e.row, e.col) = e.expected;
          tol(e.row, e.col) = e.bound;
          if (ok) ok = L.within(ks[i], e.diff, e.bound, where(e.row, e.col, e.got, e.expected), desc);
          return true;  // every reference is needed below
        });
    if (!ok) {
      L.diagnose(diagnose_sinusoid<T>(cx, c.d, c.base));
      return false;
    }
    matrix<double> refd(D, c.d), told(D, c.d);  // the screen of the later rows, and their diagnosis
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t col = 0; col < c.d; ++col)
        refd(j, col) = convert<double>(ref(j, col)), told(j, col) = convert<double>(tol(j, col));
    double worst = -1;
    std::size_t wr = 0, wc = 0;
    for (std::size_t r = D; r < n; ++r)
      for (std::size_t col = 0; col < c.d; ++col) {
        const std::size_t j = r % D;
        const double rd = refd(j, col), td = told(j, col);
        const double e = std::abs(double(out(r, col)) - rd);
        if (!(e + 0x1p-52 * std::abs(rd) <= 0.5 * td)) {  // NaN and infinity included
          if (!L.within(ks[i], abs(convert<hp>(out(r, col)) - ref(j, col)), tol(j, col),
                        where(r, col, out(r, col), ref(j, col)), desc)) {
            L.diagnose(rows_outside(out, refd, told, D));
            return false;
          }
          continue;
        }
        if (e / td > worst) worst = e / td, wr = r, wc = col;
      }
    return worst < 0 || L.within(ks[i], abs(convert<hp>(out(wr, wc)) - ref(wr % D, wc)), tol(wr % D, wc),
                                 where(wr, wc, out(wr, wc), ref(wr % D, wc)), desc);
  });
  return L.finish();
}

}  // namespace

std::vector<law_result> sinusoid_laws(const check_run& cx) {
  std::vector<law_result> out;
  out.push_back(law_reference<float>(cx));
  out.push_back(law_linear_shift<float>(cx));
  out.push_back(law_rows<float>(cx));
  if (cx.float_only) return out;
  out.push_back(law_reference<double>(cx));
  out.push_back(law_linear_shift<double>(cx));
  out.push_back(law_rows<double>(cx));
  return out;
}

// the sinusoid laws (laws.h)
const law_group_registrar sinusoid_laws_group(op::sinusoid, 0, [](const check_run& cx, json&, json&) { return sinusoid_laws(cx); });

// the probe of declines.h: every base, positions 0 and 1, d = 4
const probe_registrar sinusoid_declines_probe(op::sinusoid, [](const check_run&, pv_dtype t) {
  return in_dtype(t, [](auto zero) {
    std::vector<call> v;
    for (std::size_t b = 1; b < std::size(bases); ++b) v.push_back(sin_call<decltype(zero)>({4, bases[b], {0, 1}}));
    return v;
  });
});

}  // namespace pv::blackbox
