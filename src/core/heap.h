// The heap of a posverify process and of the children that call a kernel:
// freed memory is kept for the next call instead of given back and faulted in
// again (glibc's malloc, mallopt).
#pragma once

#include <cstddef>

namespace pv {

/// What the heap keeps when it shrinks, and takes in addition when it grows.
inline constexpr std::size_t kHeapPad = std::size_t(16) << 20;
/// Blocks below this size come from the heap; larger ones are mapped apart.
inline constexpr std::size_t kHeapMmapAbove = std::size_t(32) << 20;

/// Tunes this process's malloc (M_TOP_PAD kHeapPad, M_MMAP_THRESHOLD
/// kHeapMmapAbove). A child forked after it inherits the setting.
///
/// Why: `check` sends a kept child a batch of calls; the child allocates every
/// call's buffers (the batch as read, guarded copies, outputs) and frees them
/// before the next batch. With glibc's defaults (a pad of 128 KiB, a mapping
/// threshold that starts at 128 KiB) each batch gave its pages back and
/// faulted them in again, and a page fault is dear on a virtual machine. On
/// the 2-core CI machine the panel of one seed took 32.4 and 36.2 CPU s
/// before, 24.0 and 27.3 with this (back to back; verdicts identical).
void tune_heap();

}  // namespace pv
