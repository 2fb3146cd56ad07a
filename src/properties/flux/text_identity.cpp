// flux.text_identity (CLAIMS.md "flux.text-identity"): FLUX.1 gives text
// tokens the position (0, 0, 0), and RoPE at position zero turns every pair by
// angle 0: text tokens are not rotated at all, so their dot products with one
// another are the plain ones.
#include "properties/flux/flux_case.h"
#include "laws/flux/text_identity.h"

namespace {
namespace text_identity_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;
namespace law = pv::laws::text_identity;

template <class T>
void compare_in_type(const gen::flux_spec& f, const matrix<double>& X0) {
  const auto L = gen::layout<T>(f);
  const auto X = convert_matrix<T>(X0);
  const auto R = rope_apply(L, X, std::vector<std::vector<double>>(X.rows, {0.0, 0.0, 0.0}));
  for (std::size_t i = 0; i < X.a.size(); ++i)
    if (!(R.a[i] == X.a[i]))
      prop::fail("text token component " + std::to_string(i) + " [" + type_name<T>() +
                 "] changed at position (0, 0, 0): " + to_decimal(X.a[i]) + " -> " +
                 to_decimal(R.a[i]));
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const auto f = *gen::flux_config();
              const std::size_t d = f.axes_dim[0] + f.axes_dim[1] + f.axes_dim[2];
              const auto X = *gen::tokens({1, 4, d, d, true, true});
              compare_in_type<hp>(f, X);
              compare_in_type<double>(f, X);
              compare_in_type<float>(f, X);
            });

}  // namespace text_identity_property
}  // namespace
