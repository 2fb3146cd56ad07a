// The calls in a sandboxed child (internal to the sandbox): each buffer of a
// call between guard bytes, the output pre-filled with NaN bytes, the call
// made through its operation's row (a library's function, or the pipe to a
// server), then the guards, the inputs and the return code judged and one
// record sent per call (framing.h).
#pragma once

#include "sandbox/call.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pv::sandbox {

/// Runs calls[first..] in this (child) process, writing results to kResultFd.
[[noreturn]] void child_serve(const std::string& path, const std::vector<call>& calls, std::size_t first,
                              std::uint64_t memory_limit);

/// A kept child (runner_options::keep_child): loads the library once, then
/// runs each batch read from kCommandFd (batch_wire.h) as child_serve runs
/// one, until posverify closes the channel.
[[noreturn]] void child_serve_kept(const std::string& path, std::uint64_t memory_limit);

}  // namespace pv::sandbox
