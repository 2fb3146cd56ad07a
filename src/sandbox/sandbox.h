// Runs an implementation (a plugin exporting posverify_impl(), see
// include/posverify/impl.h) in a child process, so that whatever the library
// does -- crash, hang, write past a buffer, write into an input, fork, write
// to stray file descriptors, spam stderr, allocate without bound -- becomes a
// finding about the library and never a crash or a hang of posverify.
//
// One child serves a batch of calls: it is forked after the batch is built
// (so it inherits the inputs without copying them through a pipe), dlopens
// the library, runs the calls in order and sends each result back over a
// pipe. The child starts with a clean file table: stdin and stdout on
// /dev/null, stderr on a pipe posverify drains (its last lines go into the
// finding), the results on a dedicated descriptor (kResultFd), every other
// descriptor closed. It leads its own process group, dies with posverify
// (PR_SET_PDEATHSIG) and has a data-size limit (RLIMIT_DATA). The parent
// waits at most `timeout_ms` for each result, watches the child with waitid
// (so a grandchild holding the pipe cannot hide a crash), checks the framing
// of every result, and kills the whole group when the batch ends, on a hang,
// on a garbled result, and on SIGINT/SIGTERM (install_signal_handlers). Every
// buffer handed to the library sits between guard bytes; the output is
// pre-filled with NaN bytes so that an entry never written shows up.
#pragma once

#include "posverify/impl.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <sys/types.h>  // pid_t
#include <vector>

namespace pv::sandbox {

/// The library could not be used at all (exit 2): dlopen failure, missing
/// symbol, wrong ABI version, crash while loading.
struct load_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What the library declares (read in a child too).
struct impl_info {
  std::string path;     ///< absolute path (what the children dlopen)
  std::string given;    ///< the path as the user gave it (for messages and replays)
  std::string name;
  std::uint32_t abi_version = 0;
  std::string accuracy;  ///< declared by a version-2 plugin ("" for none)
  bool has_attention = false, has_rope = false, has_sinusoid = false;
};

/// A 16-bit value of dtype t (PV_F16 or PV_BF16) as a double, and a float
/// rounded to nearest (ties to even) into that format (ABI version 2).
double from_16bit(pv_dtype t, std::uint16_t b);
std::uint16_t to_16bit(pv_dtype t, float x);

/// Loads the library in a child and reads its pv_impl; throws load_error with
/// the cause.
struct runner_options;
impl_info probe_library(const std::string& path, const runner_options& o);
impl_info probe_library(const std::string& path, int timeout_ms);

enum class op { attention, rope, sinusoid };
const char* to_string(op o);

/// One call of the library. Inputs are raw bytes of the dtype.
struct call {
  op kind = op::attention;
  pv_dtype t = PV_F64;
  // attention: a = q, b = k, c = v; rope: a = x (rotated in place);
  // sinusoid: none. pos: rope / sinusoid positions.
  std::vector<unsigned char> a, b, c;
  std::vector<double> pos;
  std::int64_t n_q = 0, n_k = 0, d = 0, d_v = 0, n = 0;
  pv_rope_config cfg{};
  double base = 10000;
  std::size_t out_bytes() const;
  /// Multiply-adds of the call (attention n_q n_k (d + d_v), RoPE and the
  /// sinusoid one per entry): the per-call time limit grows with it.
  double work() const;
};

/// The time limit of one call: runner_options::timeout_ms plus kNsPerMadd
/// nanoseconds per multiply-add of the call (declared slack: 25 times the
/// plain double implementation's 0.8 ns, reports/bench.md, for slow kernels
/// and a shared machine).
constexpr double kNsPerMadd = 20;
struct runner_options;
long call_timeout_ms(const call& c, const runner_options& o);

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

struct result {
  status st = status::not_run;
  int rc = 0;
  std::string detail;              ///< the cause, in words
  std::vector<unsigned char> out;  ///< output bytes (rope: the rotated x)
  /// Wall time from the previous result of the batch (or the start of the
  /// child, for the first call: fork and dlopen included) to this one.
  double seconds = 0;
};

/// The descriptor a child writes its results to (everything else from 3 up
/// is closed in the child).
constexpr int kResultFd = 100;

struct runner_options {
  int timeout_ms = 2000;
  bool stop_at_fatal = true;  ///< after a crash or hang, leave the rest not_run
  /// Bytes the child's data segment may grow by (RLIMIT_DATA above what it
  /// inherits); 0: no limit.
  std::uint64_t memory_limit = std::uint64_t(4) << 30;
};

/// "4 GiB", "512 MiB", "1000 bytes".
std::string size_text(std::uint64_t bytes);

/// Adds (removes) a process group that kill_live_children kills: a server
/// of the process adapter (process_impl.h).
void track_child_group(pid_t pid);
void untrack_child_group(pid_t pid);

/// Kills the process group of every live child (async-signal-safe).
void kill_live_children();
/// SIGINT, SIGTERM, SIGHUP, SIGQUIT: kill the live children's groups, then
/// die of the signal as without the handler; at exit: kill them too.
void install_signal_handlers();

/// Runs the calls in a child (restarting it after a crash or hang when
/// stop_at_fatal is false). Never throws for anything the library does.
std::vector<result> run_batch(const impl_info& lib, const std::vector<call>& calls,
                              const runner_options& o);

/// Writes n bytes from p to fd, retrying after EINTR and short writes
/// (async-signal-safe: the child calls it too); false (errno set) on error.
bool write_all(int fd, const void* p, std::size_t n);

/// Counters of the children forked so far (for the report).
struct runner_stats {
  long children = 0, calls = 0;
  /// Peak resident set (ru_maxrss, KiB) of the last child reaped: its own
  /// pages and those it shares with posverify since the fork (the inputs).
  long last_peak_rss_kib = 0;
};
runner_stats& stats();

}  // namespace pv::sandbox
