// FLUX.1 section: multi-axis RoPE over (image number, row, column), as in
// ComfyUI comfy/ldm/flux (axes_dim [16, 56, 56], theta 10000).
#include "claims/common.h"
#include "claims/flux_printed.h"

namespace {

using namespace pv;
using namespace pv::claims;

/// The chapter's split of the 128 components: image number, row, column.
const std::vector<std::int64_t> chapter_axes_dim(printed_numbers::flux_axes.axes_dim.begin(),
                                                 printed_numbers::flux_axes.axes_dim.end());

/// "[16, 56, 56]".
std::string list(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// Start of the chapter's block of axis `a` (0, 16, 72).
std::size_t chapter_block_start(std::size_t a) {
  std::size_t s = 0;
  for (std::size_t i = 0; i < a; ++i) s += static_cast<std::size_t>(chapter_axes_dim[i]);
  return s;
}

PV_CLAIM("flux.axes", [](const claim_context&) {
  const auto& P = printed_numbers::flux_axes;
  auto r = make("flux.axes",
                "rope_flux<mpfr>() measured from outside: the vector (1, 0, 1, 0, ...) rotated "
                "at position 1 along one axis at a time (the other two 0) and at (0, 0, 0); "
                "per axis the adjacent pairs (2i, 2i+1) that turn, their block, and theta "
                "recovered from the block's first two angles as (w_0 / w_1)^(dim/2); compared "
                "with the chapter's " + list(chapter_axes_dim) + " in the order image, row, column, " +
                    std::to_string(P.theta) + " and " + std::to_string(P.head_dim) +
                    ", and identity at the text position (0, 0, 0)");
  auto L = rope_flux<hp>();
  const std::size_t D = L.head_dim;
  std::vector<hp> e(D, hp(0));
  for (std::size_t j = 0; j < D; j += 2) e[j] = 1;
  auto angles_at = [&](const std::vector<double>& pos) {
    std::vector<hp> x = e;
    rope_rotate(L, pos.data(), x.data());
    std::vector<hp> a;
    for (std::size_t j = 0; j + 1 < D; j += 2) a.push_back(atan2(x[j + 1], x[j]));
    return a;
  };
  // The angle 1 * w_0 read back through cos, sin (2u absolute each, MPFR),
  // the rotation (gamma_2) and atan2 (u relative): about 6 u.
  const hp start_tol = ref_tolerance(r, "ladder_start", 16, tol_kind::declared_slack,
                                     "the first angle read back by atan2 after one rotation "
                                     "carries about 6 u; 16 u is a margin over that estimate");
  const std::size_t n_axes = 3;
  std::vector<std::int64_t> dims(n_axes, 0);
  std::vector<std::int64_t> lo(n_axes, -1), hi(n_axes, -1);
  hp theta_dev = 0, theta0 = 0;
  bool contiguous = true, ladder_starts_at_1 = true;
  for (std::size_t a = 0; a < n_axes; ++a) {
    std::vector<double> pos(n_axes, 0.0);
    pos[a] = 1;
    const auto ang = angles_at(pos);
    std::vector<hp> w;
    for (std::size_t i = 0; i < ang.size(); ++i)
      if (ang[i] != 0) {
        const auto j = static_cast<std::int64_t>(2 * i);
        if (lo[a] < 0) lo[a] = j;
        else contiguous = contiguous && j == hi[a] + 1;
        hi[a] = j + 1;
        dims[a] += 2;
        w.push_back(ang[i]);
      }
    if (w.size() >= 2) {
      hp th = pow(w[0] / w[1], hp(static_cast<double>(dims[a])) / 2);
      if (a == 0) theta0 = th;
      theta_dev = std::max(theta_dev, hp(abs(th - P.theta) / P.theta));
      ladder_starts_at_1 = ladder_starts_at_1 && abs(w[0] - 1) <= start_tol;
    }
  }
  std::vector<hp> at_text = angles_at({0, 0, 0});
  bool text_identity = true;
  for (const auto& a : at_text) text_identity = text_identity && a == 0;
  bool blocks_in_order = true;
  for (std::size_t a = 0; a < n_axes; ++a)
    blocks_in_order = blocks_in_order && lo[a] == static_cast<std::int64_t>(chapter_block_start(a));
  std::int64_t theta = round(theta0).convert_to<std::int64_t>();
  std::int64_t head_dim = static_cast<std::int64_t>(D);
  r.values.set("axes_dim", int_vec(dims));
  r.values.set("block_start", int_vec(lo));
  r.values.set("theta", json::integer(theta));
  r.values.set("head_dim", json::integer(head_dim));
  r.values.set("theta_max_rel_deviation", dec(theta_dev));
  r.values.set("contiguous_blocks", json::boolean(contiguous));
  r.values.set("text_position_identity", json::boolean(text_identity));
  r.printed.set("axes_dim", json::string(list(chapter_axes_dim)));
  r.printed.set("theta", json::string(std::to_string(P.theta)));
  r.printed.set("head_dim", json::string(std::to_string(P.head_dim)));
  const hp theta_tol = ref_tolerance(
      r, "theta_rel", 1024, tol_kind::declared_slack,
      "each angle read back by atan2 carries about 6 u relative; the ratio of two raised to "
      "dim/2 <= 28 multiplies 12 u by at most 28 (336 u); 1024 u is a margin of 3 over that");
  bool ok = dims == chapter_axes_dim && theta == P.theta && head_dim == P.head_dim && contiguous &&
            blocks_in_order && text_identity && ladder_starts_at_1 && theta_dev <= theta_tol;
  if (ok) {
    // What is checked is posverify's FLUX layout against the chapter; FLUX.1's
    // own code is not run here, so the verdict says so.
    r.result = verdict::holds_qualified;
    r.qualification = "posverify's FLUX RoPE, measured by rotation, turns blocks of " +
                      list(dims) + " components starting at " + list(lo) +
                      " by image number, row and column, theta " + std::to_string(theta) +
                      ", head dim " + std::to_string(head_dim) +
                      ", and leaves (0, 0, 0) unrotated; that FLUX.1 itself uses this split is "
                      "taken from ComfyUI's comfy/ldm/flux, whose code is not run here";
    r.summary = "posverify's FLUX RoPE turns blocks of " + list(dims) +
                " components as the chapter says; that FLUX.1 itself does so is taken from "
                "ComfyUI's code, not run here";
  } else {
    r.result = verdict::fails;
    r.qualification = "measured blocks " + list(dims) + " starting at " + list(lo) + " (chapter " +
                      list(chapter_axes_dim) + " from [0, 16, 72]), theta " +
                      std::to_string(theta) + ", head_dim " + std::to_string(head_dim) +
                      ", contiguous " + (contiguous ? "yes" : "no") + ", identity at (0, 0, 0) " +
                      (text_identity ? "yes" : "no");
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

PV_CLAIM("flux.same-row-col", [](const claim_context&) {
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
  // The row and column groups are the chapter's component blocks (16..71 and
  // 72..127), not the layout's own axis labels, so a layout that drives a
  // block by the wrong coordinate is seen.
  auto group_gap = [&](std::size_t i, std::size_t j, std::size_t axis) {
    const std::size_t b0 = chapter_block_start(axis),
                      b1 = b0 + static_cast<std::size_t>(chapter_axes_dim[axis]);
    hp g = 0;
    for (std::size_t k = 0; k < L.pairs.size(); ++k)
      if (L.pairs[k].a >= b0 && L.pairs[k].a < b1) g = std::max(g, angle_gap(ang[i][k], ang[j][k]));
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
  // Derived: a group's angles depend only on its own coordinate, so two cells
  // with the same row coordinate go through the same operations on the same
  // numbers: the row-group gap is exactly 0. Different rows must differ
  // visibly (1/1000 rad; the smallest true gap is 1 rad per row step of the
  // fastest pair).
  const hp visible = hp(1) / 1000;
  if (row_same == 0 && col_same == 0 && row_diff_min > visible && col_diff_min > visible) {
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

PV_CLAIM("flux.separate-offsets", [](const claim_context&) {
  auto r = make("flux.separate-offsets",
                "FLUX layout, fixed q, k (fixed_tokens salts 8, 9, 128 components), cell pairs "
                "{((0,2,3),(0,5,1)), ((0,10,40),(0,0,63)), ((1,7,7),(0,7,20))}: rope_dot "
                "unchanged when both cells move by 1, 7 or 63 along one axis (max_abs_diff_hp), "
                "and equal to the sum of three per-axis closed forms each in its own offset "
                "(decomposition_residual_hp), in mpfr: the shifts within the two dots' derived "
                "rounding bounds (rope_dot_error_bound), the decomposition within one dot's bound "
                "plus declared slack for the closed form; the row and column groups' parts vary "
                "with their offsets");
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
  // The closed form: per pair one angle product, cos, sin, four products and
  // three sums on terms below |q_a k_a| + ... : about 12 u times the pair's
  // |q|_1 |k|_1 share; summed over 64 pairs, under 12 u |q|_1 |k|_1 plus the
  // 64-term sum (64 u |q|_1 |k|_1).
  const hp closed_tol = norm * ref_tolerance(r, "closed_form_per_norm", 16 * 64, tol_kind::declared_slack,
                                             "the 64-pair closed form carries about 76 u |q|_1 "
                                             "|k|_1 (12 u per pair's share and the 64-term sum); "
                                             "1024 u |q|_1 |k|_1 is a margin over that estimate");
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
        // Derived: equal exact values with the same stored speeds, so the
        // difference is within the two dots' rounding bounds.
        ok = ok && e <= rope_dot_error_bound(L, q.row(0), m.data(), k.row(0), n.data()) +
                            rope_dot_error_bound(L, q.row(0), ms.data(), k.row(0), ns.data());
      }
    hp sum = 0;
    for (std::size_t axis = 0; axis < 3; ++axis)
      sum += group_closed_form(L, q.row(0), k.row(0), axis, n[axis] - m[axis]);
    hp e = abs(base - sum);
    decomposition = std::max(decomposition, e);
    ok = ok && e <= rope_dot_error_bound(L, q.row(0), m.data(), k.row(0), n.data()) + closed_tol;
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

PV_CLAIM("flux.text-identity", [](const claim_context&) {
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
