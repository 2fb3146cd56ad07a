#include "blackbox/key_weights.h"

#include "blackbox/accuracy.h"
#include "blackbox/calls.h"
#include "blackbox/declines.h"
#include "core/ranges.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pv::blackbox {

namespace {

/// What one reading shows: its finding ("" when every weight is right) and
/// the keys that get no weight.
struct shown {
  std::string text, why;  ///< what the weights are, and what that suggests
  std::vector<std::size_t> dropped;
  bool scaled = false;  ///< every weight softmax's times one factor (the normaliser wrong)
};

shown finding_of(const key_weight_reading& r, double tol, const std::string& normaliser) {
  const std::size_t n = r.exact.size();
  const std::string with = r.rising ? " (rising scores)" : "";
  for (std::size_t j = 0; j < n; ++j)
    if (!std::isfinite(r.read[j]))
      return {"key " + std::to_string(j) + "'s weight reads " + significant(r.read[j]) + with, "", {}};
  std::vector<std::size_t> dropped;
  for (std::size_t j = 0; j < n; ++j)
    if (std::abs(r.read[j]) < 1e-2 * r.exact[j]) dropped.push_back(j);
  if (!dropped.empty())
    return {(dropped.size() == 1 ? "key " : "keys ") + text::ranges(dropped, " to ", "none", 6) +
                (dropped.size() == 1 ? " gets" : " get") + " no weight" + with,
            "", dropped};
  // the ratio read / exact of each key, in runs of equal ratio
  struct run {
    std::size_t begin, end;
    double ratio;
  };
  std::vector<run> runs;
  for (std::size_t j = 0; j < n; ++j) {
    const double q = r.read[j] / r.exact[j];
    if (!runs.empty() && std::abs(q / runs.back().ratio - 1) <= tol) runs.back().end = j + 1;
    else runs.push_back({j, j + 1, q});
  }
  if (runs.size() == 1) {
    if (std::abs(runs[0].ratio - 1) <= tol) return {};
    const std::string wrong = "the keys are weighted right against each other but the normaliser is wrong";
    return {"every weight is softmax's times " + significant(runs[0].ratio) + with,
            normaliser.empty() ? wrong + " (a running sum not rescaled when the maximum grows?)"
                               : wrong + ": " + normaliser,
            {},
            true};
  }
  if (runs.size() <= 8) {
    std::vector<std::string> block, factor;
    for (const auto& b : runs) {
      block.push_back("[" + std::to_string(b.begin) + ", " + std::to_string(b.end) + ")");
      factor.push_back(significant(b.ratio));
    }
    const std::string blocks = text::listed(block), factors = text::listed(factor);
    return {"the weights are right within the blocks of keys " + blocks + with + " but each block is scaled by its "
            "own factor (" + factors + " times softmax's)",
            "parts combined without their exp(m_part - m) weights (a split-K combine or a tile loop that does not "
            "rescale)",
            {}};
  }
  std::size_t worst = 0;
  for (std::size_t j = 1; j < n; ++j)
    if (std::abs(r.read[j] / r.exact[j] - 1) > std::abs(r.read[worst] / r.exact[worst] - 1)) worst = j;
  return {"the weights differ from softmax's in " + std::to_string(runs.size()) + " runs of keys" + with + " (key " +
              std::to_string(worst) + ": " + significant(r.read[worst]) + " instead of " +
              significant(r.exact[worst]) + ")",
          "", {}};
}

}  // namespace

std::string key_weight_finding(const std::vector<key_weight_reading>& rs, double tol, const std::string& normaliser) {
  // per n_k, the first reading that shows something (equal scores come first)
  std::string f;
  std::vector<std::string> whys;
  std::size_t said_nk = 0;  // the n_k of the last reading said
  std::size_t first_dropped = 0;  // every key from it on dropped at every n_k said
  bool any_dropped = false, tails = true, last_only = true;
  for (const auto& r : rs) {
    if (r.n_k == said_nk) continue;
    const shown sh = finding_of(r, tol, normaliser);
    if (sh.text.empty()) continue;
    said_nk = r.n_k;
    f += (f.empty() ? "at n_k = " : "; at n_k = ") + std::to_string(r.n_k) + ", " + sh.text;
    if (!sh.why.empty() && std::find(whys.begin(), whys.end(), sh.why) == whys.end()) whys.push_back(sh.why);
    const auto& d = sh.dropped;
    if (d.empty()) {
      tails = last_only = false;
      continue;
    }
    last_only = last_only && d.size() == 1 && d[0] == r.n_k - 1;
    const bool tail = d.front() > 0 && d.size() == r.n_k - d.front();
    tails = tails && tail && (!any_dropped || first_dropped == d.front());
    first_dropped = d.front();
    any_dropped = true;
  }
  if (f.empty()) return f;
  if (any_dropped && last_only) whys.push_back("the last key is dropped");
  else if (any_dropped && tails)
    whys.push_back("only the first " + std::to_string(first_dropped) + " keys are read (every key from " +
                   std::to_string(first_dropped) + " on is dropped)");
  for (std::size_t i = 0; i < whys.size(); ++i) f += (i == 0 ? ": " : "; ") + whys[i];
  return "the keys' weights read with v = I: " + f;
}

