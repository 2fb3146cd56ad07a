// The process adapter: an implementation served by another process
// (`--impl python:MODULE:OBJECT`, `--impl-cmd "CMD ARGS"`) over the binary
// protocol of docs/protocol.md, on the server's stdin and stdout.
//
// The server is started once per implementation by posverify (its own
// process group, death with posverify, the memory limit) and restarted after
// any batch that ended in a crash, a hang or a garbled result. Each sandboxed
// child (sandbox.h) gets the server's three pipes and, instead of calling a
// library's function, encodes each call from its operation's row
// (operations.h) as a request and copies the answer into its guarded buffers.
// So the guarantees of a .so plugin hold unchanged: the per-call time limit,
// NaN and guard checks on the child's buffers, input-write detection (a
// server reports the inputs it modified; the child mirrors that into the
// guarded input, where the sandbox sees it), a crash of the server (the
// child exits, the sandbox reports it with the server's stderr) and one bad
// call never ending the run. The server receives the table of operations in
// the environment variable POSVERIFY_OPERATIONS (docs/protocol.md).
#pragma once

#include "sandbox/sandbox.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pv::sandbox {

/// The versions of the pipe protocol (docs/protocol.md) this side speaks:
/// HELLO offers the highest, the server answers the version it speaks, and
/// any of these is used with its own layouts (python/posverify: PROTOCOL_VERSION).
constexpr std::uint32_t kProtocolVersion = 6;
constexpr std::uint32_t kOldestProtocolVersion = 1;

/// A server's answer to HELLO (its payload, docs/protocol.md).
struct hello_answer {
  std::uint32_t version = 0;  ///< the protocol version both sides use from now on
  std::uint8_t provides = 0;  ///< bit k: operation k
  std::string name, accuracy;
  /// The PV_ROPE_* configurations it is sent: as declared (version 2), or
  /// partial rotary only (version 1, which carries nothing else).
  std::uint32_t rope_caps = 0;
  /// Version 4: the pv_attend_capability bits attend() is sent, and its
  /// empty-row convention (a pv_empty_rows: 0 undeclared, no empty row is sent).
  std::uint32_t attend_caps = 0, attend_empty_rows = 0;
};
/// Reads a HELLO answer's payload into h; "" or what is wrong with it (a
/// version other than kOldestProtocolVersion .. kProtocolVersion, naming both).
std::string read_hello(const std::string& payload, hello_answer& h);

/// Settings of the adapter (options of `posverify check`).
struct process_options {
  std::string python;       ///< interpreter (--python, POSVERIFY_PYTHON, /usr/bin/python3)
  std::string python_path;  ///< prepended to PYTHONPATH (--python-path)
  std::string device;       ///< POSVERIFY_DEVICE for the server (--device), e.g. cuda:0
  std::string given_flags;  ///< the options as given, for replay commands
  /// How long a server may take to start and answer HELLO, in all
  /// (--start-timeout-ms; importing torch alone takes 6-10 s on a loaded
  /// 2-core machine).
  long start_ms = 120000;
};
process_options& process_settings();

/// Whether an --impl value names a server ("python:MODULE:OBJECT" or "cmd:COMMAND").
bool is_process_spec(const std::string& spec);

/// Applies the adapter's option `flag` (--impl-cmd, --python, --python-path,
/// --device, --start-timeout-ms) with value `v` (check's option table); --impl-cmd sets `impl` to
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
/// Parent: how many servers this process has started; a kept child
/// (kept_child.h) that holds the pipes of an earlier one is ended.
std::uint64_t server_generation();
/// Parent, after a batch ended in a crash, a hang or a garbled result: the
/// server's state is unknown, so it is restarted before the next batch.
void server_after_fatal(const impl_info& lib);
/// Child: moves the server's pipes to fd, fd + 1, fd + 2 (requests, answers,
/// its stderr); returns how many descriptors it placed (0 or 3).
int adopt_server_fds(int fd);
/// Child: what the server whose pipes adopt_server_fds placed provides (bit
/// k: operation k); every bit when it is not running (each call then fails
/// with the reason).
std::uint32_t server_in_child();
/// Child: sends call a of operation o to the server and waits for its
/// answer: 0 (the output is in a's output buffer), 1 unsupported, 2 error.
/// A server that ends or answers garbage ends this child (a crash finding).
int server_invoke(const operation& o, const invocation& a);
/// Child: the call made after the next server_invoke (nullptr: none, or one
/// the child declines unsent). Its request goes out as soon as that call's
/// answer is read, so that the server computes it while the child checks and
/// reports the previous one; server_invoke of it then only reads the answer.
/// The call must outlive that server_invoke.
void server_next(const call* c);
/// Child: the capabilities (operation.h, `declares`) the server is sent for
/// row o: for RoPE the configurations of its HELLO (hello_answer::rope_caps),
/// for attend its attend_caps and, when it declares an empty-row convention,
/// the bit of calls with an empty row; every bit for the rows without any,
/// or when it is not running (each call then fails with the reason).
std::uint32_t server_declares(const operation& o);
/// Whether call c can be sent in protocol version `protocol`: every member of
/// its configuration buffers that is not one of the row's fields of that
/// version is zero (in version 1 pv_rope_config's M-RoPE and scaling members
/// do not travel: such a call is unsupported for a server).
bool travels(const operation& o, const call& c, std::uint32_t protocol);
/// The body of the request of call a in protocol version `protocol`
/// (docs/protocol.md): its type, dtype, the row's fields of that version,
/// then its buffers (a configuration as its fields).
std::string request_body(const operation& o, const invocation& a, std::uint32_t protocol);

}  // namespace pv::sandbox
