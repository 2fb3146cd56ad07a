// conv.identical_neighbourhoods (laws/conv/identical_neighbourhoods.h): the
// property draws a grid, a kernel, a picture and two cells at least 3 apart,
// makes their neighbourhoods identical and judges the law in hp, float64 and
// float32.
#include "properties/property.h"
#include "laws/conv/identical_neighbourhoods.h"

namespace {
namespace identical_neighbourhoods_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;

namespace law = pv::laws::identical_neighbourhoods;

template <class T>
void expect_equal(const std::string& what, const law::mismatch<T>& m, std::size_t a, std::size_t b) {
  if (m.found)
    prop::fail(what + " [" + type_name<T>() + "]: cells " + std::to_string(a) + " and " +
               std::to_string(b) + " differ in channel " + std::to_string(m.channel) + ": " +
               to_decimal(m.at_a) + " vs " + to_decimal(m.at_b));
}

template <class T>
void compare_in_type(const gen::grid& g, const conv3x3<double>& k0, const matrix<double>& X0, std::size_t a,
                std::size_t b) {
  const auto o = law::evaluate(gen::convert_kernel<T>(k0), convert_matrix<T>(X0), g.h, g.w, a, b);
  expect_equal<T>("conv output", o.conv, a, b);
  expect_equal<T>("attention(conv) output", o.attention, a, b);
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const auto g = *rc::gen::oneOf(gen::flux_grid_min(4, 1, 8), gen::flux_grid_min(1, 4, 8));
              const auto c_in = *pv::gen::uniform<std::size_t>(1, 4);
              const auto c_out = *pv::gen::uniform<std::size_t>(1, 4);
              const auto k = *gen::kernel(c_in, c_out);
              auto X = *gen::tokens({g.h * g.w, g.h * g.w, c_in, c_in, false, false});
              // A anywhere; B among the cells far enough from A.
              const std::size_t a = *pv::gen::uniform<std::size_t>(0, g.h * g.w);
              const auto far = law::far_cells(g.h, g.w, a);
              const std::size_t b = far[*pv::gen::uniform<std::size_t>(0, far.size())];
              law::make_identical(X, g.h, g.w, a, b);
              RC_LOG() << "picture " << to_string(X) << ", cells " << a << " and " << b << "\n";
              const long ar = long(a / g.w), ac = long(a % g.w), br = long(b / g.w), bc = long(b % g.w);
              const bool border = !(ar > 0 && ac > 0 && ar + 1 < long(g.h) && ac + 1 < long(g.w)) ||
                                  !(br > 0 && bc > 0 && br + 1 < long(g.h) && bc + 1 < long(g.w));
              RC_TAG(border ? "a border cell" : "two interior cells");
              compare_in_type<hp>(g, k, X, a, b);
              compare_in_type<double>(g, k, X, a, b);
              compare_in_type<float>(g, k, X, a, b);
            });

}  // namespace identical_neighbourhoods_property
}  // namespace
