// Shards: a long run (`check`, `verify`) split deterministically into N parts
// that CI jobs or a Slurm array run apart, and `posverify merge` joins again.
// The cases are grouped into units (a law on one dtype and configuration, a
// RoPE configuration with its sweep, a property, a claim), numbered in the
// order a single run meets them; unit u belongs to shard u mod N. Every unit
// draws its cases from the run's seed and its own id, as in a single run, so
// the merged report is the single run's (docs/scaling.md).
//
// The shard comes from `--shard K/N` (K counted from 1), else from
// GoogleTest's GTEST_SHARD_INDEX (from 0) and GTEST_TOTAL_SHARDS.
#pragma once

#include "core/json.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace pv::shard {

/// Which shard this run is: index in [0, total). total 1: the whole run.
struct spec {
  int index = 0;
  int total = 1;
  bool sharded() const { return total > 1; }
  /// Whether unit u is this shard's.
  bool mine(long u) const { return total <= 1 || u % total == index; }
  std::string text() const { return std::to_string(index + 1) + "/" + std::to_string(total); }
};

inline constexpr int max_total = 100000;

namespace detail {
/// A whole number in [lo, hi], or -1.
inline long whole(const std::string& s, long lo, long hi) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return -1;
  const long v = std::stol(s);
  return v < lo || v > hi ? -1 : v;
}
}  // namespace detail

/// Parses the value of --shard, "K/N" with 1 <= K <= N <= max_total; throws
/// std::invalid_argument naming the option and the value.
inline spec parse_flag(const std::string& v) {
  const auto slash = v.find('/');
  const long n = slash == std::string::npos ? -1 : detail::whole(v.substr(slash + 1), 1, max_total);
  const long k = slash == std::string::npos ? -1 : detail::whole(v.substr(0, slash), 1, max_total);
  if (n < 0 || k < 0 || k > n)
    throw std::invalid_argument("--shard: '" + v + "' is not K/N with 1 <= K <= N <= " +
                                std::to_string(max_total) + " (e.g. --shard 2/4: the second of four shards)");
  return {int(k - 1), int(n)};
}

/// The shard of GoogleTest's variables (index from 0); {0, 1} when neither
/// is set. Throws std::invalid_argument naming the variable and its value
/// when one is set without the other or a value is not a whole number in range.
inline spec from_env(const char* index_value, const char* total_value) {
  if (!index_value && !total_value) return {};
  if (!index_value || !total_value)
    throw std::invalid_argument(std::string(index_value ? "GTEST_SHARD_INDEX" : "GTEST_TOTAL_SHARDS") +
                                " is set but " + (index_value ? "GTEST_TOTAL_SHARDS" : "GTEST_SHARD_INDEX") +
                                " is not: set both (or neither)");
  const long n = detail::whole(total_value, 1, max_total);
  if (n < 0)
    throw std::invalid_argument(std::string("GTEST_TOTAL_SHARDS: '") + total_value +
                                "' is not a whole number in [1, " + std::to_string(max_total) + "]");
  const long k = detail::whole(index_value, 0, max_total);
  if (k < 0 || k >= n)
    throw std::invalid_argument(std::string("GTEST_SHARD_INDEX: '") + index_value +
                                "' is not a whole number in [0, GTEST_TOTAL_SHARDS - 1 = " +
                                std::to_string(n - 1) + "]");
  return {int(k), int(n)};
}

/// The shard of a run: the --shard value when given (it wins), else the
/// environment's.
inline spec resolve(const std::string& flag_value, bool flag_given) {
  if (flag_given) return parse_flag(flag_value);
  return from_env(std::getenv("GTEST_SHARD_INDEX"), std::getenv("GTEST_TOTAL_SHARDS"));
}

/// The "shard" record of a shard's report: which shard, how many units the
/// whole run has, and for each sharded array of the report the unit of each
/// of its entries (what `merge` orders and checks by).
inline json record(const spec& s, long units, const std::vector<std::pair<std::string, std::vector<long>>>& arrays) {
  json j = json::object();
  j.set("index", json::integer(s.index + 1));
  j.set("total", json::integer(s.total));
  j.set("units", json::integer(units));
  json e = json::object();
  for (const auto& [name, us] : arrays) {
    json a = json::array();
    for (long u : us) a.push(json::integer(u));
    e.set(name, a);
  }
  j.set("entries", e);
  return j;
}

