// The attend() calls of the black-box attend laws (attend_laws.cpp,
// attend_models.cpp): an input as the kernel's arithmetic receives it, the
// tensors laid out with strides (the memory between strides NaN: it must not
// be read), the call of a problem, its output read back dense, a problem's
// lossless text, and the units, empty-row convention and worst-entry record
// every attend law judges with.
#pragma once

#include "blackbox/check_run.h"
#include "blackbox/law_run.h"
#include "laws/attend/compare.h"
#include "laws/attend/problem.h"
#include "blackbox/calls.h"
#include "sandbox/call.h"
#include "sandbox/operations.h"

#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace pv::blackbox::attend_calls {

using laws::attend::problem;
namespace la = laws::attend;

/// x as an input of type T reaches the kernel's arithmetic: rounded to T, and
/// to the storage format of a 16-bit wire or a declared float16 / bfloat16
/// class (attention_law_units), so that the bound need not count an input
/// that underflows there. Make one per draw, not one per value: it asks
/// attention_law_units, a few hp values, once.
template <class T>
struct storage {
  explicit storage(const check_run& cx) : acc(cx.accuracy), in_format(attention_law_units<T>(cx).storage > 0) {}
  double operator()(double x) const {
    const double t = double(T(x));
    return in_format ? round_to_format(t, acc) : t;
  }
  accuracy_class acc;
  bool in_format;
};

/// Strides (in elements) of one tensor [batch][tokens][heads][last]: dense
/// (batch, token, head), dense (batch, head, token), or with gaps.
struct layout {
  std::int64_t s[3] = {0, 0, 0};
  std::size_t span = 0;
  std::string name;
};

inline layout dense_layout(long batch, long tokens, long heads, long last) {
  layout L;
  L.s[2] = last;
  L.s[1] = heads * last;
  L.s[0] = tokens * heads * last;
  L.name = "dense (batch, token, head)";
  L.span = sandbox::attend_row::span(L.s, batch, tokens, heads, last);
  return L;
}

/// Dense (batch, head, token) when by_head, else (batch, token, head) with
/// gaps of at least `least` elements after each head, token and item.
inline layout strided_layout(rng& g, bool by_head, long least, long batch, long tokens, long heads, long last) {
  layout L;
  if (by_head) {
    L.s[1] = last;
    L.s[2] = tokens * last;
    L.s[0] = heads * tokens * last;
    L.name = "dense (batch, head, token)";
  } else {
    L.s[2] = last + g.range(least, 3);
    L.s[1] = heads * L.s[2] + g.range(least, 3);
    L.s[0] = tokens * L.s[1] + g.range(least, 5);
    L.name = "with gaps";
  }
  L.span = sandbox::attend_row::span(L.s, batch, tokens, heads, last);
  return L;
}

inline layout draw_layout(rng& g, long batch, long tokens, long heads, long last) {
  const long mode = g.range(0, 2);
  if (mode == 0) return dense_layout(batch, tokens, heads, last);
  return strided_layout(g, mode == 1, 0, batch, tokens, heads, last);
}

struct layouts {
  layout q, k, v, out;
};

/// The tensors of a call, t = 0 .. 3: q, k, v, out (the order of layouts).
inline constexpr const char* kTensorNames[] = {"q", "k", "v", "out"};

/// Tensor t's [batch][tokens][heads][last] shape in P.
struct tensor_dims {
  long tokens, heads, last;
};
inline tensor_dims dims_of(const problem& P, std::size_t t) {
  const bool queries = t == 0 || t == 3;
  return {queries ? P.n_q : P.n_k, queries ? P.h_q : P.h_kv, t == 0 || t == 1 ? P.d : P.d_v};
}

/// Tensor t's layout in L.
inline layout& layout_of(layouts& L, std::size_t t) { return t == 0 ? L.q : t == 1 ? L.k : t == 2 ? L.v : L.out; }
inline const layout& layout_of(const layouts& L, std::size_t t) {
  return t == 0 ? L.q : t == 1 ? L.k : t == 2 ? L.v : L.out;
}

/// Every tensor of P dense (batch, token, head).
inline layouts dense_layouts(const problem& P) {
  layouts D;
  for (std::size_t t = 0; t < 4; ++t) {
    const auto [tokens, heads, last] = dims_of(P, t);
    layout_of(D, t) = dense_layout(P.batch, tokens, heads, last);
  }
  return D;
}

inline layouts draw_layouts(rng& g, const problem& P) {
  return {draw_layout(g, P.batch, P.n_q, P.h_q, P.d), draw_layout(g, P.batch, P.n_k, P.h_kv, P.d),
          draw_layout(g, P.batch, P.n_k, P.h_kv, P.d_v), draw_layout(g, P.batch, P.n_q, P.h_q, P.d_v)};
}

