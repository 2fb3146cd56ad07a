// Attention as models ship it (the attend() call of the plugin interface,
// include/posverify/impl.h, version 4), written once for every attend.* law:
// the problem (shapes, positions, masks, scale, softcap, sinks, ALiBi), which
// keys a query sees, the exact (MPFR) reference with its log-sum-exp, and the
// a-priori bound of each computed entry for a kernel summing in any order.
//
// The definition (the same words as impl.h): query i of batch item b sits at
// p = q_start[b] + i, key j at j. Key j is visible when j < k_len[b], and,
// if causal, j <= p, and j >= p - left (left >= 0), j <= p + right
// (right >= 0). Query head h reads KV head floor(h h_kv / h_q) (the "repeat"
// mapping of repeat_kv / repeat_interleave). The logit of a visible key is
// x = scale q.k_j (scale 0: 1/sqrt(d)), s = c tanh(x / c) with softcap c > 0
// (Gemma 2), then s += slope_h (j - p) with ALiBi (Press et al. 2022).
// Z = sum_visible e^{s_j} + e^{sink_h} (the sink, gpt-oss's learned logit,
// counts in the denominator only), out = sum_j e^{s_j} v_j / Z, lse = ln Z.
// A masked key's weight is exactly 0. A row with no visible key and no sink
// is empty: its output is the kernel's declared convention (zeros, NaN, or
// the mean of its valid values V[b][0..k_len-1][g]) and its lse is -inf.
//
// The bound (black box: the kernel may sum in any order, block or stream the
// keys; the same argument as attention.reference's any-order bound,
// laws/attention/any_order_bound.h, term by term). For a row, over its
// visible keys j (and the sink as one more key with value 0), with u the
// unit roundoff judged and a_j = |scale| sum_l |q_l k_jl|:
//   e_j = gamma_{d+3} a_j                      dot product, scale (Higham 3.5)
//       + [softcap] u |x_j| + 5 u |t_j|        x/c rounded, tanh within 4 ulps
//                                              (glibc's tanhf: 2), times c; the
//                                              cap's slope sech^2 <= 1 carries
//                                              e_j through unchanged
//       + [alibi] 3 u |b_j| + u |s_j|          slope stored, times (j - p), added
//   D   = max_j [e_j + 2 u |s_j| + u |s_j - m| + 2 u]   (sink: 3 u |sink| + u |sink - m| + 2u)
// where 2 u |s_j| allows a base-2 exponential with log2(e) folded into the
// scale (FlashAttention's exp2: two more roundings of the logit's size)
// m the largest logit. With n = n_k + 1 terms (every key a kernel may visit,
// and the sink), each entry
//   B_c = [(e^{2D} - 1) + gamma_{4n+4} e^{2D}] sum_j p_j |v_jc| + n mu max_j |v_jc|,
// and the log-sum-exp (Z within a factor e^{+-D} (1 + gamma_{4n+4}) and n mu of
// its exact value, then a log and an addition of m rounded)
//   B_lse = D + gamma_{4n+4} + n mu + 2 u (|lse| + |m|) + u.
// An empty row is exact (B = 0): zeros and NaN are what they are; the mean
// of V is bounded by gamma_{n+1} mean_j |v_jc|.
//
// A storage class (a 16-bit wire, or --accuracy float16 / bfloat16: q, k, v
// and out stored at u_s, the arithmetic at u) is counted as attention.
// reference counts it (laws/attention/any_order_bound.h): gamma_{d+3} becomes
// gamma_{d+3} (1 + g_s) + g_s in e_j and gamma_{4n+4} becomes
// (1 + u_s)^2 (1 + gamma_{4n+4}) - 1, g_s = (1 + u_s)^2 - 1; a 16-bit p v
// accumulator (u_pv, subnormal spacing eta_pv) multiplies the latter's
// 1 + ... by 1 + gamma_{2n+2}(u_pv) and adds (2n + 2) eta_pv. The laws hand
// the kernel inputs already in the format, so these two roundings per product
// are what an eager composition in the dtype spends on its intermediates: the
// scores stored and scaled in the format (2 u_s |s_j| <= g_s a_j), the
// probabilities and the output stored ((1 + u_s)^2). The softcap's and
// ALiBi's intermediates stored in the format too (an eager composition
// rounds each operation to the dtype: Hugging Face's Gemma 2 divides by c,
// takes tanh and multiplies by c in the dtype) add u_s (|x_j| + 2 |t_j|) and
// u_s (|b_j| + |s_j|) to e_j: the quotient, tanh and product, and the bias
// and the biased score, each stored once. The mean of an
// empty row gets (1 + g_s)(1 + gamma_{n+1}) - 1. The stored output may be
// subnormal: + eta_s / 2, eta_s the format's subnormal spacing (no input
// underflows: each is already in the format). The lse
// is binary64 and not stored; it keeps its bound with these e_j and gamma.
#pragma once

