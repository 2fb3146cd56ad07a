// How a call of dynamic NTK stands for its sequence length L when the kernel
// reads L from the call's positions (PV_ROPE_LENGTH_FROM_POSITIONS, impl.h)
// instead of scaling.length: as Hugging Face's dynamic update does, L is
// 1 + the largest position of the call (and a cache may keep the longest L
// seen since the last call shorter than L0). Such a kernel is sent every
// dynamic-NTK rope() call with one more row, at position L' - 1 on every
// axis; the laws draw no position past it (rope_model.h, position_limit), so
// the call's own length is L' and the kernel turns by the configuration's
// speeds whatever its cache holds. The anchor row's output is not read.
//   L' is scaling.length when it exceeds L0; a length at or below L0 means
// the plain base theta (the formula's factor is 1 there), and is sent as
// L0 - 1: a call of exactly L0 positions after a longer one keeps a grown
// cache's speeds in Hugging Face's update (it resets only below L0).
#pragma once

#include "sandbox/sandbox.h"

#include <cstdint>

namespace pv::sandbox {

/// Whether `lib` reads dynamic NTK's length from the positions of a call of
/// configuration c (it declares so, and c is dynamic NTK).
bool length_from_positions(const impl_info& lib, const pv_rope_config& c);

/// L', the sequence length a call of dynamic-NTK configuration c stands for:
/// scaling.length when it exceeds L0, else max(1, L0 - 1).
double sequence_length(const pv_rope_config& c);

/// Whether call c goes to `lib` with the anchor row.
bool anchored(const impl_info& lib, const call& c);

/// c with one more row (x zero) at position sequence_length - 1 on every axis.
call with_anchor(const call& c);

/// Drops the anchor row from r, the result of with_anchor(c): r.out keeps the
/// rows of c.
void drop_anchor(const call& c, result& r);

}  // namespace pv::sandbox
