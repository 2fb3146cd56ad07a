// The sinusoid laws of `posverify check`, through the C interface: how each
// draws its cases, calls the kernel and reports a compared entry. The laws are
// laws/sinusoid/reference.h and laws/sinusoid/linear_shift.h. Their per-entry
// tolerance t counts the kernel's speed w_i = base^(-2i/d) within eps_w(i) =
// max(eps_direct, eps_ladder(i)) of the speed model shared with RoPE
// (rope_model.h, speed_error).
#include "blackbox/rope_model.h"
#include "blackbox/law_run.h"
#include "blackbox/laws.h"
#include "laws/sinusoid/linear_shift.h"
#include "laws/sinusoid/reference.h"
#include "numerics/sinusoid.h"

#include <cmath>

namespace pv::blackbox {
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
    return ok;
  });
  return L.finish();
}

}  // namespace

std::vector<law_result> sinusoid_laws(const check_run& cx) {
  std::vector<law_result> out;
  out.push_back(law_reference<float>(cx));
  out.push_back(law_linear_shift<float>(cx));
  if (cx.float_only) return out;
  out.push_back(law_reference<double>(cx));
  out.push_back(law_linear_shift<double>(cx));
  return out;
}

// the sinusoid laws (laws.h)
const law_group_registrar sinusoid_laws_group(op::sinusoid, 0, [](const check_run& cx, json&, json&) { return sinusoid_laws(cx); });

}  // namespace pv::blackbox