inline std::string strides_text(const layout& L) {
  return "(" + std::to_string(L.s[0]) + ", " + std::to_string(L.s[1]) + ", " + std::to_string(L.s[2]) + ") " + L.name;
}

/// A dense [batch][tokens][heads][last] tensor laid out by L, the memory
/// between strides NaN.
template <class T>
std::vector<unsigned char> strided(const std::vector<double>& dense, const layout& L, long batch, long tokens,
                                   long heads, long last) {
  std::vector<T> buf(L.span, std::numeric_limits<T>::quiet_NaN());
  sandbox::attend_row::for_each_row(L.s, batch, tokens, heads, last, [&](std::size_t dense_at, std::size_t at) {
    for (long l = 0; l < last; ++l) buf[at + std::size_t(l)] = T(dense[dense_at + std::size_t(l)]);
  });
  std::vector<unsigned char> bytes(buf.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), buf.data(), bytes.size());
  return bytes;
}

/// What a kernel reading the buffer of `dense` laid out by L as if it were
/// dense (batch, token, head) -- its strides ignored -- sees: the value at
/// each dense offset of the buffer, NaN in a gap or past its end.
inline std::vector<double> dense_reading(const std::vector<double>& dense, const layout& L, long batch, long tokens,
                                         long heads, long last) {
  std::vector<double> buf(L.span, std::numeric_limits<double>::quiet_NaN());
  sandbox::attend_row::for_each_row(L.s, batch, tokens, heads, last, [&](std::size_t dense_at, std::size_t at) {
    for (long l = 0; l < last; ++l) buf[at + std::size_t(l)] = dense[dense_at + std::size_t(l)];
  });
  std::vector<double> seen(dense.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t o = 0; o < seen.size() && o < buf.size(); ++o) seen[o] = buf[o];
  return seen;
}

inline std::vector<unsigned char> int64_bytes(const std::vector<long>& v) {
  std::vector<std::int64_t> w(v.begin(), v.end());
  std::vector<unsigned char> b(w.size() * 8);
  if (!b.empty()) std::memcpy(b.data(), w.data(), b.size());
  return b;
}

/// The attend() call of problem P laid out by L.
template <class T>
call attend_call(const problem& P, const layouts& L) {
  pv_attention_problem s{};
  const la::varlen_items& V = P.varlen;  // packed items told as such
  s.batch = V.packed() ? V.items() : P.batch;
  s.h_q = P.h_q;
  s.h_kv = P.h_kv;
  s.n_q = P.n_q;
  s.n_k = P.n_k;
  s.d = P.d;
  s.d_v = P.d_v;
  for (int a = 0; a < 3; ++a) {
    s.q_stride[a] = L.q.s[a];
    s.k_stride[a] = L.k.s[a];
    s.v_stride[a] = L.v.s[a];
    s.out_stride[a] = L.out.s[a];
  }
  s.causal = (V.packed() ? V.causal : P.causal) ? 1 : 0;
  s.window_left = V.packed() ? V.left : P.left;
  s.window_right = V.packed() ? V.right : P.right;
  s.scale = P.scale;
  s.softcap = P.softcap;
  s.bias_batch = P.bias.empty() || V.packed() ? 0 : P.bias_batch;
  if (V.packed())  // one sequence: the batch stride is not used
    s.q_stride[0] = s.k_stride[0] = s.v_stride[0] = s.out_stride[0] = 0;
  return call(op::attend, dtype_of<T>(),
              {long(P.sink.size()), long(P.alibi.size()), P.lse ? long(P.lse_size()) : 0L,
               V.packed() ? long(V.cu_q.size()) : 0L},
              {sandbox::bytes_of_struct(s), strided<T>(P.q, L.q, P.batch, P.n_q, P.h_q, P.d),
               strided<T>(P.k, L.k, P.batch, P.n_k, P.h_kv, P.d), strided<T>(P.v, L.v, P.batch, P.n_k, P.h_kv, P.d_v),
               int64_bytes(V.packed() ? V.q_start : P.q_start), int64_bytes(V.packed() ? V.k_len : P.k_len),
               sandbox::bytes_of(P.sink), sandbox::bytes_of(P.alibi),
               V.packed() ? std::vector<unsigned char>() : sandbox::bytes_of(P.bias), int64_bytes(V.cu_q),
               int64_bytes(V.cu_k)});
}

