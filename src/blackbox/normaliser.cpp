#include "blackbox/normaliser.h"

#include "blackbox/calls.h"
#include "blackbox/declines.h"
#include "blackbox/key_weights.h"
#include "core/ranges.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace pv::blackbox {

namespace {

/// The formats a 16-bit running sum of the exponentials is tried in.
constexpr const char* kSumFormats[] = {"bfloat16", "float16"};

bool near(double read, double want, double tol) { return std::abs(read / want - 1) <= tol; }

/// The sum of n ones (the equal scores' exponentials) one key at a time in format a.
double ones_sum(std::size_t n, const accuracy_class& a) { return accumulated_sum(std::vector<double>(n, 1.0), a); }

}  // namespace

double accumulated_sum(const std::vector<double>& p, const accuracy_class& a) {
  double z = 0;
  for (double x : p) z = round_to_format(z + x, a);
  return z;
}

std::string normaliser_format(const std::vector<normaliser_reading>& rs, double tol) {
  bool wrong = false;
  for (const auto& r : rs) wrong = wrong || !near(r.read, double(r.n_k), tol);
  if (!wrong) return "";
  for (const char* name : kSumFormats) {
    const accuracy_class a = parse_accuracy(name);
    bool all = true;
    for (const auto& r : rs) all = all && near(r.read, ones_sum(r.n_k, a), tol);
    if (all) return name;
  }
  return "";
}

std::string normaliser_finding(const std::vector<normaliser_reading>& rs, double tol) {
  bool wrong = false;
  for (const auto& r : rs) wrong = wrong || !near(r.read, double(r.n_k), tol);
  if (!wrong) return "";
  std::vector<std::string> read;
  for (const auto& r : rs) read.push_back(significant(r.read) + " at n_k = " + std::to_string(r.n_k));
  std::string f = "with every score equal (q = 0: each exponential is exp(0) = 1) key 0's weight (v = I) gives a "
                  "normaliser of " + text::listed(read) + " (softmax's is n_k)";
  const std::string name = normaliser_format(rs, tol);
  if (name.empty()) return f;
  std::vector<std::string> sim;
  for (const auto& r : rs) sim.push_back(significant(ones_sum(r.n_k, parse_accuracy(name))));
  return f + ": the normaliser equals a sum of the exponentials accumulated in " + name +
         " (simulated one key at a time: " + text::listed(sim) + ")";
}

template <class T>
std::vector<normaliser_reading> read_normaliser(const check_run& cx, const shape& s, std::string& error) {
  std::vector<std::size_t> nks = {s.n_k, 1025, 4097};
  std::sort(nks.begin(), nks.end());
  nks.erase(std::unique(nks.begin(), nks.end()), nks.end());
  // q = 0 makes every row alike: a few rows keep the long probes cheap at any failing n_q
  const std::size_t nq = std::min<std::size_t>(std::max<std::size_t>(s.n_q, 1), 16);
  std::vector<call> calls;
  for (std::size_t nk : nks) {
    matrix<T> q(nq, s.d), k(nk, s.d), v(nk, s.d_v);
    // keys that differ (the scores are equal through q = 0 alone); probe values are exact in every wire format
    for (std::size_t e = 0; e < k.a.size(); ++e) k.a[e] = T(probe_value(e));
    for (std::size_t c = 0; c < s.d_v && c < nk; ++c) v(c, c) = T(1);
    calls.push_back(attention_call(q, k, v));
  }
  const auto res = send(cx, calls);
  std::vector<normaliser_reading> out;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (i >= res.size() || res[i].st != status::ok) {
      error = "a normaliser probe at n_k = " + std::to_string(nks[i]) + " ended " +
              (i < res.size() ? to_string(res[i].st) : std::string("unrun"));
      return {};
    }
    const auto o = from_bytes<T>(res[i].out, nq, s.d_v);
    out.push_back({nks[i], 1 / double(o(0, 0))});
  }
  return out;
}

namespace {

/// The relative tolerance of the normaliser read from readings rs (key 0's weight at the largest n_k).
double normaliser_tolerance(const check_run& cx, double u, const std::vector<normaliser_reading>& rs) {
  return key_weight_tolerance(cx, u, rs.empty() ? 0 : rs.back().n_k);
}

}  // namespace

template <class T>
std::string sixteen_bit_normaliser(const check_run& cx, const shape& s) {
  std::string error;
  const auto nr = read_normaliser<T>(cx, s, error);
  const double tol = normaliser_tolerance(cx, double(unit_roundoff<T>()), nr);
  return normaliser_format(nr, tol).empty() ? "" : normaliser_finding(nr, tol);
}

template <class T>
std::string diagnose_normaliser(const check_run& cx, const shape& s, std::size_t row) {
  std::string error;
  const auto kw = read_key_weights<T>(cx, s, row, error);
  if (kw.empty()) return "";
  const double tol = key_weight_tolerance(cx, double(unit_roundoff<T>()), kw.back().n_k);
  const auto nr = read_normaliser<T>(cx, s, error);
  const double ntol = normaliser_tolerance(cx, double(unit_roundoff<T>()), nr);
  const std::string nf = normaliser_finding(nr, ntol);
  // right relative to each other: every read weight its exact one times the reading's sum
  double spread = 0;
  std::vector<std::string> sums;
  for (std::size_t i = 0; i < kw.size(); ++i) {
    const auto& r = kw[i];
    double F = 0;
    for (double w : r.read) F += w;
    for (std::size_t j = 0; j < r.n_k; ++j) spread = std::max(spread, std::abs(r.read[j] / (F * r.exact[j]) - 1));
    // read_key_weights reads equal, then rising scores at each n_k
    if (!r.rising) sums.push_back(significant(F));
    else if (!sums.empty()) sums.back() += " and " + significant(F) + " at n_k = " + std::to_string(r.n_k);
  }
  if (!(spread <= tol)) {
    // a format that matches explains a factor on every weight (key_weight_finding's why); else the reading is added
    const bool matched = !normaliser_format(nr, ntol).empty();
    const std::string kf = key_weight_finding(kw, tol, matched ? nf : "");
    return kf + (nf.empty() || (matched && key_weights_scaled(kw, tol)) ? "" : (kf.empty() ? "" : "; ") + nf);
  }
  std::string f = "the keys' weights read with v = I are softmax's relative to each other (within " +
                  significant(100 * tol, 3) + "%) and sum (equal, rising scores) to ";
  for (std::size_t i = 0; i < sums.size(); ++i) f += (i == 0 ? "" : ", ") + sums[i];
  if (!nf.empty()) return f + "; " + nf;
  if (nr.empty()) return f;
  std::vector<std::string> at;
  for (const auto& r : nr) at.push_back(std::to_string(r.n_k));
  return f + "; with every score equal key 0's weight (v = I) gives softmax's normaliser n_k (n_k = " +
         text::listed(at) + ")";
}

template std::vector<normaliser_reading> read_normaliser<float>(const check_run&, const shape&, std::string&);
template std::vector<normaliser_reading> read_normaliser<double>(const check_run&, const shape&, std::string&);
template std::string sixteen_bit_normaliser<float>(const check_run&, const shape&);
template std::string sixteen_bit_normaliser<double>(const check_run&, const shape&);
template std::string diagnose_normaliser<float>(const check_run&, const shape&, std::size_t);
template std::string diagnose_normaliser<double>(const check_run&, const shape&, std::size_t);

}  // namespace pv::blackbox
