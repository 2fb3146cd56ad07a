// Declared accuracy classes (--accuracy, or a plugin's pv_impl.accuracy): a
// kernel whose interface is wider than its arithmetic is judged at the unit
// roundoff of the format it really computes in.
#pragma once



#include <string>

namespace pv::blackbox {

/// A declared accuracy class (--accuracy): the kernel stores its inputs in a
/// 16-bit format (float16 or bfloat16) and accumulates in float32, or (for
/// float16-accumulation) rounds every operation to float16, or (for
/// float16-pv-accumulation) stores in float16 and keeps the weighted sum of
/// v in float16, everything else in float32 (a float16 K/V cache whose
/// accumulator has V's type).
struct accuracy_class {
  std::string name;         ///< "" (none), float16, bfloat16, float16-accumulation, float16-pv-accumulation
  double u = 0;             ///< unit roundoff of the format (0: none declared)
  int precision = 0;        ///< significand bits: 11 (float16), 8 (bfloat16)
  int emin = 0;             ///< exponent of the smallest normal: -14, -126
  double max = 0;           ///< largest finite value: 65504, 3.3895e38
  bool accumulate = false;  ///< every operation rounded to the format, not only storage
  bool accumulate_pv = false;  ///< storage, and attention's sum of p v rounded to the format
};

/// Every class --accuracy names, in the order the diagnosis tries them.
inline constexpr const char* kAccuracyClasses[] = {"float16", "bfloat16", "float16-pv-accumulation",
                                                   "float16-accumulation"};

/// The accuracy class named by --accuracy; throws std::invalid_argument naming the value.
accuracy_class parse_accuracy(const std::string& name);

/// Whether class a admits more error than `than`: a larger u, or the same u
/// with more of the arithmetic in the format (storage, then the sum of p v,
/// then every operation).
bool coarser(const accuracy_class& a, const accuracy_class& than);

/// What a kernel of class a does, as a diagnosis names it ("float16
/// storage", "float16 accumulation", ...).
std::string cause_of(const accuracy_class& a);

/// x rounded to nearest (ties to even) in a's format, subnormals included;
/// +-infinity past its largest finite value.
double round_to_format(double x, const accuracy_class& a);

}  // namespace pv::blackbox
