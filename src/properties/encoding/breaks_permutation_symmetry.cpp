// encoding.breaks_permutation_symmetry (laws/encoding/breaks_permutation_
// symmetry.h): the property draws generic tokens, RoPE or the additive
// sinusoid on a ladder, a non-identity permutation and the first position,
// and judges the break in hp, float64 and float32.
#include "properties/property.h"
#include "laws/encoding/breaks_permutation_symmetry.h"

namespace {
namespace breaks_permutation_symmetry_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;

namespace law = pv::laws::breaks_permutation_symmetry;

template <class T>
void compare_in_type(const law::encoding& enc, const matrix<double>& X0, const permutation& perm, double offset) {
  const auto x = law::evaluate<T>(enc, X0, perm, offset);
  if (!x.exceeds(law::margin))
    prop::fail(std::string(enc.rope ? "RoPE" : "additive sinusoid") + " [" + type_name<T>() +
               "]: attention(P X) is still P attention(X) within rounding: the largest "
               "difference, at (" + std::to_string(x.row) + ", " + std::to_string(x.col) + "), is " +
               ref::to_decimal(x.diff, 17) + ", only " + ref::to_decimal(x.ratio, 6) +
               " times the rounding bound " + ref::to_decimal(x.bound, 17) + " (need > " +
               std::to_string(law::margin) + ")");
  if constexpr (std::is_same_v<T, float>) {
    RC_CLASSIFY(x.ratio > 1e4, "float margin > 1e4");
    RC_CLASSIFY(x.ratio <= 1e4, "float margin in (16, 1e4]");
  }
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const bool rope = *rc::gen::arbitrary<bool>();
              const auto X0 = *gen::generic_tokens({3, 8, 4, 16, true, 0.25, 1.0});
              const auto spec = *gen::rope_1d(X0.cols, X0.cols, true);  // a ladder
              const law::encoding enc{rope, spec.pair, spec.d, spec.theta};
              const auto perm = *gen::nonidentity_permutation(X0.rows);
              const auto offset = *gen::position_int(8);
              RC_TAG(rope ? "RoPE" : "additive sinusoid");
              compare_in_type<hp>(enc, X0, perm, double(offset));
              compare_in_type<double>(enc, X0, perm, double(offset));
              compare_in_type<float>(enc, X0, perm, double(offset));
            });

}  // namespace breaks_permutation_symmetry_property
}  // namespace
