// RoPE and FLUX.1 laws through the C interface (tolerance model: blackbox/rope_model.h);
// each law's id and statement come from its header in src/laws/rope/ or src/laws/flux/.
// Here: the laws of one or a few calls per case, the order in which every law
// of a configuration runs (laws_for), the diagnosis and the declines probe;
// the attention translation law and the row laws have files of their own
// (rope_law_kit.h).
#include "blackbox/diagnose.h"
#include "blackbox/declines.h"
#include "blackbox/laws.h"
#include "blackbox/rope_law_kit.h"
#include "blackbox/rope_scaled_laws.h"
#include "laws/flux/nonsquare_grid.h"
#include "laws/flux/text_identity.h"
#include "laws/rope/identity_at_zero.h"
#include "laws/rope/norm_preservation.h"
#include "laws/rope/reference.h"

#include <algorithm>
#include <cmath>

namespace pv::blackbox {
namespace {

using rope_kit::check_rows_vs_ref;
using rope_kit::coord;
using rope_kit::law_attention_translation;
using rope_kit::law_composition;
using rope_kit::law_name;
using rope_kit::law_per_axis_shift;
using rope_kit::law_same_row_col;
using rope_kit::law_shift_invariance;
using rope_kit::law_model_grid;
using rope_kit::law_rows;
using rope_kit::random_heads;
using rope_kit::simple_law;

/// The speeds the kernel turns by, read from one probe per axis (identity
/// rows at position 1 on that axis); on a failed probe, the requested ones.
template <class T>
kernel_speeds measure_speeds(const check_run& cx, const rope_cfg& rc) {
  const std::size_t d = std::size_t(rc.c.head_dim), na = std::size_t(rc.c.n_axes);
  kernel_speeds ks;
  ks.w.assign(na, std::vector<double>(d, 0.0));
  ks.partner.resize(d);
  ladder_roundings(reference_layout(rc.c), rc.c, ks);
  std::vector<call> calls;
  for (std::size_t a = 0; a < na; ++a) {
    std::vector<double> e(na, 0.0);
    e[a] = 1;
    calls.push_back(rope_probe(rc, dtype_of<T>(), e));
  }
  // counting the laws (unit_plan::count_only) calls no kernel: the requested speeds
  const auto res = cx.units->count_only ? std::vector<result>{} : run_batch(cx.lib, calls, cx.ro);
  bool ok = !res.empty();
  for (const auto& r : res) ok = ok && r.st == status::ok;
  if (!ok) {
    const auto L = reference_layout(rc.c);
    for (const auto& p : L.pairs) {
      ks.w[p.axis][p.a] = ks.w[p.axis][p.b] = convert<double>(p.speed);
      ks.partner[p.a] = p.b;
      ks.partner[p.b] = p.a;
    }
    return ks;
  }
  ks.measured = true;
  std::vector<double> best(d, 0.0);
  for (std::size_t c = 0; c < d; ++c) ks.partner[c] = c;
  for (std::size_t a = 0; a < na; ++a) {
    auto M = probe_rows(res[a], dtype_of<T>(), d);
    for (std::size_t c = 0; c < d; ++c) {
      double off = 0;
      for (std::size_t j = 0; j < d; ++j)
        if (j != c) {
          off += M[c][j] * M[c][j];
          if (std::abs(M[c][j]) > best[c]) {
            best[c] = std::abs(M[c][j]);
            ks.partner[c] = j;
          }
        }
      ks.w[a][c] = std::atan2(std::sqrt(off), M[c][c]);
    }
  }
  return ks;
}

template <class T>
void laws_for(const check_run& cx, const rope_cfg& rc, std::vector<law_result>& out) {
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  const long P = position_limit(cx, rc);
  const bool flux = na > 1;
  const kernel_speeds speeds = measure_speeds<T>(cx, rc);  // for the rotation laws
  const bool tempered = rope_tempered(rc);  // YaRN: R(m) is a times a rotation (rope_scaled_laws.h)
  const rope_units units = rope_law_units<T>(cx);
  // agreement with the reference
  out.push_back(simple_law<T>(
      cx, rc, laws::rope_reference::id, laws::rope_reference::statement(),
      pv_rope_config_version(&rc.c) >= 3 ? scaled_model_rule() : model_rule(), nullptr,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        const std::size_t n = std::size_t(g.range(1, 4));
        x = random_heads<T>(g, n, d);
        pos.resize(n * na);
        for (auto& p : pos) p = coord(g, P);
      },
      [&](law_run& Lr, int k, const matrix<T>&, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        return check_rows_vs_ref(Lr, k, R, "", desc);
      },
      /*diagnose=*/true));
  // every row of a large batch, across tile boundaries
  out.push_back(law_rows<T>(cx, rc));
  // identity at position 0 (FLUX: text tokens have ids (0, 0, 0))
  if (!tempered) out.push_back(simple_law<T>(
      cx, rc,
      flux ? law_name{laws::text_identity::id, laws::text_identity::check_case_stream}
           : law_name{laws::identity_at_zero::id},
      flux ? laws::text_identity::check_statement() : laws::identity_at_zero::statement(),
      "|R(0)x - x| <= (|x_c| + |x_c'|) e_rot + f per component, c' the component c turns into "
      "(measured) (cos 0 and sin 0, the rotation's products and sum): " + rotation_rounding_rule(),
      &speeds,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        const std::size_t n = std::size_t(g.range(1, 4));
        x = random_heads<T>(g, n, d);
        pos.assign(n * na, 0.0);
      },
      [&](law_run& Lr, int k, const matrix<T>& x, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        for (std::size_t i = 0; i < x.rows; ++i)
          for (std::size_t c = 0; c < x.cols; ++c)
            if (!Lr.within_fast(k, std::fabs(double(R.y(i, c)) - double(x(i, c))) * (1 + 0x1p-40),
                                rope_tolerance_fast::lower(R.tol_d(i, c)),
                                [&] {
                                  return std::pair<hp, hp>(abs(convert<hp>(R.y(i, c)) - convert<hp>(x(i, c))),
                                                           R.tol(i, c));
                                },
                                [&] {
                                  return "row " + std::to_string(i) + " component " + std::to_string(c) +
                                         ": got " + to_decimal(R.y(i, c)) + ", input " + to_decimal(x(i, c));
                                },
                                desc))
              return false;
        return true;
      }));
  // norm preservation
  if (!tempered) out.push_back(simple_law<T>(
      cx, rc, laws::norm_preservation::id, laws::norm_preservation::statement(),
      "| |R(m)x| - |x| | <= sqrt(sum_c e_c^2), e_c = (|x_c| + |x_c'|) e_rot + f, c' the component c "
      "turns into (measured) (a rotation by any angle keeps the norm, so only cos/sin and the "
      "rotation's own roundings count, whatever the speeds): " + rotation_rounding_rule(),
      &speeds,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        const std::size_t n = std::size_t(g.range(1, 4));
        x = random_heads<T>(g, n, d);
        pos.resize(n * na);
        for (auto& p : pos) p = coord(g, P);
      },
      [&](law_run& Lr, int k, const matrix<T>& x, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        const hp e_rot = rotation_rounding(units), floor = rotation_floor(units);
        for (std::size_t i = 0; i < x.rows; ++i) {
          hp n0 = 0, n1 = 0, e2 = 0;
          for (std::size_t c = 0; c < x.cols; ++c) {
            n0 += convert<hp>(x(i, c)) * convert<hp>(x(i, c));
            n1 += convert<hp>(R.y(i, c)) * convert<hp>(R.y(i, c));
            hp e = (abs(convert<hp>(x(i, c))) + abs(convert<hp>(x(i, speeds.partner[c])))) * e_rot + floor;
            e2 += e * e;
          }
          if (!Lr.within(k, abs(sqrt(n1) - sqrt(n0)), sqrt(e2),
                         "row " + std::to_string(i) + ": |R(m)x| = " + ref::to_decimal(sqrt(n1), 20) +
                             ", |x| = " + ref::to_decimal(sqrt(n0), 20),
                         desc))
            return false;
        }
        return true;
      }));
  out.push_back(law_shift_invariance<T>(cx, rc, speeds));
  if (!tempered) out.push_back(law_composition<T>(cx, rc, speeds));
  out.push_back(law_attention_translation<T>(cx, rc, speeds));
  if (!flux) return;
  out.push_back(law_per_axis_shift<T>(cx, rc, speeds));
  out.push_back(law_same_row_col<T>(cx, rc, speeds));
  out.push_back(simple_law<T>(
      cx, rc, {laws::nonsquare_grid::id, laws::nonsquare_grid::check_case_stream},
      laws::nonsquare_grid::statement(),
      model_rule(), nullptr,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        std::size_t H = std::size_t(g.range(1, 12)), W = std::size_t(g.range(1, 12));
        if (H == W) W = H + 1 + std::size_t(g.range(0, 3));
        const std::size_t text = std::size_t(g.range(0, 3));  // text tokens ahead, as FLUX.1 orders them
        x = random_heads<T>(g, text + H * W, d);
        pos = grid_positions(text, H, W, na);
      },
      [&](law_run& Lr, int k, const matrix<T>&, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        return check_rows_vs_ref(Lr, k, R, "grid patch", desc);
      },
      /*diagnose=*/true));
  // profile `models` (the model-size cases, like attention.shapes' FLUX head):
  // about 3 s per dtype; its rows and columns reach 63
  if (cx.profile == "models" && P >= 63) out.push_back(law_model_grid<T>(cx, rc));
}


