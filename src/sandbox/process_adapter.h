// The process adapter: an implementation served by another process
// (`--impl python:MODULE:OBJECT`, `--impl-cmd "CMD ARGS"`) over the binary
// protocol of docs/protocol.md, on the server's stdin and stdout.
//
// The server is started once per implementation by posverify (its own
// process group, death with posverify, the memory limit) and restarted after
// any batch that ended in a crash, a hang or a garbled result. Each sandboxed
// child (sandbox.h) gets the server's three pipes and, instead of dlopening a
// library, uses a pv_impl shim whose functions forward every call to the
// server. So the guarantees of a .so plugin hold unchanged: the per-call time
// limit, NaN and guard checks on the shim's buffers, input-write detection
// (a server reports the inputs it modified; the shim mirrors that into the
// guarded input, where the sandbox sees it), a crash of the server (the shim
// exits, the sandbox reports it with the server's stderr) and one bad call
// never ending the run.
#pragma once

#include "sandbox/sandbox.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pv::sandbox {

/// The version of the pipe protocol (docs/protocol.md) this side speaks; a
/// server's HELLO must answer with the same (python/posverify: PROTOCOL_VERSION).
constexpr std::uint32_t kProtocolVersion = 1;

/// Settings of the adapter (options of `posverify check`).
struct process_options {
  std::string python;       ///< interpreter (--python, POSVERIFY_PYTHON, /usr/bin/python3)
  std::string python_path;  ///< prepended to PYTHONPATH (--python-path)
  std::string device;       ///< POSVERIFY_DEVICE for the server (--device), e.g. cuda:0
  std::string given_flags;  ///< the options as given, for replay commands
};
process_options& process_settings();

/// Whether an --impl value names a server ("python:MODULE:OBJECT" or "cmd:COMMAND").
bool is_process_spec(const std::string& spec);

/// Applies the adapter's option `flag` (--impl-cmd, --python, --python-path,
/// --device) with value `v` (check's option table); --impl-cmd sets `impl` to
/// "cmd:COMMAND". Throws pv::usage_error for an empty value.
void set_process_option(const std::string& flag, const std::string& v, std::string& impl);

/// The adapter's options for a replay command ("" when none was given).
std::string process_replay_flags();

/// Starts the server of `spec` and reads what it provides (HELLO); throws
/// load_error naming the cause (cannot start, no answer, wrong version).
impl_info probe_process(const std::string& spec, const runner_options& o);

// --- used by the sandbox (sandbox.cpp) ---------------------------------------

/// Parent, before forking a child for lib: (re)starts the server when it is
/// not running or a batch ended badly. No-op for a library.
void ensure_server(const impl_info& lib, const runner_options& o);
/// Parent, after a batch ended in a crash, a hang or a garbled result: the
/// server's state is unknown, so it is restarted before the next batch.
void server_after_fatal(const impl_info& lib);
/// Child: moves the server's pipes to fd, fd + 1, fd + 2 (requests, answers,
/// its stderr); returns how many descriptors it placed (0 or 3).
int adopt_server_fds(int fd);
/// Child: the pv_impl forwarding to the server whose pipes adopt_server_fds
/// placed; nullptr with err set when there is no server.
const pv_impl* process_impl_in_child(std::string& err);

}  // namespace pv::sandbox
