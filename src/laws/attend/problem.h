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
// (Gemma 2), then s += slope_h (j - p) with ALiBi (Press et al. 2022),
// then s += beta_bij, an explicit additive bias (one [n_q][n_k] per item, or
// one for every item; the same for every head), whose -infinity masks the
// key as the flags do.
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
//       + [bias] 3 u |beta_j| + u |s_j|        the bias stored, added
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
// and the biased score, each stored once; the explicit bias likewise
// u_s (|beta_j| + |s_j|). The mean of an
// empty row gets (1 + g_s)(1 + gamma_{n+1}) - 1. The stored output may be
// subnormal: + eta_s / 2, eta_s the format's subnormal spacing (no input
// underflows: each is already in the format). The lse
// is binary64 and not stored; it keeps its bound with these e_j and gamma.
#pragma once

#include "numerics/scalar.h"
#include "reference/sum128.h"

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

/// How a packed problem travels when the kernel is told its items
/// (PV_ATTEND_VARLEN, FlashAttention's varlen call): the items' token offsets
/// (cu_q, cu_k: [items + 1], empty when the problem travels as it is), their
/// positions and valid keys, and the flags they share. The problem itself
/// (one sequence, the block-diagonal bias that says which keys each row sees)
/// is what the reference reads; the call carries these in place of its bias
/// and flags (its log-sum-exp is the packed problem's, [h_q][n_q]).
struct varlen_items {
  std::vector<long> cu_q, cu_k, q_start, k_len;
  bool causal = false;
  long left = -1, right = -1;
  bool packed() const { return !cu_q.empty(); }
  long items() const { return packed() ? long(cu_q.size()) - 1 : 0; }
};

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
  /// The explicit additive bias, dense [bias_batch][n_q][n_k] (-inf masks a
  /// key); empty, bias_batch 0, without. bias_batch 1 shares one bias among
  /// the items, else it is batch.
  std::vector<double> bias;
  long bias_batch = 0;
  bool lse = false;
  /// When set, the call tells the kernel the packed items (above) in place
  /// of the bias and flags; batch is 1 and bias holds their mask.
  varlen_items varlen;
  std::vector<double> q, k, v;

  std::size_t qi(long b, long i, long h, long l) const { return std::size_t(((b * n_q + i) * h_q + h) * d + l); }
  std::size_t ki(long b, long j, long g, long l) const { return std::size_t(((b * n_k + j) * h_kv + g) * d + l); }
  std::size_t vi(long b, long j, long g, long c) const { return std::size_t(((b * n_k + j) * h_kv + g) * d_v + c); }
  std::size_t oi(long b, long i, long h, long c) const { return std::size_t(((b * n_q + i) * h_q + h) * d_v + c); }
  std::size_t li(long b, long h, long i) const { return std::size_t((b * h_q + h) * n_q + i); }
  std::size_t bi(long b, long i, long j) const { return std::size_t(((bias_batch > 1 ? b : 0) * n_q + i) * n_k + j); }
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
  /// onnx/onnx#7865, emmtrix/emx-onnx-cgen PR 731: the explicit bias added
  /// before the softcap, c tanh((x + beta) / c), so a masked key (-inf) gets
  /// the logit -c and a weight instead of none.
  bool mask_before_cap = false;
  /// microsoft/onnxruntime-genai PR 1639, lucidrains/graph-transformer-pytorch
  /// PR 2: a bias of one per item read as one shared by every item (item 0's).
  bool bias_item0 = false;
  /// vllm-project/vllm#905, PR 1154 (the paged-attention kernel kept every
  /// logit of a row in a shared-memory buffer, so its context had a ceiling):
  /// a kernel that clamps to such a buffer instead of refusing reads only
  /// keys 0 .. key_limit - 1 (0: no limit); the rest are dropped.
  long key_limit = 0;
  bool operator==(const variant&) const = default;
};

