// Common pieces of the black-box laws run through the C interface: the run
// context, a small seeded PRNG, the per-law result with its worst case, and
// helpers that move matrices in and out of the byte buffers of a call.
#pragma once

#include "check/rope_model.h"
#include "check/sandbox.h"
#include "posverify/json.h"
#include "posverify/matrix.h"
#include "posverify/scalar.h"
#include "posverify/seeded.h"
#include "posverify/shard.h"
#include "posverify/verdict.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pv::check {

inline hp hmax(const hp& a, const hp& b) { return a < b ? b : a; }
inline hp hmin(const hp& a, const hp& b) { return b < a ? b : a; }

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

struct context {
  std::shared_ptr<unit_plan> units = std::make_shared<unit_plan>();
  long group = -1;  ///< the unit of the laws being run (a RoPE configuration), or -1: one unit per law
  impl_info lib;
  runner_options ro;
  std::uint64_t seed = 1;
  int cases = 100;
  double max_position = 8192;
  std::string only_law;  ///< run laws whose id starts with this (empty: all)
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
};

/// The unit roundoff the laws use for dtype T: T's own, or that of a coarser
/// declared accuracy class (a kernel whose interface is wider than its arithmetic).
template <class T>
hp law_u(const context& cx) {
  const hp u = convert<hp>(unit_roundoff<T>()), a = convert<hp>(cx.accuracy.u);
  return a > u ? a : u;
}

/// The unit roundoffs of a RoPE or sinusoid law for dtype T (rope_model.h,
/// "Which u"): the angle in T (in the declared class only when it declares
/// 16-bit arithmetic), cos/sin/rotation/storage at law_u.
template <class T>
rope_units rope_law_units(const context& cx) {
  const hp t = convert<hp>(unit_roundoff<T>()), op = law_u<T>(cx);
  return {cx.accuracy.accumulate ? op : t, op, op > t};
}

/// gamma_n = n u / (1 - n u) at the unit roundoff u (infinite when n u >= 1).
inline hp gamma_at(long n, const hp& u) {
  const hp nu = hp(static_cast<double>(n)) * u;
  return nu < 1 ? hp(nu / (1 - nu)) : hp(std::numeric_limits<double>::infinity());
}

/// The outcome of one law on one dtype (and RoPE configuration).
struct law_result {
  std::string id;         ///< e.g. "rope.reference[text-halves-64/float32]"
  std::string base_id;    ///< "rope.reference"
  std::string law;        ///< the law in one sentence
  std::string tolerance;  ///< the rule and where it comes from
  std::string dtype;      ///< float32 | float64
  std::string config;     ///< RoPE configuration or ""
  long unit = -1;         ///< the unit it belongs to (posverify/shard.h)
  pv::verdict verdict = pv::verdict::not_run;  ///< passed | failed | insufficient | unsupported | not_run
  int cases = 0;          ///< cases evaluated (passed cases + the failing one)
  int unsupported = 0;    ///< cases the library declined (returned 1)
  std::string finding;    ///< when failed or insufficient: what went wrong
  std::string counterexample;  ///< lossless inputs of the failing case
  std::string replay;
  bool has_worst = false;
  hp worst_error = 0, worst_bound = 0;
  std::string worst_where;  ///< case and entry of the worst error/bound ratio
  std::string worst_replay;  ///< the command that reruns the worst case
  hp max_error = 0, max_error_bound = 0;  ///< the largest |difference| and its tolerance
  /// Part of the law's definition: a failure runs the black-box diagnosis of
  /// its configuration (diagnose.h), whose message is attached to the failed law.
  bool diagnose = false;
  json extra = json::object();
};

/// Lazily builds the lossless description of a case (for failure reports).
using describer = std::function<std::string()>;

/// The seeded generator (posverify/seeded.h).
using rng = seeded;

/// The generator of case k of law `id` in a run seeded `seed`.
inline rng case_rng(std::uint64_t seed, const std::string& id, int k) {
  rng r(seed ^ fnv1a(id) ^ (std::uint64_t(k) * 0xD1B54A32D192ED03ull));
  r.next();
  return r;
}

template <class T>
constexpr pv_dtype dtype_of() { return std::is_same_v<T, float> ? PV_F32 : PV_F64; }

template <class T>
std::vector<unsigned char> to_bytes(const matrix<T>& m) {
  std::vector<unsigned char> b(m.a.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), m.a.data(), b.size());
  return b;
}

template <class T>
matrix<T> from_bytes(const std::vector<unsigned char>& b, std::size_t rows, std::size_t cols) {
  matrix<T> m(rows, cols);
  if (b.size() == rows * cols * sizeof(T) && !b.empty()) std::memcpy(m.a.data(), b.data(), b.size());
  return m;
}

/// A random rows x cols matrix of T values, entries uniform in [-s, s].
template <class T>
matrix<T> random_matrix(rng& g, std::size_t rows, std::size_t cols, double s) {
  matrix<T> m(rows, cols);
  for (auto& x : m.a) x = static_cast<T>(g.real(-s, s));
  return m;
}

