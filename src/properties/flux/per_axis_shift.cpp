// flux.per_axis_shift (CLAIMS.md "flux.separate-offsets"): shifting the two
// positions by the same amount along any axis, each axis by its own amount,
// leaves the multi-axis RoPE dot product unchanged.
#include "properties/flux/flux_case.h"
#include "laws/flux/per_axis_shift.h"

namespace {
namespace per_axis_shift_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;
using namespace pv::flux_check;
namespace law = pv::laws::per_axis_shift;

template <class T>
void compare_in_type(const gen::flux_spec& f, const matrix<double>& QK, const std::array<double, 3>& p,
                const std::array<double, 3>& p2, const std::array<double, 3>& s) {
  const auto L = gen::layout<T>(f);
  const auto X = convert_matrix<T>(QK);
  const auto o = law::evaluate_rope(L, X.row(0), X.row(1), p, p2, s);
  prop::expect_close<T>("dot of cells " + show(p) + ", " + show(p2) + " vs shifted by " + show(s),
                        o.base, o.shifted, o.bound);
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const auto [f, g, QK] = draw_flux_case();
              const auto p = *gen::flux_cell(g), p2 = *gen::flux_cell(g);
              const auto sv = *rc::gen::container<std::vector<std::int64_t>>(3, gen::shift_int());
              std::array<double, 3> s{double(sv[0]), double(sv[1]), double(sv[2])};
              const int only = *pv::gen::uniform(0, 4);  // 3: all axes; else one axis alone
              if (only < 3)
                for (std::size_t a = 0; a < 3; ++a)
                  if (int(a) != only) s[a] = 0;
              RC_TAG(only == 3 ? "all axes" : "one axis");
              compare_in_type<hp>(f, QK, p, p2, s);
              compare_in_type<double>(f, QK, p, p2, s);
              compare_in_type<float>(f, QK, p, p2, s);
            });

}  // namespace per_axis_shift_property
}  // namespace
