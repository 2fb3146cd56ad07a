#include "sandbox/loading.h"

#include "sandbox/framing.h"
#include "sandbox/half_formats.h"
#include "sandbox/isolation.h"
#include "sandbox/operations.h"
#include "sandbox/process_adapter.h"
#include "sandbox/sandbox.h"

#include "core/text.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pv::sandbox {

const pv_impl* load_in_child(const std::string& path, std::string& err) {
  void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = ::dlerror();
    err = std::string("dlopen failed: ") + (e ? e : "unknown error");
    return nullptr;
  }
  using fn = const pv_impl* (*)();
  auto f = reinterpret_cast<fn>(::dlsym(h, "posverify_impl"));
  if (!f) {
    err = "missing symbol posverify_impl (the library must export `const pv_impl *posverify_impl(void)` with C linkage)";
    return nullptr;
  }
  const pv_impl* impl = f();
  if (!impl) err = "posverify_impl() returned NULL";
  return impl;
}


std::uint32_t provided_by(const pv_impl& impl) {
  std::uint32_t bits = 0;
  const auto& rows = operations();
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (impl.abi_version >= rows[k].since && rows[k].provided(impl)) bits |= 1u << k;
  return bits;
}

std::uint32_t offered_dtypes(const pv_impl& impl) {
  return kAlwaysOffered | (impl.abi_version >= 5 ? impl.dtypes & kSixteenBit : 0u);
}

impl_info probe_library(const std::string& given, int timeout_ms) {
  runner_options o;
  o.timeout_ms = timeout_ms;
  return probe_library(given, o);
}

