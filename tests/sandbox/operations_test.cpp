// The table of operations (sandbox/operations.h): every row well formed, the
// requests it encodes byte for byte those of docs/protocol.md (versions 1 to 3),
// what a pv_impl of each ABI version provides, the size and work of a call.
#include "sandbox/loading.h"
#include "sandbox/operations.h"
#include "sandbox/process_adapter.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

namespace sandbox_operations_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::sandbox;

template <class T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::vector<unsigned char> doubles(std::size_t n, double first) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = first + 0.5 * double(i);
  return bytes_of(v);
}

/// The request body posverify sends for c (what the child's guarded buffers
/// would hold: the call's own input bytes).
std::string body_of(const call& c, std::uint32_t protocol = kProtocolVersion) {
  invocation a;
  a.t = c.t;
  a.c = &c;
  std::vector<std::vector<unsigned char>> out(c.row().buffers.size());
  for (std::size_t k = 0; k < c.row().buffers.size(); ++k) {
    if (c.row().buffers[k].use == role::out) {
      out[k].assign(c.out_bytes(), 0);
      a.buf.push_back(out[k].data());
    } else {
      a.buf.push_back(const_cast<unsigned char*>(c.input(k).data()));
    }
  }
  return request_body(c.row(), a, protocol);
}

std::string raw(const std::vector<unsigned char>& b) { return std::string(b.begin(), b.end()); }

TEST(Operations, EveryRowIsWellFormed) {
  const auto& rows = operations();
  ASSERT_EQ(rows.size(), 4u);
  std::set<std::string> names;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const operation& o = rows[k];
    SCOPED_TRACE(o.name);
    EXPECT_TRUE(names.insert(o.name).second) << "operation names are unique";
    EXPECT_STREQ(to_string(op(k)), o.name);
    EXPECT_TRUE(o.provided && o.invoke && o.work);
    EXPECT_GE(o.since, 1u);
    EXPECT_LE(o.since, std::uint32_t(PV_ABI_VERSION));
    std::set<std::string> seen;
    for (const field& f : o.fields) {
      EXPECT_TRUE(seen.insert(f.name).second) << f.name;
      if (f.config >= 0) {
        EXPECT_EQ(o.buffers.at(std::size_t(f.config)).type, elem::config) << f.name;
      }
    }
    std::size_t outputs = 0;
    for (std::size_t b = 0; b < o.buffers.size(); ++b) {
      const buffer& buf = o.buffers[b];
      EXPECT_TRUE(seen.insert(buf.name).second) << buf.name;
      if (buf.use != role::in) ++outputs;
      // the outputs the sandbox allocates come last (call::in holds the others, in order)
      if (buf.use == role::out) {
        for (std::size_t a = b; a < o.buffers.size(); ++a) EXPECT_EQ(o.buffers[a].use, role::out) << o.buffers[a].name;
      }
      for (const char* d : buf.shape)
        if (d) {
          EXPECT_TRUE(seen.count(d)) << buf.name << " has a dimension " << d << " that is no field before it";
        }
    }
    EXPECT_GE(outputs, 1u);
    EXPECT_EQ(outputs > 1, o.name == std::string("attend")) << "only attend has a second output (lse)";
    EXPECT_EQ(o.output(), o.buffers.size() - outputs) << "the first output follows the inputs";
    // a row with capabilities says both what a call needs and what a plugin declares
    EXPECT_EQ(o.demands == nullptr, o.declares == nullptr);
    for (const char* a : o.python) EXPECT_TRUE(seen.count(a) || std::string(a) == "dtype") << a;
  }
}

