// flux.axis_decomposition (CLAIMS.md "flux.separate-offsets"): with
// multi-axis RoPE the query-key dot product is the sum of three per-axis
// group dot products, and the group of axis a depends only on that axis's
// offset p_a - p'_a: rows apart and columns apart each remain, separately.
#include "properties/flux/flux_case.h"
#include "laws/flux/axis_decomposition.h"

namespace {
namespace axis_decomposition_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;
using namespace pv::flux_check;
namespace law = pv::laws::axis_decomposition;

template <class T>
void compare_in_type(const gen::flux_spec& f, const matrix<double>& QK, const std::array<double, 3>& p,
                const std::array<double, 3>& p2) {
  const auto L = gen::layout<T>(f);
  const auto X = convert_matrix<T>(QK);
  const T full = rope_dot(L, X.row(0), p.data(), X.row(1), p2.data());
  const auto [q, eq] = rotated(L, X.row(0), p);
  const auto [k, ek] = rotated(L, X.row(1), p2);
  const std::array<double, 3> delta{p[0] - p2[0], p[1] - p2[1], p[2] - p2[2]};
  const auto [qd, eqd] = rotated(L, X.row(0), delta);  // q turned by the offsets, k at 0
  T sum = 0;
  hp abs_products = 0;
  for (std::size_t j = 0; j < L.head_dim; ++j)
    abs_products += abs(convert<hp>(q[j]) * convert<hp>(k[j]));
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const auto idx = group_components(L, axis);
    const auto [g, bg] = group_dot(idx, q.data(), eq, k.data(), ek);
    const auto [h, bh] = group_dot(idx, qd.data(), eqd, X.row(1), {});
    prop::expect_close<T>("group " + std::to_string(axis) + " of cells " + show(p) + ", " +
                              show(p2) + " vs the same group at offset " + show(delta),
                          g, h, bg + bh);
    sum += g;
  }
  // The full dot and the sum of the group dots add the same computed
  // products in two orders: each is within gamma_{d+2} sum |q~_j k~_j| of
  // their exact sum.
  prop::expect_close<T>("full dot vs sum of the three group dots", full, sum,
                        2 * gamma_hp<T>(static_cast<long>(L.head_dim + 2)) * abs_products +
                            2 * hp(double(L.head_dim)) * underflow_floor<T>());
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const auto [f, g, QK] = draw_flux_case();
              auto p = *gen::flux_cell(g), p2 = *gen::flux_cell(g);
              if (*pv::gen::uniform(0, 4) == 0) {  // far apart: per-axis offsets up to 2^20
                const auto s = *rc::gen::container<std::vector<std::int64_t>>(3, gen::shift_int());
                for (std::size_t a = 0; a < 3; ++a) p[a] += double(s[a]);
                RC_TAG("far");
              }
              compare_in_type<hp>(f, QK, p, p2);
              compare_in_type<double>(f, QK, p, p2);
              compare_in_type<float>(f, QK, p, p2);
            });

}  // namespace axis_decomposition_property
}  // namespace
