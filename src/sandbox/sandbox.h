// Runs an implementation (a plugin exporting posverify_impl(), see
// include/posverify/impl.h) in a child process, so that whatever the library
// does -- crash, hang, write past a buffer, write into an input, fork, write
// to stray file descriptors, spam stderr, allocate without bound -- becomes a
// finding about the library and never a crash or a hang of posverify.
//
// One child serves a batch of calls: it is forked after the batch is built
// (so it inherits the inputs without copying them through a pipe), dlopens
// the library, runs the calls in order and sends each result back over a
// pipe; or a kept child (runner_options::keep_child, kept_child.h), forked
// once, reads batch after batch from a socket (batch_wire.h). The child starts with a clean file table: stdin and stdout on
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
//
// The parts, one concept each: the operations and their calls (operation.h,
// operations.h, call.h), the 16-bit formats (half_formats.h), loading a
// plugin (loading.cpp), the isolation of a child (isolation.h), the framing of
// its results (framing.h), the calls in the child (child_calls.h), the batch
// (sandbox.cpp), the kept child and its batches (kept_child.h, batch_wire.h)
// and the process adapter (process_adapter.h).
#pragma once

#include "posverify/impl.h"
#include "sandbox/call.h"
#include "sandbox/half_formats.h"
#include "sandbox/operations.h"

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
  std::uint32_t provides = 0;  ///< bit k: operation k (operations.h) is provided
  std::uint32_t attend_caps = 0;        ///< version 4: pv_attend_capability bits
  std::uint32_t attend_empty_rows = 0;  ///< version 4: a pv_empty_rows
  /// PV_DTYPE_BIT bits of the dtypes it is offered: float32 and float64, and
  /// the 16-bit ones a version-5 library declares (every one for a server,
  /// whose protocol carries the dtype of each call: docs/protocol.md)
  std::uint32_t dtypes = kAlwaysOffered;
  /// pv_rope_capability bits of the RoPE configurations it is sent: declared
  /// by a version-6 library, all three for versions 3 to 5, none before; for
  /// a server what protocol 1 carries (partial rotary)
  std::uint32_t rope_caps = 0;
  bool has(op o) const { return provides >> unsigned(o) & 1; }
  bool offers(pv_dtype t) const { return dtypes >> unsigned(t) & 1; }
};

/// Loads the library in a child and reads its pv_impl; throws load_error with
/// the cause.
struct runner_options;
impl_info probe_library(const std::string& path, const runner_options& o);
impl_info probe_library(const std::string& path, int timeout_ms);

/// The time limit of one call: runner_options::timeout_ms plus kNsPerMadd
/// nanoseconds per multiply-add of the call (declared slack: 25 times the
/// plain double implementation's 0.8 ns, reports/bench.md, for slow kernels
/// and a shared machine).
constexpr double kNsPerMadd = 20;
struct runner_options;
long call_timeout_ms(const call& c, const runner_options& o);

/// The descriptor a child writes its results to (everything else from 3 up
/// is closed in the child).
constexpr int kResultFd = 100;
/// The descriptor a kept child (runner_options::keep_child) reads its
/// batches from (batch_wire.h).
constexpr int kCommandFd = kResultFd - 1;

struct runner_options {
  int timeout_ms = 2000;
  bool stop_at_fatal = true;  ///< after a crash or hang, leave the rest not_run
  /// Bytes the child's data segment may grow by (RLIMIT_DATA above what it
  /// inherits); 0: no limit.
  std::uint64_t memory_limit = std::uint64_t(4) << 30;
  /// Keep the child of a library (not a server) between batches: it loads
  /// the library once and reads one batch after another from its command
  /// pipe (batch_wire.h), which spares a fork, a dlopen and the parent's
  /// copy-on-write faults per batch. A child is kept only while every call
  /// it ran came back ok or declined (a guard, input or error finding, a
  /// crash, a hang or a garbled result ends it, so that nothing it did
  /// reaches a later batch); one child per process, for one library and
  /// memory limit at a time. A server's (process_adapter.h) is kept the
  /// same way, forwarding to it, and ended when the server is restarted.
  /// Off: a fresh child per batch (its peak memory is the batch's:
  /// attention.shapes).
  bool keep_child = false;
};

/// "4 GiB", "512 MiB", "1000 bytes".
std::string size_text(std::uint64_t bytes);

/// Adds (removes) a process group that kill_live_children kills: a server
/// of the process adapter (process_adapter.h).
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

/// Ends the kept child of this process, if any (run_batch, after a call that
/// was not ok or declined; at exit; a test that counts children).
void end_kept_child();

/// Counters of the children forked so far (for the report).
struct runner_stats {
  long children = 0, calls = 0;
  /// Peak resident set (ru_maxrss, KiB) of the last child reaped: its own
  /// pages and those it shares with posverify since the fork (the inputs).
  long last_peak_rss_kib = 0;
};
runner_stats& stats();

}  // namespace pv::sandbox
