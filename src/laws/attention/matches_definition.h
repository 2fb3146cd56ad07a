// attention.matches_definition, written once: pv::attention, max-subtracted
// and summed left to right, agrees with the textbook formula
// softmax(Q K^T / sqrt(d)) V (Vaswani et al. 2017, eq. 1) evaluated directly
// in the reference type. This is the law that notices a wrong or missing
// 1/sqrt(d).
//
// Tolerance (white box: pv::attention's own sums): the computed value within
// its a-priori forward bound (attention_forward_bound, error_bounds.h) plus
// the direct hp formula's own bound (the same analysis at the reference's
// unit roundoff, without max subtraction).
// Judge: the property (src/properties/attention/matches_definition.cpp), which
// draws Q, K and V.
#pragma once

#include "laws/tally.h"
#include "numerics/attention.h"
#include "numerics/error_bounds.h"

#include <string>
#include <vector>

namespace pv::laws::matches_definition {

inline constexpr const char* id = "attention.matches_definition";

/// The law; `cases` says how the judge draws them.
inline std::string statement(const std::string& cases) {
  return "attention(Q, K, V) as computed (scores scaled by 1/sqrt(d), max subtracted, "
         "left-to-right sums, one division per entry) equals softmax(Q K^T / sqrt(d)) V "
         "evaluated directly (" + cases + ")";
}

inline std::string tolerance_rule() {
  return "the computed value within its a-priori forward bound (attention_forward_bound: "
         "gamma_d scores, gamma_2 for the rounded 1/sqrt(d), 2 ulps per exp, gamma_n sums and "
         "one division) plus the direct hp formula's own bound (the same analysis at the "
         "reference's unit roundoff, without max subtraction); in hp the two agree to the "
         "reference precision";
}

/// out_ic = sum_j exp(q_i.k_j / sqrt(d)) v_jc / sum_j exp(q_i.k_j / sqrt(d)),
/// written out independently of pv::attention (no max subtraction: hp has
/// the exponent range).
inline matrix<hp> direct(const matrix<hp>& Q, const matrix<hp>& K, const matrix<hp>& V) {
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

/// The definition of a case in hp and the bound of that evaluation.
struct definition {
  matrix<hp> value, bound;
};

inline definition define(const matrix<double>& Q, const matrix<double>& K, const matrix<double>& V) {
  const auto Qh = convert_matrix<hp>(Q), Kh = convert_matrix<hp>(K), Vh = convert_matrix<hp>(V);
  return {direct(Qh, Kh, Vh), attention_forward_bound(Qh, Kh, Vh, {}, {}, {}, {}, false)};
}

/// One compared entry: (row, col) of attention in T against the definition.
template <class T>
struct entry {
  std::size_t row, col;
  const T& computed;
  const hp& defined;
  const hp& diff;
  const hp& bound;
};

using outcome = tally;

/// evaluate(case, T): pv::attention in T of the case rounded to T, against
/// the definition `def`, within attention_forward_bound + def.bound.
/// `visit(entry)` sees every entry in row-major order and returns false to stop.
template <class T, class Visit>
outcome evaluate(const matrix<double>& Q0, const matrix<double>& K0, const matrix<double>& V0,
                 const definition& def, Visit&& visit) {
  const auto Q = convert_matrix<T>(Q0), K = convert_matrix<T>(K0), V = convert_matrix<T>(V0);
  const auto A = attention(Q, K, V);
  const auto B = attention_forward_bound(Q, K, V, {}, {}, {});
  outcome o;
  for (std::size_t i = 0; i < A.rows; ++i)
    for (std::size_t c = 0; c < A.cols; ++c) {
      const hp d = abs(convert<hp>(A(i, c)) - def.value(i, c));
      const hp b = B(i, c) + def.bound(i, c);
      o.count(d, b);
      if (!visit(entry<T>{i, c, A(i, c), def.value(i, c), d, b})) return o;
    }
  return o;
}

}  // namespace pv::laws::matches_definition