#include "numerics/scalar.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace pv::laws::attend {

/// The empty-row convention a kernel declares (pv_empty_rows).
enum class empty_rows { undeclared = 0, zeros = 1, nan = 2, mean = 3 };

inline const char* to_string(empty_rows e) {
  switch (e) {
    case empty_rows::zeros: return "zeros";
    case empty_rows::nan: return "NaN";
    case empty_rows::mean: return "the mean of V";
    case empty_rows::undeclared: break;
  }
  return "undeclared";
}

/// One attend problem with its inputs, dense in its logical layout:
/// q[b][i][h][l], k[b][j][g][l], v[b][j][g][c]; outputs out[b][i][h][c],
/// lse[b][h][i].
struct problem {
  long batch = 1, h_q = 1, h_kv = 1, n_q = 1, n_k = 1, d = 1, d_v = 1;
  std::vector<long> q_start, k_len;  ///< per batch item
  bool causal = false;
  long left = -1, right = -1;  ///< inclusive window; negative: unbounded
  double scale = 0;            ///< 0: 1/sqrt(d)
  double softcap = 0;          ///< 0: off
  std::vector<double> sink, alibi;  ///< empty, or one per query head
  bool lse = false;
  std::vector<double> q, k, v;

  std::size_t qi(long b, long i, long h, long l) const { return std::size_t(((b * n_q + i) * h_q + h) * d + l); }
  std::size_t ki(long b, long j, long g, long l) const { return std::size_t(((b * n_k + j) * h_kv + g) * d + l); }
  std::size_t vi(long b, long j, long g, long c) const { return std::size_t(((b * n_k + j) * h_kv + g) * d_v + c); }
  std::size_t oi(long b, long i, long h, long c) const { return std::size_t(((b * n_q + i) * h_q + h) * d_v + c); }
  std::size_t li(long b, long h, long i) const { return std::size_t((b * h_q + h) * n_q + i); }
  std::size_t out_size() const { return std::size_t(batch * n_q * h_q * d_v); }
  std::size_t lse_size() const { return std::size_t(batch * h_q * n_q); }
  /// Sizes the inputs and per-item arrays (top-left, unpadded) for the shape.
  void allocate() {
    q.assign(std::size_t(batch * n_q * h_q * d), 0.0);
    k.assign(std::size_t(batch * n_k * h_kv * d), 0.0);
    v.assign(std::size_t(batch * n_k * h_kv * d_v), 0.0);
    q_start.assign(std::size_t(batch), 0);
    k_len.assign(std::size_t(batch), n_k);
  }
};

