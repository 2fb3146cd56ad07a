// The claims of the chapter (../shared/CLAIMS.md), each computed by a
// function registered under its id. The report lists them in catalogue order.
#pragma once

#include "core/results.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pv::claims {

/// What a claim may consult: the run's seed and the property results (a
/// claim such as p5.why is backed by a property).
struct claim_context {
  std::uint64_t seed = 1;
  const std::vector<property_result>* properties = nullptr;
  /// A property the run did not run (a shard's, posverify/shard.h): runs it
  /// (with the run's seed, as the whole run does); unset: nullptr.
  std::function<const property_result*(const std::string&)> run_missing;
  /// Studies that carry no verdict of their own (carousel.d's horizon under
  /// model scalings) run only when set. The fault matrix clears it: such a
  /// study cannot flip a verdict, and rerunning it under every fault would
  /// cost most of the matrix's time.
  bool studies = true;
  /// When set, property() adds each id it is asked for (what a claim
  /// depends on: the fault matrix).
  std::vector<std::string>* properties_read = nullptr;
  const property_result* property(const std::string& id) const;
};

struct claim_def {
  std::string id;
  std::function<claim_result(const claim_context&)> compute;
};

std::vector<claim_def>& claim_registry();

/// Every id of CLAIMS.md, in the catalogue's order, with its section.
struct catalogue_entry {
  const char* id;
  const char* section;
};
const std::vector<catalogue_entry>& catalogue();
std::string section_of(const std::string& id);

struct registrar {
  registrar(std::string id, std::function<claim_result(const claim_context&)> f) {
    claim_registry().push_back({std::move(id), std::move(f)});
  }
};

#define PV_CLAIM_CAT2(a, b) a##b
#define PV_CLAIM_CAT(a, b) PV_CLAIM_CAT2(a, b)
/// PV_CLAIM("id", [](const pv::claims::claim_context& ctx) { ... return result; });
#define PV_CLAIM(id, ...) \
  static const ::pv::claims::registrar PV_CLAIM_CAT(pv_claim_, __COUNTER__){id, __VA_ARGS__}

/// Proofs and certificates (claims/proofs/) add fields to a claim's record after it
/// is computed: a proof registered for an id receives the result and adds to
/// `extra` (e.g. "proof": {...}); it must not change the values or verdict.
struct proof_def {
  std::string claim_id;
  std::string name;
  std::function<void(const claim_context&, claim_result&)> attach;
};
std::vector<proof_def>& proofs();
struct proof_registrar {
  proof_registrar(std::string id, std::string name,
                  std::function<void(const claim_context&, claim_result&)> f) {
    proofs().push_back({std::move(id), std::move(name), std::move(f)});
  }
};
/// PV_CLAIM_PROOF("id", "name", [](const claim_context&, claim_result& r) { ... });
#define PV_CLAIM_PROOF(id, name, ...) \
  static const ::pv::claims::proof_registrar PV_CLAIM_CAT(pv_proof_, __COUNTER__){id, name, __VA_ARGS__}

/// A proof or certificate attached to `r` (any object in r.extra with a
/// "verdict") that came out disproved where proved was expected, or other
/// than its stated "expected", makes the claim fail: r.result = fails, the
/// qualification names each such proof, r.extra["proof_failures"] lists them.
void apply_proof_verdicts(claim_result& r);

/// Runs every catalogued claim in catalogue order. A catalogued id with no
/// registered function is reported as `fails` with the qualification
/// "not implemented", so a gap cannot hide.
/// keep(i): whether to run the i-th claim of the catalogue (a shard runs some).
std::vector<claim_result> run_claims(const claim_context& ctx, const std::function<bool(std::size_t)>& keep = {});

/// Runs one claim and its proofs. A claim whose computation (or a proof of
/// it) throws comes back as `fails`, its qualification naming the error, so
/// that one claim cannot lose the whole report.
claim_result run_claim(const catalogue_entry& e, const claim_def& def, const claim_context& ctx);

/// A fresh result for `id` with its section filled in.
claim_result make(const std::string& id, const std::string& checked);

}  // namespace pv::claims
