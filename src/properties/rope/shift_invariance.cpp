// rope.shift_invariance (CLAIMS.md, core laws; chapter "rope.relative"):
// <R(m) q, R(n) k> depends on m - n only, so shifting both positions by the
// same s leaves the dot product unchanged. 1-D RoPE, ladder or explicit
// speeds, adjacent or split-half pairing, positions and shifts up to 2^20.
#include "properties/property.h"
#include "laws/rope/shift_invariance.h"

namespace {
namespace shift_invariance_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;
namespace law = pv::laws::shift_invariance;

template <class T>
void compare_in_type(const gen::rope_spec& spec, const matrix<double>& QK, double m, double n,
                double s) {
  const auto L = gen::layout<T>(spec);
  const auto X = convert_matrix<T>(QK);
  // Both are computed from the same stored speeds, for which the exact values
  // are equal; each is within its own a-priori bound of its exact value.
  const auto o = law::evaluate_rope(L, X.row(0), X.row(1), m, n, s);
  if (!o.within)
    prop::fail("<R(m)q, R(n)k> vs <R(m+s)q, R(n+s)k> [" + type_name<T>() + "]: " +
               to_decimal(o.base) + " vs " + to_decimal(o.shifted) +
               ", |diff| = " + ref::to_decimal(o.diff, 17) + " > bound " +
               ref::to_decimal(o.bound, 17));
}


PV_PROPERTY(law::id,
            law::statement() +
                " for all integer positions m, n and shifts s: the rotated dot product depends on m - n only (1-D RoPE; theta^(-2i/d) ladder or "
            "explicit speeds; adjacent and split-half pairs; |m|, |n|, |s| up to 2^20)",
            "each side within its a-priori bound of the exact value for the stored speeds, the "
            "two bounds added: angle rounding |fl(m w) - m w| <= u |m| w plus 2 ulps of sin/cos "
            "(eta = u|m w| + 4u; 2u for MPFR) propagated through the 2x2 rotation with gamma_2, "
            "then the dot product's gamma_d sum|q~_j k~_j| plus the input errors "
            "(rope_dot_error_bound in error_bounds.h); with T = hp the same formula gives the "
            "reference's own precision",
            [] {
              const auto spec = *gen::rope_1d(2, 16);
              const auto QK = *gen::tokens({2, 2, spec.d, spec.d, true, false});
              const auto m = *gen::position_int();
              const auto n = *gen::position_int();
              const auto s = *gen::shift_int();
              RC_TAG(std::max({std::abs(m), std::abs(n), std::abs(m + s), std::abs(n + s)}) >= 64
                         ? "large positions"
                         : "small positions");
              RC_TAG(to_string(spec.pair));
              compare_in_type<hp>(spec, QK, double(m), double(n), double(s));
              compare_in_type<double>(spec, QK, double(m), double(n), double(s));
              compare_in_type<float>(spec, QK, double(m), double(n), double(s));
            });

}  // namespace shift_invariance_property
}  // namespace
