// One query row of softmax(q K^T / sqrt(d)) V in MPFR, from binary64 inputs.
//
// The values are those of numerics/attention.h's attention<hp> with
// sequential sums, bit for bit: the same MPFR operations (each correctly
// rounded to the reference precision), in the same order. What differs is
// the storage. attention<hp> takes K and V as matrices of hp, one MPFR value
// of the full precision each (an allocation, a conversion and a release per
// entry: for a row of 4096 keys of 128 + 128 components, a million of them),
// and makes a temporary per product. Here each binary64 input is read, when
// it is used, as a 53-bit MPFR number on the stack (exact, so a product rounds
// the same), and the temporaries are made once per row.
// blackbox/shapes.cpp judges a sample of the fast tier's rows with it;
// tests/reference/mp_attention_test.cpp holds it equal to attention<hp>.
#pragma once

#include "reference/mp.h"

#include <cstddef>
#include <vector>

namespace pv::ref {

/// The output row of query q [d] against K [n_k x d] and V [n_k x d_v]
/// (row-major binary64): d_v values at the reference precision.
std::vector<hp> attention_row(const double* q, const double* k, const double* v, std::size_t n_k, std::size_t d,
                              std::size_t d_v);

}  // namespace pv::ref
