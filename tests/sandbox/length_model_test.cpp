// The length model of dynamic NTK (sandbox/length_model.h): a kernel that
// declares it reads the sequence length from the call's positions is sent
// each dynamic-NTK call with one more row, at the configuration's last
// position, and its result comes back without that row; nothing changes for
// a kernel that does not declare it, for other configurations and operations.
#include "sandbox/length_model.h"
#include "support/plugins.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace sandbox_length_model_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::sandbox;
using pv::plugin_test::plugin_map;

pv_rope_config dynamic(double L0, double L) {
  pv_rope_config c{};
  c.head_dim = 8;
  c.n_axes = 1;
  c.axes_dim[0] = 8;
  c.theta = 10000;
  c.pairing = PV_PAIRS_HALVES;
  c.scaling.kind = PV_SCALE_DYNAMIC_NTK;
  c.scaling.factor = 2;
  c.scaling.original_length = L0;
  c.scaling.length = L;
  return c;
}

call rope_call(const pv_rope_config& c, const std::vector<double>& pos) {
  std::vector<float> x(pos.size() * 8);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.125f * float(i % 9) - 0.5f;
  std::vector<unsigned char> xb(x.size() * 4);
  std::memcpy(xb.data(), x.data(), xb.size());
  return call(op::rope, PV_F32, {std::int64_t(pos.size())}, {bytes_of_struct(c), bytes_of(pos), xb});
}

std::vector<double> positions_of(const call& c) {
  std::vector<double> p(c.input(1).size() / 8);
  std::memcpy(p.data(), c.input(1).data(), c.input(1).size());
  return p;
}

impl_info declaring(std::uint32_t caps) {
  impl_info i;
  i.rope_caps = caps;
  return i;
}

TEST(LengthModel, TheSequenceLengthIsTheConfigurationsAboveL0AndJustBelowL0Otherwise) {
  EXPECT_EQ(sequence_length(dynamic(4096, 16384)), 16384);
  // at or below L0 the base is theta; a call of exactly L0 positions would keep
  // a grown cache's speeds in Hugging Face's update, so L0 - 1
  EXPECT_EQ(sequence_length(dynamic(4096, 4096)), 4095);
  EXPECT_EQ(sequence_length(dynamic(4096, 100)), 4095);
  EXPECT_EQ(sequence_length(dynamic(1, 1)), 1);
}

TEST(LengthModel, OnlyADeclaringKernelsDynamicNtkCallsAreAnchored) {
  const auto c = rope_call(dynamic(4096, 16384), {0, 5});
  EXPECT_TRUE(anchored(declaring(PV_ROPE_SCALED | PV_ROPE_LENGTH_FROM_POSITIONS), c));
  EXPECT_FALSE(anchored(declaring(PV_ROPE_SCALED), c)) << "not declared";
  auto linear = dynamic(4096, 16384);
  linear.scaling.kind = PV_SCALE_LINEAR;
  EXPECT_FALSE(anchored(declaring(PV_ROPE_SCALED | PV_ROPE_LENGTH_FROM_POSITIONS), rope_call(linear, {0, 5})));
  const std::vector<double> one(4, 0.5);
  const call att(op::attention, PV_F64, {1, 1, 4, 4}, {bytes_of(one), bytes_of(one), bytes_of(one)});
  EXPECT_FALSE(anchored(declaring(PV_ROPE_LENGTH_FROM_POSITIONS), att));
}

TEST(LengthModel, TheAnchorIsOneZeroRowAtTheLastPositionAndIsDroppedFromTheResult) {
  const auto c = rope_call(dynamic(4096, 16384), {3, 7});
  const call a = with_anchor(c);
  EXPECT_EQ(a.scalars.at(0).i, 3);
  EXPECT_EQ(positions_of(a), (std::vector<double>{3, 7, 16383}));
  ASSERT_EQ(a.input(2).size(), 3u * 8u * 4u);
  EXPECT_TRUE(std::equal(c.input(2).begin(), c.input(2).end(), a.input(2).begin())) << "the rows sent are kept";
  for (std::size_t i = 2 * 8 * 4; i < a.input(2).size(); ++i) EXPECT_EQ(a.input(2)[i], 0) << "byte " << i;
  EXPECT_EQ(a.input(0), c.input(0)) << "the configuration is the same";
  EXPECT_EQ(a.out_bytes(), c.out_bytes() + 8 * 4);
  result r;
  r.st = status::ok;
  r.out.assign(a.out_bytes(), 0x11);
  drop_anchor(c, r);
  EXPECT_EQ(r.out.size(), c.out_bytes());
  // every axis of the anchor row sits at the last position (M-RoPE-like rows of three)
  auto three = dynamic(4096, 8192);
  three.n_axes = 3;
  three.axes_dim[0] = 2, three.axes_dim[1] = 2, three.axes_dim[2] = 4;
  EXPECT_EQ(positions_of(with_anchor(rope_call(three, {1, 2, 3}))), (std::vector<double>{1, 2, 3, 8191, 8191, 8191}));
}

TEST(LengthModel, TheKernelSeesTheAnchorAndTheLawsDoNot) {
  // the panel member reads L from the positions: through run_batch its rows
  // turn as at the configuration's length whatever positions the call has
  const auto lib = probe_library(plugin_map(POSVERIFY_PANEL_PLUGINS).at("rope_dynamic_from_positions"), 5000);
  ASSERT_TRUE(lib.rope_caps & PV_ROPE_LENGTH_FROM_POSITIONS);
  const auto c = rope_call(dynamic(4096, 16384), {1, 2});
  const auto undeclared = [&] {
    impl_info i = lib;
    i.rope_caps &= ~std::uint32_t(PV_ROPE_LENGTH_FROM_POSITIONS);
    return i;
  }();
  const auto r = run_batch(lib, {c, c}, {});
  ASSERT_EQ(r[0].st, status::ok) << r[0].detail;
  EXPECT_EQ(r[0].out.size(), c.out_bytes());
  EXPECT_EQ(r[0].out, r[1].out);
  // sent as it is, the call is a sequence of 3 (plain speeds): other values
  const auto plain = run_batch(undeclared, {c}, {});
  ASSERT_EQ(plain[0].st, status::ok) << plain[0].detail;
  EXPECT_NE(plain[0].out, r[0].out);
  // and the anchored call sent by hand gives the first rows run_batch gave
  auto by_hand = run_batch(undeclared, {with_anchor(c)}, {});
  ASSERT_EQ(by_hand[0].st, status::ok);
  drop_anchor(c, by_hand[0]);
  EXPECT_EQ(by_hand[0].out, r[0].out);
}

}  // namespace

}  // namespace sandbox_length_model_test
