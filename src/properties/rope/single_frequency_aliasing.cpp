// rope.single_frequency_aliasing (CLAIMS.md, core laws; problem 4c): with one
// speed w = 2 pi p / q, a distance D and a distance D + q turn by angles that
// differ by 2 pi p, a whole number of turns, so the two dot products coincide.
#include "properties/property.h"
#include "laws/rope/single_frequency_aliasing.h"

namespace {
namespace single_frequency_aliasing_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;
namespace law = pv::laws::single_frequency_aliasing;

template <class T>
void compare_in_type(pairing pr, std::size_t pairs, long p, long q, const matrix<double>& QK,
                double m, double n, double m2, double n2) {
  const T w = T(2) * pi<T>() * T(p) / T(q);
  const auto L = rope_with_speeds<T>(std::vector<T>(pairs, w), pr);
  const auto X = convert_matrix<T>(QK);
  const T a = rope_dot(L, X.row(0), &m, X.row(1), &n);    // distance D = m - n
  const T b = rope_dot(L, X.row(0), &m2, X.row(1), &n2);  // distance D + q
  // The exact dot is f(D w) with |f'| <= |q| |k|, and (D + q) w = D w + 2 pi p
  // + delta, so the exact values differ by at most |q| |k| |delta|.
  hp qq = 0, kk = 0;
  for (std::size_t j = 0; j < L.head_dim; ++j) {
    qq += convert<hp>(X(0, j)) * convert<hp>(X(0, j));
    kk += convert<hp>(X(1, j)) * convert<hp>(X(1, j));
  }
  const hp bound = law::bound(rope_dot_error_bound(L, X.row(0), &m, X.row(1), &n),
                              rope_dot_error_bound(L, X.row(0), &m2, X.row(1), &n2), sqrt(qq * kk),
                              speed_period_defect(w, p, q));
  prop::expect_close<T>("dot at distance D vs D + q (w = 2 pi " + std::to_string(p) + "/" +
                            std::to_string(q) + ")",
                        a, b, bound);
}


PV_PROPERTY(law::id, law::statement(), law::tolerance_rule(),
            [] {
              const long q = *pv::gen::uniform(1, 65);
              const long p = *pv::gen::uniform(1L, 2 * q + 1);
              const auto pairs = *pv::gen::uniform<std::size_t>(1, 5);
              const auto pr = *rc::gen::element(pairing::adjacent, pairing::halves);
              const auto QK = *gen::tokens({2, 2, 2 * pairs, 2 * pairs, true, false});
              const auto n = *gen::position_int();
              const auto D = *gen::shift_int();
              const auto n2 = *gen::position_int();
              RC_TAG(std::abs(D) >= 64 || n >= 64 || n2 >= 64 ? "large" : "small");
              const double m = double(n + D), m2 = double(n2 + D + q);
              compare_in_type<hp>(pr, pairs, p, q, QK, m, double(n), m2, double(n2));
              compare_in_type<double>(pr, pairs, p, q, QK, m, double(n), m2, double(n2));
              compare_in_type<float>(pr, pairs, p, q, QK, m, double(n), m2, double(n2));
            });

}  // namespace single_frequency_aliasing_property
}  // namespace
