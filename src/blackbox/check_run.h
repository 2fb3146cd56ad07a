// What every black-box law of a run reads: the library, the runner's options,
// the seed, cases and position range, the declared accuracy, the shard plan
// (core/shard.h), and the unit roundoffs a law's tolerance uses for a dtype.
#pragma once

#include "blackbox/accuracy.h"
#include "blackbox/calls.h"
#include "blackbox/rope_model.h"
#include "core/shard.h"
#include "sandbox/half_formats.h"
#include "sandbox/length_model.h"
#include "numerics/scalar.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pv::blackbox {

inline hp hmax(const hp& a, const hp& b) { return a < b ? b : a; }
inline hp hmin(const hp& a, const hp& b) { return b < a ? b : a; }

/// The units of a run in the order they are met (posverify/shard.h): a law
/// on one dtype (attention, sinusoid), or a RoPE configuration with all its
/// laws, sweep and diagnosis. A unit that is not this shard's is enumerated
/// but not run. count_only: enumerate every unit, run none (the total for
/// the progress line).
struct unit_plan {
  shard::spec spec;
  long next = 0;
  bool count_only = false;
  std::function<void()> done;  ///< called when a unit of this shard is finished
  std::vector<long> sweep_units, diagnosis_units;  ///< the unit of each sweep and diagnosis entry
  long take() { return next++; }
  bool mine(long u) const { return !count_only && spec.mine(u); }
  void finished() const { if (done) done(); }
};

struct check_run {
  std::shared_ptr<unit_plan> units = std::make_shared<unit_plan>();
  long group = -1;  ///< the unit of the laws being run (a RoPE configuration), or -1: one unit per law
  impl_info lib;
  runner_options ro;
  std::uint64_t seed = 1;
  int cases = 100;
  double max_position = 8192;
  std::vector<std::string> only_law;  ///< run laws whose id starts with one of these (empty: all)
  int only_case = -1;    ///< replay one case
  int min_cases = 1;     ///< fewer evaluated cases (the rest declined): insufficient
  std::string program = "posverify";
  std::vector<rope_cfg> rope_configs;  ///< empty: the default set (rope_model.h)
  bool scaled_defaults = false;  ///< the default set includes scaled_rope_configs() (--mutation)
  accuracy_class accuracy;  ///< declared with --accuracy (default: the dtype's own)
  bool accuracy_given = false;  ///< --accuracy was given (it overrides the plugin's pv_impl.accuracy)
  /// ABI version 2: the float32 laws send their buffers as this dtype
  /// (PV_F16 or PV_BF16: inputs rounded into it, outputs read back), with
  /// `accuracy` at least that format's; PV_F32 otherwise.
  pv_dtype wire = PV_F32;
  bool float_only = false;  ///< run the float32 laws only (the 16-bit runs)
  std::string profile = "quick";  ///< the shapes of attention.shapes (shapes.h): quick | models
  bool profile_given = false;     ///< --profile was given
  std::vector<std::string> shapes;  ///< --shape NQxNKxDxDV (repeatable)
  std::vector<std::string> attend_presets;  ///< --attend-preset NAME (repeatable; laws/attend/models.h)
  /// The declarations the library ran in this pass's probe (declines.h);
  /// null: no probe (a decline is then judged within its law only).
  std::shared_ptr<const std::set<std::string>> probed;
};

/// The RoPE configurations of a run: --rope-config/--rope-preset, else the
/// default set (with the scaled ones for the mutation suite).
inline std::vector<rope_cfg> rope_configs_of(const check_run& cx) {
  return !cx.rope_configs.empty() ? cx.rope_configs : cx.scaled_defaults ? mutation_rope_configs() : rope_configs();
}

/// The run that checks advice before it is given (run.cpp's accuracy classes,
/// rope_laws.cpp's length model): cx unsharded and without a progress line,
/// every law and case whatever --law and --case chose.
inline check_run recheck_of(const check_run& cx) {
  check_run c = cx;
  c.units = std::make_shared<unit_plan>();
  c.group = -1;
  c.only_law.clear();
  c.only_case = -1;
  return c;
}

/// The largest position a law of configuration rc draws: --max-position,
/// and below the call's sequence length when the kernel reads dynamic NTK's
/// length from the positions (sandbox/length_model.h: every call then carries
/// a row at sequence_length - 1, and no position may pass it).
inline long position_limit(const check_run& cx, const pv_rope_config& c) {
  double P = cx.max_position;
  if (sandbox::length_from_positions(cx.lib, c)) P = std::min(P, std::floor(sandbox::sequence_length(c) - 1));
  return std::max(1L, long(P));
}
inline long position_limit(const check_run& cx, const rope_cfg& rc) { return position_limit(cx, rc.c); }

