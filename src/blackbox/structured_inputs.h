// Attention inputs with the structure real models give kernels, mixed with
// random ones by attention.shapes (laws/attention/shapes.h):
//   - repeated tokens: identical key rows (and query rows), so scores tie exactly;
//   - all keys identical: every score of a row ties, the output is the mean of v;
//   - padding: zero key/value rows (and zero query rows);
//   - one dominant score: the others lie so far below that their weights
//     underflow to 0 in the dtype;
//   - scores near the overflow of exp (a kernel that does not subtract the
//     maximum overflows) and products near the dtype's own overflow;
//   - tiny values: subnormal products and values, outputs near the underflow;
//   - all-positive values (non-zero mean), with random keys or every key
//     identical: the weighted sum of v grows with n_k instead of cancelling,
//     so an accumulator kept in a 16-bit format stops growing (a float16 sum
//     of ones stalls at 2048) where mean-zero values hide it;
//   - FLUX.1: rows rotated by FLUX's 3-axis RoPE at the positions of a
//     64 x 64 image grid with 512 text tokens at (0, 0, 0) (the model case).
// Every value is representable in the dtype and in the 16-bit format the
// buffers travel in (rounded with round_to_format), so the reference sees
// exactly what the kernel sees.
#pragma once

#include "blackbox/law_run.h"

#include <string>
#include <vector>

namespace pv::blackbox {

enum class structure {
  random,
  repeated_tokens,
  identical_keys,
  padding,
  dominant,
  exp_overflow,
  large_products,
  tiny,
  positive_values,
  identical_keys_positive,
  flux_rope,
};

/// The structures a tile-boundary shape cycles through (not the positive
/// values, which long shapes of their own take, nor flux_rope).
const std::vector<structure>& mixed_structures();
const char* to_string(structure s);

/// The range of the values a law's inputs live in: T's, or the 16-bit
/// storage format of the wire (ABI version 2) or of a declared accuracy class.
struct value_range {
  double max = 0;         ///< largest finite value
  double min_normal = 0;  ///< smallest normal
  double denorm = 0;      ///< smallest subnormal (the spacing near 0)
  /// The absolute error of an operation whose result underflows: the
  /// subnormal spacing, or for bfloat16 the smallest normal, since bfloat16
  /// hardware flushes subnormals to zero (x86's VDPBF16PS and AMX tiles read
  /// subnormal inputs as 0 and write subnormal results as 0, whatever MXCSR says).
  double underflow = 0;
  accuracy_class storage;  ///< rounding of every value (precision 0: T's own)
};
template <class T>
value_range range_of(const check_run& cx);

template <class T>
struct att_inputs {
  matrix<T> q, k, v;
};

/// Inputs of shape n_q x d, n_k x d, n_k x d_v with the given structure.
template <class T>
att_inputs<T> structured_attention(rng& g, std::size_t n_q, std::size_t n_k, std::size_t d,
                                   std::size_t d_v, structure s, const value_range& vr);

/// FLUX.1's position ids of n_text text tokens at (0, 0, 0) followed by an
/// h x w image grid at (0, row, col): 3 coordinates per token.
std::vector<double> flux_positions(std::size_t n_text, std::size_t h, std::size_t w);
/// The same with na >= 2 coordinates per token: rows and columns on the last
/// two axes, 0 on the others (FLUX.1: image, row, col; M-RoPE: time, h, w).
std::vector<double> grid_positions(std::size_t n_text, std::size_t h, std::size_t w, std::size_t na);

/// RoPE positions with structure: 0 and 2^k - 1, 2^k,
/// 2^k + 1 (k >= 1) up to P, in increasing order. Where tables of 2^k
/// entries end, and where float16 and bfloat16 positions first round (2^11 + 1,
/// 2^8 + 1). The RoPE laws draw 20 % of their coordinates from them
/// (structured_position, one of the list, each equally likely).
std::vector<long> structured_positions(long P);
double structured_position(seeded& g, long P);

}  // namespace pv::blackbox
