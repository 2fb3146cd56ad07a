// Planted faults: a switch that breaks one formula on purpose, so that tests
// can show that the laws and the claim verdicts notice (mutation testing of
// posverify's own numerics). Off unless a test turns it on.
#pragma once

namespace pv {

enum class fault {
  none,
  no_attention_scale,  ///< attention forgets the 1/sqrt(d) scale
  rope_sine_sign,      ///< RoPE rotates with the sign of the sine flipped on the second component
  sinusoid_swap,       ///< the additive sinusoid puts cos before sin
  conv_circular_padding,  ///< the 3 x 3 convolution wraps around the grid instead of zero padding
  rope_position_off_by_one,  ///< RoPE turns odd-numbered pairs by (p + 1) w instead of p w
};

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

inline bool fault_is(fault f) { return planted_fault() == f; }

}  // namespace pv
