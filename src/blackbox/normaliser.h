// The softmax normaliser of an attention kernel, read off black-box and
// tested against one hypothesis: the sum of the exponentials accumulated in a
// 16-bit format. With every score equal (q = 0) every exponential is
// exp(0) = 1 whatever the kernel's rounding of the scores, so key 0's weight
// (v = I) is 1 / the normaliser exactly, and a sum of n_k ones taken one key
// at a time is known in any format: exact up to 256 in bfloat16 and 2048 in
// float16, where it stops growing (an addend of 1 falls to half an ulp). The
// probe runs at the failing case's n_k and at 1025 and 4097 keys, where the
// two formats' sums part from each other and from n_k.
// attention.convex_hull names with it why a row with v = I does not sum to 1,
// and attention.shapes why every weight is scaled by one factor (or why a
// shape fails whose weights read right within the class's tolerance).
#pragma once

#include "blackbox/accuracy.h"
#include "blackbox/check_run.h"
#include "blackbox/shapes.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pv::blackbox {

/// The normaliser read with n_k keys of equal scores: 1 / key 0's weight.
struct normaliser_reading {
  std::size_t n_k = 0;
  double read = 0;
};

/// p summed one by one, each partial sum rounded to a's format (round_to_format).
double accumulated_sum(const std::vector<double>& p, const accuracy_class& a);

/// The 16-bit format ("bfloat16", "float16") whose sum of n_k ones matches
/// every reading within relative tolerance `tol` when some reading is not
/// n_k; "" when the normaliser is right or no format's sum matches. Pure.
std::string normaliser_format(const std::vector<normaliser_reading>& rs, double tol);

/// What the readings say: "" when every normaliser read is n_k within `tol`;
/// else the values read and, when a format's simulated sum matches, that
/// the normaliser equals a sum accumulated in it. Pure
/// (tests/blackbox/normaliser_test.cpp).
std::string normaliser_finding(const std::vector<normaliser_reading>& rs, double tol);

/// Reads the normaliser at shape s (its d and d_v; n_q at most 16, every row
/// alike with q = 0) with n_k = s.n_k, 1025 and 4097 keys, on the kernel of
/// cx in dtype T. Empty (and `error` set) when a probe call does not end ok.
template <class T>
std::vector<normaliser_reading> read_normaliser(const check_run& cx, const shape& s, std::string& error);

/// The normaliser read at shape s when a 16-bit sum of the exponentials
/// explains it (normaliser_finding naming the format), else "": what
/// attention.shapes tells in place of its guess when every weight is scaled.
template <class T>
std::string sixteen_bit_normaliser(const check_run& cx, const shape& s);

/// attention.convex_hull's diagnosis of a row with v = I that does not sum to
/// 1 at shape s (output row `row`): the keys' weights read there
/// (key_weights.h) and, when they are right relative to each other, their
/// sums and the normaliser read and tested above. "" when no probe ran.
template <class T>
std::string diagnose_normaliser(const check_run& cx, const shape& s, std::size_t row);

}  // namespace pv::blackbox