/// How many entries of a run's record arrays (a check's "laws"; a verify's
/// "claims" and "properties") each unit of a shard must have: at least one (a
/// check: every law on one dtype, every RoPE configuration has its laws),
/// exactly one (verify: one property or one claim), or any number (a check
/// with --law, whose units mostly hold none of the laws asked for).
enum class coverage { any, at_least_once, exactly_once };

/// What a shard's units lack or repeat in the entries `us` (the units of its
/// records) under `how`: "" when each of its units u (u < units, u mod n =
/// k - 1) has as many as `how` asks, else the first unit that has not, with
/// the count it has. Builds nothing the size of `units` (a shard may claim
/// any number): the units are walked only as far as the entries reach.
inline std::string uncovered(const std::vector<long>& us, long units, long k, long n, coverage how) {
  if (how == coverage::any) return "";
  std::map<long, long> count;  // unit -> its records
  for (long u : us) ++count[u];
  if (how == coverage::exactly_once)
    for (const auto& [u, c] : count)
      if (c > 1) return "unit " + std::to_string(u) + " has " + std::to_string(c) + " records, a unit has one";
  for (long u = k - 1; u < units; u += n) {
    if (!count.count(u)) return "unit " + std::to_string(u) + " has no record";
    if (units - u <= n) break;  // the last unit of the shard (u + n would pass units, or overflow)
  }
  return "";
}

