// The isolation of a sandboxed child (internal to the sandbox): how a child
// is forked with a clean file table, its own process group, death with
// posverify and a data-size limit (spawn); how the parent watches it
// (child_proc: results read against a deadline, its death seen by waitid,
// its stderr drained, its group killed when it is done); and the registry of
// live children that the signal handlers kill.
#pragma once

#include "sandbox/sandbox.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>

namespace pv::sandbox {

constexpr std::size_t kTailBytes = 4096;
constexpr int kTailLines = 20;

/// A forked child as the parent sees it. The destructor kills its process
/// group and reaps it, whatever happened.
struct child_proc {
  pid_t pid = -1;  ///< also its process group
  int res = -1, err = -1;
  bool res_eof = false, dead = false, enomem = false;
  int ws = 0;
  std::string tail;  ///< the last kTailBytes of its stderr
  bool tail_cut = false;
  /// Results read ahead of their call: a read takes what the channel holds
  /// (up to kAhead bytes), not one field, since results come back to back.
  static constexpr std::size_t kAhead = std::size_t(64) << 10;
  std::unique_ptr<char[]> ahead;  ///< kAhead bytes, allocated at the first read
  std::size_t ahead_at = 0, ahead_end = 0;  ///< ahead[ahead_at, ahead_end) is not yet taken

  child_proc() = default;
  child_proc(const child_proc&) = delete;
  child_proc& operator=(const child_proc&) = delete;
  ~child_proc() { finish(); }

  /// Waits for the child and records its peak resident set.
  void reap();

  void kill_group() const;

  /// Whether the child has died (then its group is killed and it is reaped;
  /// waitid with WNOWAIT keeps its pid, hence its group id, from being
  /// reused before the group is killed).
  bool check_dead();

  void drain_err();

  /// The last lines of its stderr (of call `index` when given), bounded and
  /// made visible ("" if none).
  std::string stderr_tail(std::size_t index = std::string::npos);

  /// Reads n bytes of results before the deadline: first what was read
  /// ahead, then what the channel holds without waiting; only when it holds
  /// nothing, a wait (poll) that also drains stderr and watches for death.
  /// dead: the child died (or closed the channel and died) first.
  enum class rd { ok, dead, timeout };
  rd read_exact(void* p, std::size_t n, std::chrono::steady_clock::time_point deadline);

  void finish();
};
/// Forks a child (see child_setup in isolation.cpp: a clean start with its
/// own process group, death with the parent, no core files, a data-size
/// limit, stdin/stdout on /dev/null, stderr on a pipe, the results on
/// kResultFd, cmd_r (a kept child's command pipe) on kCommandFd when given,
/// and nothing else). Returns true in the child, false in the parent, where
/// c holds the child. Throws std::runtime_error if pipe or fork fails.
bool spawn(child_proc& c, const runner_options& o, int cmd_r = -1);

/// "killed by signal 11 (Segmentation fault)", "the process exited with status 3", ...
std::string describe_exit(int wstatus);

/// The words after a fatal end of a child during call `index` (npos:
/// while loading): its stderr and, when an allocation failed just before,
/// the memory limit.
std::string aftermath(child_proc& c, const runner_options& o, std::size_t index = std::string::npos);

}  // namespace pv::sandbox
