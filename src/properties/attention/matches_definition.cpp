// attention.matches_definition (laws/attention/matches_definition.h): the
// property draws Q, K and V of mixed magnitudes and judges the law in hp,
// float64 and float32.
#include "properties/property.h"
#include "laws/attention/matches_definition.h"

namespace {
namespace matches_definition_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;

namespace law = pv::laws::matches_definition;

template <class T>
void compare_in_type(const matrix<double>& Q0, const matrix<double>& K0, const matrix<double>& V0,
                const law::definition& def) {
  law::evaluate<T>(Q0, K0, V0, def, [](const law::entry<T>& e) {
    if (!(e.diff <= e.bound))
      prop::fail("attention [" + type_name<T>() + "] at (" + std::to_string(e.row) + ", " +
                 std::to_string(e.col) + "): " + to_decimal(e.computed) + " vs the direct formula " +
                 ref::to_decimal(e.defined) + ", |diff| = " + ref::to_decimal(e.diff, 17) +
                 " > bound " + ref::to_decimal(e.bound, 17));
    return true;
  });
}


PV_PROPERTY(law::id, law::statement("n_q, n_k in 1..8, d, d_v in 1..8, mixed magnitudes"),
            law::tolerance_rule(),
            [] {
              const auto nq = *pv::gen::uniform<std::size_t>(1, 9);
              const auto nk = *pv::gen::uniform<std::size_t>(1, 9);
              const auto d = *pv::gen::uniform<std::size_t>(1, 9);
              const auto dv = *pv::gen::uniform<std::size_t>(1, 9);
              const auto Q = *gen::tokens({nq, nq, d, d, false, true});
              const auto K = *gen::tokens({nk, nk, d, d, false, true});
              const auto V = *gen::tokens({nk, nk, dv, dv, false, true});
              const auto def = law::define(Q, K, V);
              compare_in_type<hp>(Q, K, V, def);
              compare_in_type<double>(Q, K, V, def);
              compare_in_type<float>(Q, K, V, def);
            });

}  // namespace matches_definition_property
}  // namespace