/// x as a probe's value of type T reaches the kernel: float32 values on a
/// float16 or bfloat16 wire are rounded to it (a diagnosis' probe computes its
/// exact answer from the values as sent).
template <class T>
T as_sent(const check_run& cx, double x) {
  if (!std::is_same_v<T, float> || cx.wire == PV_F32) return T(x);
  return T(round_to_format(x, parse_accuracy(sandbox::dtype_name(cx.wire))));
}

/// The unit roundoff the laws use for dtype T: T's own, or that of a coarser
/// declared accuracy class (a kernel whose interface is wider than its arithmetic).
template <class T>
hp law_u(const check_run& cx) {
  const hp u = convert<hp>(unit_roundoff<T>()), a = convert<hp>(cx.accuracy.u);
  return a > u ? a : u;
}

/// The unit roundoffs of an attention law for dtype T (laws/attention/
/// any_order_bound.h): under a storage class (a declared 16-bit class that
/// does not accumulate in it, or a 16-bit wire: 16-bit inputs and output,
/// float32 arithmetic) `storage` is the class's u and `arith` the larger of
/// T's and float32's; otherwise every rounding at law_u and no storage term
/// (float16-accumulation: the class's u everywhere).
/// float16-pv-accumulation: a storage class whose sum of p v is rounded at
/// the class's u (`pv`, its subnormal spacing `pv_eta`).
/// `mu` is the smallest normal of the format the sums are computed in (T's,
/// or the class's when it accumulates in its format), and `storage_eta` the
/// storage format's subnormal spacing 2^(emin - p + 1) (0 without storage).
/// `coarse`: a declared class coarser than T; then V is stored in the class's
/// format, whose largest value is `largest_stored`, and `largest_sum` is the
/// largest value of the format the sums are kept in (the class's when it
/// accumulates, or accumulates p v, in it; T's otherwise).
struct attention_units {
  hp arith, storage, pv = hp(0), pv_eta = hp(0), mu = hp(0), storage_eta = hp(0);
  bool coarse = false;
  double largest_stored = 0, largest_sum = 0;
};

/// The subnormal spacing 2^(emin - p + 1) of a declared class's format.
inline hp subnormal_spacing(const accuracy_class& a) {
  return convert<hp>(std::ldexp(1.0, a.emin - a.precision + 1));
}

template <class T>
attention_units attention_law_units(const check_run& cx) {
  const hp t = convert<hp>(unit_roundoff<T>()), a = convert<hp>(cx.accuracy.u);
  attention_units au;
  au.coarse = a > t;
  au.largest_stored = au.coarse ? cx.accuracy.max : double(std::numeric_limits<T>::max());
  au.largest_sum = au.coarse && (cx.accuracy.accumulate || cx.accuracy.accumulate_pv)
                       ? cx.accuracy.max
                       : double(std::numeric_limits<T>::max());
  au.mu = hmax(convert<hp>(std::numeric_limits<T>::min()),
               cx.accuracy.accumulate ? convert<hp>(std::ldexp(1.0, cx.accuracy.emin)) : hp(0));
  if (cx.accuracy.accumulate || !(a > t)) {
    au.arith = law_u<T>(cx);
    au.storage = hp(0);
    return au;
  }
  const hp f32 = convert<hp>(unit_roundoff<float>());
  au.arith = t > f32 ? t : f32;
  au.storage = a;
  au.storage_eta = subnormal_spacing(cx.accuracy);
  if (cx.accuracy.accumulate_pv) {
    au.pv = a;
    au.pv_eta = au.storage_eta;
  }
  return au;
}

/// The unit roundoffs of a RoPE or sinusoid law for dtype T (rope_model.h,
/// "Which u"): the angle in T (in the declared class only when it declares
/// 16-bit arithmetic), cos/sin/rotation/storage at law_u.
template <class T>
rope_units rope_law_units(const check_run& cx) {
  const hp t = convert<hp>(unit_roundoff<T>()), op = law_u<T>(cx);
  const bool stored = op > t;  // the declared class's format holds the input and the result
  return {cx.accuracy.accumulate ? op : t, op, stored,
          stored ? subnormal_spacing(cx.accuracy) : hp(0)};
}

}  // namespace pv::blackbox
