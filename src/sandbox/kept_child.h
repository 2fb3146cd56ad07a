// The kept child of a library (runner_options::keep_child; internal to the
// sandbox): one child per process that loaded the library once and runs one
// batch after another, each written to its command pipe (batch_wire.h) and
// answered on the result channel like a fresh child's (framing.h). It is
// started on the first batch, for one library and memory limit at a time;
// run_batch ends it (end_kept_child, sandbox.h) after any call that did not
// come back ok or declined, and it ends at exit. A process forked from its
// owner neither uses nor ends it.
#pragma once

#include "sandbox/isolation.h"

#include <cstddef>
#include <vector>

namespace pv::sandbox {

/// The kept child of lib with calls[first..] written to it: the one running
/// when it serves lib with o's memory limit and is alive, else a new one
/// (its stderr tail starts empty for the batch). nullptr when none could be
/// started or it did not take the batch within the first call's time limit
/// (then it is ended): a fresh child runs the batch.
child_proc* kept_with_batch(const impl_info& lib, const std::vector<call>& calls, std::size_t first,
                            const runner_options& o);

}  // namespace pv::sandbox