bool key_weights_scaled(const std::vector<key_weight_reading>& rs, double tol) {
  std::size_t said_nk = 0;
  for (const auto& r : rs) {
    if (r.n_k == said_nk) continue;
    const shown sh = finding_of(r, tol, "");
    if (sh.text.empty()) continue;
    said_nk = r.n_k;
    if (sh.scaled) return true;
  }
  return false;
}

double key_weight_tolerance(const check_run& cx, double unit_roundoff, std::size_t n_k) {
  double u = unit_roundoff;
  if (cx.accuracy.u > u) u = cx.accuracy.u;
  if (cx.wire != PV_F32) u = std::max(u, parse_accuracy(sandbox::dtype_name(cx.wire)).u);
  return std::max(1e-3, 16 * u + 2 * double(n_k) * 0x1p-24);
}

template <class T>
std::vector<key_weight_reading> read_key_weights(const check_run& cx, const shape& s, std::size_t row,
                                                 std::string& error) {
  std::vector<std::size_t> nks = {s.n_k};
  if (s.n_k <= 1024) nks.push_back(2 * s.n_k + 1);
  // the values as they reach the kernel (a 16-bit wire rounds them)
  auto sent = [&](double x) { return double(as_sent<T>(cx, x)); };
  std::vector<key_weight_reading> out;
  for (std::size_t nk : nks)
    for (bool rising : {false, true}) {
      key_weight_reading r;
      r.n_k = nk;
      r.rising = rising;
      matrix<T> q(s.n_q, s.d), k(nk, s.d);
      for (std::size_t i = 0; i < s.n_q; ++i) q(i, 0) = T(sent(rising ? 1.0 : 0.0));
      // scores from 0 to 8 (weights from about e^-8 to 1 of the largest)
      const double rs = std::sqrt(double(s.d));
      for (std::size_t j = 0; j < nk; ++j) k(j, 0) = T(sent(8 * rs * double(j) / double(nk > 1 ? nk - 1 : 1)));
      std::vector<double> sc(nk);
      double m = -std::numeric_limits<double>::infinity(), z = 0;
      for (std::size_t j = 0; j < nk; ++j) m = std::max(m, sc[j] = double(q(0, 0)) * double(k(j, 0)) / rs);
      for (std::size_t j = 0; j < nk; ++j) z += std::exp(sc[j] - m);
      for (std::size_t j = 0; j < nk; ++j) r.exact.push_back(std::exp(sc[j] - m) / z);
      // v = I in blocks of d_v keys: one call per block, sent per reading
      std::vector<call> calls;
      for (std::size_t j0 = 0; j0 < nk; j0 += s.d_v) {
        matrix<T> v(nk, s.d_v);
        for (std::size_t c = 0; c < s.d_v && j0 + c < nk; ++c) v(j0 + c, c) = T(1);
        calls.push_back(attention_call(q, k, v));
      }
      const auto res = send(cx, calls);
      r.read.assign(nk, 0.0);
      for (std::size_t i = 0; i < calls.size(); ++i) {
        if (i >= res.size() || res[i].st != status::ok) {
          error = "a weight probe at n_k = " + std::to_string(nk) + " ended " +
                  (i < res.size() ? to_string(res[i].st) : std::string("unrun"));
          return {};
        }
        const auto o = from_bytes<T>(res[i].out, s.n_q, s.d_v);
        for (std::size_t c = 0; c < s.d_v && i * s.d_v + c < nk; ++c) r.read[i * s.d_v + c] = double(o(row, c));
      }
      out.push_back(std::move(r));
    }
  return out;
}

template std::vector<key_weight_reading> read_key_weights<float>(const check_run&, const shape&, std::size_t,
                                                                 std::string&);
template std::vector<key_weight_reading> read_key_weights<double>(const check_run&, const shape&, std::size_t,
                                                                  std::string&);

}  // namespace pv::blackbox
