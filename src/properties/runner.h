// The property registry and runner. Every property is registered once and
// run by both back-ends: ctest (through GoogleTest, properties/main.cpp) and
// `posverify verify`, which puts the result in the report.
#pragma once

#include "core/results.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pv::prop {

struct property_def {
  std::string id;         ///< as in CLAIMS.md, e.g. "rope.shift_invariance"
  std::string law;        ///< the law in one sentence
  std::string tolerance;  ///< the comparison rule and where it comes from
  std::function<rc::detail::Property()> make;
};

std::vector<property_def>& property_registry();
const property_def* find_property(const std::string& id);

/// Registers a property in the order of the ids, whatever order the
/// translation units run their initialisers in (a unity build batches them
/// differently from one object per file): reports list them the same way.
struct registrar {
  template <class Testable>
  registrar(std::string id, std::string law, std::string tolerance, Testable t) {
    auto& r = property_registry();
    const auto at = std::upper_bound(r.begin(), r.end(), id,
                                     [](const std::string& a, const property_def& b) { return a < b.id; });
    r.insert(at, {std::move(id), std::move(law), std::move(tolerance), [t] { return rc::detail::toProperty(t); }});
  }
};

#define PV_PROP_CAT2(a, b) a##b
#define PV_PROP_CAT(a, b) PV_PROP_CAT2(a, b)
/// PV_PROPERTY("id", "law", "tolerance rule", [](gen args...) { ... });
#define PV_PROPERTY(id, law, tolerance, ...)                                        \
  static const ::pv::prop::registrar PV_PROP_CAT(pv_property_, __COUNTER__) {          \
    id, law, tolerance, __VA_ARGS__                                                 \
  }

struct run_options {
  std::uint64_t seed = 1;     ///< the run's seed; each property derives its own
  int cases = 1000;           ///< successful cases required
  int max_size = 100;         ///< RapidCheck size; Debian's snapshot breaks above 100
  std::string reproduce;      ///< hex string from a failure: replays that case only
  std::string program = "posverify";  ///< how the replay command names the tool
};

/// The seed of property `id` in a run seeded with `seed` (so that one
/// property can be rerun alone with the same cases).
std::uint64_t property_seed(std::uint64_t seed, const std::string& id);

/// Runs one property. Never throws for a failing law: the failure is in the
/// result, with the lossless counterexample and the replay command.
property_result run_property(const property_def& p, const run_options& o);

/// Fails the current case with a message (lossless figures belong in it).
[[noreturn]] void fail(const std::string& message);

}  // namespace pv::prop
