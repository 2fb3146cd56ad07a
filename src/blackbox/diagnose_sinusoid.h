// Black-box diagnosis of a sinusoidal encoding that disagrees with the
// reference: the kernel's rows at positions 0 and 1 read off its layout
// ((sin, cos) pairs interleaved or in halves, and in which order) and the
// speed of each pair, named against base^(-2i/d): the exponent halved, another
// base, every speed equal, position 0 acting as another.
#pragma once

#include "blackbox/check_run.h"

#include <string>
#include <vector>

namespace pv::blackbox {

/// What rows p0 (position 0) and p1 (position 1) of a d-column sinusoid of
/// base `base` show, or "" when they are the reference's within `tol`
/// (absolute). Pure (tests/blackbox/diagnose_sinusoid_test.cpp).
std::string sinusoid_finding(const std::vector<double>& p0, const std::vector<double>& p1, std::size_t d, double base,
                             double tol);

/// Probes the kernel of cx (dtype T) at positions 0 and 1 with d columns and
/// base `base`, and names what it does; a probe that does not end ok says so.
template <class T>
std::string diagnose_sinusoid(const check_run& cx, std::size_t d, double base);

}  // namespace pv::blackbox
