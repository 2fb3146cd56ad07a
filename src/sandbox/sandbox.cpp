#include "sandbox/sandbox.h"

#include "sandbox/child_calls.h"
#include "sandbox/framing.h"
#include "sandbox/half_formats.h"
#include "sandbox/isolation.h"
#include "sandbox/kept_child.h"
#include "sandbox/length_model.h"
#include "sandbox/operations.h"
#include "sandbox/process_adapter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>

namespace pv::sandbox {

runner_stats& stats() {
  static runner_stats s;
  return s;
}

long call_timeout_ms(const call& c, const runner_options& o) {
  return o.timeout_ms + long(c.work() * kNsPerMadd * 1e-6);
}

namespace {

void check_finite(const call& c, result& r) {
  if (!c.row().checks_finite) return;  // the laws judge every entry (a declared NaN convention)
  const std::size_t n = r.out.size() / elem_size(c.t);
  const buffer& ob = c.row().buffers[c.row().output()];
  const std::int64_t cols = ob.shape.size() >= 2 ? c.dim(ob.shape.back()) : 1;
  for (std::size_t i = 0; i < n; ++i) {
    double v;
    if (c.t == PV_F32) {
      float f;
      std::memcpy(&f, r.out.data() + i * 4, 4);
      v = f;
    } else if (c.t == PV_F64) {
      std::memcpy(&v, r.out.data() + i * 8, 8);
    } else {
      std::uint16_t b;
      std::memcpy(&b, r.out.data() + i * 2, 2);
      v = from_16bit(c.t, b);
    }
    if (!std::isfinite(v)) {
      r.st = status::non_finite;
      const std::size_t es = elem_size(c.t);
      bool untouched = ob.use == role::out;  // pre-filled with NaN bytes, not an input rotated in place
      for (std::size_t b = 0; b < es && untouched; ++b) untouched = r.out[i * es + b] == 0xFF;
      r.detail = std::string(std::isnan(v) ? "NaN" : "infinity") + " at output entry (" +
                 std::to_string(cols ? std::int64_t(i) / cols : 0) + ", " +
                 std::to_string(cols ? std::int64_t(i) % cols : 0) + ")" +
                 (untouched ? std::string(" ") + kNeverWritten : "");
      return;
    }
  }
}

/// run_batch for the calls as the library receives them.
std::vector<result> run_sent(const impl_info& lib, const std::vector<call>& calls, const runner_options& o) {
  std::vector<result> res(calls.size());
  std::size_t next = 0;
  while (next < calls.size()) {
    child_proc fresh;
    ensure_server(lib, o);
    child_proc* kept = o.keep_child ? kept_with_batch(lib, calls, next, o) : nullptr;
    if (!kept && spawn(fresh, o)) child_serve(lib.path, calls, next, o.memory_limit);
    child_proc& c = kept ? *kept : fresh;
    bool fatal = false, clean = true;  // clean: every call came back ok or declined
    auto since = std::chrono::steady_clock::now();
    while (next < calls.size()) {
      const long limit_ms = call_timeout_ms(calls[next], o);
      auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limit_ms);
      wire_header h{};
      auto r = c.read_exact(&h, sizeof h, deadline);
      while (r == child_proc::rd::ok && h.magic == kMagic && h.st == kNoteEnomem) {
        c.enomem = true;  // the child is about to die of a failed allocation
        r = c.read_exact(&h, sizeof h, deadline);
      }
      const bool ok_frame = r == child_proc::rd::ok && well_formed(h, std::uint32_t(next), calls[next].out_bytes());
      std::vector<unsigned char> out;
      if (ok_frame) {
        out.resize(h.out_len);
        r = c.read_exact(out.data(), out.size(), deadline);
      }
      result& R = res[next];
      ++stats().calls;
      R.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
      since = std::chrono::steady_clock::now();
      if (r == child_proc::rd::ok && !ok_frame) {
        c.finish();
        R.st = status::garbled;
        R.detail = garbled_detail(h, next) + aftermath(c, o, next);
        fatal = true;
        break;
      }
      if (r == child_proc::rd::timeout) {
        c.finish();
        R.st = status::hung;
        R.detail = "did not return within " + std::to_string(limit_ms) + " ms (killed)" + aftermath(c, o, next);
        fatal = true;
        break;
      }
      if (r == child_proc::rd::dead) {
        R.st = status::crashed;
        R.detail = describe_exit(c.ws) + " during the call" + aftermath(c, o, next);
        fatal = true;
        break;
      }
      R.st = static_cast<status>(h.st);
      clean = clean && (R.st == status::ok || R.st == status::unsupported);
      R.rc = h.rc;
      R.detail = std::string(h.detail, strnlen(h.detail, sizeof h.detail));
      R.out = std::move(out);
      // the stderr of this call: in the finding when the call failed
      if (R.st != status::ok && R.st != status::unsupported) {
        std::string t = c.stderr_tail(next);
        if (!t.empty()) R.detail += "; " + t;
      }
      if (auto p = c.tail.find(stderr_marker(next + 1)); p != std::string::npos) c.tail.erase(0, p);
      if (R.st == status::ok) check_finite(calls[next], R);
      ++next;
    }
    if (kept && (fatal || !clean)) end_kept_child();
    else if (!kept) c.finish();
    if (fatal) {
      server_after_fatal(lib);
      ++next;
      if (o.stop_at_fatal) break;
    }
  }
  return res;
}

}  // namespace

std::vector<result> run_batch(const impl_info& lib, const std::vector<call>& calls,
                              const runner_options& o) {
  // dynamic NTK whose length the kernel reads from the positions: each such
  // call carries the row that makes its length the configuration's
  if (std::none_of(calls.begin(), calls.end(), [&](const call& c) { return anchored(lib, c); }))
    return run_sent(lib, calls, o);
  std::vector<call> sent;
  sent.reserve(calls.size());
  for (const call& c : calls) sent.push_back(anchored(lib, c) ? with_anchor(c) : c);
  auto res = run_sent(lib, sent, o);
  for (std::size_t i = 0; i < calls.size(); ++i)
    if (anchored(lib, calls[i])) drop_anchor(calls[i], res[i]);
  return res;
}

}  // namespace pv::sandbox
