// conv.zero_padding_border (laws/conv/zero_padding_border.h): the property
// draws a grid, a kernel (positive or general) and a constant vector, and
// judges every check of the law in hp, float64 and float32.
#include "properties/property.h"
#include "laws/conv/zero_padding_border.h"

namespace {
namespace zero_padding_border_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;

namespace law = pv::laws::zero_padding_border;

template <class T>
void compare_in_type(const gen::grid& g, const conv3x3<double>& k0, const std::vector<double>& x0,
                bool positive) {
  const auto k = gen::convert_kernel<T>(k0);
  const auto X = law::constant_picture<T>(g.h * g.w, x0);
  law::evaluate(k, X, g.h, g.w, positive, [](const law::entry<T>& e) {
    if (e.ok) return true;
    const std::string at = "(" + std::to_string(e.row) + ", " + std::to_string(e.col) + ")";
    switch (e.kind) {
      case law::check::identity:
        prop::fail("cell " + at + " channel " + std::to_string(e.channel) + " [" + type_name<T>() +
                   "]: " + to_decimal(e.out) + " but the interior value minus the missing taps is " +
                   ref::to_decimal(e.value) + ", |diff| = " + ref::to_decimal(e.diff, 17) + " > bound " +
                   ref::to_decimal(e.bound, 17));
      case law::check::trace:
        prop::fail("border cell " + at + " [" + type_name<T>() + "]: padding trace " +
                   ref::to_decimal(e.diff, 17) + " not above " + std::to_string(law::margin) +
                   " x bound " + ref::to_decimal(e.bound, 17));
      case law::check::same_mask:
        prop::fail("cells " + std::to_string(e.other) + " and " + std::to_string(e.cell) +
                   " miss the same taps but differ [" + type_name<T>() + "]: " + to_decimal(e.other_out) +
                   " vs " + to_decimal(e.out));
    }
    return false;
  });
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const auto g = *gen::flux_grid(16);
              RC_TAG(g.h == g.w ? "square grid" : "non-square grid");
              RC_CLASSIFY(g.h >= 6 && g.w >= 6, "both sides >= 6");
              const auto c_in = *pv::gen::uniform<std::size_t>(1, 4);
              const auto c_out = *pv::gen::uniform<std::size_t>(1, 4);
              const bool positive = *rc::gen::arbitrary<bool>();
              const auto k = *gen::kernel(c_in, c_out, positive);
              const auto xm = *gen::generic_tokens({1, 1, c_in, c_in, false, 0.25, 1.0, positive});
              const std::vector<double> x(xm.a.begin(), xm.a.end());
              RC_TAG(positive ? "positive kernel and picture" : "general kernel");
              compare_in_type<hp>(g, k, x, positive);
              compare_in_type<double>(g, k, x, positive);
              compare_in_type<float>(g, k, x, positive);
            });

}  // namespace zero_padding_border_property
}  // namespace
