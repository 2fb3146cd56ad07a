// attention.permutation_equivariance (CLAIMS.md, core laws; chapter opening
// and problem 5): with no positional encoding, attention(P X) = P attention(X).
#include "properties/property.h"
#include "laws/attention/permutation_equivariance.h"

namespace {
namespace permutation_equivariance_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;

namespace law = pv::laws::permutation_equivariance;

template <class T>
void compare_in_type(const matrix<double>& X0, const projections<double>& W0, const permutation& perm) {
  // The exps of a (query, key) pair are bitwise the same in both runs; only
  // the order of the sums over keys differs, so the reorder bound applies.
  law::evaluate_attention<T>(X0, perm, W0, reduction::sequential, [](const law::entry<T>& e) {
    if (!(e.diff <= e.bound))
      prop::fail("attention(P X) vs P attention(X) [" + type_name<T>() + "] differs at (" +
                 std::to_string(e.row) + ", " + std::to_string(e.col) + "): " +
                 to_decimal(e.permuted) + " vs " + to_decimal(e.original) +
                 ", |diff| = " + ref::to_decimal(e.diff, 17) + " > bound " +
                 ref::to_decimal(e.bound, 17));
    return true;
  });
  if constexpr (is_ieee_v<T>) {
    // With correctly rounded sums over keys the result no longer depends on
    // their order: the law then holds bit for bit (tolerance 0).
    const auto X = convert_matrix<T>(X0);
    const projections<T> W{convert_matrix<T>(W0.wq), convert_matrix<T>(W0.wk),
                           convert_matrix<T>(W0.wv)};
    attention_options<T> cr;
    cr.sum = reduction::correctly_rounded;
    law::evaluate(
        X, perm, [&](const matrix<T>& Y) { return self_attention(Y, W, cr); },
        [](const matrix<T>& PX) { return matrix<hp>(PX.rows, PX.cols); },
        [&](const law::entry<T>& e) {
          if (!(e.permuted == e.original))
            prop::fail("correctly rounded sums [" + type_name<T>() + "]: attention(P X) entry " +
                       std::to_string(e.row * X.cols + e.col) + " is " + to_decimal(e.permuted) + ", P attention(X) has " +
                       to_decimal(e.original) + " (must be bitwise equal)");
          return true;
        });
  }
}


PV_PROPERTY(law::id,
            law::statement() + ", with no positional encoding (n in 2..20 tokens, d in 2..16)",
            "high precision: within the reorder bound at the reference's unit roundoff; " +
                law::tolerance_rule() +
                "; with correctly rounded sums (reduction::correctly_rounded) float32 and float64 "
                "must agree bit for bit",
            [] {
              // n up to 20 tokens, d up to 16 (RapidCheck sizes stay <= 100).
              auto X0 = *pv::gen::tokens({2, 20, 2, 16, false, true});
              projections<double> W;
              if (*rc::gen::arbitrary<bool>()) {
                auto d = X0.cols;
                auto gw = pv::gen::tokens({d, d, d, d, false, false});
                W = {*gw, *gw, *gw};
              }
              auto perm = *pv::gen::permutation_of(X0.rows);
              RC_TAG(X0.rows == 6 && perm == pv::chapter_six_cell_order() ? "chapter order" : "other");
              RC_CLASSIFY(W.wq.rows != 0, "with projections");
              RC_CLASSIFY(X0.rows >= 12, "n >= 12 tokens");
              RC_CLASSIFY(X0.cols >= 9, "d >= 9");
              compare_in_type<hp>(X0, W, perm);
              compare_in_type<double>(X0, W, perm);
              compare_in_type<float>(X0, W, perm);
            });

}  // namespace permutation_equivariance_property
}  // namespace
