// attention.permutation_equivariance (CLAIMS.md, core laws; chapter opening
// and problem 5): with no positional encoding, attention(P X) = P attention(X).
#include "../check.h"

namespace {

using namespace pv;

template <class T>
void check_type(const matrix<double>& X0, const projections<double>& W0, const permutation& perm) {
  auto X = convert_matrix<T>(X0);
  projections<T> W{convert_matrix<T>(W0.wq), convert_matrix<T>(W0.wk), convert_matrix<T>(W0.wv)};
  auto A = self_attention(X, W);
  auto PX = permute_rows(X, perm);
  auto A_of_PX = self_attention(PX, W);
  auto P_A = permute_rows(A, perm);
  // The exps of a (query, key) pair are bitwise the same in both runs; only
  // the order of the sums over keys differs, so the reorder bound applies.
  auto Xq = project(PX, W.wq), Xk = project(PX, W.wk), Xv = project(PX, W.wv);
  auto B = attention_reorder_bound(Xq, Xk, Xv);
  prop::expect_within<T>("attention(P X) vs P attention(X)", A_of_PX, P_A, B);
  if constexpr (is_ieee_v<T>) {
    // With correctly rounded sums over keys the result no longer depends on
    // their order: the law then holds bit for bit.
    attention_options<T> cr;
    cr.sum = reduction::correctly_rounded;
    const auto C = permute_rows(self_attention(X, W, cr), perm);
    const auto C_of_PX = self_attention(PX, W, cr);
    for (std::size_t i = 0; i < C.a.size(); ++i)
      if (!(C.a[i] == C_of_PX.a[i]))
        prop::fail("correctly rounded sums [" + type_name<T>() + "]: attention(P X) entry " +
                   std::to_string(i) + " is " + to_decimal(C_of_PX.a[i]) + ", P attention(X) has " +
                   to_decimal(C.a[i]) + " (must be bitwise equal)");
  }
}

}  // namespace

PV_PROPERTY("attention.permutation_equivariance",
            "attention(P X) = P attention(X) for every permutation P, with no positional encoding "
            "(n in 2..20 tokens, d in 2..16)",
            "high precision: within the reorder bound at the reference's unit roundoff; float32 "
            "and float64: within 2 g (1 + 4 g) sum_j p_j |v_jc| + 4 n floor per entry, g = gamma_n "
            "+ gamma_{n-1} + 2u "
            "(recursive summation over the n keys, Higham 4.4), since only the order of the sums "
            "over keys changes; with correctly rounded sums (reduction::correctly_rounded) "
            "float32 and float64 must agree bit for bit",
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
              check_type<hp>(X0, W, perm);
              check_type<double>(X0, W, perm);
              check_type<float>(X0, W, perm);
            });