/// Where the bias of key j for query i of item b is read (item 0's for the
/// bias_item0 reading).
inline std::size_t bias_at(const problem& P, long b, long i, long j, const variant& w = {}) {
  return P.bi(w.bias_item0 ? 0 : b, i, j);
}

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
  if (w.key_limit > 0 && j >= w.key_limit) return false;
  if (P.causal && j > p && !(w.prefill_not_causal && P.n_q > 1)) return false;
  if (P.left >= 0 && j < p - P.left - w.window_extra) return false;
  if (P.right >= 0 && j > p + P.right) return false;
  if (!P.bias.empty() && P.bias[bias_at(P, b, i, j, w)] == -std::numeric_limits<double>::infinity() &&
      !(w.mask_before_cap && P.softcap > 0))
    return false;
  return true;
}

/// Whether the row of query i of item b is empty (no visible key, no sink).
inline bool empty_row(const problem& P, long b, long i) {
  if (!P.sink.empty()) return false;
  for (long j = 0; j < P.n_k; ++j)
    if (visible(P, b, i, j)) return false;
  return true;
}

/// R's explicit bias for its keys 0 .. R.n_k - 1 taken from P's keys
/// from, from + 1, ... of P's item items[s] for R's item s (items empty:
/// each item its own, or P's shared bias shared), R's row i from P's row
/// i + row_from; none when P has none.
inline void carry_bias(const problem& P, problem& R, long from, const std::vector<long>& items = {},
                       long row_from = 0) {
  if (P.bias.empty()) return;
  const bool shared = P.bias_batch <= 1;
  R.bias_batch = shared || R.batch == 1 ? 1 : R.batch;
  R.bias.assign(std::size_t(R.bias_batch * R.n_q * R.n_k), 0.0);
  for (long s = 0; s < R.bias_batch; ++s) {
    const long b = items.empty() ? s : items[std::size_t(s)];
    for (long i = 0; i < R.n_q; ++i)
      for (long j = 0; j < R.n_k; ++j) R.bias[R.bi(s, i, j)] = P.bias[P.bi(b, i + row_from, j + from)];
  }
}

/// F's explicit bias over its own F.n_q rows (same keys and items as P):
/// row r is P's row (r - off) mod P.n_q, so F's rows off .. off + P.n_q - 1
/// are P's rows in order (a square call whose last rows are a decode call's,
/// or a prefill drawing on P's pattern of masked keys); none when P has none.
inline void bias_rows_from(const problem& P, problem& F, long off) {
  if (P.bias.empty()) return;
  F.bias_batch = P.bias_batch;
  F.bias.assign(std::size_t(F.bias_batch * F.n_q * F.n_k), 0.0);
  for (long s = 0; s < F.bias_batch; ++s)
    for (long r = 0; r < F.n_q; ++r)
      for (long j = 0; j < F.n_k; ++j)
        F.bias[F.bi(s, r, j)] = P.bias[P.bi(s, ((r - off) % P.n_q + P.n_q) % P.n_q, j)];
}