/// A deliberately wrong reading of the problem, for the diagnosis: what a
/// kernel computes when it aligns the causal mask top-left (query 0 at
/// position 0), widens the window by extra keys on the left, maps query
/// head h to KV head h mod h_kv (tile instead of repeat), ignores the softcap,
/// drops the sinks, reads the padded keys (k_len ignored), returns the
/// log-sum-exp in base 2 (log2 Z: an exp2 kernel's running sum not converted
/// back), uses 1/sqrt(d) in place of the problem's scale, ignores the ALiBi
/// slopes, caps as (x/c) tanh(x/c) (flash-attention#2396, a swish in place of
/// the cap), or caps after adding the ALiBi bias, c tanh((x + bias)/c)
/// (TransformerEngine PR 3391: FlashAttention caps x, then adds the bias),
/// or, at n_q = 1 with GQA, reads the query heads of a KV group as query
/// tokens with the tensor's own strides (decode_swap, below), or drops the
/// causal mask of a prefill (prefill_not_causal, below).
struct variant {
  bool top_left = false;
  long window_extra = 0;
  bool tile = false;
  bool no_softcap = false;
  bool no_sinks = false;
  bool reads_padding = false;
  bool lse_log2 = false;
  bool no_scale = false;
  bool no_alibi = false;
  bool softcap_swish = false;
  bool cap_after_bias = false;
  /// pytorch PR 186434 (ROCm CK): at n_q = 1 and h_q > h_kv the wrapper
  /// swaps the group of query heads into the sequence dimension but keeps
  /// q's strides, so query head g (h_q / h_kv) + r of item b reads the query
  /// of item b + r, head g (dense (batch, token, head) layout: the token and
  /// the batch stride coincide at n_q = 1). Past the last item the real bug
  /// reads whatever lies there; the variant, like the mutant, wraps to item
  /// (b + r) mod batch.
  bool decode_swap = false;
  /// transformers#48748 (Doge's SDPA path): the causal mask is dropped when
  /// n_q > 1 (a prefill builds its mask without the causal part), so the
  /// rows of a prefill see the keys after their position while a single-query
  /// decode step, which has none after it, is right: cached != uncached.
  bool prefill_not_causal = false;
};

/// Whether the decode swap applies to the problem (n_q = 1, GQA).
inline bool decode_swapped(const problem& P, const variant& w) {
  return w.decode_swap && P.n_q == 1 && P.h_q > P.h_kv && P.h_q % P.h_kv == 0;
}

/// Where the query of row (b, i, h) is read from (qi of the row, or the
/// decode swap's wrong item and head).
inline std::size_t query_at(const problem& P, long b, long i, long h, const variant& w = {}) {
  if (!decode_swapped(P, w)) return P.qi(b, i, h, 0);
  const long group = P.h_q / P.h_kv;
  return P.qi((b + h % group) % P.batch, 0, h / group, 0);
}

/// The KV head query head h reads: floor(h h_kv / h_q) (tile: h mod h_kv).
inline long kv_head(const problem& P, long h, const variant& w = {}) {
  return w.tile ? h % P.h_kv : h * P.h_kv / P.h_q;
}

/// Whether key j is visible to query i of item b.
inline bool visible(const problem& P, long b, long i, long j, const variant& w = {}) {
  const long p = (w.top_left ? 0 : P.q_start[std::size_t(b)]) + i;
  if (j < 0 || j >= P.n_k || (!w.reads_padding && j >= P.k_len[std::size_t(b)])) return false;
  if (P.causal && j > p && !(w.prefill_not_causal && P.n_q > 1)) return false;
  if (P.left >= 0 && j < p - P.left - w.window_extra) return false;
  if (P.right >= 0 && j > p + P.right) return false;
  return true;
}

/// Whether the row of query i of item b is empty (no visible key, no sink).
inline bool empty_row(const problem& P, long b, long i) {
  if (!P.sink.empty()) return false;
  for (long j = 0; j < P.n_k; ++j)
    if (visible(P, b, i, j)) return false;
  return true;
}

inline bool any_empty_row(const problem& P) {
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      if (empty_row(P, b, i)) return true;
  return false;
}

/// The scale in use: 1/sqrt(d) when 0.
inline hp scale_of(const problem& P) {
  return P.scale != 0 ? hp(P.scale) : hp(hp(1) / sqrt(hp(double(P.d))));
}

/// The exact logits of row (b, i, h) over its visible keys (`keys` gets their
/// indices), and the pre-cap scores and their a_j = |scale| sum |q k|.
struct row_logits {
  std::vector<long> keys;
  std::vector<hp> s, x, t, bias, a;
};

/// sum_l a_l b_l and sum_l |a_l b_l| over n doubles, in the operations hp
/// arithmetic would do (each product and each addition rounded at hp's
/// precision: the products exact from 106 bits on), so the same values, but
/// without hp's temporaries (an allocation each): the logits of a row of 8192
/// keys of 128 components are a million products (attend.models).
class exact_dot {
 public:
  exact_dot() { mpfr_init2(t_, mpfr_get_prec(dot.backend().data())); }
  ~exact_dot() { mpfr_clear(t_); }
  exact_dot(const exact_dot&) = delete;
  exact_dot& operator=(const exact_dot&) = delete;
  void operator()(const double* a, const double* b, long n) {
    mpfr_ptr d = dot.backend().data(), s = ab.backend().data();
    mpfr_set_zero(d, 1);
    mpfr_set_zero(s, 1);
    for (long l = 0; l < n; ++l) {
      mpfr_set_d(t_, a[l], MPFR_RNDN);
      mpfr_mul_d(t_, t_, b[l], MPFR_RNDN);
      mpfr_add(d, d, t_, MPFR_RNDN);
      mpfr_abs(t_, t_, MPFR_RNDN);
      mpfr_add(s, s, t_, MPFR_RNDN);
    }
  }
  hp dot = 0, ab = 0;

