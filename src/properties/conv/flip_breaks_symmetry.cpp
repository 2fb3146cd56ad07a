// conv.flip_breaks_symmetry (laws/conv/flip_breaks_symmetry.h): the property
// draws kernels whose bottom row exceeds the top row and positive pictures,
// and judges the break at both stages in hp, float64 and float32.
#include "properties/property.h"
#include "laws/conv/flip_breaks_symmetry.h"

namespace {
namespace flip_breaks_symmetry_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;

namespace law = pv::laws::flip_breaks_symmetry;

template <class T>
void expect_exceeds(const std::string& what, const laws::largest_excess& x) {
  if (!x.exceeds(law::margin))
    prop::fail(what + " [" + type_name<T>() + "]: still equal within rounding; largest "
               "difference at (" + std::to_string(x.row) + ", " + std::to_string(x.col) + ") is " +
               ref::to_decimal(x.diff, 17) + ", only " + ref::to_decimal(x.ratio, 6) +
               " times the bound " + ref::to_decimal(x.bound, 17) + " (need > " +
               std::to_string(law::margin) + ")");
}

template <class T>
void compare_in_type(const gen::grid& g, const conv3x3<double>& k0, const matrix<double>& X0) {
  const auto o = law::evaluate(gen::convert_kernel<T>(k0), convert_matrix<T>(X0), g.h, g.w);
  expect_exceeds<T>("conv(flip X) vs flip conv(X)", o.conv);
  expect_exceeds<T>("attention(conv(flip X)) vs flip attention(conv(X))", o.attention);
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const auto g = *gen::flux_grid_min(2, 1, 5);
              const auto c_in = *pv::gen::uniform<std::size_t>(1, 4);
              const auto c_out = *pv::gen::uniform<std::size_t>(1, 5);
              const auto k = *gen::flip_asymmetric_kernel(c_in, c_out);
              const auto X = *gen::generic_tokens({g.h * g.w, g.h * g.w, c_in, c_in, false, 0.25,
                                                   1.0, true});
              RC_TAG(g.h == g.w ? "square" : "non-square");
              compare_in_type<hp>(g, k, X);
              compare_in_type<double>(g, k, X);
              compare_in_type<float>(g, k, X);
            });

}  // namespace flip_breaks_symmetry_property
}  // namespace