/// Runs the cases of one law: builds the calls of every case, runs them in
/// one child, then evaluates the cases in order and stops at the first
/// failure (as a property runner does).
class law_run {
 public:
  law_run(const context& cx, std::string base_id, std::string dtype, std::string config,
          std::string law, std::string tolerance);

  /// Indices of the cases to run (all, or the replayed one).
  std::vector<int> case_indices() const;
  rng rng_for(int k) const { return case_rng(cx_.seed, r_.base_id + "/" + r_.config, k); }
  bool selected() const;

  std::size_t add(call c) { calls_.push_back(std::move(c)); return calls_.size() - 1; }
  /// Runs the calls added so far (results appended to results()).
  void run();
  const std::vector<result>& results() const { return res_; }
  std::vector<call>& calls() { return calls_; }

  /// The calls of case k must all have returned numbers; otherwise the law
  /// fails (or the case is skipped as unsupported). Returns true to go on
  /// evaluating this case.
  bool calls_ok(int k, const std::vector<std::size_t>& idx, const std::function<std::string()>& describe);

  /// Evaluates the cases in order and stops at the first failure (as a
  /// property runner does): case i (index ks[i]) needs its calls
  /// [per i, per i + per) to have returned numbers (calls_ok; a declined case
  /// is skipped), then check(i, desc) judges it, false meaning the law failed.
  void each_case(const std::vector<int>& ks, std::size_t per,
                 const std::function<std::string(std::size_t)>& describe,
                 const std::function<bool(std::size_t, const describer&)>& check);

  /// Records |error| <= bound at `where`; on violation fails the law.
  bool within(int k, const hp& error, const hp& bound, const std::string& where,
              const std::function<std::string()>& describe);

  /// Fails case k with a message (law-specific).
  void fail(int k, const std::string& msg, const std::function<std::string()>& describe);

  void case_done() { ++r_.cases; }
  bool failed() const { return r_.verdict == verdict::failed; }
  law_result finish();
  law_result& result_ref() { return r_; }

 private:
  std::string rope_flags() const;
  std::string shape_flags() const;  ///< --profile (when given) and every --shape of the run
  std::string replay_of(int k) const;
  const context& cx_;
  law_result r_;
  std::vector<call> calls_;
  std::vector<result> res_;
};

std::vector<law_result> attention_laws(const context& cx);
std::vector<law_result> rope_laws(const context& cx, json& sweep, json& diagnosis);
std::vector<law_result> sinusoid_laws(const context& cx);

/// One attention() call on q, k, v.
template <class T>
call attention_call(const matrix<T>& q, const matrix<T>& k, const matrix<T>& v) {
  call c;
  c.kind = op::attention;
  c.t = dtype_of<T>();
  c.a = to_bytes(q);
  c.b = to_bytes(k);
  c.c = to_bytes(v);
  c.n_q = static_cast<std::int64_t>(q.rows);
  c.n_k = static_cast<std::int64_t>(k.rows);
  c.d = static_cast<std::int64_t>(q.cols);
  c.d_v = static_cast<std::int64_t>(v.cols);
  return c;
}

/// Lossless text of a vector of positions.
std::string positions_text(const std::vector<double>& p, std::size_t per_row);

/// One rope() call rotating the rows of x at pos (n_axes coordinates per row).
template <class T>
call rope_call(const pv_rope_config& cfg, const matrix<T>& x, const std::vector<double>& pos) {
  call c;
  c.kind = op::rope;
  c.t = dtype_of<T>();
  c.cfg = cfg;
  c.a = to_bytes(x);
  c.pos = pos;
  c.n = static_cast<std::int64_t>(x.rows);
  return c;
}

/// Draws the cases ks of a RoPE law: make(g, k, x, pos) fills the rows and
/// positions of case k from its generator (Lr.rng_for(k)); each case is called
/// once per configuration in `cfgs`, in that order (Lr.add). The rows and
/// positions are appended to xs and ps, one per case.
template <class T, class Make>
void draw_rope_cases(law_run& Lr, const std::vector<int>& ks, const std::vector<const pv_rope_config*>& cfgs,
                     Make make, std::vector<matrix<T>>& xs, std::vector<std::vector<double>>& ps) {
  for (int k : ks) {
    auto g = Lr.rng_for(k);
    matrix<T> x;
    std::vector<double> pos;
    make(g, k, x, pos);
    xs.push_back(x);
    ps.push_back(pos);
    for (const pv_rope_config* c : cfgs) Lr.add(rope_call(*c, x, pos));
  }
}

/// Lossless description of a RoPE case: configuration, rows and positions.
template <class T>
std::string describe_rows(const rope_cfg& rc, const matrix<T>& x, const std::vector<double>& pos) {
  return "config " + rc.name + "\nx = " + to_string(x) + "\npositions = " +
         positions_text(pos, std::size_t(rc.c.n_axes));
}

}  // namespace pv::check
