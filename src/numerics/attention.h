// Scaled dot-product attention, generic over the scalar type:
//   out = softmax(Q K^T / sqrt(d)) V,  softmax max-subtracted row by row.
// Self-attention optionally applies projection matrices (Q = X Wq, ...).
#pragma once

#include "numerics/fault.h"
#include "numerics/matrix.h"
#include "numerics/reduction.h"

#include <cassert>
#include <vector>

namespace pv {

template <class T>
struct attention_options {
  reduction sum = reduction::sequential;  ///< order of the sums over keys
  bool scale = true;                      ///< divide scores by sqrt(d)
  bool causal = false;                    ///< mask keys j > i
};

/// Unnormalised max-subtracted weights e_j = exp(q_i.k_j/sqrt(d) - max) of
/// query row i (zero for masked keys); returns their sum z, reduced as `o.sum`.
template <class T>
T exp_scores_row(const matrix<T>& Q, const matrix<T>& K, std::size_t i,
                 const attention_options<T>& o, std::vector<T>& e) {
  const std::size_t n = K.rows, d = Q.cols;
  const T inv_scale =
      o.scale && !fault_is(fault::no_attention_scale) ? T(1) / sqrt_(T(d)) : T(1);
  const bool causal = o.causal || fault_is(fault::attention_causal_mask);  // planted fault
  const std::size_t limit = causal ? std::min(n, i + 1) : n;
  e.assign(n, T(0));
  for (std::size_t j = 0; j < limit; ++j) e[j] = dot(Q.row(i), K.row(j), d) * inv_scale;
  T m = e[0];
  for (std::size_t j = 1; j < limit; ++j)
    if (e[j] > m) m = e[j];
  for (std::size_t j = 0; j < limit; ++j) e[j] = exp_(T(e[j] - m));
  return reduce_products<T>(e.data(), nullptr, n, 1, o.sum);
}

/// The softmax weights of query row i, one per key.
template <class T>
std::vector<T> attention_weights_row(const matrix<T>& Q, const matrix<T>& K, std::size_t i,
                                     const attention_options<T>& o = {}) {
  std::vector<T> e;
  T z = exp_scores_row(Q, K, i, o, e);
  for (auto& w : e) w /= z;
  return e;
}

/// softmax(Q K^T / sqrt(d)) V with unnormalised weights summed first and one
/// division per output entry: out_ic = (sum_j e_ij v_jc) / (sum_j e_ij).
template <class T>
matrix<T> attention(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V,
                    const attention_options<T>& o = {}) {
  assert(Q.cols == K.cols && K.rows == V.rows && K.rows > 0);
  matrix<T> out(Q.rows, V.cols);
  std::vector<T> e;
  for (std::size_t i = 0; i < Q.rows; ++i) {
    T z = exp_scores_row(Q, K, i, o, e);
    for (std::size_t c = 0; c < V.cols; ++c)
      out(i, c) = reduce_products<T>(e.data(), V.a.data() + c, K.rows, V.cols, o.sum) / z;
  }
  return out;
}

/// Optional projections of self-attention; empty matrices mean identity.
template <class T>
struct projections {
  matrix<T> wq, wk, wv;
};

template <class T>
matrix<T> project(const matrix<T>& X, const matrix<T>& W) {
  return W.rows == 0 ? X : matmul(X, W);
}

/// Self-attention of the token rows X: attention(X Wq, X Wk, X Wv).
template <class T>
matrix<T> self_attention(const matrix<T>& X, const projections<T>& p = {},
                         const attention_options<T>& o = {}) {
  return attention(project(X, p.wq), project(X, p.wk), project(X, p.wv), o);
}

}  // namespace pv