 private:
  mpfr_t t_;
};

inline row_logits logits(const problem& P, long b, long i, long h, const variant& w = {}) {
  row_logits r;
  exact_dot qk;
  const hp sc = w.no_scale ? hp(hp(1) / sqrt(hp(double(P.d)))) : scale_of(P);
  const long g = kv_head(P, h, w);
  const long p = P.q_start[std::size_t(b)] + i;
  for (long j = 0; j < P.n_k; ++j) {
    if (!visible(P, b, i, j, w)) continue;
    qk(&P.q[query_at(P, b, i, h, w)], &P.k[P.ki(b, j, g, 0)], P.d);
    const hp& dot = qk.dot;
    const hp& ab = qk.ab;
    const hp x = sc * dot;
    const hp bias = P.alibi.empty() || w.no_alibi ? hp(0) : hp(hp(P.alibi[std::size_t(h)]) * hp(double(j - p)));
    const hp c = hp(P.softcap);
    const bool capped = P.softcap > 0 && !w.no_softcap, inside = capped && w.cap_after_bias;
    const hp t = !capped         ? x
                 : w.softcap_swish ? hp(x / c * tanh(x / c))
                 : inside          ? hp(c * tanh((x + bias) / c))
                                   : hp(c * tanh(x / c));
    r.keys.push_back(j);
    r.x.push_back(x);
    r.t.push_back(t);
    r.bias.push_back(bias);
    r.s.push_back(inside ? t : hp(t + bias));
    r.a.push_back(abs(sc) * ab);
  }
  return r;
}

/// The exact outputs: out[b][i][h][c], lse[b][h][i] (-inf for an empty row;
/// NaN entries for the NaN convention).
struct exact {
  std::vector<hp> out, lse;
  std::vector<bool> empty;  ///< per row (b, i, h), indexed like lse
};

/// The rows (b, h, i) to compute, indexed like lse (P.li): every row when
/// null; the others are left 0 (the model-scale law judges a sample of rows).
using row_set = std::vector<char>;
inline bool wanted(const row_set* rows, std::size_t li) { return rows == nullptr || (*rows)[li] != 0; }

inline exact reference(const problem& P, empty_rows conv, const variant& w = {}, const row_set* rows = nullptr) {
  exact E;
  E.out.assign(P.out_size(), hp(0));
  E.lse.assign(P.lse_size(), hp(0));
  E.empty.assign(P.lse_size(), false);
  const bool sinks = !P.sink.empty() && !w.no_sinks;
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h) {
      const long g = kv_head(P, h, w);
      for (long i = 0; i < P.n_q; ++i) {
        const std::size_t li = P.li(b, h, i);
        if (!wanted(rows, li)) continue;
        const row_logits r = logits(P, b, i, h, w);
        if (r.keys.empty() && !sinks) {
          E.empty[li] = true;
          E.lse[li] = hp(-std::numeric_limits<double>::infinity());
          for (long c = 0; c < P.d_v; ++c) {
            hp o = 0;
            if (conv == empty_rows::nan) o = hp(std::numeric_limits<double>::quiet_NaN());
            if (conv == empty_rows::mean) {
              const long n = P.k_len[std::size_t(b)];
              for (long j = 0; j < n; ++j) o += hp(P.v[P.vi(b, j, g, c)]);
              o = n > 0 ? hp(o / hp(double(n))) : hp(0);
            }
            E.out[P.oi(b, i, h, c)] = o;
          }
          continue;
        }
        hp m = sinks ? hp(P.sink[std::size_t(h)]) : r.s[0];
        for (const hp& s : r.s) m = s > m ? s : m;
        hp z = sinks ? hp(exp(hp(P.sink[std::size_t(h)]) - m)) : hp(0);
        std::vector<hp> e(r.s.size());
        for (std::size_t t = 0; t < r.s.size(); ++t) z += (e[t] = exp(r.s[t] - m));
        E.lse[li] = m + log(z);
        if (w.lse_log2) E.lse[li] /= log(hp(2));
        for (long c = 0; c < P.d_v; ++c) {
          hp o = 0;
          for (std::size_t t = 0; t < r.s.size(); ++t) o += e[t] * hp(P.v[P.vi(b, r.keys[t], g, c)]);
          E.out[P.oi(b, i, h, c)] = o / z;
        }
      }
    }
  return E;
}

