// Helper for the proof attachments: several proofs may attach to one claim,
// each under its own key of extra["proof"].
#pragma once

#include "core/results.h"

#include <string>

namespace pv::proofs {

/// Sets r.extra["proof"][key] = value, keeping the other keys.
inline void add_proof(claim_result& r, const std::string& key, json value) {
  json proof = json::object();
  if (const json* p = r.extra.find("proof")) proof = *p;
  proof.set(key, std::move(value));
  r.extra.set("proof", std::move(proof));
}

}  // namespace pv::proofs
