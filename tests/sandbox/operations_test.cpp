// The table of operations (sandbox/operations.h): every row well formed, the
// requests it encodes byte for byte those of docs/protocol.md (version 1),
// what a pv_impl of each ABI version provides, the size and work of a call.
#include "sandbox/loading.h"
#include "sandbox/operations.h"
#include "sandbox/process_adapter.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <stdexcept>
#include <string>

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
std::string body_of(const call& c) {
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
  return request_body(c.row(), a);
}

std::string raw(const std::vector<unsigned char>& b) { return std::string(b.begin(), b.end()); }

TEST(Operations, EveryRowIsWellFormed) {
  const auto& rows = operations();
  ASSERT_EQ(rows.size(), 3u);
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
      // the output the sandbox allocates comes last (call::in holds the others, in order)
      if (buf.use == role::out) {
        EXPECT_EQ(b + 1, o.buffers.size());
      }
      for (const char* d : buf.shape)
        if (d) {
          EXPECT_TRUE(seen.count(d)) << buf.name << " has a dimension " << d << " that is no field before it";
        }
    }
    EXPECT_EQ(outputs, 1u);
    for (const char* a : o.python) EXPECT_TRUE(seen.count(a) || std::string(a) == "dtype") << a;
  }
}

TEST(Operations, HeaderSizesAreThoseOfTheProtocol) {
  // docs/protocol.md: ATTENTION 34 bytes, ROPE 43, SINUSOID 26 (the type byte included)
  EXPECT_EQ(operation_of(op::attention).header_bytes(), 34u);
  EXPECT_EQ(operation_of(op::rope).header_bytes(), 43u);
  EXPECT_EQ(operation_of(op::sinusoid).header_bytes(), 26u);
}

TEST(Operations, AttentionRequestIsVersion1) {
  const auto q = doubles(2 * 3, 1), k = doubles(4 * 3, 2), v = doubles(4 * 5, 3);
  const call c(op::attention, PV_F64, {2, 4, 3, 5}, {q, k, v});
  std::string want;
  put<std::uint8_t>(want, 2);
  put<std::uint8_t>(want, PV_F64);
  for (std::int64_t x : {2, 4, 3, 5}) put<std::int64_t>(want, x);
  want += raw(q) + raw(k) + raw(v);
  EXPECT_EQ(body_of(c), want);
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
  want += raw(pos) + raw(x);
  EXPECT_EQ(body_of(c), want);
  EXPECT_EQ(c.out_bytes(), x.size()) << "x is rotated in place";
  EXPECT_EQ(c.work(), 3.0 * 6.0);
  EXPECT_EQ(c.dim("n_axes"), 2) << "a member of the configuration";
  EXPECT_EQ(operation_of(op::rope).needs(c), 1u);
  EXPECT_TRUE(travels(c.row(), c));
  cfg.axes_dim[1] = 2;  // partial rotary: expressed by the fields that travel
  EXPECT_TRUE(travels(c.row(), call(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x})));
  cfg.scaling.kind = PV_SCALE_LINEAR;
  cfg.scaling.factor = 2;
  const call scaled(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x});
  EXPECT_EQ(operation_of(op::rope).needs(scaled), 3u);
  EXPECT_FALSE(travels(c.row(), scaled)) << "the scaling does not travel: a server is never told a plain configuration";
  cfg.scaling = {};
  cfg.mrope = 1;
  EXPECT_FALSE(travels(c.row(), call(op::rope, PV_F64, {3}, {bytes_of_struct(cfg), pos, x})));
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
  EXPECT_EQ(body_of(c), want);
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
}

}  // namespace