TEST(Operations, HeaderSizesAreThoseOfTheProtocol) {
  // docs/protocol.md: ATTENTION 34 bytes, ROPE 43 (version 1), 96
  // (version 2) and 1128 (version 3), SINUSOID 26, ATTEND 214 (version 4)
  // and 222 (version 5: bias_batch; the type byte included), 230 (version 6:
  // n_cu)
  EXPECT_EQ(kProtocolVersion, 6u);
  for (std::uint32_t v : {1u, 2u, 3u, 4u, 5u, 6u}) {
    EXPECT_EQ(operation_of(op::attention).header_bytes(v), 34u);
    EXPECT_EQ(operation_of(op::sinusoid).header_bytes(v), 26u);
  }
  EXPECT_EQ(operation_of(op::rope).header_bytes(1), 43u);
  EXPECT_EQ(operation_of(op::rope).header_bytes(2), 96u);
  EXPECT_EQ(operation_of(op::rope).header_bytes(3), 96u + 4 + 4 + 8 * PV_MAX_FREQ_FACTORS);
  EXPECT_EQ(operation_of(op::rope).header_bytes(4), operation_of(op::rope).header_bytes(3));
  EXPECT_EQ(operation_of(op::attend).header_bytes(4), 214u);
  EXPECT_EQ(operation_of(op::attend).header_bytes(5), 222u);
  EXPECT_EQ(operation_of(op::attend).header_bytes(6), 230u);
  // every operation names the protocol version that carries it, every field of
  // an operation is of that version or later
  for (const operation& o : operations()) {
    EXPECT_GE(o.protocol, kOldestProtocolVersion) << o.name;
    EXPECT_LE(o.protocol, kProtocolVersion) << o.name;
    for (const field& f : o.fields) EXPECT_GE(f.protocol, o.protocol) << o.name << "." << f.name;
  }
  // every field names the version that introduced it, and no field is newer than the protocol
  for (const operation& o : operations())
    for (const field& f : o.fields) {
      EXPECT_GE(f.protocol, kOldestProtocolVersion) << o.name << "." << f.name;
      EXPECT_LE(f.protocol, kProtocolVersion) << o.name << "." << f.name;
    }
}

TEST(Operations, AttentionRequestIsVersion1) {
  const auto q = doubles(2 * 3, 1), k = doubles(4 * 3, 2), v = doubles(4 * 5, 3);
  const call c(op::attention, PV_F64, {2, 4, 3, 5}, {q, k, v});
  std::string want;
  put<std::uint8_t>(want, 2);
  put<std::uint8_t>(want, PV_F64);
  for (std::int64_t x : {2, 4, 3, 5}) put<std::int64_t>(want, x);
  want += raw(q) + raw(k) + raw(v);
  EXPECT_EQ(body_of(c, 1), want);
  EXPECT_EQ(body_of(c, 2), want) << "attention is the same in version 2";
  EXPECT_EQ(c.out_bytes(), 2u * 5u * 8u);
  EXPECT_EQ(c.work(), 2.0 * 4.0 * (3.0 + 5.0));
}

TEST(Operations, RopeRequestIsVersion1) {
  pv_rope_config cfg{};
  cfg.head_dim = 6;
  cfg.n_axes = 2;
  cfg.axes_dim[0] = 2;
  cfg.axes_dim[1] = 4;
  cfg.theta = 10000;
  cfg.pairing = PV_PAIRS_HALVES;
  const auto pos = doubles(3 * 2, 7), x = doubles(3 * 6, -1);
  const call c(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x});
  std::string want;
  put<std::uint8_t>(want, 3);
  put<std::uint8_t>(want, PV_F64);
  put<std::int64_t>(want, 3);
  put<std::int32_t>(want, 6);
  put<std::int32_t>(want, 2);
  for (std::int32_t a : {2, 4, 0, 0}) put<std::int32_t>(want, a);
  put<double>(want, 10000);
  put<std::uint8_t>(want, 1);
  EXPECT_EQ(body_of(c, 1), want + raw(pos) + raw(x));
  EXPECT_EQ(c.out_bytes(), x.size()) << "x is rotated in place";
  EXPECT_EQ(c.work(), 3.0 * 6.0);
  EXPECT_EQ(c.dim("n_axes"), 2) << "a member of the configuration";
  EXPECT_EQ(operation_of(op::rope).needs(c), 1u);
  EXPECT_TRUE(travels(c.row(), c, 1));
  cfg.axes_dim[1] = 2;  // partial rotary: expressed by the fields that travel
  EXPECT_TRUE(travels(c.row(), call(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x}), 1));
  cfg.scaling.kind = PV_SCALE_LINEAR;
  cfg.scaling.factor = 2;
  const call scaled(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x});
  EXPECT_EQ(operation_of(op::rope).needs(scaled), 3u);
  EXPECT_FALSE(travels(c.row(), scaled, 1)) << "the scaling does not travel in version 1: a server is never told a "
                                                "plain configuration";
  EXPECT_TRUE(travels(c.row(), scaled, 2));
  cfg.scaling = {};
  cfg.mrope = 1;
  EXPECT_FALSE(travels(c.row(), call(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x}), 1));
  EXPECT_TRUE(travels(c.row(), call(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x}), 2));
  cfg.mrope = 0;
  cfg.scaling.reserved = 7;  // the one member no version carries
  EXPECT_FALSE(travels(c.row(), call(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x}), 2));
}