/// gamma_n = n u / (1 - n u) (infinite when n u >= 1).
inline hp gamma_n(long n, const hp& u) {
  const hp nu = hp(double(n)) * u;
  return nu < 1 ? hp(nu / (1 - nu)) : hp(std::numeric_limits<double>::infinity());
}

/// The a-priori bounds of every output entry and lse (file comment).
struct bounds {
  std::vector<hp> out, lse;
};

/// The unit roundoffs a bound is computed at (check_run.h's
/// attention_units): u the arithmetic's, mu the smallest normal of the format
/// it computes in, us and eta_s a storage format's unit roundoff and
/// subnormal spacing (0: none), upv and eta_pv a 16-bit
/// p v accumulator's (0: none).
struct units {
  hp u, mu, us = hp(0), eta_s = hp(0), upv = hp(0), eta_pv = hp(0);
};

/// The part of an entry's bound that is roundings below the smallest normal
/// (file comment): p_j underflowing in the arithmetic (n mu max_j |v_jc|),
/// a 16-bit p v accumulator's subnormals ((2n + 2) eta_pv), the output
/// stored among the storage format's subnormals (eta_s / 2). Alone of B's
/// terms it does not scale with V (attend.homogeneity).
inline hp underflow_term(long n, const units& U, const hp& vmax) {
  return hp(double(n)) * U.mu * vmax + (U.upv > 0 ? hp(hp(2.0 * double(n) + 2) * U.eta_pv) : hp(0)) + U.eta_s / 2;
}

/// underflow_term of every output entry, over the keys each row sees (the
/// valid keys of an empty row under the convention "the mean of V").
inline std::vector<hp> underflow(const problem& P, empty_rows conv, const units& U) {
  std::vector<hp> out(P.out_size(), hp(0));
  const long n = P.n_k + 1;
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h) {
      const long g = kv_head(P, h);
      for (long i = 0; i < P.n_q; ++i) {
        const bool mean = conv == empty_rows::mean && empty_row(P, b, i);
        for (long c = 0; c < P.d_v; ++c) {
          hp vmax = 0;
          for (long j = 0; j < P.n_k; ++j)
            if (mean ? j < P.k_len[std::size_t(b)] : visible(P, b, i, j)) {
              const hp av = abs(hp(P.v[P.vi(b, j, g, c)]));
              if (vmax < av) vmax = av;
            }
          out[P.oi(b, i, h, c)] = underflow_term(n, U, vmax);
        }
      }
    }
  return out;
}

