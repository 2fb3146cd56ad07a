// FLUX.1 section: multi-axis RoPE over (image number, row, column), as in
// ComfyUI comfy/ldm/flux (axes_dim [16, 56, 56], theta 10000).
#include "claims/common.h"

namespace {

using namespace pv;
using namespace pv::claims;

PV_CLAIM("flux.axes", [](const context&) {
  auto r = make("flux.axes",
                "rope_flux<mpfr>() layout: components per axis counted from its pairs, each "
                "axis's block contiguous, and theta recovered from each axis's ladder as "
                "(w_0 / w_1)^(dim/2); compared with the chapter's [16, 56, 56], 10000, 128");
  auto L = rope_flux<hp>();
  std::vector<std::int64_t> dims(L.n_axes, 0);
  std::vector<std::size_t> lo(L.n_axes, L.head_dim), hi(L.n_axes, 0);
  std::vector<std::vector<hp>> speeds(L.n_axes);
  for (const auto& p : L.pairs) {
    dims[p.axis] += 2;
    lo[p.axis] = std::min({lo[p.axis], p.a, p.b});
    hi[p.axis] = std::max({hi[p.axis], p.a, p.b});
    speeds[p.axis].push_back(p.speed);
  }
  bool contiguous = true;
  for (std::size_t a = 0; a < L.n_axes; ++a)
    contiguous = contiguous && hi[a] + 1 - lo[a] == static_cast<std::size_t>(dims[a]);
  hp theta_dev = 0;
  hp theta0 = 0;
  for (std::size_t a = 0; a < L.n_axes; ++a) {
    if (speeds[a].size() < 2) continue;
    hp th = pow(speeds[a][0] / speeds[a][1], hp(static_cast<double>(dims[a])) / 2);
    if (a == 0) theta0 = th;
    theta_dev = std::max(theta_dev, hp(abs(th - 10000) / 10000));
    theta_dev = std::max(theta_dev, hp(abs(speeds[a][0] - 1)));  // ladder starts at 1
  }
  std::int64_t theta = round(theta0).convert_to<std::int64_t>();
  std::int64_t head_dim = static_cast<std::int64_t>(L.head_dim);
  r.values.set("axes_dim", int_vec(dims));
  r.values.set("theta", json::integer(theta));
  r.values.set("head_dim", json::integer(head_dim));
  r.values.set("theta_max_rel_deviation", dec(theta_dev));
  r.values.set("contiguous_blocks", json::boolean(contiguous));
  r.printed.set("axes_dim", json::string("[16, 56, 56]"));
  r.printed.set("theta", json::string("10000"));
  r.printed.set("head_dim", json::string("128"));
  bool ok = dims == std::vector<std::int64_t>{16, 56, 56} && theta == 10000 && head_dim == 128 &&
            contiguous && theta_dev <= 1024 * ref::unit_roundoff();
  if (ok) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "layout axes_dim [" + std::to_string(dims[0]) + ", ...], theta " +
                      std::to_string(theta) + ", head_dim " + std::to_string(head_dim) +
                      ", contiguous " + (contiguous ? "yes" : "no");
  }
  return r;
});

/// Angle of every pair of the layout at position pos, read back from the
/// rotation of (1, 0) in each pair: atan2(x_b, x_a).
std::vector<hp> pair_angles(const rope_layout<hp>& L, const std::vector<double>& pos) {
  std::vector<hp> x(L.head_dim, hp(0));
  for (const auto& p : L.pairs) x[p.a] = 1;
  rope_rotate(L, pos.data(), x.data());
  std::vector<hp> out;
  for (const auto& p : L.pairs) out.push_back(atan2(x[p.b], x[p.a]));
  return out;
}

/// |a - b| wrapped into [0, pi].
hp angle_gap(const hp& a, const hp& b) {
  const hp two_pi = 2 * ref::pi();
  hp d = fmod(abs(a - b), two_pi);
  return d > ref::pi() ? hp(two_pi - d) : d;
}

