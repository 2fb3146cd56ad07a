// attention.key_value_permutation, written once: attention sums over the keys
// as a set, so permuting the key and value rows together (the same P on both)
// changes nothing, A(q, P k, P v) = A(q, k, v) (the counterpart of
// permutation_equivariance.h on the keys: Vaswani et al. 2017, section 3.2;
// the chapter's opening, "attention does not know order").
//
// The case's permutation is permutation_equivariance::draw_order over the
// key rows and the law body is its compare() with the identity as source
// (output row r against output row r). Tolerance (black box, a kernel summing
// in any order): both outputs are within the any-order bound B of q, k, v
// (any_order_bound.h) of the same exact value, so within 2 B.
// Judge: the black-box check (blackbox/attention_laws.cpp).
#pragma once

#include "laws/attention/any_order_bound.h"
#include "laws/attention/permutation_equivariance.h"

#include <string>

namespace pv::laws::key_value_permutation {

inline constexpr const char* id = "attention.key_value_permutation";

inline std::string statement() {
  return "permuting keys and values together changes nothing: A(q, Pk, Pv) = A(q, k, v)";
}

/// The black-box tolerance rule in words.
inline std::string any_order_tolerance_rule() {
  return "|A(q, Pk, Pv) - A(q, k, v)| <= 2 B, " + attention_bound::any_order_rule();
}

/// The permutation of the n key (and value) rows of a case.
inline permutation draw_order(seeded& g, std::size_t n) { return permutation_equivariance::draw_order(g, n); }

using permutation_equivariance::entry;
using permutation_equivariance::outcome;
using permutation_equivariance::visit_all;

/// Black-box tolerance of entry (r, c): 2 B(r, c).
inline hp any_order_tolerance(const matrix<hp>& B, std::size_t r, std::size_t c) { return 2 * B(r, c); }

/// The law body on the kernel's outputs A = A(q, k, v) and A_P = A(q, Pk, Pv),
/// B the any-order bound of (q, k, v); the visitor sees entry (r, c) of A_P
/// against entry (r, c) of A.
template <class T, class Visit = visit_all>
outcome compare_any_order(const matrix<T>& A, const matrix<T>& A_P, const matrix<hp>& B, Visit&& visit = {}) {
  return permutation_equivariance::compare(
      A, A_P, permutation{}, [&](std::size_t r, std::size_t c) -> hp { return any_order_tolerance(B, r, c); },
      visit);
}

}  // namespace pv::laws::key_value_permutation