inline bounds any_order(const problem& P, empty_rows conv, const units& U, const row_set* rows = nullptr,
                        const variant& w = {}) {
  const hp &u = U.u, &mu = U.mu;
  bounds B;
  B.out.assign(P.out_size(), hp(0));
  B.lse.assign(P.lse_size(), hp(0));
  const long n = P.n_k + 1;
  const hp gs = (1 + U.us) * (1 + U.us) - 1;
  const hp gd = gamma_n(P.d + 3, u) * (1 + gs) + gs, gn0 = gs + gamma_n(4 * n + 4, u) * (1 + gs),
           gn = U.upv > 0 ? hp((1 + gn0) * (1 + gamma_n(2 * n + 2, U.upv)) - 1) : gn0;
  const bool sinks = !P.sink.empty();
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h) {
      const long g = kv_head(P, h, w);
      for (long i = 0; i < P.n_q; ++i) {
        if (!wanted(rows, P.li(b, h, i))) continue;
        const row_logits r = logits(P, b, i, h, w);
        if (r.keys.empty() && !sinks) {
          if (conv == empty_rows::mean) {
            const long nv = P.k_len[std::size_t(b)];
            for (long c = 0; c < P.d_v; ++c) {
              hp s = 0;
              for (long j = 0; j < nv; ++j) s += abs(hp(P.v[P.vi(b, j, g, c)]));
              B.out[P.oi(b, i, h, c)] =
                  nv > 0 ? hp(((1 + gs) * (1 + gamma_n(nv + 1, u)) - 1) * s / hp(double(nv)) + U.eta_s / 2) : hp(0);
            }
          }
          continue;
        }
        const hp sink = sinks ? hp(P.sink[std::size_t(h)]) : hp(0);
        hp m = sinks ? sink : r.s[0];
        for (const hp& s : r.s) m = s > m ? s : m;
        hp D = sinks ? hp(3 * u * abs(sink) + u * abs(sink - m) + 2 * u) : hp(0);
        hp z = sinks ? hp(exp(sink - m)) : hp(0);
        std::vector<hp> e(r.s.size());
        for (std::size_t t = 0; t < r.s.size(); ++t) {
          hp ej = gd * r.a[t];
          if (P.softcap > 0) ej += u * abs(r.x[t]) + 5 * u * abs(r.t[t]) + U.us * (abs(r.x[t]) + 2 * abs(r.t[t]));
          if (!P.alibi.empty()) ej += 3 * u * abs(r.bias[t]) + u * abs(r.s[t]) + U.us * (abs(r.bias[t]) + abs(r.s[t]));
          const hp Dj = ej + 2 * u * abs(r.s[t]) + u * abs(r.s[t] - m) + 2 * u;
          if (D < Dj) D = Dj;
          z += (e[t] = exp(r.s[t] - m));
        }
        const hp e2 = exp(2 * D), rel = (e2 - 1) + gn * e2;
        for (long c = 0; c < P.d_v; ++c) {
          hp S = 0, vmax = 0;
          for (std::size_t t = 0; t < r.s.size(); ++t) {
            const hp av = abs(hp(P.v[P.vi(b, r.keys[t], g, c)]));
            S += e[t] * av;
            if (vmax < av) vmax = av;
          }
          B.out[P.oi(b, i, h, c)] = rel * (S / z) + underflow_term(n, U, vmax);
        }
        const hp lse = m + log(z);
        B.lse[P.li(b, h, i)] = D + gn + hp(double(n)) * mu + 2 * u * (abs(lse) + abs(m)) + u;
      }
    }
  return B;
}

inline bounds any_order(const problem& P, empty_rows conv, const hp& u, const hp& mu) {
  return any_order(P, conv, units{u, mu});
}

/// The bound in words (each attend law quotes it in its tolerance).
inline std::string any_order_rule() {
  return "B = [(e^{2D} - 1) + gamma_{4n+4} e^{2D}] sum_j p_j |v_jc| + n mu max_j |v_jc| per output entry and "
         "B_lse = D + gamma_{4n+4} + n mu + 2u (|lse| + |m|) + u per log-sum-exp, n = n_k + 1 (the keys and the "
         "sink), D = max over the visible keys (and the sink) of gamma_{d+3} |scale| sum_l |q_l k_jl| "
         "[+ u |x_j| + 5u |t_j| with softcap, tanh within 4 ulps] [+ 3u |alibi_j| + u |s_j| with ALiBi] "
         "+ 2u |s_j| (exp2 with log2 e folded into the scale) + u |s_j - m| + 2u (an a-priori bound against the exact value for sums over keys in any order, "
         "blocked or streamed; mu = smallest normal; empty rows exact; under a storage class of unit "
         "roundoff u_s, q, k, v and out stored at u_s and the sums at the arithmetic's u: gamma_{d+3} (1 + g_s) "
         "+ g_s for gamma_{d+3} and (1 + u_s)^2 (1 + gamma_{4n+4}) - 1 for gamma_{4n+4}, g_s = (1 + u_s)^2 - 1, "
         "as attention.reference counts it, + u_s (|x_j| + 2 |t_j|) with softcap and u_s (|alibi_j| + |s_j|) with ALiBi "
         "for their intermediates stored in the format, + eta_s / 2 for a subnormal output, inputs drawn in the format)";
}

}  // namespace pv::laws::attend
