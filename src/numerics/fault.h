// Planted faults: a switch that breaks one formula on purpose, so that tests
// can show that the laws and the claim verdicts notice (mutation testing of
// posverify's own numerics). Off unless a test turns it on.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace pv {

enum class fault {
  none,
  no_attention_scale,  ///< attention forgets the 1/sqrt(d) scale
  rope_sine_sign,      ///< RoPE rotates with the sign of the sine flipped on the second component
  sinusoid_swap,       ///< the additive sinusoid puts cos before sin
  conv_circular_padding,  ///< the 3 x 3 convolution wraps around the grid instead of zero padding
  rope_position_off_by_one,  ///< RoPE turns odd-numbered pairs by (p + 1) w instead of p w
  attention_causal_mask,     ///< attention masks the keys after each query (as if causal)
  speed_integer_exponent,    ///< speeds base^(-(2i/d)) with 2i/d in integer division: every speed is 1
  flux_axes_swapped,         ///< FLUX RoPE drives the row block by the column and the column block by the row
  sinusoid_speed_off_by_one, ///< the additive sinusoid gives pair i the speed of pair i + 1
  positions_ignored,         ///< RoPE and the additive sinusoid read every position as 0
  conv_middle_row_only,      ///< the 3 x 3 convolution reads only the middle row of its taps
  add_rounds_to_float32,     ///< matrix addition (x + p of the additive encoding) stores float32
};

/// Every planted fault but none, with its name and what it breaks.
struct fault_info {
  fault f;
  const char* name;
  const char* what;
};
inline const fault_info* all_faults(std::size_t* n) {
  static const fault_info list[] = {
      {fault::no_attention_scale, "no_attention_scale", "attention forgets the 1/sqrt(d) scale"},
      {fault::rope_sine_sign, "rope_sine_sign",
       "RoPE rotates with the sign of the sine flipped on the second component"},
      {fault::sinusoid_swap, "sinusoid_swap", "the additive sinusoid puts cos before sin"},
      {fault::conv_circular_padding, "conv_circular_padding",
       "the 3 x 3 convolution wraps around the grid instead of zero padding"},
      {fault::rope_position_off_by_one, "rope_position_off_by_one",
       "RoPE turns odd-numbered pairs by (p + 1) w instead of p w"},
      {fault::attention_causal_mask, "attention_causal_mask",
       "attention masks the keys after each query although no mask was asked for"},
      {fault::speed_integer_exponent, "speed_integer_exponent",
       "the speed ladder base^(-2i/d) takes 2i/d in integer division, so every speed is 1"},
      {fault::flux_axes_swapped, "flux_axes_swapped",
       "FLUX.1's RoPE turns the row block (components 16..71) by the column and the column "
       "block by the row"},
      {fault::sinusoid_speed_off_by_one, "sinusoid_speed_off_by_one",
       "the additive sinusoid turns pair i at base^(-2(i+1)/d), the speed of pair i + 1"},
      {fault::positions_ignored, "positions_ignored",
       "RoPE and the additive sinusoid read every position as 0 (the positions never reach "
       "the encoding)"},
      {fault::conv_middle_row_only, "conv_middle_row_only",
       "the 3 x 3 convolution reads only the middle row of its taps (its loop over kernel "
       "rows runs once), so no cell sees the rows above and below"},
      {fault::add_rounds_to_float32, "add_rounds_to_float32",
       "matrix addition, as in the additive encoding x + p, stores its result rounded to "
       "float32 whatever the working type (a mixed-precision slip)"},
  };
  *n = sizeof(list) / sizeof(list[0]);
  return list;
}

inline fault& planted_fault() {
  static fault f = fault::none;
  return f;
}

/// Plants a fault for the lifetime of the object.
class scoped_fault {
 public:
  explicit scoped_fault(fault f) : saved_(planted_fault()) { planted_fault() = f; }
  ~scoped_fault() { planted_fault() = saved_; }
  scoped_fault(const scoped_fault&) = delete;
  scoped_fault& operator=(const scoped_fault&) = delete;

 private:
  fault saved_;
};

/// The faults whose switch fault_is() was asked about since the last reset
/// (bit k: fault k). A run that never asked about fault f runs alike with f
/// planted: its control flow can part only where fault_is(f) is evaluated.
/// The fault matrix reruns under a fault only the claims and properties
/// whose baseline asked about it (mutation/fault_matrix.cpp).
inline std::atomic<std::uint32_t>& consulted_faults() {
  static std::atomic<std::uint32_t> m{0};
  return m;
}
static_assert(unsigned(fault::add_rounds_to_float32) < 32, "consulted_faults() has a bit per fault");

inline bool fault_is(fault f) {
  const std::uint32_t bit = std::uint32_t(1) << unsigned(f);
  auto& c = consulted_faults();
  if (!(c.load(std::memory_order_relaxed) & bit)) c.fetch_or(bit, std::memory_order_relaxed);  // written once
  return planted_fault() == f;
}

}  // namespace pv