// Version 2: the members of ABI version 3 follow version 1's fields: u8
// mrope, i32 scaling.kind, f64 factor, low, high, original_length, length,
// attention_factor; then the buffers as in version 1.
TEST(Operations, RopeRequestIsVersion2) {
  pv_rope_config cfg{};
  cfg.head_dim = 8;
  cfg.n_axes = 3;
  cfg.axes_dim[0] = 2;
  cfg.axes_dim[1] = 2;
  cfg.axes_dim[2] = 2;
  cfg.theta = 1e6;
  cfg.pairing = PV_PAIRS_HALVES;
  cfg.mrope = 1;
  cfg.scaling = {PV_SCALE_YARN, 0, 16, 1, 32, 4096, 8192, 1.25};
  const auto pos = doubles(2 * 3, 3), x = doubles(2 * 8, -2);
  const call c(op::rope, PV_F32, {2}, {bytes_of_struct(cfg), pos, doubles(2 * 8, -2)});
  std::string v1;
  put<std::uint8_t>(v1, 3);
  put<std::uint8_t>(v1, PV_F32);
  put<std::int64_t>(v1, 2);
  put<std::int32_t>(v1, 8);
  put<std::int32_t>(v1, 3);
  for (std::int32_t a : {2, 2, 2, 0}) put<std::int32_t>(v1, a);
  put<double>(v1, 1e6);
  put<std::uint8_t>(v1, 1);
  std::string v2 = v1;
  put<std::uint8_t>(v2, 1);                // mrope
  put<std::int32_t>(v2, PV_SCALE_YARN);    // scaling.kind
  for (double d : {16.0, 1.0, 32.0, 4096.0, 8192.0, 1.25}) put<double>(v2, d);
  ASSERT_EQ(v1.size(), operation_of(op::rope).header_bytes(1));
  ASSERT_EQ(v2.size(), operation_of(op::rope).header_bytes(2));
  EXPECT_EQ(body_of(c, 2), v2 + raw(pos) + raw(x));
  EXPECT_EQ(body_of(c, 1), v1 + raw(pos) + raw(x)) << "a version-1 server is sent no field of version 2";
  EXPECT_EQ(operation_of(op::rope).demands(c), std::uint32_t(PV_ROPE_MROPE | PV_ROPE_SCALED | PV_ROPE_PARTIAL));
  // version 3 sends the members of ABI version 7 too, zero here
  std::string v3 = v2;
  put<std::int32_t>(v3, 0);
  put<std::int32_t>(v3, 0);
  for (int k = 0; k < PV_MAX_FREQ_FACTORS; ++k) put<double>(v3, 0);
  ASSERT_EQ(v3.size(), operation_of(op::rope).header_bytes(3));
  EXPECT_EQ(body_of(c, 3), v3 + raw(pos) + raw(x));
}

// Version 3: the members of ABI version 7 follow version 2's fields: i32
// rotary_offset, i32 n_freq_factors, f64 freq_factors[128] (unused entries 0).
// They travel in version 3 only, need ABI version 7, and demand their
// declarations; the row's text names them and digests them.
TEST(Operations, RopeRequestIsVersion3) {
  pv_rope_config cfg{};
  cfg.head_dim = 12;
  cfg.n_axes = 1;
  cfg.axes_dim[0] = 4;
  cfg.theta = 10000;
  cfg.pairing = PV_PAIRS_ADJACENT;
  cfg.rotary_offset = 8;
  cfg.n_freq_factors = 2;
  cfg.freq_factors[0] = 1;
  cfg.freq_factors[1] = 8;
  const auto pos = doubles(1, 3), x = doubles(12, -2);
  const call c(op::rope, PV_F32, {1}, {bytes_of_struct(cfg), pos, x});
  std::string v2;
  put<std::uint8_t>(v2, 3);
  put<std::uint8_t>(v2, PV_F32);
  put<std::int64_t>(v2, 1);
  put<std::int32_t>(v2, 12);
  put<std::int32_t>(v2, 1);
  for (std::int32_t a : {4, 0, 0, 0}) put<std::int32_t>(v2, a);
  put<double>(v2, 10000);
  put<std::uint8_t>(v2, 0);
  put<std::uint8_t>(v2, 0);   // mrope
  put<std::int32_t>(v2, 0);   // scaling.kind
  for (int k = 0; k < 6; ++k) put<double>(v2, 0);
  std::string v3 = v2;
  put<std::int32_t>(v3, 8);
  put<std::int32_t>(v3, 2);
  for (int k = 0; k < PV_MAX_FREQ_FACTORS; ++k) put<double>(v3, k == 0 ? 1 : k == 1 ? 8 : 0);
  EXPECT_EQ(body_of(c, 3), v3 + raw(pos) + raw(x));
  EXPECT_FALSE(travels(c.row(), c, 2)) << "a version-2 server is never told a rotary offset or frequency factors";
  EXPECT_TRUE(travels(c.row(), c, 3));
  EXPECT_EQ(pv_rope_config_version(&cfg), 7);
  EXPECT_EQ(operation_of(op::rope).needs(c), 7u);
  EXPECT_EQ(operation_of(op::rope).demands(c),
            std::uint32_t(PV_ROPE_PARTIAL | PV_ROPE_ROTARY_OFFSET | PV_ROPE_FREQ_FACTORS));
  const std::string text = operation_of(op::rope).configuration(c);
  EXPECT_NE(text.find("rotary offset 8, 2 frequency factors"), std::string::npos) << text;
  // a configuration without them keeps the digest of the struct of version 3
  pv_rope_config plain = cfg;
  plain.rotary_offset = 0;
  plain.n_freq_factors = 0;
  plain.freq_factors[0] = plain.freq_factors[1] = 0;
  auto b = bytes_of_struct(plain);
  const call p(op::rope, PV_F32, {1}, {b, pos, x});
  b.resize(offsetof(pv_rope_config, rotary_offset));
  EXPECT_NE(operation_of(op::rope).configuration(p).find("(bytes " + row_text::digest(b) + ")"), std::string::npos);
}