PV_CLAIM("flux.same-row-col", [](const context&) {
  auto r = make("flux.same-row-col",
                "FLUX layout, a 5 x 7 grid of patches (flux_grid_ids): angles of every pair read "
                "back from the rotated vectors (atan2, mpfr); largest row-group angle gap over "
                "all pairs of cells in the same row, column-group gap over cells in the same "
                "column; and, for contrast, the smallest row-group gap between different rows");
  auto L = rope_flux<hp>();
  const std::size_t H = 5, W = 7;
  auto ids = flux_grid_ids(H, W);
  std::vector<std::vector<hp>> ang;
  for (const auto& p : ids) ang.push_back(pair_angles(L, p));
  auto group_gap = [&](std::size_t i, std::size_t j, std::size_t axis) {
    hp g = 0;
    for (std::size_t k = 0; k < L.pairs.size(); ++k)
      if (L.pairs[k].axis == axis) g = std::max(g, angle_gap(ang[i][k], ang[j][k]));
    return g;
  };
  hp row_same = 0, col_same = 0, row_diff_min = 100, col_diff_min = 100;
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t j = i + 1; j < ids.size(); ++j) {
      bool same_row = ids[i][1] == ids[j][1], same_col = ids[i][2] == ids[j][2];
      hp gr = group_gap(i, j, 1), gc = group_gap(i, j, 2);
      if (same_row) row_same = std::max(row_same, gr);
      else row_diff_min = std::min(row_diff_min, gr);
      if (same_col) col_same = std::max(col_same, gc);
      else col_diff_min = std::min(col_diff_min, gc);
    }
  r.values.set("max_row_group_angle_diff_same_row", dec(row_same));
  r.values.set("max_col_group_angle_diff_same_col", dec(col_same));
  r.values.set("min_row_group_angle_diff_other_rows", dec(row_diff_min));
  r.values.set("min_col_group_angle_diff_other_cols", dec(col_diff_min));
  const hp tol = 16 * ref::unit_roundoff();
  if (row_same <= tol && col_same <= tol && row_diff_min > tol && col_diff_min > tol) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "same-row gap " + fig(row_same) + ", same-column gap " + fig(col_same) +
                      ", different-row gap at least " + fig(row_diff_min);
  }
  return r;
});

/// The dot of rotated q, k split by axis: sum over the pairs of one axis of
/// (q_a k_a + q_b k_b) cos(d w) + (q_b k_a - q_a k_b) sin(d w), d = n - m on that axis.
hp group_closed_form(const rope_layout<hp>& L, const hp* q, const hp* k, std::size_t axis,
                     double delta) {
  hp s = 0;
  for (const auto& pr : L.pairs) {
    if (pr.axis != axis) continue;
    hp a = hp(delta) * pr.speed;
    s += (q[pr.a] * k[pr.a] + q[pr.b] * k[pr.b]) * cos(a) + (q[pr.b] * k[pr.a] - q[pr.a] * k[pr.b]) * sin(a);
  }
  return s;
}

