// The operations of the plugin interface (include/posverify/impl.h), one row
// each (the description: operation.h). The child, the probe, the pipe
// adapter, the Python server (which receives this table, docs/protocol.md),
// the report and `merge` walk these rows; the black-box laws of an operation
// register under its op (blackbox/laws.h).
//
// Adding an operation: its member at the end of pv_impl (a new ABI version,
// `since`), an enumerator and a row here, and its laws. The enumerators
// follow the rows: op k is row k, provides bit k (the probe, the HELLO of
// the pipe) and request type k + 2 on the pipe.
#pragma once

#include "core/seeded.h"
#include "sandbox/call.h"
#include "sandbox/operation.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <algorithm>
#include <vector>

namespace pv::sandbox {

enum class op : std::uint8_t { attention, rope, sinusoid, attend };

/// Every RoPE configuration capability (pv_rope_capability, impl.h): what a
/// plugin or server may declare, and what a plugin of ABI versions 3-5, which
/// declared nothing, is taken to take.
inline constexpr std::uint32_t kEveryRopeCapability = PV_ROPE_PARTIAL | PV_ROPE_MROPE | PV_ROPE_SCALED;
/// The configurations of version 7 (a rotary offset, per-pair frequency
/// factors): declared only, by a plugin of version 7 or a server of protocol 3.
inline constexpr std::uint32_t kRopeVersion7Capabilities = PV_ROPE_ROTARY_OFFSET | PV_ROPE_FREQ_FACTORS;
/// What a version-6 plugin or a server may declare in rope_caps: those, how
/// it computes dynamic NTK's length (PV_ROPE_LENGTH_FROM_POSITIONS, never
/// implied: sandbox/length_model.h), and the configurations of version 7.
inline constexpr std::uint32_t kEveryRopeDeclaration =
    kEveryRopeCapability | PV_ROPE_LENGTH_FROM_POSITIONS | kRopeVersion7Capabilities;

/// Every pv_attend_capability bit (what a server may declare in attend_caps),
/// the fixed-schedule declaration with them.
inline constexpr std::uint32_t kEveryAttendCapability = PV_ATTEND_CAUSAL | PV_ATTEND_WINDOW | PV_ATTEND_PADDING |
                                                        PV_ATTEND_GQA | PV_ATTEND_SOFTCAP | PV_ATTEND_SINKS |
                                                        PV_ATTEND_ALIBI | PV_ATTEND_LSE | PV_ATTEND_FIXED_SCHEDULE |
                                                        PV_ATTEND_BIAS | PV_ATTEND_VARLEN;
/// What a server of protocol version 5 may declare: packed items travel from
/// version 6 (their offsets are buffers of that version's field n_cu).
inline constexpr std::uint32_t kProtocol5AttendCapabilities = kEveryAttendCapability & ~std::uint32_t(PV_ATTEND_VARLEN);
/// What a server of protocol version 4 may declare: the explicit bias
/// travels from version 5 (its members are fields of that version).
inline constexpr std::uint32_t kProtocol4AttendCapabilities =
    kProtocol5AttendCapabilities & ~std::uint32_t(PV_ATTEND_BIAS);

/// The configuration of a rope() call (its first buffer; zero past a short one).
inline pv_rope_config rope_config_of(const call& c) {
  pv_rope_config r{};
  const auto& b = c.input(0);
  std::memcpy(&r, b.data(), std::min(b.size(), sizeof r));
  return r;
}

/// The text of a row's `configuration` (operation.h).
namespace row_text {

/// The bytes of a configuration struct as 16 hex digits (FNV-1a).
inline std::string digest(const std::vector<unsigned char>& b) {
  char t[17];
  std::snprintf(t, sizeof t, "%016llx",
                static_cast<unsigned long long>(fnv1a({reinterpret_cast<const char*>(b.data()), b.size()})));
  return t;
}

/// A double, losslessly.
inline std::string exact(double v) {
  char t[32];
  std::snprintf(t, sizeof t, "%.17g", v);
  return t;
}

/// A RoPE configuration: its main members, then a digest of every byte
/// (scaling, M-RoPE), which alone tells two configurations apart. Without
/// the members of version 7 the digest covers the struct of version 3 only
/// (the digests of those configurations did not change when it grew).
inline std::string rope_configuration(const call& c) {
  const pv_rope_config r = rope_config_of(c);
  auto b = c.input(0);
  const bool v7 = r.rotary_offset || r.n_freq_factors;
  if (!v7 && b.size() > offsetof(pv_rope_config, rotary_offset)) b.resize(offsetof(pv_rope_config, rotary_offset));
  std::string t = "configuration head_dim " + std::to_string(r.head_dim) + ", axes ";
  for (int a = 0; a < r.n_axes && a < 4; ++a) t += (a ? "+" : "") + std::to_string(r.axes_dim[a]);
  return t + ", theta " + exact(r.theta) + (r.pairing == PV_PAIRS_HALVES ? ", halves" : ", adjacent") +
         (r.mrope ? ", M-RoPE" : "") + (r.scaling.kind ? ", scaled" : "") +
         (r.rotary_offset ? ", rotary offset " + std::to_string(r.rotary_offset) : std::string()) +
         (r.n_freq_factors ? ", " + std::to_string(r.n_freq_factors) + " frequency factors" : std::string()) +
         " (bytes " + digest(b) + ")";
}

}  // namespace row_text

namespace attend_row {

/// The problem description of an attend call (its configuration buffer; the
/// pointer members are null there and set by invoke to the call's buffers).
inline pv_attention_problem problem_of(const call& c) {
  pv_attention_problem p{};
  std::memcpy(&p, c.input(0).data(), std::min(sizeof p, c.input(0).size()));
  return p;
}

/// The elements a strided tensor spans: 1 + sum over (batch, token, head) of
/// (count - 1) stride, + the contiguous last dimension - 1; 0 when empty.
inline std::size_t span(const std::int64_t* stride, std::int64_t batch, std::int64_t tokens, std::int64_t heads,
                        std::int64_t last) {
  if (batch <= 0 || tokens <= 0 || heads <= 0 || last <= 0) return 0;
  return std::size_t((batch - 1) * stride[0] + (tokens - 1) * stride[1] + (heads - 1) * stride[2] + last);
}

/// Calls f(dense, strided) once per contiguous row of a [n0][n1][n2][last]
/// tensor, in row-major order: `dense` is the row's first element when the
/// tensor is dense, `strided` its first element under the (n0, n1, n2)
/// strides `stride` (the last dimension is contiguous). The one rule by which
/// posverify lays out, sends, receives and reads back a strided tensor.
template <class F>
void for_each_row(const std::int64_t* stride, std::int64_t n0, std::int64_t n1, std::int64_t n2, std::int64_t last,
                  F&& f) {
  std::size_t dense = 0;
  for (std::int64_t i = 0; i < n0; ++i)
    for (std::int64_t j = 0; j < n1; ++j)
      for (std::int64_t k = 0; k < n2; ++k, dense += std::size_t(last))
        f(dense, std::size_t(i * stride[0] + j * stride[1] + k * stride[2]));
}

/// The field that packs the items of q, k, v, out and lse in one sequence (buffer::sequence).
inline constexpr const char* kSequence = "n_cu";

/// A buffer's `elements` for the strided tensor of the problem whose strides
/// are member S and whose tokens, heads and last dimension are N, H and L
/// (packed items: one sequence, whatever the batch stride).
template <auto S, auto N, auto H, auto L>
std::size_t strided_elements(const call& c) {
  const pv_attention_problem p = problem_of(c);
  return span(p.*S, c.batch_extent(kSequence, p.batch), p.*N, p.*H, p.*L);
}

/// The buffers of attend() by index (the operation's row below).
enum buffer_index : std::size_t {
  kProblem = 0, kQ, kK, kV, kQStart, kKLen, kSink, kAlibi, kBias, kCuQ, kCuK, kOut, kLse
};

/// Item b's query and key counts: n_q and n_k, or with packed items (cu_q and
/// cu_k, the call's two offset arrays, null without) the item's own.
inline std::pair<std::int64_t, std::int64_t> item_counts(const pv_attention_problem& p, const std::int64_t* cu_q,
                                                         const std::int64_t* cu_k, std::int64_t b) {
  if (!cu_q || !cu_k) return {p.n_q, p.n_k};
  return {cu_q[b + 1] - cu_q[b], cu_k[b + 1] - cu_k[b]};
}
using problem_t = pv_attention_problem;

/// The capabilities a call needs (pv_attend_capability bits), and bit 31
/// when some row is empty (the plugin must declare an empty-row convention).
inline constexpr std::uint32_t kEmptyRows = 1u << 31;
inline std::uint32_t demands(const call& c) {
  pv_attention_problem p = problem_of(c);
  const auto ints = [&](std::size_t at, std::int64_t n) {
    std::vector<std::int64_t> v(std::size_t(std::max<std::int64_t>(n, 0)));
    if (!v.empty()) std::memcpy(v.data(), c.input(at).data(), std::min(v.size() * 8, c.input(at).size()));
    return v;
  };
  std::vector<std::int64_t> qv = ints(kQStart, p.batch), kv = ints(kKLen, p.batch);
  p.q_start = qv.data();
  p.k_len = kv.data();
  std::vector<double> bias(c.input(kBias).size() / 8);
  if (!bias.empty()) std::memcpy(bias.data(), c.input(kBias).data(), bias.size() * 8);
  p.bias = p.bias_batch > 0 && !bias.empty() ? bias.data() : nullptr;
  const bool packed = c.dim("n_cu") > 0;
  const std::vector<std::int64_t> cq = ints(kCuQ, packed ? p.batch + 1 : 0), ck = ints(kCuK, packed ? p.batch + 1 : 0);
  const std::int64_t *cu_q = packed ? cq.data() : nullptr, *cu_k = packed ? ck.data() : nullptr;
  std::uint32_t bits = packed ? std::uint32_t(PV_ATTEND_VARLEN) : 0u;
  if (p.causal) bits |= PV_ATTEND_CAUSAL;
  if (p.window_left >= 0 || p.window_right >= 0) bits |= PV_ATTEND_WINDOW;
  for (std::int64_t b = 0; b < p.batch; ++b)
    if (kv[std::size_t(b)] < item_counts(p, cu_q, cu_k, b).second) bits |= PV_ATTEND_PADDING;
  if (p.h_kv != p.h_q) bits |= PV_ATTEND_GQA;
  if (p.softcap != 0) bits |= PV_ATTEND_SOFTCAP;
  if (c.dim("n_sink")) bits |= PV_ATTEND_SINKS;
  if (c.dim("n_alibi")) bits |= PV_ATTEND_ALIBI;
  if (c.dim("n_lse")) bits |= PV_ATTEND_LSE;
  if (p.bias) bits |= PV_ATTEND_BIAS;
  if (!c.dim("n_sink"))
    for (std::int64_t b = 0; b < p.batch && !(bits & kEmptyRows); ++b)
      for (std::int64_t i = 0, n = item_counts(p, cu_q, cu_k, b).first; i < n && !(bits & kEmptyRows); ++i) {
        bool any = false;
        for (std::int64_t j = 0, m = item_counts(p, cu_q, cu_k, b).second; j < m && !any; ++j)
          any = pv_attend_visible(&p, b, i, j);
        if (!any) bits |= kEmptyRows;
      }
  return bits;
}

}  // namespace attend_row

inline const std::vector<operation>& operations() {
  static const std::vector<operation> rows = {
      {
          // out[n_q x d_v] = softmax(q k^T / sqrt(d)) v
          .name = "attention",
          .since = 1,
          .fields = {{.name = "n_q"}, {.name = "n_k"}, {.name = "d"}, {.name = "d_v"}},
          .buffers = {{.name = "q", .shape = {"n_q", "d"}},
                      {.name = "k", .shape = {"n_k", "d"}},
                      {.name = "v", .shape = {"n_k", "d_v"}},
                      {.name = "out", .use = role::out, .shape = {"n_q", "d_v"}}},
          .python = {"q", "k", "v"},
          .provided = [](const pv_impl& f) { return f.attention != nullptr; },
          .invoke = [](const pv_impl& f, const invocation& a) {
            return f.attention(a.t, a.p(0), a.p(1), a.p(2), a.i(0), a.i(1), a.i(2), a.i(3), a.p(3));
          },
          .work = [](const call& c) {
            return double(c.dim("n_q")) * double(c.dim("n_k")) * double(c.dim("d") + c.dim("d_v"));
          },
      },
      {
          // rotates x[n x head_dim] in place; pos[n x n_axes]
          .name = "rope",
          .since = 1,
          .fields = {{.name = "n"},
                     {.name = "head_dim", .type = wire::i32, .config = 0, .offset = offsetof(pv_rope_config, head_dim)},
                     {.name = "n_axes", .type = wire::i32, .config = 0, .offset = offsetof(pv_rope_config, n_axes),
                      .lo = 1, .hi = 4},
                     {.name = "axes_dim", .type = wire::i32, .config = 0, .offset = offsetof(pv_rope_config, axes_dim),
                      .count = 4, .length = "n_axes"},
                     {.name = "theta", .type = wire::f64, .config = 0, .offset = offsetof(pv_rope_config, theta)},
                     {.name = "pairing", .type = wire::u8, .config = 0, .offset = offsetof(pv_rope_config, pairing),
                      .lo = 0, .hi = 1, .names = "adjacent|halves"},
                     // protocol version 2: the members of ABI version 3 (M-RoPE, scaled speeds)
                     {.name = "mrope", .type = wire::u8, .config = 0, .offset = offsetof(pv_rope_config, mrope),
                      .lo = 0, .hi = 1, .protocol = 2, .boolean = true},
                     {.name = "scaling.kind", .type = wire::i32, .config = 0,
                      .offset = offsetof(pv_rope_config, scaling) + offsetof(pv_rope_scaling, kind), .lo = 0, .hi = PV_SCALE_LLAMA3,
                      .names = "none|linear|ntk|dynamic_ntk|yarn|llama3", .protocol = 2, .python_class = "RopeScaling"},
#define PV_SCALING_FIELD(m)                                                                              \
  {.name = "scaling." #m, .type = wire::f64, .config = 0,                                                \
   .offset = offsetof(pv_rope_config, scaling) + offsetof(pv_rope_scaling, m), .protocol = 2, \
   .python_class = "RopeScaling"}
                     PV_SCALING_FIELD(factor), PV_SCALING_FIELD(low), PV_SCALING_FIELD(high),
                     PV_SCALING_FIELD(original_length), PV_SCALING_FIELD(length),
                     PV_SCALING_FIELD(attention_factor),
                     // protocol version 3: the members of ABI version 7 (rotary offset, frequency factors)
                     {.name = "rotary_offset", .type = wire::i32, .config = 0,
                      .offset = offsetof(pv_rope_config, rotary_offset), .lo = 0, .hi = 4096, .protocol = 3},
                     {.name = "n_freq_factors", .type = wire::i32, .config = 0,
                      .offset = offsetof(pv_rope_config, n_freq_factors), .lo = 0, .hi = PV_MAX_FREQ_FACTORS,
                      .protocol = 3},
                     {.name = "freq_factors", .type = wire::f64, .config = 0,
                      .offset = offsetof(pv_rope_config, freq_factors), .count = PV_MAX_FREQ_FACTORS,
                      .length = "n_freq_factors", .protocol = 3}},
#undef PV_SCALING_FIELD
          .buffers = {{.name = "cfg", .type = elem::config, .bytes = sizeof(pv_rope_config),
                       .python_class = "RopeConfig"},
                      {.name = "pos", .type = elem::f64, .shape = {"n", "n_axes"}, .positions = true},
                      {.name = "x", .use = role::inout, .shape = {"n", "head_dim"}}},
          .python = {"x", "pos", "cfg"},
          .provided = [](const pv_impl& f) { return f.rope != nullptr; },
          .invoke = [](const pv_impl& f, const invocation& a) {
            return f.rope(a.t, a.p<const pv_rope_config>(0), a.p<const double>(1), a.i(0), a.p(2));
          },
          .work = [](const call& c) { return double(c.dim("n")) * double(c.dim("head_dim")); },
          .configuration = row_text::rope_configuration,
          // partial rotary, M-RoPE, scaled speeds: version 3; a rotary offset,
          // frequency factors: version 7 (pv_rope_config_version)
          .needs = [](const call& c) {
            return std::uint32_t(pv_rope_config_version(reinterpret_cast<const pv_rope_config*>(c.input(0).data())));
          },
          // ... each declared in rope_caps from version 6 (implied by versions 3 to 5)
          .demands = [](const call& c) {
            const auto* cfg = reinterpret_cast<const pv_rope_config*>(c.input(0).data());
            std::int64_t sum = 0;
            for (int a = 0; a < cfg->n_axes && a < 4; ++a) sum += cfg->axes_dim[a];
            return (sum != cfg->head_dim ? std::uint32_t(PV_ROPE_PARTIAL) : 0u) |
                   (cfg->mrope ? std::uint32_t(PV_ROPE_MROPE) : 0u) |
                   (cfg->scaling.kind ? std::uint32_t(PV_ROPE_SCALED) : 0u) |
                   (cfg->rotary_offset ? std::uint32_t(PV_ROPE_ROTARY_OFFSET) : 0u) |
                   (cfg->n_freq_factors ? std::uint32_t(PV_ROPE_FREQ_FACTORS) : 0u);
          },
          .declares = [](const pv_impl& f) {
            return f.abi_version >= 6   ? f.rope_caps & kEveryRopeDeclaration
                   : f.abi_version >= 3 ? kEveryRopeCapability
                                        : 0u;
          },
      },
      {
          // out[n x d] = additive sinusoid, adjacent (sin, cos) pairs
          .name = "sinusoid",
          .since = 1,
          .fields = {{.name = "n"}, {.name = "d"}, {.name = "base", .type = wire::f64}},
          .buffers = {{.name = "pos", .type = elem::f64, .shape = {"n"}, .positions = true},
                      {.name = "out", .use = role::out, .shape = {"n", "d"}}},
          .python = {"pos", "d", "base", "dtype"},
          .provided = [](const pv_impl& f) { return f.sinusoid != nullptr; },
          .invoke = [](const pv_impl& f, const invocation& a) {
            return f.sinusoid(a.t, a.i(1), a.f(2), a.p<const double>(0), a.i(0), a.p(1));
          },
          .work = [](const call& c) { return double(c.dim("n")) * double(c.dim("d")); },
          .configuration = [](const call& c) { return "base " + row_text::exact(c.scalars[2].f); },
      },
      {
          // version 4: attention over a problem description (pv_attention_problem):
          // batch x heads with strides, GQA, causal/window masks, padding,
          // scale, softcap, sinks, ALiBi, LSE. Carried by the pipe from protocol version 4.
          .name = "attend",
          .since = 4,
          .fields = {{.name = "n_sink", .lo = 0, .protocol = 4},
                     {.name = "n_alibi", .lo = 0, .protocol = 4},
                     {.name = "n_lse", .lo = 0, .protocol = 4},
                     // protocol version 6: packed items (0, or batch + 1 offsets each)
                     {.name = "n_cu", .lo = 0, .protocol = 6},
#define PV_ATTEND_FIELD(m, w, ...) \
  {.name = #m, .type = wire::w, .config = 0, .offset = offsetof(pv_attention_problem, m), __VA_ARGS__ .protocol = 4}
                     PV_ATTEND_FIELD(batch, i64, .lo = 0, ), PV_ATTEND_FIELD(h_q, i64, .lo = 0, ),
                     PV_ATTEND_FIELD(h_kv, i64, .lo = 0, ), PV_ATTEND_FIELD(n_q, i64, .lo = 0, ),
                     PV_ATTEND_FIELD(n_k, i64, .lo = 0, ), PV_ATTEND_FIELD(d, i64, .lo = 0, ),
                     PV_ATTEND_FIELD(d_v, i64, .lo = 0, ), PV_ATTEND_FIELD(q_stride, i64, .count = 3, ),
                     PV_ATTEND_FIELD(k_stride, i64, .count = 3, ), PV_ATTEND_FIELD(v_stride, i64, .count = 3, ),
                     PV_ATTEND_FIELD(out_stride, i64, .count = 3, ),
                     {.name = "causal", .type = wire::i32, .config = 0, .offset = offsetof(pv_attention_problem, causal),
                      .lo = 0, .hi = 1, .protocol = 4, .boolean = true},
                     PV_ATTEND_FIELD(window_left, i64, ), PV_ATTEND_FIELD(window_right, i64, ),
                     PV_ATTEND_FIELD(scale, f64, ), PV_ATTEND_FIELD(softcap, f64, ),
                     // protocol version 5: the explicit bias (its items; the bias is a buffer)
                     {.name = "bias_batch", .type = wire::i64, .config = 0,
                      .offset = offsetof(pv_attention_problem, bias_batch), .lo = 0, .protocol = 5}},
#undef PV_ATTEND_FIELD
          .buffers = {{.name = "problem", .type = elem::config, .bytes = sizeof(pv_attention_problem),
                       .python_class = "AttentionProblem"},
                      {.name = "q", .shape = {"batch", "n_q", "h_q", "d"},
                       .elements = attend_row::strided_elements<&attend_row::problem_t::q_stride, &attend_row::problem_t::n_q,
                                                                 &attend_row::problem_t::h_q, &attend_row::problem_t::d>,
                       .strides = "q_stride", .sequence = attend_row::kSequence},
                      {.name = "k", .shape = {"batch", "n_k", "h_kv", "d"},
                       .elements = attend_row::strided_elements<&attend_row::problem_t::k_stride, &attend_row::problem_t::n_k,
                                                                 &attend_row::problem_t::h_kv, &attend_row::problem_t::d>,
                       .strides = "k_stride", .sequence = attend_row::kSequence},
                      {.name = "v", .shape = {"batch", "n_k", "h_kv", "d_v"},
                       .elements = attend_row::strided_elements<&attend_row::problem_t::v_stride, &attend_row::problem_t::n_k,
                                                                 &attend_row::problem_t::h_kv, &attend_row::problem_t::d_v>,
                       .strides = "v_stride", .sequence = attend_row::kSequence},
                      {.name = "q_start", .type = elem::i64, .shape = {"batch"}, .member = "problem"},
                      {.name = "k_len", .type = elem::i64, .shape = {"batch"}, .member = "problem"},
                      {.name = "sink", .type = elem::f64, .shape = {"n_sink"}, .member = "problem"},
                      {.name = "alibi", .type = elem::f64, .shape = {"n_alibi"}, .member = "problem"},
                      {.name = "bias", .type = elem::f64, .shape = {"bias_batch", "n_q", "n_k"}, .member = "problem"},
                      {.name = "cu_seqlens_q", .type = elem::i64, .shape = {"n_cu"}, .member = "problem"},
                      {.name = "cu_seqlens_k", .type = elem::i64, .shape = {"n_cu"}, .member = "problem"},
                      {.name = "out", .use = role::out, .shape = {"batch", "n_q", "h_q", "d_v"},
                       .elements = attend_row::strided_elements<&attend_row::problem_t::out_stride, &attend_row::problem_t::n_q,
                                                                 &attend_row::problem_t::h_q, &attend_row::problem_t::d_v>,
                       .strides = "out_stride", .sequence = attend_row::kSequence},
                      {.name = "lse", .type = elem::f64, .use = role::out, .shape = {"n_lse"}, .member = "problem",
                       .python_shape = {"batch", "h_q", "n_q"}, .sequence = attend_row::kSequence}},
          .python = {"q", "k", "v", "problem"},
          .provided = [](const pv_impl& f) { return f.attend != nullptr; },
          .invoke = [](const pv_impl& f, const invocation& a) {
            using namespace attend_row;
            pv_attention_problem p = problem_of(*a.c);
            p.q_start = a.p<const std::int64_t>(kQStart);
            p.k_len = a.p<const std::int64_t>(kKLen);
            p.sink = a.i(0) ? a.p<const double>(kSink) : nullptr;
            p.alibi = a.i(1) ? a.p<const double>(kAlibi) : nullptr;
            p.bias = p.bias_batch > 0 ? a.p<const double>(kBias) : nullptr;
            p.cu_seqlens_q = a.i(3) ? a.p<const std::int64_t>(kCuQ) : nullptr;
            p.cu_seqlens_k = a.i(3) ? a.p<const std::int64_t>(kCuK) : nullptr;
            return f.attend(a.t, &p, a.p(kQ), a.p(kK), a.p(kV), a.p(kOut), a.i(2) ? a.p<double>(kLse) : nullptr);
          },
          .work = [](const call& c) {
            return double(c.dim("batch")) * double(c.dim("h_q")) * double(c.dim("n_q")) * double(c.dim("n_k")) *
                   double(c.dim("d") + c.dim("d_v"));
          },
          .demands = attend_row::demands,
          .declares = [](const pv_impl& f) {
            return f.attend_caps | (f.attend_empty_rows ? attend_row::kEmptyRows : 0u);
          },
          .checks_finite = false,
          .protocol = 4,
      },
  };
  return rows;
}

}  // namespace pv::sandbox
