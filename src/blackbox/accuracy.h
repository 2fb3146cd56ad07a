// Declared accuracy classes (--accuracy, or a plugin's pv_impl.accuracy): a
// kernel whose interface is wider than its arithmetic is judged at the unit
// roundoff of the format it really computes in.
#pragma once



#include <string>

namespace pv::blackbox {

/// A declared accuracy class (--accuracy): the kernel stores its inputs in a
/// 16-bit format (float16 or bfloat16) and accumulates in float32, or (for
/// float16-accumulation) rounds every operation to float16.
struct accuracy_class {
  std::string name;         ///< "" (none), float16, bfloat16, float16-accumulation
  double u = 0;             ///< unit roundoff of the format (0: none declared)
  int precision = 0;        ///< significand bits: 11 (float16), 8 (bfloat16)
  int emin = 0;             ///< exponent of the smallest normal: -14, -126
  double max = 0;           ///< largest finite value: 65504, 3.3895e38
  bool accumulate = false;  ///< every operation rounded to the format, not only storage
};

/// The accuracy class named by --accuracy; throws std::invalid_argument naming the value.
accuracy_class parse_accuracy(const std::string& name);

/// x rounded to nearest (ties to even) in a's format, subnormals included;
/// +-infinity past its largest finite value.
double round_to_format(double x, const accuracy_class& a);

}  // namespace pv::blackbox
