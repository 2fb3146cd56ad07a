// The command channel of a kept child: a batch read back is the batch
// written (operation, dtype, scalars, input bytes, the first index), also
// when batches follow one another in the reader's chunks and when an input is
// larger than a chunk; the end of the channel is the end of the child's work,
// and anything else ends the child with kExitBadBatch.
#include "sandbox/batch_wire.h"
#include "sandbox/operations.h"

#include <gtest/gtest.h>

#include <thread>
#include <unistd.h>

namespace sandbox_batch_wire_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::sandbox;

call attention(long nq, long nk, long d, long dv, pv_dtype t) {
  const std::size_t es = t == PV_F64 ? 8 : 4;
  auto fill = [&](long n, int salt) {
    std::vector<unsigned char> v(std::size_t(n) * es);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<unsigned char>(i * 31 + salt);
    return v;
  };
  return call(op::attention, t, {nq, nk, d, dv}, {fill(nq * d, 1), fill(nk * d, 2), fill(nk * dv, 3)});
}

struct channel {
  int fd[2];
  channel() { EXPECT_EQ(::pipe(fd), 0); }
  ~channel() {
    for (int f : fd)
      if (f >= 0) ::close(f);
  }
  void write(const std::vector<unsigned char>& b) { ASSERT_EQ(::write(fd[1], b.data(), b.size()), ssize_t(b.size())); }
  void close_writer() {
    ::close(fd[1]);
    fd[1] = -1;
  }
};

TEST(BatchWire, ThePiecesOfABatchAreItsBytesWithTheInputsWhereTheCallsHoldThem) {
  std::vector<call> calls = {attention(2, 3, 4, 5, PV_F64), attention(1, 7, 2, 3, PV_F32), attention(3, 1, 1, 0, PV_F32)};
  const batch_pieces b = batch_of(calls, 1);
  std::vector<unsigned char> joined;
  std::size_t inputs = 0;
  for (const auto& p : b.pieces) {
    ASSERT_GT(p.size, 0u);
    joined.insert(joined.end(), b.address(p), b.address(p) + p.size);
    for (std::size_t i = 1; i < calls.size(); ++i)
      for (const auto& in : calls[i].in)
        if (!in.empty() && p.data == in.data()) {
          EXPECT_EQ(p.size, in.size());
          ++inputs;
        }
  }
  EXPECT_EQ(inputs, 5u) << "every nonempty input of calls 1 and 2 is a piece of its own, not a copy (v of call 2 is empty)";
  EXPECT_EQ(joined.size(), b.bytes);
  EXPECT_EQ(joined, encode_batch(calls, 1));
}

TEST(BatchWire, ABatchReadBackIsTheBatchWrittenFromItsFirstCall) {
  const std::vector<call> calls = {attention(2, 3, 4, 5, PV_F64), attention(1, 7, 2, 3, PV_F32),
                                   attention(3, 1, 1, 2, PV_F32)};
  channel ch;
  ch.write(encode_batch(calls, 1));
  ch.write(encode_batch(calls, 0));
  std::size_t first = 99;
  std::vector<call> got;
  batch_reader in(ch.fd[0]);
  ASSERT_TRUE(in.next(first, got));
  EXPECT_EQ(first, 1u);
  ASSERT_EQ(got.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const call &a = calls[i + 1], &b = got[i];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.t, b.t);
    ASSERT_EQ(a.scalars.size(), b.scalars.size());
    for (std::size_t k = 0; k < a.scalars.size(); ++k) {
      EXPECT_EQ(a.scalars[k].i, b.scalars[k].i);
      EXPECT_EQ(a.scalars[k].f, b.scalars[k].f);
    }
    EXPECT_EQ(a.in, b.in);
  }
  ASSERT_TRUE(in.next(first, got));
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(got.size(), 3u);
  ch.close_writer();
  EXPECT_FALSE(in.next(first, got)) << "the end of the channel ends the child's work";
}

TEST(BatchWire, InputsLargerThanAChunkAreReadWhole) {
  // k and v of 300 keys by 64 float64 take 150 KiB each, more than a chunk
  // of the reader and than a pipe holds: the writer runs beside the reader.
  const std::vector<call> calls = {attention(3, 300, 64, 64, PV_F64), attention(1, 7, 2, 3, PV_F32),
                                   attention(2, 300, 64, 64, PV_F64)};
  ASSERT_GT(calls[0].in[1].size(), batch_reader::kChunk);
  channel ch;
  const auto bytes = encode_batch(calls, 0);
  std::thread writer([&] {
    ch.write(bytes);
    ch.write(encode_batch(calls, 2));
    ch.close_writer();
  });
  std::size_t first = 99;
  std::vector<call> got;
  batch_reader in(ch.fd[0]);
  ASSERT_TRUE(in.next(first, got));
  ASSERT_EQ(got.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(got[i].in, calls[i].in) << "call " << i;
  ASSERT_TRUE(in.next(first, got));
  EXPECT_EQ(first, 2u);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].in, calls[2].in);
  EXPECT_FALSE(in.next(first, got));
  writer.join();
}

TEST(BatchWire, AnythingButABatchEndsTheChild) {
  const auto b = encode_batch({attention(2, 3, 4, 5, PV_F64)}, 0);
  auto read_from = [](std::vector<unsigned char> bytes) {
    channel ch;
    ch.write(bytes);
    ch.close_writer();
    std::size_t first = 0;
    std::vector<call> got;
    batch_reader in(ch.fd[0]);
    in.next(first, got);
    ::_exit(0);
  };
  auto garbage = b;
  garbage[0] ^= 1;  // not the magic
  EXPECT_EXIT(read_from(garbage), ::testing::ExitedWithCode(kExitBadBatch), "");
  EXPECT_EXIT(read_from({b.begin(), b.end() - 1}), ::testing::ExitedWithCode(kExitBadBatch), "") << "cut short";
  auto bad_op = b;
  bad_op[4 + 16] = 200;  // the first call's operation: none has that number
  EXPECT_EXIT(read_from(bad_op), ::testing::ExitedWithCode(kExitBadBatch), "");
  EXPECT_EXIT(read_from(b), ::testing::ExitedWithCode(0), "") << "the whole batch is read";
}

}  // namespace

}  // namespace sandbox_batch_wire_test