/// Advice is verified before it is given: a diagnosis saying that the kernel
/// reads dynamic NTK's length from the positions (diagnose_scaled.cpp) is
/// followed by every law of the configuration run again as if the kernel
/// declared so (the same seed and cases, every case, nothing printed); the
/// declaration is advised only when none of them fails.
std::string recheck_length_from_positions(const check_run& cx, const rope_cfg& rc) {
  check_run c = recheck_of(cx);
  c.lib.rope_caps |= PV_ROPE_LENGTH_FROM_POSITIONS;
  std::vector<law_result> rs;
  laws_for<float>(c, rc, rs);
  if (!c.float_only) laws_for<double>(c, rc, rs);
  rope_scaled_laws(c, rc, rs);
  for (const auto& r : rs)
    if (r.verdict == verdict::failed)
      return "; rechecked every law of " + rc.name + " as if it declared so: " + r.id +
             " still fails, so no declaration is advised";
  return "; rechecked every law of " + rc.name + " as if it declared so: none fails. If the kernel is meant to "
         "compute so, declare PV_ROPE_LENGTH_FROM_POSITIONS in rope_caps (a Python kernel: \"length_from_positions\" "
         "in Kernel.rope_caps)";
}

}  // namespace

std::vector<law_result> rope_laws(const check_run& cx, json& sweep, json& diagnosis) {
  std::vector<law_result> out;
  sweep = json::array();
  diagnosis = json::array();
  for (const auto& rc : rope_configs_of(cx)) {
    check_run gcx = cx;  // one unit: the configuration's laws, sweep and diagnosis (posverify/shard.h)
    gcx.group = cx.units->take();
    // a configuration of another shard is skipped; counting enumerates its laws (none runs)
    if (!cx.units->mine(gcx.group) && !cx.units->count_only) continue;
    std::size_t before = out.size();
    laws_for<float>(gcx, rc, out);
    if (!cx.float_only) laws_for<double>(gcx, rc, out);
    rope_scaled_laws(gcx, rc, out);
    bool diagnose = false, any_ran = false;
    for (std::size_t i = before; i < out.size(); ++i) {
      if (out[i].verdict == verdict::passed || out[i].verdict == verdict::failed) any_ran = true;
      if (out[i].diagnose && out[i].verdict == verdict::failed) diagnose = true;
    }
    if (cx.only_case < 0 && any_ran && cx.wire == PV_F32) {  // 16-bit runs: the laws only
      if (cx.only_law.empty()) {  // multi-axis: the same position on every axis
        sweep.push(sweep_for<float>(cx, rc));
        sweep.push(sweep_for<double>(cx, rc));
        cx.units->sweep_units.insert(cx.units->sweep_units.end(), 2, gcx.group);
      }
      if (diagnose) {
        json dg = diagnose_rope(cx, rc);
        if (const json* a = dg.find("advice"); a && a->as_string() == "length_from_positions")
          dg.set("message", json::string(dg.find("message")->as_string() + recheck_length_from_positions(cx, rc)));
        diagnosis.push(dg);
        cx.units->diagnosis_units.push_back(gcx.group);
        if (const json* m = dg.find("message"))
          for (std::size_t i = before; i < out.size(); ++i)
            if (out[i].verdict == verdict::failed && out[i].diagnose)
              out[i].extra.set("diagnosis", *m);
      }
    }
    cx.units->finished();
  }
  return out;
}

// the RoPE laws, their sweep and diagnoses (laws.h)
const law_group_registrar rope_laws_group(op::rope, 0, rope_laws);

// the probe of declines.h: every configuration of the run, two rows at
// positions 0 and 1 on every axis
const probe_registrar rope_declines_probe(op::rope, [](const check_run& cx, pv_dtype t) {
  return in_dtype(t, [&](auto zero) {
    std::vector<call> v;
    for (const auto& rc : rope_configs_of(cx)) {
      const std::size_t na = std::size_t(rc.c.n_axes);
      std::vector<double> pos(2 * na, 0.0);
      for (std::size_t a = 0; a < na; ++a) pos[na + a] = 1;
      v.push_back(rope_call(rc.c, probe_matrix<decltype(zero)>(2, std::size_t(rc.c.head_dim)), pos));
    }
    return v;
  });
});

}  // namespace pv::blackbox
