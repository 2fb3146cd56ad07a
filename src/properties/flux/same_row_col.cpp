// flux.same_row_col (CLAIMS.md "flux.same-row-col"): in FLUX.1's multi-axis
// RoPE, two cells in the same row turn their row group by the same angle, so
// that group's part of the query-key dot product is the unrotated one; the
// same holds for the column group of two cells in one column (and for the
// image-number group of two cells of one image).
#include "properties/flux/flux_case.h"
#include "laws/flux/same_row_col.h"

namespace {
namespace same_row_col_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;
using namespace pv::flux_check;
namespace law = pv::laws::same_row_col;

template <class T>
void check_pair(const gen::flux_spec& f, const matrix<double>& QK, const std::array<double, 3>& p,
                const std::array<double, 3>& p2) {
  const auto L = gen::layout<T>(f);
  const auto X = convert_matrix<T>(QK);
  const auto [q, eq] = rotated(L, X.row(0), p);
  const auto [k, ek] = rotated(L, X.row(1), p2);
  for (std::size_t axis = 0; axis < 3; ++axis) {
    if (p[axis] != p2[axis]) continue;
    const auto idx = group_components(L, axis);
    const auto [rot, brot] = group_dot(idx, q.data(), eq, k.data(), ek);
    const auto [plain, bplain] = group_dot(idx, X.row(0), {}, X.row(1), {});
    prop::expect_close<T>("group " + std::to_string(axis) + " dot of cells " + show(p) + " and " +
                              show(p2) + " (equal coordinate " + std::to_string(axis) +
                              ") vs the unrotated group dot",
                          rot, plain, brot + bplain);
  }
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const auto [f, g, QK] = draw_flux_case();
              const double img = *pv::gen::uniform(0, 4);
              const double r = *pv::gen::uniform<std::size_t>(0, g.h);
              const double c = *pv::gen::uniform<std::size_t>(0, g.w);
              const double r2 = *pv::gen::uniform<std::size_t>(0, g.h);
              const double c2 = *pv::gen::uniform<std::size_t>(0, g.w);
              // same row (r, c) & (r, c2); same column (r, c) & (r2, c)
              for (const auto& pp : {std::array<double, 3>{img, r, c2}, std::array<double, 3>{img, r2, c}}) {
                check_pair<hp>(f, QK, {img, r, c}, pp);
                check_pair<double>(f, QK, {img, r, c}, pp);
                check_pair<float>(f, QK, {img, r, c}, pp);
              }
            });

}  // namespace same_row_col_property
}  // namespace
