// Laws of partial rotary, YaRN's temperature and dynamic NTK (see the header).
#include "blackbox/rope_scaled_laws.h"

#include "blackbox/rope_model.h"
#include "blackbox/rope_rotated.h"
#include "laws/rope/dynamic_ntk_length_dependence.h"
#include "laws/rope/partial_pass_through.h"
#include "laws/rope/yarn_temperature.h"
#include "sandbox/half_formats.h"

#include <cmath>
#include <cstring>
#include <type_traits>

namespace pv::blackbox {
namespace {

/// Random head rows (entries in [-s, s], s = 10^U(-1, 1)) and positions in [0, P] per axis.
template <class T>
void draw_rows(rng& g, const rope_cfg& rc, long P, std::size_t n, matrix<T>& x, std::vector<double>& pos) {
  x = random_matrix<T>(g, n, std::size_t(rc.c.head_dim), std::pow(10.0, g.real(-1, 1)));
  pos.resize(n * std::size_t(rc.c.n_axes));
  for (auto& p : pos) p = double(g.uniform() < 0.3 ? g.range(0, std::min(64L, P)) : g.range(0, P));
}

/// Partial rotary: the components outside the rotated block come back bit for bit.
template <class T>
law_result law_pass_through(const check_run& cx, const rope_cfg& rc) {
  const std::size_t D = std::size_t(rc.c.head_dim), R = rotary_dim(rc.c);
  namespace law = laws::partial_pass_through;
  law_run Lr(cx, law::id, type_name<T>(), rc.name, law::statement(R, D, std::size_t(rc.c.rotary_offset)),
             law::tolerance_rule());
  if (!Lr.selected()) return Lr.finish();
  auto ks = Lr.case_indices();
  std::vector<matrix<T>> xs;
  std::vector<std::vector<double>> ps;
  draw_rope_cases<T>(Lr, ks, {&rc.c}, [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
    draw_rows<T>(g, rc, position_limit(cx, rc), std::size_t(g.range(1, 4)), x, pos);
  }, xs, ps);
  Lr.run();
  // the input as sent (law_run::run rounds the float32 law's buffers to a 16-bit wire), and
  // as a kernel holding it in a declared storage format has it
  const bool wire = cx.wire != PV_F32 && std::is_same_v<T, float>, stored = rope_law_units<T>(cx).stored;
  const accuracy_class wf = parse_accuracy(!wire ? "" : sandbox::dtype_name(cx.wire));
  Lr.each_case(ks, 1, [&](std::size_t i) { return describe_rows(rc, xs[i], ps[i]); },
               [&](std::size_t i, const describer& desc) {
                 auto y = from_bytes<T>(Lr.results()[i].out, xs[i].rows, xs[i].cols);
                 for (std::size_t r = 0; r < y.rows; ++r)
                   for (std::size_t c = 0; c < D; ++c) {
                     if (rotated_component(rc.c, c)) continue;
                     const T x = xs[i](r, c), sent = wire ? T(round_to_format(double(x), wf)) : x,
                             held = stored ? T(round_to_format(double(sent), cx.accuracy)) : sent;
                     if (std::memcmp(&y(r, c), &sent, sizeof(T)) && std::memcmp(&y(r, c), &held, sizeof(T))) {
                       Lr.fail(ks[i], "row " + std::to_string(r) + " pass-through component " + std::to_string(c) +
                                          ": got " + to_decimal(y(r, c)) + ", input " + to_decimal(x) +
                                          (wire ? ", as sent (" + wf.name + ") " + to_decimal(sent) : std::string()) +
                                          (stored ? ", held in " + cx.accuracy.name + " " + to_decimal(held)
                                                  : std::string()),
                               desc);
                       return false;
                     }
                   }
                 return true;
               });
  return Lr.finish();
}

/// YaRN: q and k at the same position score a^2 q.k (the rotations cancel, the factor a stays).
template <class T>
law_result law_temperature(const check_run& cx, const rope_cfg& rc) {
  const hp a = rope_temperature<hp>(scaling_of(rc.c));
  law_run Lr(cx, laws::yarn_temperature::id, type_name<T>(), rc.name,
             laws::yarn_temperature::statement(ref::to_decimal(a, 17)),
             "|q'.k' - a^2 q.k| <= sum_c |k'_c| t_q,c + (|q'_c| + t_q,c) t_k,c (dots exact in MPFR from "
             "the returned rows), t the reference tolerance: " + scaled_model_rule());
  if (!Lr.selected()) return Lr.finish();
  const auto L = reference_layout(rc.c);
  const std::size_t na = std::size_t(rc.c.n_axes);
  auto ks = Lr.case_indices();
  std::vector<matrix<T>> xs;
  std::vector<std::vector<double>> ps;
  draw_rope_cases<T>(Lr, ks, {&rc.c}, [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
    draw_rows<T>(g, rc, position_limit(cx, rc), 2, x, pos);
    for (std::size_t ax = 0; ax < na; ++ax) pos[na + ax] = pos[ax];  // k at q's position
  }, xs, ps);
  Lr.run();
  const rope_units u = rope_law_units<T>(cx);
  Lr.each_case(ks, 1, [&](std::size_t i) { return describe_rows(rc, xs[i], ps[i]); },
               [&](std::size_t i, const describer& desc) {
                 auto y = from_bytes<T>(Lr.results()[i].out, 2, xs[i].cols);
                 auto t0 = component_tolerance<T>(L, rc.c, ps[i].data(), xs[i].row(0), u);
                 auto t1 = component_tolerance<T>(L, rc.c, ps[i].data() + na, xs[i].row(1), u);
                 hp dot, bound, qk = 0;
                 dot_within(y, 0, 1, t0.data(), t1.data(), dot, bound);
                 for (std::size_t c = 0; c < xs[i].cols; ++c) {
                   const bool rotated = rotated_component(rc.c, c);  // pass-through components are not scaled
                   qk += convert<hp>(xs[i](0, c)) * convert<hp>(xs[i](1, c)) * (rotated ? hp(a * a) : hp(1));
                 }
                 return Lr.within(ks[i], abs(dot - qk), bound,
                                  "q'.k' = " + ref::to_decimal(dot, 20) + ", a^2 q.k = " + ref::to_decimal(qk, 20), desc);
               });
  return Lr.finish();
}

/// Dynamic NTK: the same q, k at the same positions, at the original length L0 (plain speeds)
/// and at the configured length L; each call must follow its reference, and the figures
/// record how much q.k at a fixed distance moves with the length (the configuration's own
/// break of the relative-position law across lengths, not a fault of the kernel).
template <class T>
law_result law_length_dependence(const check_run& cx, const rope_cfg& rc) {
  pv_rope_config c0 = rc.c;
  c0.scaling.length = c0.scaling.original_length;
  law_run Lr(cx, laws::dynamic_ntk_length_dependence::id, type_name<T>(), rc.name,
             laws::dynamic_ntk_length_dependence::statement(to_decimal(rc.c.scaling.length),
                                                            to_decimal(rc.c.scaling.original_length)),
             "per call |q'.k' - exact| <= sum_c |k'_c| t_q,c + (|q'_c| + t_q,c) t_k,c, t the reference "
             "tolerance: " + scaled_model_rule());
  if (!Lr.selected()) return Lr.finish();
  const auto L1 = reference_layout(rc.c), L0 = reference_layout(c0);
  const std::size_t na = std::size_t(rc.c.n_axes);
  // (below both calls' lengths when the kernel reads them from the positions: sandbox/length_model.h)
  const long P = std::max(1L, std::min({position_limit(cx, c0), position_limit(cx, rc),
                                        long(std::min(cx.max_position, rc.c.scaling.original_length - 1))}));
  auto ks = Lr.case_indices();
  std::vector<matrix<T>> xs;
  std::vector<std::vector<double>> ps;
  // each case calls at L, then at L0: a kernel whose length outlives its call
  // (a cache that is not reset) fails the replay of one case too
  draw_rope_cases<T>(Lr, ks, {&rc.c, &c0}, [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
    draw_rows<T>(g, rc, P, 2, x, pos);
  }, xs, ps);
  Lr.run();
  const rope_units u = rope_law_units<T>(cx);
  hp max_change = 0;
  std::string where;
  Lr.each_case(ks, 2, [&](std::size_t i) { return describe_rows(rc, xs[i], ps[i]); },
               [&](std::size_t i, const describer& desc) {
                 hp exact[2];
                 for (int side = 0; side < 2; ++side) {
                   const auto& L = side ? L1 : L0;
                   const pv_rope_config& cfg = side ? rc.c : c0;
                   auto y = from_bytes<T>(Lr.results()[2 * i + std::size_t(side ? 0 : 1)].out, 2, xs[i].cols);
                   auto t0 = component_tolerance<T>(L, cfg, ps[i].data(), xs[i].row(0), u);
                   auto t1 = component_tolerance<T>(L, cfg, ps[i].data() + na, xs[i].row(1), u);
                   auto ref = convert_matrix<hp>(xs[i]);
                   rope_rotate(L, ps[i].data(), ref.row(0));
                   rope_rotate(L, ps[i].data() + na, ref.row(1));
                   exact[side] = dot(ref.row(0), ref.row(1), ref.cols);
                   hp got, bound;
                   dot_within(y, 0, 1, t0.data(), t1.data(), got, bound);
                   if (!Lr.within(ks[i], abs(got - exact[side]), bound,
                                  std::string(side ? "at L" : "at L0") + ": q'.k' = " + ref::to_decimal(got, 20) +
                                      ", reference " + ref::to_decimal(exact[side], 20),
                                  desc)) {
                     if (side == 0) {  // wrong at L0: is it L's value (L's base kept below L0)?
                       auto at_L = convert_matrix<hp>(xs[i]);
                       rope_rotate(L1, ps[i].data(), at_L.row(0));
                       rope_rotate(L1, ps[i].data() + na, at_L.row(1));
                       auto t0L = component_tolerance<T>(L1, rc.c, ps[i].data(), xs[i].row(0), u);
                       auto t1L = component_tolerance<T>(L1, rc.c, ps[i].data() + na, xs[i].row(1), u);
                       hp gotL, boundL;
                       dot_within(y, 0, 1, t0L.data(), t1L.data(), gotL, boundL);
                       if (abs(gotL - dot(at_L.row(0), at_L.row(1), at_L.cols)) <= boundL)
                         Lr.diagnose("at L0 = " + to_decimal(c0.scaling.length) + " it gives the value of L = " +
                                     to_decimal(rc.c.scaling.length) + ": it turns by L's base below L0 too" +
                                     (sandbox::length_from_positions(cx.lib, rc.c)
                                          ? " (it reads the length from the positions: a cache of the longest "
                                            "length that a call shorter than L0 does not reset)"
                                          : ""));
                     }
                     return false;
                   }
                 }
                 hp n0 = 0, n1 = 0;
                 for (std::size_t c = 0; c < xs[i].cols; ++c) {
                   n0 += convert<hp>(xs[i](0, c)) * convert<hp>(xs[i](0, c));
                   n1 += convert<hp>(xs[i](1, c)) * convert<hp>(xs[i](1, c));
                 }
                 const hp change = abs(exact[1] - exact[0]) / sqrt(n0 * n1);
                 if (change > max_change) {
                   max_change = change;
                   where = "case " + std::to_string(ks[i]) + ", positions " + positions_text(ps[i], na);
                 }
                 return true;
               });
  auto r = Lr.finish();
  json f = json::object();
  f.set("original_length", json::number(to_decimal(rc.c.scaling.original_length)));
  f.set("length", json::number(to_decimal(rc.c.scaling.length)));
  f.set("max_change_of_qk_over_norms", json::number(ref::to_decimal(max_change, 6)));
  f.set("where", json::string(where));
  r.extra.set("length_dependence", f);
  return r;
}

template <class T>
void laws_of(const check_run& cx, const rope_cfg& rc, std::vector<law_result>& out) {
  if (rotary_dim(rc.c) < std::size_t(rc.c.head_dim)) out.push_back(law_pass_through<T>(cx, rc));
  if (rc.c.scaling.kind == PV_SCALE_YARN) out.push_back(law_temperature<T>(cx, rc));
  if (rc.c.scaling.kind == PV_SCALE_DYNAMIC_NTK) out.push_back(law_length_dependence<T>(cx, rc));
}

}  // namespace

void rope_scaled_laws(const check_run& cx, const rope_cfg& rc, std::vector<law_result>& out) {
  if (pv_rope_config_version(&rc.c) < 3) return;
  laws_of<float>(cx, rc, out);
  if (!cx.float_only) laws_of<double>(cx, rc, out);
}

}  // namespace pv::blackbox