/// Joins the reports of the shards of one run (file name, JSON) into the
/// single run's report: every field but the sharded `arrays`, "summary" and
/// "shard" must be the same in every shard (seed, options, version,
/// implementation, ...); the shards must be 1..N of one N, each once; every
/// unit of a shard must have its records in the arrays `records` as `how`
/// asks (a record removed leaves its unit without one); the entries of
/// `arrays` are put back in the order of their units. "summary" is left as
/// the first shard's (the caller recomputes it). Throws std::runtime_error
/// naming the file and the problem.
inline json merge(const std::vector<std::pair<std::string, json>>& shards, const std::vector<std::string>& arrays,
                  const std::vector<std::string>& records = {}, coverage how = coverage::any) {
  if (shards.empty()) throw std::runtime_error("merge: no shard reports given");
  auto field = [](const json& r, const std::string& file, const char* key) -> const json& {
    const json* v = r.find(key);
    if (!v) throw std::runtime_error(file + ": no \"" + key + "\" (not a report of posverify)");
    return *v;
  };
  auto skipped = [&](const std::string& k) {
    return k == "shard" || k == "summary" || std::find(arrays.begin(), arrays.end(), k) != arrays.end();
  };
  const auto& [file0, first] = shards[0];
  if (first.type() != json::kind::object) throw std::runtime_error(file0 + ": not a JSON object");
  if (!first.find("shard")) {
    if (shards.size() == 1) return first;  // a whole run
    throw std::runtime_error(file0 + ": not a shard's report (no \"shard\" record): a whole run merges with nothing");
  }
  const long total = field(field(first, file0, "shard"), file0, "total").as_integer();
  const long units = field(field(first, file0, "shard"), file0, "units").as_integer();
  // a run has at most max_total shards (parse_flag): a larger claim is refused
  // before anything is built from it (the list of missing shards, ...)
  if (total < 2 || total > max_total)
    throw std::runtime_error(file0 + ": shard.total " + std::to_string(total) + " is out of range [2, " +
                             std::to_string(max_total) + "]");
  if (units < 0) throw std::runtime_error(file0 + ": shard.units " + std::to_string(units) + " is negative");
  std::map<long, std::string> seen;  // shard index -> file
  std::vector<std::vector<std::pair<long, json>>> merged(arrays.size());
  for (const auto& [file, r] : shards) {
    if (r.type() != json::kind::object) throw std::runtime_error(file + ": not a JSON object");
    const json* sh = r.find("shard");
    if (!sh) throw std::runtime_error(file + ": not a shard's report (no \"shard\" record)");
    const long k = field(*sh, file, "index").as_integer(), n = field(*sh, file, "total").as_integer();
    if (n != total)
      throw std::runtime_error(file + " is shard " + std::to_string(k) + "/" + std::to_string(n) + " but " + file0 +
                               " is of " + std::to_string(total) + " shards: not one run");
    if (k < 1 || k > n) throw std::runtime_error(file + ": shard index " + std::to_string(k) + " out of 1.." + std::to_string(n));
    if (!seen.emplace(k, file).second)
      throw std::runtime_error("shard " + std::to_string(k) + "/" + std::to_string(n) + " given twice: " + seen[k] +
                               " and " + file + " (overlapping shards)");
    if (field(*sh, file, "units").as_integer() != units)
      throw std::runtime_error(file + " and " + file0 + " count different units (" +
                               std::to_string(field(*sh, file, "units").as_integer()) + " and " +
                               std::to_string(units) + "): not shards of one run");
    // everything but the sharded parts is the run's: the same in every shard
    for (const auto& [key, v] : first.items())
      if (!skipped(key) && (!r.find(key) || r.find(key)->dump() != v.dump()))
        throw std::runtime_error(file + " and " + file0 + " are not shards of one run: their \"" + key +
                                 "\" differs (seed, options, version and implementation must be the same)");
    for (const auto& [key, v] : r.items())
      if (!skipped(key) && !first.find(key))
        throw std::runtime_error(file + " has \"" + key + "\", " + file0 + " has not: not shards of one run");
    const json& entries = field(*sh, file, "entries");
    std::vector<long> record_units;  // the units of the entries of `records`
    for (std::size_t a = 0; a < arrays.size(); ++a) {
      const json& items = field(r, file, arrays[a].c_str());
      const json& us = field(entries, file, arrays[a].c_str());
      if (us.size() != items.size())
        throw std::runtime_error(file + ": the shard record lists " + std::to_string(us.size()) + " units for " +
                                 std::to_string(items.size()) + " entries of \"" + arrays[a] + "\"");
      for (std::size_t i = 0; i < items.size(); ++i) {
        const long u = us.items()[i].second.as_integer();
        if (u < 0 || u >= units || u % n != k - 1)
          throw std::runtime_error(file + ": entry " + std::to_string(i) + " of \"" + arrays[a] + "\" is of unit " +
                                   std::to_string(u) + ", not one of shard " + std::to_string(k) + "/" + std::to_string(n));
        merged[a].emplace_back(u, items.items()[i].second);
        if (std::find(records.begin(), records.end(), arrays[a]) != records.end()) record_units.push_back(u);
      }
    }
    if (const std::string gap = uncovered(record_units, units, k, n, how); !gap.empty()) {
      std::string names;
      for (const auto& r : records) names += (names.empty() ? "\"" : "\" or \"") + r;
      throw std::runtime_error(file + ": shard " + std::to_string(k) + "/" + std::to_string(n) + ": " + gap + " in " +
                               names + "\" (shard.entries): a shard holds every record of its units; was one removed?");
    }
  }
  std::string missing;
  long n_missing = 0;
  for (long k = 1; k <= total; ++k)
    if (!seen.count(k) && ++n_missing <= 10)
      missing += (missing.empty() ? "" : ", ") + std::to_string(k) + "/" + std::to_string(total);
  if (n_missing > 10) missing += " and " + std::to_string(n_missing - 10) + " more";
  if (n_missing) throw std::runtime_error("missing shard(s) " + missing + ": every shard of the run is needed");
  json out = json::object();
  for (const auto& [key, v] : first.items()) {
    if (key == "shard") continue;
    const auto it = std::find(arrays.begin(), arrays.end(), key);
    if (it == arrays.end()) {
      out.set(key, v);
      continue;
    }
    auto& m = merged[std::size_t(it - arrays.begin())];
    std::stable_sort(m.begin(), m.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    json a = json::array();
    for (auto& e : m) a.push(std::move(e.second));
    out.set(key, a);
  }
  return out;
}

}  // namespace pv::shard
