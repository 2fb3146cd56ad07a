// One call of a library and its result, in the terms of its operation's row
// (operation.h, operations.h): the scalars and input buffers in the row's
// order; the sandbox allocates the output.
#pragma once

#include "sandbox/operation.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pv::sandbox {

/// A scalar of a call: an integer (i64/i32/u8 fields) or a double (f64).
struct scalar {
  std::int64_t i = 0;
  double f = 0;
  scalar(int v) : i(v) {}
  scalar(long v) : i(v) {}
  scalar(long long v) : i(v) {}
  scalar(unsigned long v) : i(static_cast<std::int64_t>(v)) {}
  scalar(double v) : f(v) {}
};

const operation& operation_of(op o);
const char* to_string(op o);

/// The bytes of a vector of doubles (positions) as a buffer of a call.
std::vector<unsigned char> bytes_of(const std::vector<double>& v);
/// The bytes of a configuration struct.
template <class T>
std::vector<unsigned char> bytes_of_struct(const T& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(&s);
  return std::vector<unsigned char>(p, p + sizeof s);
}

/// One call of the library. Inputs are raw bytes of their element type.
struct call {
  op kind{};
  pv_dtype t = PV_F64;
  std::vector<scalar> scalars;            ///< the row's scalar fields, in order
  std::vector<std::vector<unsigned char>> in;  ///< the row's buffers but the output (out), in order

  call() = default;
  /// Checks the counts against the row (std::logic_error: a programming error).
  call(op o, pv_dtype t, std::vector<scalar> scalars, std::vector<std::vector<unsigned char>> in);

  const operation& row() const { return operation_of(kind); }
  /// The value of field `name` (a scalar, or an int32/int64 member of a
  /// configuration buffer); std::logic_error if there is none.
  std::int64_t dim(std::string_view name) const;
  /// Bytes of buffer b: its `elements` (a strided tensor's span) or else the
  /// product of its dimensions, in elements (a configuration: its size).
  std::size_t bytes(const buffer& b) const;
  /// Bytes of buffer b laid out dense: the product of its dimensions (a
  /// negative one counts 0) times its element size; how outputs travel.
  std::size_t dense_bytes(const buffer& b) const;
  /// The extent of b's axis-th dimension: its field's value, or 1 for the
  /// batch of a buffer whose items are packed in one sequence (buffer::sequence).
  std::int64_t extent(const buffer& b, std::size_t axis) const;
  /// A tensor's count of batch items, `batch`, as this call lays it out: at
  /// most 1 when field `sequence` (a buffer's buffer::sequence, or null) is
  /// not 0, the items then packed in one sequence.
  std::int64_t batch_extent(const char* sequence, std::int64_t batch) const;
  /// The input bytes of buffer k of the row (k < buffers.size(); not the out buffer).
  const std::vector<unsigned char>& input(std::size_t k) const;
  std::size_t out_bytes() const;
  /// Multiply-adds of the call (the row's work): the per-call time limit grows with it.
  double work() const;
};

enum class status {
  ok,            ///< returned 0; output checked
  unsupported,   ///< returned 1
  error_code,    ///< returned something else
  crashed,       ///< killed by a signal or exited
  hung,          ///< exceeded the per-call time limit
  guard,         ///< wrote before or after a buffer
  input_written, ///< modified an input buffer
  non_finite,    ///< NaN or infinity in the output
  garbled,       ///< the result channel carried bytes that are not a result
  not_run,       ///< an earlier call of the batch crashed or hung
};
const char* to_string(status s);

/// The detail of an unsupported result posverify gives itself without calling
/// the library: the call needs an operation, an ABI version or a capability
/// the library does not declare. Not a decline of the library's.
inline constexpr const char* kNotDeclared = "not called: it needs what the library does not declare";

/// The end of a non-finite result's detail when the entry still holds the NaN
/// bytes the output buffer was filled with: the kernel never wrote it.
inline constexpr const char* kNeverWritten = "(still the NaN bytes the buffer was filled with: never written)";

struct result {
  status st = status::not_run;
  int rc = 0;
  std::string detail;              ///< the cause, in words
  std::vector<unsigned char> out;  ///< output bytes (rope: the rotated x)
  /// Wall time from the previous result of the batch (or the start of the
  /// child, for the first call: fork and dlopen included) to this one.
  double seconds = 0;
};

}  // namespace pv::sandbox