// The table tells a server which version introduced each field and how the
// Python server builds RopeConfig.scaling (docs/protocol.md, "The operations").
TEST(Operations, TheTableNamesEachFieldsProtocolVersion) {
  const pv::json j = operations_json();
  const pv::json& fields = *j.items()[1].second.find("fields");
  std::string v1, v2, v3;
  for (const auto& [k, f] : fields.items()) {
    (void)k;
    const std::int64_t v = f.find("protocol")->as_integer();
    (v == 1 ? v1 : v == 2 ? v2 : v3) += f.find("name")->as_string() + " ";
    if (f.find("name")->as_string() == "scaling.kind") {
      EXPECT_EQ(f.find("names")->as_string(), "none|linear|ntk|dynamic_ntk|yarn|llama3");
      EXPECT_EQ(f.find("class")->as_string(), "RopeScaling");
      EXPECT_EQ(f.find("max")->as_integer(), PV_SCALE_LLAMA3);
    }
    if (f.find("name")->as_string() == "mrope") EXPECT_TRUE(f.find("bool") != nullptr);
  }
  EXPECT_EQ(v1, "n head_dim n_axes axes_dim theta pairing ");
  EXPECT_EQ(v2, "mrope scaling.kind scaling.factor scaling.low scaling.high scaling.original_length scaling.length "
                "scaling.attention_factor ");
  EXPECT_EQ(v3, "rotary_offset n_freq_factors freq_factors ");
  EXPECT_TRUE(j.items()[1].second.find("buffers")->items()[1].second.find("positions") != nullptr) << "rope's pos";
  EXPECT_TRUE(j.items()[2].second.find("buffers")->items()[0].second.find("positions") != nullptr) << "sinusoid's pos";
}

TEST(Operations, SinusoidRequestIsVersion1) {
  const auto pos = doubles(5, 0);
  const call c(op::sinusoid, PV_F32, {5, 8, 100.0}, {pos});
  std::string want;
  put<std::uint8_t>(want, 4);
  put<std::uint8_t>(want, PV_F32);
  put<std::int64_t>(want, 5);
  put<std::int64_t>(want, 8);
  put<double>(want, 100);
  want += raw(pos);
  EXPECT_EQ(body_of(c, 1), want);
  EXPECT_EQ(body_of(c, 2), want);
  EXPECT_EQ(c.out_bytes(), 5u * 8u * 4u);
  EXPECT_EQ(c.work(), 40.0);
}

TEST(Operations, ACallWithTheWrongArgumentsIsAProgrammingError) {
  EXPECT_THROW(call(op::attention, PV_F64, {1, 2, 3}, {{}, {}, {}}), std::logic_error);
  EXPECT_THROW(call(op::sinusoid, PV_F64, {1, 2, 3.0}, {}), std::logic_error);
  EXPECT_THROW(call(op::sinusoid, PV_F64, {1, 2, 3.0}, {{}}).dim("head_dim"), std::logic_error);
}

int attention_fn(pv_dtype, const void*, const void*, const void*, std::int64_t, std::int64_t, std::int64_t,
                 std::int64_t, void*) {
  return 0;
}
int sinusoid_fn(pv_dtype, std::int64_t, double, const double*, std::int64_t, void*) { return 0; }