/// Lifts a -inf of the explicit bias on each row's own key (j = q_start + i)
/// to 0: a causal row without padding then always sees a key, so masking by
/// the bias never empties a row (for the laws whose calls a kernel without
/// an empty-row convention must also answer).
inline void keep_own_key(problem& P) {
  if (P.bias.empty()) return;
  for (long b = 0; b < P.batch; ++b)  // a shared bias: every item's own keys
    for (long i = 0; i < P.n_q; ++i) {
      const long j = P.q_start[std::size_t(b)] + i;
      if (j < 0 || j >= P.n_k) continue;
      double& x = P.bias[P.bi(b, i, j)];
      if (x == -std::numeric_limits<double>::infinity()) x = 0;
    }
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

/// The same in binary64 (1/sqrt(d) rounded once more): for choices a law
/// makes before its exact arithmetic (a cap, a lower bound on a score).
inline double scale_of_double(const problem& P) { return P.scale != 0 ? P.scale : 1 / std::sqrt(double(P.d)); }

/// The exact logits of row (b, i, h) over its visible keys (`keys` gets their
/// indices), and the pre-cap scores and their a_j = |scale| sum |q k|. The
/// hp vectors may be longer than `keys` (a row_work reuses them from row to
/// row): entries past keys.size() are another row's.
struct row_logits {
  std::vector<long> keys;
  std::vector<hp> s, x, t, bias, a;
  std::vector<double> beta;  ///< the explicit bias of each key (with one)
};

/// The MPFR operand of an hp, for the loops below that compute in place
/// (mpfr_mul into a reused hp rather than a Boost temporary, an allocation
/// per operation). Each MPFR call rounds once at hp's precision, as the hp
/// operator it stands for does, so the values are the same bit for bit.
inline mpfr_ptr mp(hp& x) { return x.backend().data(); }
inline mpfr_srcptr mp(const hp& x) { return x.backend().data(); }

/// sum_l a_l b_l and sum_l |a_l b_l| over n doubles, in the operations hp
/// arithmetic would do (each product and each addition rounded at hp's
/// precision: the products exact from 106 bits on), so the same values, but
/// without hp's temporaries (an allocation each): the logits of a row of 8192
/// keys of 128 components are a million products (attend.models). At a
/// precision of 128 bits (check's default) with finite inputs, the same
/// roundings are done in integers (reference/sum128.h), a few operations per
/// component instead of five MPFR calls.
class exact_dot {
 public:
  exact_dot() { mpfr_init2(t_, mpfr_get_prec(mp(dot))); }
  ~exact_dot() { mpfr_clear(t_); }
  exact_dot(const exact_dot&) = delete;
  exact_dot& operator=(const exact_dot&) = delete;
  void operator()(const double* a, const double* b, long n) {
    mpfr_ptr d = mp(dot), s = mp(ab);
    if (fast_ && all_finite(a, b, n)) {  // the same roundings without MPFR (reference/sum128.h)
      ref::sum128 sd, ss;
      for (long l = 0; l < n; ++l) {
        const auto p = ref::sum128::exact_product(a[l], b[l]);
        sd.add(p);
        ss.add_abs(p);
      }
      sd.get(d);
      ss.get(s);
      return;
    }
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
  static bool all_finite(const double* a, const double* b, long n) {
    bool ok = true;
    for (long l = 0; l < n; ++l) ok = ok && std::isfinite(a[l]) && std::isfinite(b[l]);
    return ok;
  }
  mpfr_t t_;
  /// whether sum128 gives MPFR's values: at a precision of exactly 128 bits
  /// (check's default), each product exact and each sum rounded once there
  const bool fast_ = mpfr_get_prec(mp(dot)) == 128 && mpfr_get_prec(mp(ab)) == 128;
};

/// What the rows of one problem need, allocated once for all its rows: the
/// logits and exponentials of a row (the hp vectors grow to n_k and are
/// rewritten in place), the scale and the scratch. reference() and
/// any_order_mp() compute every row through one; the values are those of the
/// same formulas written with hp operators (mp(), above).
struct row_work {
  row_work(const problem& P, const variant& w)
      : sc(w.no_scale ? hp(hp(1) / sqrt(hp(double(P.d)))) : scale_of(P)), asc(abs(sc)), c(P.softcap) {
    const std::size_t n = std::size_t(P.n_k);
    for (auto* v : {&r.s, &r.x, &r.t, &r.bias, &r.a, &e}) v->resize(n);
    if (!P.bias.empty()) r.beta.resize(n);
    r.keys.reserve(n);
  }
  row_logits r;
  std::vector<hp> e;   ///< e^{s_j - m} of the row's keys (softmax_terms)
  hp m = 0, z = 0;     ///< the row's largest logit (or sink) and sum_j e_j (+ e^{sink - m})
  exact_dot qk;
  hp sc, asc, c, sink = 0, tmp = 0, tmp2 = 0, tmp3 = 0, tmp4 = 0;
  std::size_t largest = 0;  ///< the largest logit's index in r.s
};

/// Fills W.r with the logits of row (b, i, h) (the file comment's
/// definition, the variant's reading) and W.largest with the index of the
/// largest.
inline void logits(const problem& P, long b, long i, long h, const variant& w, row_work& W) {
  row_logits& r = W.r;
  r.keys.clear();
  W.largest = 0;
  const long g = kv_head(P, h, w);
  const long p = P.q_start[std::size_t(b)] + i;
  const bool capped = P.softcap > 0 && !w.no_softcap, inside = capped && w.cap_after_bias,
             alibi = !P.alibi.empty() && !w.no_alibi, biased = !P.bias.empty(),
             beta_inside = biased && capped && w.mask_before_cap;
  const double* q = &P.q[query_at(P, b, i, h, w)];
  for (long j = 0; j < P.n_k; ++j) {
    if (!visible(P, b, i, j, w)) continue;
    const std::size_t t = r.keys.size();
    r.keys.push_back(j);
    W.qk(q, &P.k[P.ki(b, j, g, 0)], P.d);
    mpfr_ptr x = mp(r.x[t]), bias = mp(r.bias[t]), tt = mp(r.t[t]), s = mp(r.s[t]);
    mpfr_srcptr c = mp(W.c);
    mpfr_mul(x, mp(W.sc), mp(W.qk.dot), MPFR_RNDN);
    if (alibi) {
      mpfr_set_d(bias, P.alibi[std::size_t(h)], MPFR_RNDN);
      mpfr_mul_si(bias, bias, j - p, MPFR_RNDN);
    } else {
      mpfr_set_zero(bias, 1);
    }
    const double beta = biased ? P.bias[bias_at(P, b, i, j, w)] : 0.0;
    if (!capped) {
      mpfr_set(tt, x, MPFR_RNDN);
    } else if (w.softcap_swish) {  // (x / c) tanh(x / c)
      mpfr_div(mp(W.tmp), x, c, MPFR_RNDN);
      mpfr_tanh(tt, mp(W.tmp), MPFR_RNDN);
      mpfr_mul(tt, mp(W.tmp), tt, MPFR_RNDN);
    } else {  // c tanh(x / c), or c tanh((x + bias) / c)
      if (inside || beta_inside) {
        mpfr_set(mp(W.tmp), x, MPFR_RNDN);
        if (inside) mpfr_add(mp(W.tmp), x, bias, MPFR_RNDN);
        if (beta_inside) mpfr_add_d(mp(W.tmp), mp(W.tmp), beta, MPFR_RNDN);
        mpfr_div(mp(W.tmp), mp(W.tmp), c, MPFR_RNDN);
      } else {
        mpfr_div(mp(W.tmp), x, c, MPFR_RNDN);
      }
      mpfr_tanh(tt, mp(W.tmp), MPFR_RNDN);
      mpfr_mul(tt, c, tt, MPFR_RNDN);
    }
    if (inside) mpfr_set(s, tt, MPFR_RNDN);
    else mpfr_add(s, tt, bias, MPFR_RNDN);
    if (biased) {  // the explicit bias after the cap; r.bias and r.beta keep its finite value for the bound
      r.beta[t] = std::isfinite(beta) ? beta : 0.0;
      if (!beta_inside) mpfr_add_d(s, s, beta, MPFR_RNDN);
      mpfr_add_d(bias, bias, r.beta[t], MPFR_RNDN);
    }
    mpfr_mul(mp(r.a[t]), mp(W.asc), mp(W.qk.ab), MPFR_RNDN);
    if (t > 0 && mpfr_greater_p(s, mp(r.s[W.largest]))) W.largest = t;
  }
}

/// The rows (b, h, i) to compute, indexed like lse (P.li): every row when
/// null; the others are left 0 (the model-scale law judges a sample of rows).
using row_set = std::vector<char>;
inline bool wanted(const row_set* rows, std::size_t li) { return rows == nullptr || (*rows)[li] != 0; }

/// W.e[t] = e^{s_t - m} for the row in W, W.m = m the larger of the largest
/// logit and the sink (W.sink, if `sink`), and W.z = sum_t W.e[t]
/// (+ e^{sink - m}).
inline void softmax_terms(row_work& W, bool sink) {
  const row_logits& r = W.r;
  if (r.keys.empty() && !sink) return;  // an empty row: nothing to weigh
  W.m = sink ? W.sink : r.s[W.largest];
  if (sink && !r.keys.empty() && r.s[W.largest] > W.m) W.m = r.s[W.largest];
  if (sink) {
    mpfr_sub(mp(W.z), mp(W.sink), mp(W.m), MPFR_RNDN);
    mpfr_exp(mp(W.z), mp(W.z), MPFR_RNDN);
  } else {
    mpfr_set_zero(mp(W.z), 1);
  }
  for (std::size_t t = 0; t < r.keys.size(); ++t) {
    mpfr_sub(mp(W.e[t]), mp(r.s[t]), mp(W.m), MPFR_RNDN);
    mpfr_exp(mp(W.e[t]), mp(W.e[t]), MPFR_RNDN);
    mpfr_add(mp(W.z), mp(W.z), mp(W.e[t]), MPFR_RNDN);
  }
}

/// Each row (b, h, i) of P in turn (only those in `rows` when not null),
/// with its logits in W and W.sink its head's sink (0 without):
/// f(b, h, i, li), li = P.li(b, h, i).
template <class F>
void each_row(const problem& P, const variant& w, const row_set* rows, row_work& W, F&& f) {
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h) {
      if (!P.sink.empty()) W.sink = hp(P.sink[std::size_t(h)]);
      for (long i = 0; i < P.n_q; ++i) {
        const std::size_t li = P.li(b, h, i);
        if (!wanted(rows, li)) continue;
        logits(P, b, i, h, w, W);
        f(b, h, i, li);
      }
    }
}

/// The exact outputs: out[b][i][h][c], lse[b][h][i] (-inf for an empty row;
/// NaN entries for the NaN convention).
struct exact {
  std::vector<hp> out, lse;
  std::vector<bool> empty;  ///< per row (b, i, h), indexed like lse
};

/// Row (b, h, i) of the exact outputs into E, its logits in W (each_row);
/// `sinks` whether the row counts its head's sink.
inline void exact_row(const problem& P, empty_rows conv, const variant& w, bool sinks, long b, long h, long i,
                      std::size_t li, row_work& W, exact& E) {
  const row_logits& r = W.r;
  const long g = kv_head(P, h, w);
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
    return;
  }
  E.lse[li] = W.m + log(W.z);
  if (w.lse_log2) E.lse[li] /= log(hp(2));
  for (long c = 0; c < P.d_v; ++c) {
    mpfr_set_zero(mp(W.tmp2), 1);
    for (std::size_t t = 0; t < r.keys.size(); ++t) {
      mpfr_mul_d(mp(W.tmp), mp(W.e[t]), P.v[P.vi(b, r.keys[t], g, c)], MPFR_RNDN);
      mpfr_add(mp(W.tmp2), mp(W.tmp2), mp(W.tmp), MPFR_RNDN);
    }
    mpfr_div(mp(E.out[P.oi(b, i, h, c)]), mp(W.tmp2), mp(W.z), MPFR_RNDN);
  }
}

