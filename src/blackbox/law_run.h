// The runner of one black-box law: builds the calls of every case, runs them
// in one sandboxed child, then evaluates the cases in order and stops at the
// first failure (as a property runner does), recording the worst error
// against its tolerance and a replay command for every failure.
#pragma once

#include "blackbox/calls.h"
#include "blackbox/check_run.h"
#include "blackbox/law_result.h"
#include "core/seeded.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pv::blackbox {

/// The generator of case k of law `id` in a run seeded `seed`.
inline rng case_rng(std::uint64_t seed, const std::string& id, int k) {
  rng r(seed ^ fnv1a(id) ^ (std::uint64_t(k) * 0xD1B54A32D192ED03ull));
  r.next();
  return r;
}

/// Whether `--law only` asks for law r: its id starts with `only`, or, for a
/// renamed law, its former id does (`--law rope` keeps selecting every law of
/// a RoPE configuration, the flux.* ones once named rope.flux.* too; a whole
/// former id is mapped by laws::current_id before it gets here).
inline bool asked_for(const law_result& r, const std::string& only) {
  if (only.empty() || r.id.rfind(only, 0) == 0) return true;
  return !r.former_id.empty() && (r.former_id + r.id.substr(r.base_id.size())).rfind(only, 0) == 0;
}

/// Whether one of the --law prefixes asks for law r (none given: every law).
inline bool asked_for(const law_result& r, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const auto& o : only)
    if (asked_for(r, o)) return true;
  return false;
}

/// Runs the cases of one law: builds the calls of every case, runs them in
/// one child, then evaluates the cases in order and stops at the first
/// failure (as a property runner does).
class law_run {
 public:
  law_run(const check_run& cx, std::string base_id, std::string dtype, std::string config,
          std::string law, std::string tolerance);

  /// Indices of the cases to run (all, or the replayed one).
  std::vector<int> case_indices() const;
  rng rng_for(int k) const { return case_rng(cx_.seed, case_stream_ + "/" + r_.config, k); }
  /// Seeds the cases from `stream` instead of the law's id: a law whose id
  /// changed keeps the cases (and so the replay commands) of its old id.
  void seed_cases_from(std::string stream) {
    case_stream_ = std::move(stream);
    if (case_stream_ != r_.base_id) r_.former_id = case_stream_;
  }
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
  /// The same, `where` written only when it is needed (a new worst ratio, a
  /// failure): for the laws that judge every component of every row.
  bool within(int k, const hp& error, const hp& bound, const std::function<std::string()>& where,
              const std::function<std::string()>& describe);

  /// The same judgement with a first look in binary64 (rope_rotated.h):
  /// error_above >= the error and bound_below <= the bound, as exact() would
  /// compute them in MPFR. When they show the entry inside its bound, below
  /// the worst ratio recorded and not above the largest error recorded, the
  /// exact judgement would record nothing, so nothing is done; otherwise
  /// exact() gives (error, bound) and within() judges. MPFR also judges the
  /// first entry of every kSampleEvery-th case (0, 8, 16, ...), where the two
  /// looks must agree: an MPFR error above the first look's, or a bound below
  /// it, fails the law as a fault of posverify (as attention.shapes does when
  /// its two tiers disagree). Not every case: a law judging one entry per case
  /// (a dot product, an attention output) would pay all of MPFR's cost again.
  template <class Exact>
  bool within_fast(int k, double error_above, double bound_below, Exact exact,
                   const std::function<std::string()>& where, const std::function<std::string()>& describe) {
    const bool sample = k != sampled_case_ && k % kSampleEvery == 0;
    if (!sample && clearly_inside(error_above, bound_below)) return true;
    const auto [error, bound] = exact();
    if (sample) {
      sampled_case_ = k;
      if (!first_look_holds(error, bound, error_above, bound_below)) {
        fail(k, where() + ": the binary64 first look (error at most " + to_decimal(error_above) +
                    ", tolerance at least " + to_decimal(bound_below) + ") and MPFR (" + to_decimal(error) + ", " +
                    to_decimal(bound) + ") disagree: a fault of " + first_look_fault(error, error_above) +
                    ", please report it",
             describe);
        return false;
      }
    }
    return within(k, error, bound, where, describe);
  }
  /// Which part of the first look MPFR contradicts (first_look_holds is
  /// false): the error (posverify's reference), else the tolerance.
  static std::string first_look_fault(const hp& error, double error_above) {
    return error > hp(error_above) ? "posverify's reference (its error is above the first look's)"
                                   : "posverify's binary64 tolerance (MPFR's is below it)";
  }
  /// Whether within_fast may skip an entry (see there).
  bool clearly_inside(double error_above, double bound_below) const {
    return r_.has_worst && error_above >= 0 && error_above <= bound_below && error_above <= max_error_below_ &&
           error_above <= worst_ratio_below_ * bound_below;
  }

  /// Fails case k with a message (law-specific).
  void fail(int k, const std::string& msg, const std::function<std::string()>& describe);

  /// Names the cause of the failure just recorded: the record's "diagnosis"
  /// and "; diagnosis: ..." after its finding.
  void diagnose(const std::string& cause);

  void case_done() { ++r_.cases; }
  bool failed() const { return r_.verdict == verdict::failed; }
  law_result finish();
  law_result& result_ref() { return r_; }

 private:
  std::string rope_flags() const;
  mutable std::string rope_flags_;  ///< rope_flags(), once known
  mutable bool rope_flags_known_ = false;
  std::string shape_flags() const;  ///< --profile (when given), every --shape and --attend-preset of the run
  std::string replay_of(int k) const;
  const check_run& cx_;
  law_result r_;
  static constexpr int kSampleEvery = 8;
  static bool first_look_holds(const hp& error, const hp& bound, double error_above, double bound_below);
  int sampled_case_ = -1;  ///< the last case whose first entry MPFR judged (within_fast)
  /// Binary64 lower bounds of r_'s largest error and worst ratio (clearly_inside).
  double max_error_below_ = 0, worst_ratio_below_ = 0;
  std::string case_stream_;  ///< the id the cases are seeded from (the law's, unless seed_cases_from)
  std::vector<call> calls_;
  std::vector<result> res_;
};

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

}  // namespace pv::blackbox
