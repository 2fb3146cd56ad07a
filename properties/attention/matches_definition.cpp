// attention.matches_definition (issue 2, "scaled dot-product attention"):
// pv::attention, max-subtracted and summed left to right, agrees with the
// textbook formula softmax(Q K^T / sqrt(d)) V evaluated directly in the
// reference type. This is the law that notices a wrong or missing 1/sqrt(d).
#include "../check.h"

namespace {

using namespace pv;

/// out_ic = sum_j exp(q_i.k_j / sqrt(d)) v_jc / sum_j exp(q_i.k_j / sqrt(d)),
/// written out independently of pv::attention (no max subtraction: hp has
/// the exponent range).
matrix<hp> direct(const matrix<hp>& Q, const matrix<hp>& K, const matrix<hp>& V) {
  matrix<hp> out(Q.rows, V.cols);
  const hp sc = 1 / sqrt(hp(double(Q.cols)));
  for (std::size_t i = 0; i < Q.rows; ++i) {
    std::vector<hp> e(K.rows);
    hp z = 0;
    for (std::size_t j = 0; j < K.rows; ++j) {
      hp s = 0;
      for (std::size_t c = 0; c < Q.cols; ++c) s += Q(i, c) * K(j, c);
      e[j] = exp(s * sc);
      z += e[j];
    }
    for (std::size_t c = 0; c < V.cols; ++c) {
      hp num = 0;
      for (std::size_t j = 0; j < K.rows; ++j) num += e[j] * V(j, c);
      out(i, c) = num / z;
    }
  }
  return out;
}

template <class T>
void check_type(const matrix<double>& Q0, const matrix<double>& K0, const matrix<double>& V0,
                const matrix<hp>& ref, const matrix<hp>& ref_bound) {
  const auto Q = convert_matrix<T>(Q0), K = convert_matrix<T>(K0), V = convert_matrix<T>(V0);
  const auto A = attention(Q, K, V);
  const auto B = attention_forward_bound(Q, K, V, {}, {}, {});
  for (std::size_t i = 0; i < A.rows; ++i)
    for (std::size_t c = 0; c < A.cols; ++c) {
      const hp d = abs(convert<hp>(A(i, c)) - ref(i, c));
      const hp b = B(i, c) + ref_bound(i, c);
      if (!(d <= b))
        prop::fail("attention [" + type_name<T>() + "] at (" + std::to_string(i) + ", " +
                   std::to_string(c) + "): " + to_decimal(A(i, c)) + " vs the direct formula " +
                   ref::to_decimal(ref(i, c)) + ", |diff| = " + ref::to_decimal(d, 17) +
                   " > bound " + ref::to_decimal(b, 17));
    }
}

}  // namespace

PV_PROPERTY("attention.matches_definition",
            "attention(Q, K, V) as computed (scores scaled by 1/sqrt(d), max subtracted, "
            "left-to-right sums, one division per entry) equals softmax(Q K^T / sqrt(d)) V "
            "evaluated directly (n_q, n_k in 1..8, d, d_v in 1..8, mixed magnitudes)",
            "the computed value within its a-priori forward bound (attention_forward_bound: "
            "gamma_d scores, gamma_2 for the rounded 1/sqrt(d), 2 ulps per exp, gamma_n sums and "
            "one division) plus the direct hp formula's own bound (the same analysis at the "
            "reference's unit roundoff, without max subtraction); in hp the two agree to the "
            "reference precision",
            [] {
              const auto nq = *pv::gen::uniform<std::size_t>(1, 9);
              const auto nk = *pv::gen::uniform<std::size_t>(1, 9);
              const auto d = *pv::gen::uniform<std::size_t>(1, 9);
              const auto dv = *pv::gen::uniform<std::size_t>(1, 9);
              const auto Q = *gen::tokens({nq, nq, d, d, false, true});
              const auto K = *gen::tokens({nk, nk, d, d, false, true});
              const auto V = *gen::tokens({nk, nk, dv, dv, false, true});
              const auto Qh = convert_matrix<hp>(Q), Kh = convert_matrix<hp>(K),
                         Vh = convert_matrix<hp>(V);
              const auto ref = direct(Qh, Kh, Vh);
              const auto ref_bound = attention_forward_bound(Qh, Kh, Vh, {}, {}, {}, {}, false);
              check_type<hp>(Q, K, V, ref, ref_bound);
              check_type<double>(Q, K, V, ref, ref_bound);
              check_type<float>(Q, K, V, ref, ref_bound);
            });
