// The judge of attention.shapes (laws/attention/shapes.h): the kernel at the
// sizes and inputs models give it, judged against the fast reference tier
// (src/reference/fast/, a certified bound per output) with MPFR judging a sample
// of the entries of every case.
//
// Profiles (--profile):
//   quick (default): 22 shapes, n_k on the tile boundaries 1, 2, 15, 16, 17,
//     31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257; n_q = 65, 129 and
//     257 (past a block of 64 query rows by one) in three; head dims 32, 64,
//     80, 96, 128, 256; d_v != d in most; n_q = 1 in four, n_q != n_k in all
//     but 1x1; n_q n_k up to 32639 (257 x 127). Each shape gets one input
//     structure (structured_inputs.h) in turn: random, repeated tokens, all
//     keys identical, padding, one dominant score, scores past exp's
//     overflow, products near the dtype's overflow, tiny values; then two
//     long rows of all-positive values (1 x 4096, d 128, every key identical;
//     4 x 4096, d 64), where a 16-bit accumulator of p v stalls.
//   models: quick plus a decoding step (1 x 4096, d 128), 256 x 2048 with
//     d = 96, d_v = 80 (padding), and one FLUX.1 head per dtype: 4608 tokens
//     (4096 image + 512 text) with d = d_v = 128, q and k rotated by FLUX's
//     3-axis RoPE (16 + 56 + 56) at their grid positions.
// --shape NQxNKxDxDV (repeatable) runs the user's shapes (in place of the
// profile's, unless --profile is given too).
//
// Tolerance of every entry (laws/attention/shapes.h): |out - ref| <= B + b_ref,
// where B is the any-order bound (laws/attention/any_order_bound.h) evaluated
// in binary64 with an underflow term, and b_ref the reference's certified bound.
#pragma once

#include "blackbox/law_run.h"

#include <string>
#include <vector>

namespace pv::blackbox {

struct shape {
  std::size_t n_q = 0, n_k = 0, d = 0, d_v = 0;
};

/// Bounds of one --shape: its multiply-adds n_q n_k (d + d_v), 2^35 (about 6
/// times the FLUX.1 head of --profile models; at 20 ns each, the time limit
/// of such a call is 11 minutes), and the values of q, k, v and the output,
/// (n_q + n_k)(d + d_v), 2^27 (1 GiB in float64).
inline constexpr double max_shape_work = 34359738368.0;  // 2^35
inline constexpr double max_shape_values = 134217728.0;  // 2^27

/// "NQxNKxDxDV" -> shape; throws std::invalid_argument naming the value, or
/// the product beyond max_shape_work or max_shape_values.
shape parse_shape(const std::string& spec);
std::string shape_text(const shape& s);
/// Throws std::invalid_argument unless p is quick or models.
void check_profile(const std::string& p);

/// The attention.shapes law of each dtype (float32, its 16-bit wires, float64).
std::vector<law_result> shape_laws(const check_run& cx);

/// The reference of one case: the fast tier, or MPFR where the fast tier
/// refuses (scores beyond its range): value hi + lo within bound.
struct attention_reference {
  std::vector<double> hi, lo, bound;
  bool mpfr = false;
};
attention_reference reference_attention(const double* q, const double* k, const double* v, std::size_t n_q,
                                        std::size_t n_k, std::size_t d, std::size_t d_v);

/// MPFR judges the rows `rows` of a reference: the largest
/// |ref - MPFR| / (ref.bound + MPFR's own bound) over their entries.
struct tier_agreement {
  long entries = 0;
  double worst_ratio = 0;
  std::string worst_where;
};
tier_agreement mpfr_sample(const attention_reference& ref, const double* q, const double* k, const double* v,
                           std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t d_v,
                           const std::vector<std::size_t>& rows);

}  // namespace pv::blackbox