TEST(Operations, WhatAPluginProvidesIsReadFromItsMembers) {
  pv_impl f{};
  f.abi_version = 1;
  f.attention = attention_fn;
  f.sinusoid = sinusoid_fn;
  EXPECT_EQ(provided_by(f), 0b101u) << "NULL = not provided";
  f.abi_version = 3;
  EXPECT_EQ(provided_by(f), 0b101u);
  f.abi_version = 0;
  EXPECT_EQ(provided_by(f), 0u) << "no member exists below its row's version";
}

// attend (version 4): the problem travels as a configuration buffer, the
// tensors are strided, the per-item positions and lengths are int64 buffers,
// the outputs are out then lse.
pv_attention_problem dense_problem(std::int64_t batch, std::int64_t h_q, std::int64_t h_kv, std::int64_t n_q,
                                   std::int64_t n_k, std::int64_t d, std::int64_t d_v) {
  pv_attention_problem p{};
  p.batch = batch;
  p.h_q = h_q;
  p.h_kv = h_kv;
  p.n_q = n_q;
  p.n_k = n_k;
  p.d = d;
  p.d_v = d_v;
  auto dense = [](std::int64_t* s, std::int64_t tokens, std::int64_t heads, std::int64_t last) {
    s[2] = last;
    s[1] = heads * last;
    s[0] = tokens * heads * last;
  };
  dense(p.q_stride, n_q, h_q, d);
  dense(p.k_stride, n_k, h_kv, d);
  dense(p.v_stride, n_k, h_kv, d_v);
  dense(p.out_stride, n_q, h_q, d_v);
  p.window_left = p.window_right = -1;
  return p;
}