impl_info probe_library(const std::string& given, const runner_options& o) {
  if (is_process_spec(given)) return probe_process(given, o);
  const std::string shown = text::visible(given);
  struct stat st{};
  if (::stat(given.c_str(), &st) != 0)
    throw load_error("cannot load '" + shown + "': " + std::strerror(errno));
  // dlopen searches the library path for a bare name: always pass a full path
  char* full = ::realpath(given.c_str(), nullptr);
  const std::string path = full ? std::string(full) : given;
  std::free(full);
  const std::string where = "cannot load '" + text::visible(path) + "': ";
  child_proc c;
  if (spawn(c, o)) {
    std::string err;
    const pv_impl* impl = load_in_child(path, err);
    std::string msg;
    if (!impl) {
      msg = "E" + err;
    } else {
      std::string name = impl->name ? std::string(impl->name).substr(0, 200) : "";
      msg.push_back('I');
      msg += std::to_string(impl->abi_version);
      msg += ' ';
      const std::uint32_t bits = provided_by(*impl);
      for (std::size_t k = 0; k < operations().size(); ++k) msg += (bits >> k & 1) ? '1' : '0';
      msg += ' ';
      // version 4: attend's capabilities and empty-row convention ("0:0" before);
      // then the dtypes offered (version 5 declares the 16-bit ones)
      const bool v4 = impl->abi_version >= 4;
      msg += std::to_string(v4 ? impl->attend_caps : 0u) + ":" + std::to_string(v4 ? impl->attend_empty_rows : 0u);
      msg += ":" + std::to_string(offered_dtypes(*impl));
      // and the RoPE configurations it is sent (version 6 declares them)
      const operation& rope = operations()[std::size_t(op::rope)];
      msg += ":" + std::to_string(bits >> std::size_t(op::rope) & 1 ? rope.declares(*impl) : 0u);
      msg += ' ';
      // version 2 only: a version-1 pv_impl ends before `accuracy`
      const char* acc = impl->abi_version >= 2 && impl->accuracy ? impl->accuracy : "";
      // the accuracy ends at the next space: one inside it is sent as "\x20",
      // so "bfloat16 junk" stays one (unknown) class, never "bfloat16"
      for (char ch : std::string(acc).substr(0, 40)) msg += ch == ' ' ? std::string("\\x20") : std::string(1, ch);
      msg += ' ';
      msg += name;
    }
    const std::uint32_t head[2] = {kMagic, static_cast<std::uint32_t>(msg.size())};
    if (!write_all(kResultFd, head, sizeof head) || !write_all(kResultFd, msg.data(), msg.size()))
      ::_exit(kExitChannelLost);
    ::_exit(0);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.timeout_ms);
  std::uint32_t head[2] = {0, 0};
  std::string msg;
  auto r = c.read_exact(head, sizeof head, deadline);
  const bool garbled = r == child_proc::rd::ok && (head[0] != kMagic || head[1] > 100000);
  if (r == child_proc::rd::ok && !garbled) {
    msg.resize(head[1]);
    r = c.read_exact(msg.data(), msg.size(), deadline);
  }
  c.finish();
  if (garbled)
    throw load_error(where + "its answer is garbled (the library wrote to posverify's channel, fd " +
                     std::to_string(kResultFd) + ")" + aftermath(c, o));
  if (r == child_proc::rd::timeout)
    throw load_error(where + "loading it did not finish within " + std::to_string(o.timeout_ms) + " ms" +
                     aftermath(c, o));
  if (r == child_proc::rd::dead)
    throw load_error(where + describe_exit(c.ws) + " while loading it or calling posverify_impl()" +
                     aftermath(c, o));
  if (msg.empty() || msg[0] != 'I')
    throw load_error(where + (msg.size() > 1 ? text::visible(msg.substr(1)) : std::string("no answer")));
  impl_info info;
  info.path = path;
  info.given = given;
  // "I<abi> <one 0/1 per operation> <attend caps>:<empty rows>:<dtypes>:<rope caps> <accuracy> <name>"
  const std::size_t sp = msg.find(' '), nb = operations().size(), caps = sp + nb + 2;
  const std::size_t colon = caps <= msg.size() ? msg.find(':', caps) : std::string::npos;
  const std::size_t colon2 = colon == std::string::npos ? std::string::npos : msg.find(':', colon + 1);
  const std::size_t colon3 = colon2 == std::string::npos ? std::string::npos : msg.find(':', colon2 + 1);
  const std::size_t acc = colon3 == std::string::npos ? std::string::npos : msg.find(' ', colon3);
  if (sp == std::string::npos || acc == std::string::npos)
    throw load_error(where + "its answer is garbled: \"" + text::visible(msg) + "\"");
  info.attend_caps = static_cast<std::uint32_t>(std::strtoul(msg.substr(caps, colon - caps).c_str(), nullptr, 10));
  info.attend_empty_rows = static_cast<std::uint32_t>(std::strtoul(msg.substr(colon + 1, colon2 - colon - 1).c_str(), nullptr, 10));
  info.dtypes = static_cast<std::uint32_t>(std::strtoul(msg.substr(colon2 + 1, colon3 - colon2 - 1).c_str(), nullptr, 10));
  info.rope_caps = static_cast<std::uint32_t>(std::strtoul(msg.substr(colon3 + 1, acc - colon3 - 1).c_str(), nullptr, 10));
  info.abi_version = static_cast<std::uint32_t>(std::strtoul(msg.substr(1, sp - 1).c_str(), nullptr, 10));
  for (std::size_t k = 0; k < nb; ++k)
    if (msg[sp + 1 + k] == '1') info.provides |= 1u << k;
  const std::size_t sp2 = msg.find(' ', acc + 1);
  info.accuracy = msg.substr(acc + 1, sp2 - acc - 1);
  // the name reaches the terminal, Markdown and JSON: one visible line
  info.name = sp2 != std::string::npos ? text::visible(msg.substr(sp2 + 1)) : "";
  if (info.abi_version < 1 || info.abi_version > PV_ABI_VERSION)
    throw load_error("cannot use '" + text::visible(path) + "': it declares ABI version " +
                     std::to_string(info.abi_version) + ", posverify speaks versions 1 to " +
                     std::to_string(PV_ABI_VERSION) + " (rebuild it against posverify/impl.h)");
  if (info.name.empty()) info.name = text::visible(path.substr(path.find_last_of('/') + 1));
  if (info.attend_empty_rows > PV_EMPTY_MEAN)
    throw load_error("cannot use '" + text::visible(path) + "': it declares empty-row convention " +
                     std::to_string(info.attend_empty_rows) +
                     " (attend_empty_rows: 0 undeclared, 1 zeros, 2 NaN, 3 mean of V)");
  for (const char* a : {"", "float32", "float16", "bfloat16", "float16-accumulation"})
    if (info.accuracy == a) return info;
  throw load_error("cannot use '" + text::visible(path) + "': it declares accuracy class '" + text::visible(info.accuracy) +
                   "' (float32, float16, bfloat16 or float16-accumulation)");
}

}  // namespace pv::sandbox
