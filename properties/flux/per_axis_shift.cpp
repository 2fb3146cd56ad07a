// flux.per_axis_shift (CLAIMS.md "flux.separate-offsets"): shifting the two
// positions by the same amount along any axis, each axis by its own amount,
// leaves the multi-axis RoPE dot product unchanged.
#include "flux_check.h"

namespace {

using namespace pv;
using namespace pv::flux_check;

template <class T>
void check_type(const gen::flux_spec& f, const matrix<double>& QK, const std::array<double, 3>& p,
                const std::array<double, 3>& p2, const std::array<double, 3>& s) {
  const auto L = gen::layout<T>(f);
  const auto X = convert_matrix<T>(QK);
  const std::array<double, 3> ps{p[0] + s[0], p[1] + s[1], p[2] + s[2]},
      p2s{p2[0] + s[0], p2[1] + s[1], p2[2] + s[2]};
  const T a = rope_dot(L, X.row(0), p.data(), X.row(1), p2.data());
  const T b = rope_dot(L, X.row(0), ps.data(), X.row(1), p2s.data());
  const hp bound = rope_dot_error_bound(L, X.row(0), p.data(), X.row(1), p2.data()) +
                   rope_dot_error_bound(L, X.row(0), ps.data(), X.row(1), p2s.data());
  prop::expect_close<T>("dot of cells " + show(p) + ", " + show(p2) + " vs shifted by " + show(s),
                        a, b, bound);
}

}  // namespace

PV_PROPERTY("flux.per_axis_shift",
            "multi-axis RoPE: <R(p + s) q, R(p' + s) k> = <R(p) q, R(p') k> for every per-axis "
            "shift s = (s_image, s_row, s_col), each axis shifted alone or all together (cells of "
            "H x W grids of any shape, shifts up to 2^20; FLUX.1's [16, 56, 56] or reduced "
            "layouts)",
            "each side within rope_dot_error_bound (angle rounding u|p w| + 2 ulps of sin/cos, "
            "gamma_2 per rotation, gamma_d dot product), bounds added; in hp the reference "
            "precision",
            [] {
              const auto f = *gen::flux_config();
              const auto g = *gen::flux_grid(16);
              RC_TAG(g.h == g.w ? "square grid" : "non-square grid");
              RC_CLASSIFY(g.h >= 6 && g.w >= 6, "both sides >= 6");
              const std::size_t d = f.axes_dim[0] + f.axes_dim[1] + f.axes_dim[2];
              const auto QK = *gen::tokens({2, 2, d, d, true, false});
              const auto p = *gen::flux_cell(g), p2 = *gen::flux_cell(g);
              const auto sv = *rc::gen::container<std::vector<std::int64_t>>(3, gen::shift_int());
              std::array<double, 3> s{double(sv[0]), double(sv[1]), double(sv[2])};
              const int only = *pv::gen::uniform(0, 4);  // 3: all axes; else one axis alone
              if (only < 3)
                for (std::size_t a = 0; a < 3; ++a)
                  if (int(a) != only) s[a] = 0;
              RC_TAG(only == 3 ? "all axes" : "one axis");
              check_type<hp>(f, QK, p, p2, s);
              check_type<double>(f, QK, p, p2, s);
              check_type<float>(f, QK, p, p2, s);
            });
