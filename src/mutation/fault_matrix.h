// The fault matrix: every claim and every property run under every planted
// fault of numerics/fault.h. A verdict that no fault flips is a verdict that
// has not been shown able to fail; the matrix names it.
#pragma once

#include "numerics/fault.h"
#include "core/results.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pv::mutation {

struct fault_matrix_options {
  std::uint64_t seed = 1;
  /// Random cases per property, in the baseline and under each fault (fewer
  /// than verify's 1000, to keep the matrix affordable; the report says so).
  int property_cases = 100;
};

/// One row of the matrix: a claim or a property, its verdict without a fault
/// and under each fault (same order as fault_matrix::faults).
struct fault_row {
  std::string id;
  pv::verdict baseline = pv::verdict::not_run;
  std::vector<pv::verdict> under;
  std::vector<std::string> note;  ///< first words of the failure, per fault ("" when unchanged)
  bool checkable = true;          ///< false for a claim that is not checkable
  /// A fault flips the row when the baseline holds (or passes) and the row
  /// fails under the fault.
  std::vector<std::string> flipped_by(const std::vector<fault_info>& faults) const;
};

struct fault_matrix {
  std::uint64_t seed = 1;
  int property_cases = 0;
  std::vector<fault_info> faults;
  std::vector<fault_row> claims, properties;
  /// Checkable claims and properties that no fault flips: ids.
  std::vector<std::string> unflipped() const;
};

/// Runs the baseline and every fault: properties first (the claims that
/// consult a property see its result under the same fault), then the claims.
/// Under a fault, a claim or property runs again only when its baseline asked
/// about that fault (itself or through a property it read: consulted_faults()
/// in numerics/fault.h); the others would run alike and keep their baseline.
fault_matrix run_fault_matrix(const fault_matrix_options& o);

}  // namespace pv::mutation
