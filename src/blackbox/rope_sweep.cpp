// The RoPE position sweep of `posverify check` (split out of rope_laws.cpp).
#include "blackbox/rope_rotated.h"
#include "laws/rope/sweep.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace pv::blackbox {

/// Sweep: the error of positions 2^j and 2^j + 1 (j = 0 .. 20) against the
/// model's tolerance there and at --max-position.
template <class T>
json sweep_for(const check_run& cx, const rope_cfg& rc) {
  const auto L = reference_layout(rc.c);
  const std::size_t d = std::size_t(rc.c.head_dim), na = std::size_t(rc.c.n_axes);
  std::vector<double> ms;
  for (int j = 0; j <= 20; ++j) {
    ms.push_back(std::ldexp(1.0, j));
    if (j >= 1) ms.push_back(std::ldexp(1.0, j) + 1);
  }
  std::sort(ms.begin(), ms.end());
  // a kernel reading dynamic NTK's length from the positions: none past the call's length
  if (sandbox::length_from_positions(cx.lib, rc.c))
    ms.erase(std::upper_bound(ms.begin(), ms.end(), double(position_limit(cx, rc))), ms.end());
  rng g = case_rng(cx.seed, std::string(laws::rope_sweep::id) + "/" + rc.name, 0);
  auto x1 = random_matrix<T>(g, 1, d, 1.0);
  matrix<T> x(ms.size(), d);
  std::vector<double> pos(ms.size() * na, 0.0);
  for (std::size_t i = 0; i < ms.size(); ++i) {
    for (std::size_t c = 0; c < d; ++c) x(i, c) = x1(0, c);
    for (std::size_t a = 0; a < na; ++a) pos[i * na + a] = ms[i];
  }
  auto res = run_batch(cx.lib, {rope_call(rc.c, x, pos)}, cx.ro);
  json j = json::object();
  j.set("config", json::string(rc.name));
  j.set("dtype", json::string(type_name<T>()));
  if (res[0].st != status::ok) {
    j.set("status", json::string(std::string(to_string(res[0].st)) +
                                 (res[0].detail.empty() ? "" : ": " + res[0].detail)));
    return j;
  }
  const rope_units u = rope_law_units<T>(cx);
  const rope_evaluator<T> evaluate(L, rc, u);
  auto R = evaluate(x, pos, res[0].out);
  json rows = json::array();
  std::string first_model, first_maxpos;
  std::vector<double> Pv(na, double(position_limit(cx, rc)));
  auto tP = component_tolerance<T>(L, rc.c, Pv.data(), x.row(0), u);
  for (std::size_t i = 0; i < ms.size(); ++i) {
    hp worst = 0, r_here = 0, r_max = 0;
    for (std::size_t c = 0; c < d; ++c) {
      hp e = abs(convert<hp>(R.y(i, c)) - R.ref(i, c));
      worst = hmax(worst, e);
      if (R.tol(i, c) > 0) r_here = hmax(r_here, hp(e / R.tol(i, c)));
      if (tP[c] > 0) r_max = hmax(r_max, hp(e / tP[c]));
    }
    json r = json::object();
    r.set("position", json::number(to_decimal(ms[i])));
    r.set("max_error", json::number(ref::to_decimal(worst, 6)));
    r.set("error_over_tolerance", json::number(ref::to_decimal(r_here, 4)));
    r.set("error_over_tolerance_at_max_position", json::number(ref::to_decimal(r_max, 4)));
    r.set("within_model", json::boolean(r_here <= 1));
    if (first_model.empty() && r_here > 1) first_model = to_decimal(ms[i]);
    if (first_maxpos.empty() && r_max > 1) first_maxpos = to_decimal(ms[i]);
    rows.push(r);
  }
  j.set("rows", rows);
  j.set("first_position_beyond_model", first_model.empty() ? json() : json::number(first_model));
  j.set("first_position_beyond_max_position_tolerance",
        first_maxpos.empty() ? json() : json::number(first_maxpos));
  return j;
}

template json sweep_for<float>(const check_run& cx, const rope_cfg& rc);
template json sweep_for<double>(const check_run& cx, const rope_cfg& rc);

}  // namespace pv::blackbox