PV_CLAIM("flux.separate-offsets", [](const context&) {
  auto r = make("flux.separate-offsets",
                "FLUX layout, fixed q, k (fixed_tokens salts 8, 9, 128 components), cell pairs "
                "{((0,2,3),(0,5,1)), ((0,10,40),(0,0,63)), ((1,7,7),(0,7,20))}: rope_dot "
                "unchanged when both cells move by 1, 7 or 63 along one axis (max_abs_diff_hp), "
                "and equal to the sum of three per-axis closed forms each in its own offset "
                "(decomposition_residual_hp), in mpfr, against 16 (max coordinate + 1) u "
                "|q|_1 |k|_1; the row and column groups' parts vary with their offsets");
  auto L = rope_flux<hp>();
  auto q = convert_matrix<hp>(fixed_tokens(1, 128, 8)), k = convert_matrix<hp>(fixed_tokens(1, 128, 9));
  hp norm = 0, nk = 0;
  for (std::size_t i = 0; i < 128; ++i) {
    norm += abs(q(0, i));
    nk += abs(k(0, i));
  }
  norm *= nk;
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> cells = {
      {{0, 2, 3}, {0, 5, 1}}, {{0, 10, 40}, {0, 0, 63}}, {{1, 7, 7}, {0, 7, 20}}};
  hp shift_diff = 0, decomposition = 0;
  bool ok = true;
  for (const auto& [m, n] : cells) {
    hp base = rope_dot(L, q.row(0), m.data(), k.row(0), n.data());
    for (std::size_t axis = 0; axis < 3; ++axis)
      for (double s : {1.0, 7.0, 63.0}) {
        auto ms = m, ns = n;
        ms[axis] += s;
        ns[axis] += s;
        hp moved = rope_dot(L, q.row(0), ms.data(), k.row(0), ns.data());
        hp e = abs(moved - base);
        shift_diff = std::max(shift_diff, e);
        ok = ok && e <= 16 * hp(130) * ref::unit_roundoff() * norm;
      }
    hp sum = 0;
    for (std::size_t axis = 0; axis < 3; ++axis)
      sum += group_closed_form(L, q.row(0), k.row(0), axis, n[axis] - m[axis]);
    hp e = abs(base - sum);
    decomposition = std::max(decomposition, e);
    ok = ok && e <= 16 * hp(64) * ref::unit_roundoff() * norm;
  }
  // Each offset stays in the dot: the row group's part at row offsets 0..5
  // and the column group's part at column offsets 0..5 are not constant.
  hp row_var = 0, col_var = 0;
  hp r0 = group_closed_form(L, q.row(0), k.row(0), 1, 0), c0 = group_closed_form(L, q.row(0), k.row(0), 2, 0);
  for (double dlt = 1; dlt <= 5; ++dlt) {
    row_var = std::max(row_var, hp(abs(group_closed_form(L, q.row(0), k.row(0), 1, dlt) - r0)));
    col_var = std::max(col_var, hp(abs(group_closed_form(L, q.row(0), k.row(0), 2, dlt) - c0)));
  }
  r.values.set("max_abs_diff_hp", dec(shift_diff));
  r.values.set("decomposition_residual_hp", dec(decomposition));
  r.values.set("row_part_variation", dec(row_var));
  r.values.set("col_part_variation", dec(col_var));
  const hp visible = hp(1) / 1000;
  if (ok && row_var > visible && col_var > visible) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "shift difference " + fig(shift_diff) + ", decomposition residual " +
                      fig(decomposition) + ", row part varies by " + fig(row_var) +
                      ", column part by " + fig(col_var);
  }
  return r;
});

PV_CLAIM("flux.text-identity", [](const context&) {
  auto r = make("flux.text-identity",
                "FLUX layout, four fixed 128-component vectors (fixed_tokens salt 10) at the text "
                "position (0, 0, 0): max |R x - x| in mpfr and float64, required to be exactly 0 "
                "(cos 0 = 1 and sin 0 = 0 are exact)");
  auto X = fixed_tokens(4, 128, 10);
  std::vector<std::vector<double>> text(4, std::vector<double>{0, 0, 0});
  auto Xh = convert_matrix<hp>(X);
  hp dh = max_abs_diff(rope_apply(rope_flux<hp>(), Xh, text), Xh);
  hp dd = max_abs_diff(rope_apply(rope_flux<double>(), X, text), X);
  r.values.set("max_abs_diff_hp", dec(dh));
  r.values.set("max_abs_diff_f64", dec(dd));
  if (dh == 0 && dd == 0) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "text tokens move: mpfr " + fig(dh) + ", float64 " + fig(dd);
  }
  return r;
});

}  // namespace
