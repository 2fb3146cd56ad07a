// The command channel of a kept child (runner_options::keep_child; internal
// to the sandbox): posverify writes a batch of calls, the child reads it,
// runs the calls and answers each on the result channel (framing.h). A batch
// is a header (magic, the index of its first call, the number of calls)
// followed by each call: its operation, dtype, scalars and input buffers, as
// call.h holds them. Only posverify writes this channel; a child that reads
// anything else exits (kExitBadBatch), which the parent sees as a death.
#pragma once

#include "sandbox/call.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pv::sandbox {

constexpr std::uint32_t kBatchMagic = 0x31425650;  // "PVB1"
/// The exit status of a kept child whose command channel carried no batch.
constexpr int kExitBadBatch = 121;

/// Parent: calls[first..] as one batch, numbered from `first`.
std::vector<unsigned char> encode_batch(const std::vector<call>& calls, std::size_t first);

/// Child: reads one batch from fd into `calls` (numbered from `first`).
/// false at the end of the channel (posverify closed it: time to exit);
/// exits with kExitBadBatch on a malformed one.
bool read_batch(int fd, std::size_t& first, std::vector<call>& calls);

}  // namespace pv::sandbox
