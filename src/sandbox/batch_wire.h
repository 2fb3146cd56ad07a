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

/// Parent: calls[first..] as one batch, numbered from `first`, without
/// copying the calls' input buffers: the batch is the concatenation of
/// `pieces`, each either a span of `meta` (the headers and scalars) or one
/// of the calls' inputs, in the order of the wire. The inputs are the calls'
/// own bytes, so the calls must outlive it. The kept child's channel sends
/// the pieces as they are (sendmsg); a batch of model-scale shapes is
/// hundreds of MB, which a contiguous copy would allocate and fault in.
struct batch_pieces {
  struct piece {
    const unsigned char* data;  ///< nullptr: meta[at, at + size)
    std::size_t at, size;
  };
  std::vector<unsigned char> meta;
  std::vector<piece> pieces;
  std::size_t bytes = 0;  ///< the batch's size on the wire
  /// The address of piece p's first byte (meta's own once it is complete).
  const unsigned char* address(const piece& p) const { return p.data ? p.data : meta.data() + p.at; }
};
batch_pieces batch_of(const std::vector<call>& calls, std::size_t first);

/// Parent: the same batch as one contiguous buffer (the pieces of batch_of,
/// concatenated).
std::vector<unsigned char> encode_batch(const std::vector<call>& calls, std::size_t first);

/// Child: the batches of one command channel. A batch arrives in large sends,
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