std::vector<unsigned char> int64s(std::vector<std::int64_t> v) {
  std::vector<unsigned char> b(v.size() * 8);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

call attend_call(const pv_attention_problem& p, std::vector<std::int64_t> q_start, std::vector<std::int64_t> k_len,
                 std::int64_t n_sink = 0, std::int64_t n_lse = 0, std::vector<double> bias = {},
                 std::vector<std::int64_t> cu_q = {}, std::vector<std::int64_t> cu_k = {}) {
  const std::int64_t items = cu_q.empty() ? p.batch : 1;  // packed items: one sequence
  const std::size_t nq = std::size_t(items * p.n_q * p.h_q * p.d), nk = std::size_t(items * p.n_k * p.h_kv * p.d),
                    nv = std::size_t(items * p.n_k * p.h_kv * p.d_v);
  return call(op::attend, PV_F32, {n_sink, 0, n_lse, std::int64_t(cu_q.size())},
              {bytes_of_struct(p), std::vector<unsigned char>(nq * 4), std::vector<unsigned char>(nk * 4),
               std::vector<unsigned char>(nv * 4), int64s(q_start), int64s(k_len),
               doubles(std::size_t(n_sink), 0.5), {}, pv::sandbox::bytes_of(bias), int64s(cu_q), int64s(cu_k)});
}

TEST(Operations, AttendRowDescribesTheProblem) {
  const operation& o = operation_of(op::attend);
  EXPECT_EQ(o.since, 4u);
  EXPECT_EQ(o.protocol, 4u) << "the pipe carries attend from protocol version 4";
  EXPECT_FALSE(o.checks_finite) << "a declared NaN convention is the laws' to judge";
  auto p = dense_problem(2, 4, 2, 3, 5, 8, 6);
  const call c = attend_call(p, {2, 2}, {5, 5});
  EXPECT_EQ(c.dim("h_kv"), 2);
  EXPECT_EQ(c.out_bytes(), std::size_t(2 * 3 * 4 * 6) * 4) << "no lse asked for";
  EXPECT_EQ(c.work(), 2.0 * 4 * 3 * 5 * (8 + 6));
  EXPECT_EQ(o.demands(c), std::uint32_t(PV_ATTEND_GQA)) << "4 query heads on 2 KV heads";
  // strided: the buffer spans what its strides reach, gaps included
  p.q_stride[2] = 10;  // heads 10 apart, d = 8 contiguous
  p.q_stride[1] = 45;
  p.q_stride[0] = 200;
  const call s = attend_call(p, {0, 0}, {5, 5}, 4, 2 * 4 * 3);
  EXPECT_EQ(s.bytes(o.buffers[1]), std::size_t(1 * 200 + 2 * 45 + 3 * 10 + 8) * 4);
  EXPECT_EQ(s.out_bytes(), std::size_t(2 * 3 * 4 * 6) * 4 + std::size_t(2 * 4 * 3) * 8) << "out, then lse in double";
  EXPECT_EQ(o.demands(s), std::uint32_t(PV_ATTEND_GQA | PV_ATTEND_SINKS | PV_ATTEND_LSE));
  // masks, padding, softcap; an empty row needs a declared convention
  p = dense_problem(1, 2, 2, 3, 4, 2, 2);
  p.causal = 1;
  p.softcap = 30;
  EXPECT_EQ(o.demands(attend_call(p, {1}, {3})), std::uint32_t(PV_ATTEND_CAUSAL | PV_ATTEND_PADDING | PV_ATTEND_SOFTCAP));
  EXPECT_EQ(o.demands(attend_call(p, {-1}, {4})), std::uint32_t(PV_ATTEND_CAUSAL | PV_ATTEND_SOFTCAP) | (1u << 31))
      << "query 0 at position -1 sees no key";
  EXPECT_EQ(o.demands(attend_call(p, {-1}, {4}, 2)), std::uint32_t(PV_ATTEND_CAUSAL | PV_ATTEND_SOFTCAP | PV_ATTEND_SINKS))
      << "with a sink no row is empty";
  p.causal = 0;
  p.window_left = 0;
  EXPECT_EQ(o.demands(attend_call(p, {0}, {4})), std::uint32_t(PV_ATTEND_WINDOW | PV_ATTEND_SOFTCAP));
  // an explicit bias: its bit, and its -inf masks like the flags (query 1 of 3 sees no key)
  {
    pv_attention_problem q = dense_problem(1, 2, 2, 3, 2, 2, 2);
    q.bias_batch = 1;
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(o.demands(attend_call(q, {0}, {2}, 0, 0, {0, 1, -inf, -inf, 0.5, -inf})),
              std::uint32_t(PV_ATTEND_BIAS) | (1u << 31));
    EXPECT_EQ(o.demands(attend_call(q, {0}, {2}, 0, 0, {0, 1, -inf, 2, 0.5, -inf})), std::uint32_t(PV_ATTEND_BIAS));
    EXPECT_EQ(attend_call(q, {0}, {2}, 0, 0, {0, 1, -inf, 2, 0.5, -inf}).bytes(o.buffers[8]), 6u * 8)
        << "bias [bias_batch][n_q][n_k]";
  }
  // packed items: their bit; padding and empty rows judged per item (item 1 of 2 has 1 query and
  // 2 keys, which a dense reading of n_q = 3 and n_k = 5 would call padded and, with a window,
  // find rows past its end that see nothing)
  {
    pv_attention_problem q = dense_problem(2, 2, 2, 3, 5, 2, 2);
    for (auto* st : {q.q_stride, q.k_stride, q.v_stride, q.out_stride}) st[0] = 0;
    q.window_left = 0;
    q.window_right = 0;
    const call v = attend_call(q, {0, 1}, {3, 2}, 0, 0, {}, {0, 2, 3}, {0, 3, 5});
    EXPECT_EQ(o.demands(v), std::uint32_t(PV_ATTEND_VARLEN | PV_ATTEND_WINDOW));
    EXPECT_EQ(v.bytes(o.buffers[1]), std::size_t(3 * 2 * 2) * 4) << "q is one sequence of n_q tokens";
    EXPECT_EQ(v.out_bytes(), std::size_t(3 * 2 * 2) * 4);
    EXPECT_EQ(o.demands(attend_call(q, {0, 0}, {3, 1}, 0, 0, {}, {0, 2, 3}, {0, 3, 5})),
              std::uint32_t(PV_ATTEND_VARLEN | PV_ATTEND_WINDOW | PV_ATTEND_PADDING))
        << "item 1 reads 1 of its 2 keys";
    EXPECT_EQ(o.demands(attend_call(q, {0, 2}, {3, 2}, 0, 0, {}, {0, 2, 3}, {0, 3, 5})),
              std::uint32_t(PV_ATTEND_VARLEN | PV_ATTEND_WINDOW) | (1u << 31))
        << "item 1's query at position 2 has no key there";
  }
}

int attend_fn(pv_dtype, const pv_attention_problem*, const void*, const void*, const void*, void*, double*) { return 0; }

TEST(Operations, AttendIsReadOnlyFromVersion4AndItsCapabilitiesOnlyFromItsMembers) {
  pv_impl f{};
  f.abi_version = 3;
  f.attention = attention_fn;
  f.attend = attend_fn;  // what a version-3 plugin's memory may hold past its members
  f.attend_caps = 0xFF;
  EXPECT_EQ(provided_by(f), 0b0001u) << "a version-3 pv_impl is never read past accuracy";
  f.abi_version = 4;
  EXPECT_EQ(provided_by(f), 0b1001u);
  const operation& o = operation_of(op::attend);
  EXPECT_EQ(o.declares(f), 0xFFu) << "no empty-row convention declared";
  f.attend_empty_rows = PV_EMPTY_ZEROS;
  EXPECT_EQ(o.declares(f), 0xFFu | (1u << 31));
  // a plugin rebuilt against version 4 with a positional initializer: the
  // version says 4, the new members are zero, nothing is declared
  const pv_impl rebuilt = {PV_ABI_VERSION, "rebuilt", attention_fn, nullptr, sinusoid_fn, nullptr, nullptr, 0, 0, 0};
  EXPECT_EQ(provided_by(rebuilt), 0b101u);
  EXPECT_EQ(o.declares(rebuilt), 0u);
}

// The 16-bit dtypes came with the version (2 to 4), so a
// float32/float64 kernel rebuilt against a newer header was sent float16 and
// bfloat16 buffers. They are declared by `dtypes` (version 5), read only from
// a version-5 pv_impl, and float32 and float64 are always offered.
TEST(Operations, SixteenBitDtypesAreOfferedOnlyWhenDeclared) {
  const std::uint32_t plain = PV_DTYPE_BIT(PV_F32) | PV_DTYPE_BIT(PV_F64);
  pv_impl f{};
  f.attention = attention_fn;
  f.dtypes = PV_DTYPE_BIT(PV_F16) | PV_DTYPE_BIT(PV_BF16);  // what older memory may hold there
  for (std::uint32_t v : {1u, 2u, 3u, 4u}) {
    f.abi_version = v;
    EXPECT_EQ(offered_dtypes(f), plain) << "a version-" << v << " pv_impl ends before dtypes";
  }
  f.abi_version = 5;
  EXPECT_EQ(offered_dtypes(f), plain | PV_DTYPE_BIT(PV_F16) | PV_DTYPE_BIT(PV_BF16));
  f.dtypes = PV_DTYPE_BIT(PV_BF16) | 0xF0u;  // bits of no dtype are not offered
  EXPECT_EQ(offered_dtypes(f), plain | PV_DTYPE_BIT(PV_BF16));
  const pv_impl rebuilt = {PV_ABI_VERSION, "rebuilt", attention_fn, nullptr, sinusoid_fn, nullptr, nullptr, 0, 0, 0};
  EXPECT_EQ(offered_dtypes(rebuilt), plain) << "a rebuilt plugin declares no 16-bit dtype";
}

TEST(Operations, TheTableAsJsonNamesEveryRow) {
  const pv::json j = operations_json();
  ASSERT_EQ(j.size(), operations().size());
  for (std::size_t k = 0; k < j.size(); ++k) {
    const pv::json& row = j.items()[k].second;
    EXPECT_EQ(row.find("name")->as_string(), operations()[k].name);
    EXPECT_EQ(row.find("request")->as_integer(), std::int64_t(k) + 2);
    EXPECT_EQ(row.find("bit")->as_integer(), std::int64_t(k));
    EXPECT_EQ(row.find("fields")->size(), operations()[k].fields.size());
  }
  const pv::json& rope = j.items()[1].second;
  EXPECT_EQ(rope.find("buffers")->items()[0].second.find("class")->as_string(), "RopeConfig");
  const pv::json& attend = j.items()[3].second;
  EXPECT_EQ(attend.find("buffers")->items()[4].second.find("elem")->as_string(), "i64") << "q_start";
  EXPECT_EQ(attend.find("buffers")->items()[8].second.find("name")->as_string(), "bias");
  EXPECT_EQ(attend.find("buffers")->items()[9].second.find("name")->as_string(), "cu_seqlens_q");
  EXPECT_EQ(attend.find("buffers")->items()[12].second.find("role")->as_string(), "out") << "lse";
  EXPECT_EQ(attend.find("protocol")->as_integer(), 4);
  EXPECT_EQ(rope.find("protocol")->as_integer(), 1);
  const pv::json& q = attend.find("buffers")->items()[1].second;
  EXPECT_EQ(q.find("strides")->as_string(), "q_stride");
  EXPECT_EQ(q.find("member"), nullptr);
  const pv::json& lse = attend.find("buffers")->items()[12].second;
  EXPECT_EQ(lse.find("member")->as_string(), "problem") << "the Python kernel reads problem.lse";
  EXPECT_EQ(lse.find("python_shape")->size(), 3u) << "[batch, h_q, n_q]";
}

// ATTEND (protocol version 4): the header is n_sink, n_alibi, n_lse, then the
// members of pv_attention_problem but its pointers and `reserved`; the
// buffers are q, k and v as the spans their strides reach (gaps included),
// then q_start and k_len (int64), sink and alibi (float64).
TEST(Operations, AttendRequestIsVersion4) {
  auto p = dense_problem(2, 2, 1, 3, 4, 2, 2);
  p.q_stride[2] = 3;  // heads 3 apart: a gap of 1 element after each head
  p.q_stride[1] = 6;
  p.q_stride[0] = 18;
  p.causal = 1;
  p.window_left = 2;
  p.scale = 0.25;
  p.softcap = 30;
  const call dense = attend_call(p, {1, 0}, {4, 3}, 2, 2 * 2 * 3);
  std::vector<std::vector<unsigned char>> in;
  for (std::size_t b = 0; b < 9; ++b) in.push_back(dense.input(b));
  in[1] = doubles(std::size_t(18 + 2 * 6 + 3 + 2) / 2, 0.25);  // the span of q: 35 floats, as 17.5 doubles
  in[1].resize(35 * 4);
  in.push_back({});  // no packed items
  in.push_back({});
  const call c(op::attend, PV_F32, {2, 0, 12, 0}, in);
  ASSERT_EQ(c.bytes(c.row().buffers[1]), std::size_t(35 * 4)) << "q spans (2-1) 18 + (3-1) 6 + (2-1) 3 + 2 elements";
  std::string want;
  put<std::uint8_t>(want, 5);
  put<std::uint8_t>(want, PV_F32);
  for (std::int64_t x : {2, 0, 12}) put<std::int64_t>(want, x);  // n_sink, n_alibi, n_lse
  for (std::int64_t x : {p.batch, p.h_q, p.h_kv, p.n_q, p.n_k, p.d, p.d_v}) put<std::int64_t>(want, x);
  for (const std::int64_t* s : {p.q_stride, p.k_stride, p.v_stride, p.out_stride})
    for (int a = 0; a < 3; ++a) put<std::int64_t>(want, s[a]);
  put<std::int32_t>(want, 1);
  put<std::int64_t>(want, 2);
  put<std::int64_t>(want, -1);
  put<double>(want, 0.25);
  put<double>(want, 30);
  ASSERT_EQ(want.size(), 214u);
  std::string want5 = want;
  put<std::int64_t>(want5, 0);  // version 5: bias_batch, no bias
  for (std::size_t b = 1; b < 9; ++b) want += raw(c.input(b)), want5 += raw(c.input(b));
  std::string want6 = want5;
  want6.insert(2 + 3 * 8, std::string(8, '\0'));  // version 6: n_cu = 0, after n_lse
  EXPECT_EQ(body_of(c, 4), want);
  EXPECT_EQ(body_of(c, 5), want5);
  EXPECT_EQ(body_of(c, 6), want6);
  EXPECT_TRUE(travels(c.row(), c, 4));
  EXPECT_FALSE(travels(c.row(), c, 3)) << "version 3 does not carry the problem";
  // version 5: a bias of one [n_q][n_k] for every item, after alibi
  p.bias_batch = 1;
  const std::vector<double> bias(std::size_t(p.n_q * p.n_k), -0.25);
  const call b = attend_call(p, {1, 0}, {4, 3}, 0, 0, bias);
  EXPECT_FALSE(travels(b.row(), b, 4)) << "version 4 does not carry the bias";
  EXPECT_TRUE(travels(b.row(), b, 5));
  const std::string body = body_of(b, 5);
  EXPECT_EQ(body.size(), 222u + b.input(1).size() + b.input(2).size() + b.input(3).size() + 2 * 16 + bias.size() * 8);
  EXPECT_EQ(body.substr(body.size() - bias.size() * 8), raw(b.input(8))) << "the bias is the last buffer sent";
  // version 6: packed items, their offsets after the bias
  auto pk = dense_problem(2, 2, 1, 3, 4, 2, 2);
  for (auto* st : {pk.q_stride, pk.k_stride, pk.v_stride, pk.out_stride}) st[0] = 0;
  const call v = attend_call(pk, {0, 0}, {1, 3}, 0, 0, {}, {0, 1, 3}, {0, 1, 4});
  EXPECT_FALSE(travels(v.row(), v, 5)) << "version 5 does not carry packed items";
  EXPECT_TRUE(travels(v.row(), v, 6));
  const std::string tail = body_of(v, 6);
  EXPECT_EQ(tail.substr(tail.size() - 6 * 8), raw(v.input(9)) + raw(v.input(10)));
}

}  // namespace

}  // namespace sandbox_operations_test