inline exact exact_for(const problem& P) {
  exact E;
  E.out.assign(P.out_size(), hp(0));
  E.lse.assign(P.lse_size(), hp(0));
  E.empty.assign(P.lse_size(), false);
  return E;
}

inline exact reference(const problem& P, empty_rows conv, const variant& w = {}, const row_set* rows = nullptr) {
  exact E = exact_for(P);
  const bool sinks = !P.sink.empty() && !w.no_sinks;
  row_work W(P, w);
  each_row(P, w, rows, W, [&](long b, long h, long i, std::size_t li) {
    softmax_terms(W, sinks);
    exact_row(P, conv, w, sinks, b, h, i, li, W, E);
  });
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

/// The per-problem factors of the bound (file comment): g_s, gamma_{d+3}'s
/// and gamma_{4n+4}'s counterparts, n = n_k + 1.
struct bound_factors {
  bound_factors(const problem& P, const units& U)
      : n(P.n_k + 1),
        gs((1 + U.us) * (1 + U.us) - 1),
        gd(gamma_n(P.d + 3, U.u) * (1 + gs) + gs),
        gn0(gs + gamma_n(4 * n + 4, U.u) * (1 + gs)),
        gn(U.upv > 0 ? hp((1 + gn0) * (1 + gamma_n(2 * n + 2, U.upv)) - 1) : gn0),
        u2(2 * U.u),
        u3(3 * U.u),
        u5(5 * U.u) {}
  long n;
  hp gs, gd, gn0, gn, u2, u3, u5;
};

/// Row (b, h, i) of the bounds into B, its logits and softmax terms in W
/// (each_row, softmax_terms with the sink when P has sinks).
inline void bound_row(const problem& P, empty_rows conv, const units& U, const bound_factors& F, const variant& w,
                      long b, long h, long i, std::size_t li, row_work& W, bounds& B) {
  const hp &u = U.u, &mu = U.mu;
  const row_logits& r = W.r;
  const long g = kv_head(P, h, w), n = F.n;
  const bool sinks = !P.sink.empty();
  if (r.keys.empty() && !sinks) {
    if (conv == empty_rows::mean) {
      const long nv = P.k_len[std::size_t(b)];
      for (long c = 0; c < P.d_v; ++c) {
        hp s = 0;
        for (long j = 0; j < nv; ++j) s += abs(hp(P.v[P.vi(b, j, g, c)]));
        B.out[P.oi(b, i, h, c)] =
            nv > 0 ? hp(((1 + F.gs) * (1 + gamma_n(nv + 1, u)) - 1) * s / hp(double(nv)) + U.eta_s / 2) : hp(0);
      }
    }
    return;
  }
  const hp &m = W.m, &z = W.z;
  hp &t1 = W.tmp, &t2 = W.tmp2, &t3 = W.tmp3, &t4 = W.tmp4;
  // acc += x |y| (the product rounded, then the sum)
  const auto add_times_abs = [&t2](hp& acc, const hp& x, const hp& y) {
    mpfr_abs(mp(t2), mp(y), MPFR_RNDN);
    mpfr_mul(mp(t2), mp(x), mp(t2), MPFR_RNDN);
    mpfr_add(mp(acc), mp(acc), mp(t2), MPFR_RNDN);
  };
  hp D = sinks ? hp(3 * u * abs(W.sink) + u * abs(W.sink - m) + 2 * u) : hp(0), ej = 0, Dj = 0;
  for (std::size_t t = 0; t < r.keys.size(); ++t) {
    // e_j = gd a_j [+ u |x_j| + 5u |t_j| + u_s (|x_j| + 2 |t_j|)]
    //             [+ 3u |b_j| + u |s_j| + u_s (|b_j| + |s_j|)], each bracket summed left to right
    mpfr_mul(mp(ej), mp(F.gd), mp(r.a[t]), MPFR_RNDN);
    if (P.softcap > 0) {
      mpfr_abs(mp(t1), mp(r.x[t]), MPFR_RNDN);
      mpfr_mul(mp(t1), mp(u), mp(t1), MPFR_RNDN);
      add_times_abs(t1, F.u5, r.t[t]);
      mpfr_abs(mp(t3), mp(r.t[t]), MPFR_RNDN);
      mpfr_mul_ui(mp(t3), mp(t3), 2, MPFR_RNDN);
      mpfr_abs(mp(t2), mp(r.x[t]), MPFR_RNDN);
      mpfr_add(mp(t3), mp(t2), mp(t3), MPFR_RNDN);
      mpfr_mul(mp(t3), mp(U.us), mp(t3), MPFR_RNDN);
      mpfr_add(mp(t1), mp(t1), mp(t3), MPFR_RNDN);
      mpfr_add(mp(ej), mp(ej), mp(t1), MPFR_RNDN);
    }
    if (!P.alibi.empty()) {
      // |b_j|: the ALiBi term alone (r.bias holds it plus an explicit bias, exactly)
      if (P.bias.empty()) mpfr_abs(mp(t4), mp(r.bias[t]), MPFR_RNDN);
      else mpfr_sub_d(mp(t4), mp(r.bias[t]), r.beta[t], MPFR_RNDN), mpfr_abs(mp(t4), mp(t4), MPFR_RNDN);
      mpfr_mul(mp(t1), mp(F.u3), mp(t4), MPFR_RNDN);
      add_times_abs(t1, u, r.s[t]);
      mpfr_set(mp(t3), mp(t4), MPFR_RNDN);
      mpfr_abs(mp(t2), mp(r.s[t]), MPFR_RNDN);
      mpfr_add(mp(t3), mp(t3), mp(t2), MPFR_RNDN);
      mpfr_mul(mp(t3), mp(U.us), mp(t3), MPFR_RNDN);
      mpfr_add(mp(t1), mp(t1), mp(t3), MPFR_RNDN);
      mpfr_add(mp(ej), mp(ej), mp(t1), MPFR_RNDN);
    }
    if (!P.bias.empty()) {  // 3u |beta_j| + u |s_j| + u_s (|beta_j| + |s_j|)
      mpfr_set_d(mp(t3), std::fabs(r.beta[t]), MPFR_RNDN);
      mpfr_mul(mp(t1), mp(F.u3), mp(t3), MPFR_RNDN);
      add_times_abs(t1, u, r.s[t]);
      mpfr_abs(mp(t2), mp(r.s[t]), MPFR_RNDN);
      mpfr_add(mp(t3), mp(t3), mp(t2), MPFR_RNDN);
      mpfr_mul(mp(t3), mp(U.us), mp(t3), MPFR_RNDN);
      mpfr_add(mp(t1), mp(t1), mp(t3), MPFR_RNDN);
      mpfr_add(mp(ej), mp(ej), mp(t1), MPFR_RNDN);
    }
    // D_j = e_j + 2u |s_j| + u |s_j - m| + 2u
    mpfr_set(mp(Dj), mp(ej), MPFR_RNDN);
    add_times_abs(Dj, F.u2, r.s[t]);
    mpfr_sub(mp(t1), mp(r.s[t]), mp(m), MPFR_RNDN);
    add_times_abs(Dj, u, t1);
    mpfr_add(mp(Dj), mp(Dj), mp(F.u2), MPFR_RNDN);
    if (D < Dj) mpfr_set(mp(D), mp(Dj), MPFR_RNDN);
  }
  const hp e2 = exp(2 * D), rel = (e2 - 1) + F.gn * e2;
  for (long c = 0; c < P.d_v; ++c) {
    double vmax = 0;
    mpfr_set_zero(mp(t3), 1);
    for (std::size_t t = 0; t < r.keys.size(); ++t) {
      const double av = std::fabs(P.v[P.vi(b, r.keys[t], g, c)]);
      mpfr_mul_d(mp(t1), mp(W.e[t]), av, MPFR_RNDN);
      mpfr_add(mp(t3), mp(t3), mp(t1), MPFR_RNDN);
      if (vmax < av) vmax = av;
    }
    B.out[P.oi(b, i, h, c)] = rel * (t3 / z) + underflow_term(n, U, hp(vmax));
  }
  const hp lse = m + log(z);
  B.lse[li] = D + F.gn + hp(double(n)) * mu + 2 * u * (abs(lse) + abs(m)) + u;
}

inline bounds bounds_for(const problem& P) {
  bounds B;
  B.out.assign(P.out_size(), hp(0));
  B.lse.assign(P.lse_size(), hp(0));
  return B;
}

/// The bound of every entry computed by MPFR (fast_bound.h's any_order()
/// computes the problem's own reading in binary64 and calls this for the
/// rest).
inline bounds any_order_mp(const problem& P, empty_rows conv, const units& U, const row_set* rows = nullptr,
                           const variant& w = {}) {
  bounds B = bounds_for(P);
  const bound_factors F(P, U);
  const bool sinks = !P.sink.empty();
  row_work W(P, w);
  each_row(P, w, rows, W, [&](long b, long h, long i, std::size_t li) {
    softmax_terms(W, sinks);
    bound_row(P, conv, U, F, w, b, h, i, li, W, B);
  });
  return B;
}

/// reference() and any_order_mp() of the same problem, reading and the same
/// rows, computed together: each row's logits and exponentials once. The
/// values are theirs bit for bit; a reading that drops the sinks (whose
/// bound still counts them) is computed by the two apart.
struct exact_and_bounds {
  exact E;
  bounds B;
};

inline exact_and_bounds reference_and_bound_mp(const problem& P, empty_rows conv, const units& U,
                                               const variant& w = {}, const row_set* rows = nullptr) {
  const bool sinks = !P.sink.empty();
  if (sinks && w.no_sinks) return {reference(P, conv, w, rows), any_order_mp(P, conv, U, rows, w)};
  exact_and_bounds R{exact_for(P), bounds_for(P)};
  const bound_factors F(P, U);
  row_work W(P, w);
  each_row(P, w, rows, W, [&](long b, long h, long i, std::size_t li) {
    softmax_terms(W, sinks);
    exact_row(P, conv, w, sinks, b, h, i, li, W, R.E);
    bound_row(P, conv, U, F, w, b, h, i, li, W, R.B);
  });
  return R;
}


/// The bound in words (each attend law quotes it in its tolerance).
inline std::string any_order_rule() {
  return "B = [(e^{2D} - 1) + gamma_{4n+4} e^{2D}] sum_j p_j |v_jc| + n mu max_j |v_jc| per output entry and "
         "B_lse = D + gamma_{4n+4} + n mu + 2u (|lse| + |m|) + u per log-sum-exp, n = n_k + 1 (the keys and the "
         "sink), D = max over the visible keys (and the sink) of gamma_{d+3} |scale| sum_l |q_l k_jl| "
         "[+ u |x_j| + 5u |t_j| with softcap, tanh within 4 ulps] [+ 3u |alibi_j| + u |s_j| with ALiBi] [+ 3u |beta_j| + u |s_j| with an explicit bias] "
         "+ 2u |s_j| (exp2 with log2 e folded into the scale) + u |s_j - m| + 2u (an a-priori bound against the exact value for sums over keys in any order, "
         "blocked or streamed; mu = smallest normal; empty rows exact; under a storage class of unit "
         "roundoff u_s, q, k, v and out stored at u_s and the sums at the arithmetic's u: gamma_{d+3} (1 + g_s) "
         "+ g_s for gamma_{d+3} and (1 + u_s)^2 (1 + gamma_{4n+4}) - 1 for gamma_{4n+4}, g_s = (1 + u_s)^2 - 1, "
         "as attention.reference counts it, + u_s (|x_j| + 2 |t_j|) with softcap, u_s (|alibi_j| + |s_j|) with ALiBi and u_s (|beta_j| + |s_j|) with a bias "
         "for their intermediates stored in the format, + eta_s / 2 for a subnormal output, inputs drawn in the format)";
}

}  // namespace pv::laws::attend
