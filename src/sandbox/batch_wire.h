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

/// Child: the batches of one command channel. A batch arrives in one write,
/// so the channel is read in chunks of kChunk bytes, not field by field (a
/// system call per field: with the parent's reads, 143 thousand for the 8386
/// calls of one check of plain_float).
class batch_reader {
 public:
  static constexpr std::size_t kChunk = std::size_t(64) << 10;
  explicit batch_reader(int fd) : fd_(fd), buf_(kChunk) {}

  /// Reads the next batch into `calls` (numbered from `first`). false at the
  /// end of the channel (posverify closed it: time to exit); exits with
  /// kExitBadBatch on a malformed one.
  bool next(std::size_t& first, std::vector<call>& calls);

 private:
  /// Reads exactly n bytes; false at the end of the channel before any byte
  /// of a batch (at_start), exits with kExitBadBatch after some (a batch cut
  /// short).
  bool get(void* p, std::size_t n, bool at_start = false);
  template <class T>
  T get() {
    T v{};
    get(&v, sizeof v);
    return v;
  }

  int fd_;
  std::vector<unsigned char> buf_;
  std::size_t pos_ = 0, end_ = 0;  ///< what buf_ holds not yet taken
};

}  // namespace pv::sandbox