/// The kernel's output of P read back dense (out[b][i][h][c]) from the strided
/// buffer, and its log-sum-exp (empty when not asked for).
template <class T>
void read_back(const problem& P, const layouts& L, const result& R, std::vector<double>& out, std::vector<double>& lse) {
  out.assign(P.out_size(), std::numeric_limits<double>::quiet_NaN());
  lse.clear();
  const std::size_t ob = L.out.span * sizeof(T);
  if (R.out.size() < ob) return;
  sandbox::attend_row::for_each_row(L.out.s, P.batch, P.n_q, P.h_q, P.d_v, [&](std::size_t dense_at, std::size_t at) {
    for (long c = 0; c < P.d_v; ++c) {
      T x;
      std::memcpy(&x, R.out.data() + (at + std::size_t(c)) * sizeof(T), sizeof(T));
      out[dense_at + std::size_t(c)] = double(x);
    }
  });
  if (P.lse && R.out.size() >= ob + P.lse_size() * 8) {
    lse.resize(P.lse_size());
    std::memcpy(lse.data(), R.out.data() + ob, lse.size() * 8);
  }
}

/// Which rows of P's output (lse index (b, h, i)) the kernel never wrote:
/// every byte of the row's d_v entries still 0xFF, the NaN the sandbox fills
/// an output buffer with before the call (sandbox/child_calls.cpp). Empty
/// when the call returned no output.
template <class T>
std::vector<char> unwritten_rows(const problem& P, const layouts& L, const result& R) {
  std::vector<char> rows;
  if (R.out.size() < L.out.span * sizeof(T) || P.d_v < 1) return rows;
  rows.assign(P.lse_size(), 0);
  sandbox::attend_row::for_each_row(L.out.s, P.batch, P.n_q, P.h_q, P.d_v, [&](std::size_t dense_at, std::size_t at) {
    const unsigned char* b = R.out.data() + at * sizeof(T);
    bool fill = true;
    for (std::size_t x = 0; x < std::size_t(P.d_v) * sizeof(T) && fill; ++x) fill = b[x] == 0xFF;
    const long row = long(dense_at) / P.d_v;  // dense out[b][i][h]: the row's (b, i, h)
    const long h = row % P.h_q, i = row / P.h_q % P.n_q, bb = row / P.h_q / P.n_q;
    rows[P.li(bb, h, i)] = fill ? 1 : 0;
  });
  return rows;
}

inline std::string list_text(const std::vector<long>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

inline std::string list_text(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + to_decimal(v[i]);
  return s + "]";
}

/// Lossless text of a problem and its layout (attend_calls.cpp).
std::string describe(const problem& P, const layouts& L);

/// The (b, i, h, c) of a dense output index, in words.
inline std::string entry_of(const problem& P, std::size_t e, bool lse) {
  if (lse) {
    const long i = long(e) % P.n_q, h = long(e) / P.n_q % P.h_q, b = long(e) / P.n_q / P.h_q;
    return "lse (b " + std::to_string(b) + ", h " + std::to_string(h) + ", i " + std::to_string(i) + ")";
  }
  const long c = long(e) % P.d_v, h = long(e) / P.d_v % P.h_q, i = long(e) / P.d_v / P.h_q % P.n_q,
             b = long(e) / P.d_v / P.h_q / P.n_q;
  return "output (b " + std::to_string(b) + ", i " + std::to_string(i) + ", h " + std::to_string(h) + ", c " +
         std::to_string(c) + ")";
}

/// The units of the bound for T, as attention.reference takes them
/// (attention_law_units): a storage class (a 16-bit wire, or a declared
/// float16 / bfloat16) stores q, k, v and out at its u and sums at float32's
/// or T's; one that accumulates in its format counts every rounding at its u,
/// and mu is the smallest normal of the format it computes in.
template <class T>
la::units units(const check_run& cx) {
  const attention_units au = attention_law_units<T>(cx);
  return {au.arith, au.mu, au.storage, au.storage_eta, au.pv, au.pv_eta};
}

inline la::empty_rows convention(const check_run& cx) {
  return static_cast<la::empty_rows>(cx.lib.attend_empty_rows <= 3 ? cx.lib.attend_empty_rows : 0);
}

/// Records the worst entry of a case with the judge's words; false when it
/// is outside its bound.
inline bool record(law_run& L, int k, const problem& P, const laws::attend_compare::worst& w, const std::string& against,
            const describer& desc) {
  if (!w.found) return true;
  return L.within(k, w.diff, w.bound,
                  entry_of(P, w.index, w.lse) + ": got " + to_decimal(w.got) + ", " + against + " " +
                      to_decimal(w.other),
                  desc);
}

}  // namespace pv::blackbox::attend_calls
