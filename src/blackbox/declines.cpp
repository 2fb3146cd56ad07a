#include "blackbox/declines.h"

#include "sandbox/half_formats.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

namespace pv::blackbox {

namespace {

std::vector<std::pair<sandbox::op, probe_fn>>& probes() {
  static std::vector<std::pair<sandbox::op, probe_fn>> v;
  return v;
}

/// float32 bytes -> 16-bit values of dtype t (rounded to nearest even), and back.
std::vector<unsigned char> narrow(const std::vector<unsigned char>& b, pv_dtype t) {
  std::vector<unsigned char> r(b.size() / 2);
  sandbox::to_16bit(t, b.data(), r.data(), b.size() / 4);
  return r;
}

std::vector<unsigned char> widen(const std::vector<unsigned char>& b, pv_dtype t) {
  std::vector<unsigned char> r(b.size() * 2);
  sandbox::from_16bit(t, b.data(), r.data(), b.size() / 2);
  return r;
}

/// The result bytes of a call sent with 16-bit values (`sent`), widened to
/// float32 output by output in the row's order; an output of its own type
/// (attend's float64 log-sum-exp) is kept as it is.
std::vector<unsigned char> widen_result(const call& sent, const std::vector<unsigned char>& b) {
  std::vector<unsigned char> r;
  std::size_t at = 0;
  for (const auto& buf : sent.row().buffers) {
    if (buf.use == sandbox::role::in || at >= b.size()) continue;
    const std::size_t n = std::min(sent.bytes(buf), b.size() - at);
    const std::vector<unsigned char> part(b.begin() + long(at), b.begin() + long(at + n));
    const auto w = buf.type == sandbox::elem::dtype ? widen(part, sent.t) : part;
    r.insert(r.end(), w.begin(), w.end());
    at += n;
  }
  if (at < b.size()) {  // more than the outputs (a garbled answer): as before, all of it 16-bit
    const auto w = widen(std::vector<unsigned char>(b.begin() + long(at), b.end()), sent.t);
    r.insert(r.end(), w.begin(), w.end());
  }
  return r;
}

}  // namespace

std::string declaration_of(const call& c) { return declaration_of(c, c.t); }

std::string declaration_of(const call& c, pv_dtype sent_as) {
  const auto& row = c.row();
  std::string d = std::string(row.name) + "() on " + sandbox::dtype_name(sent_as);
  if (row.configuration) d += ", " + row.configuration(c);
  return d;
}

probe_registrar::probe_registrar(sandbox::op op, probe_fn make) { probes().emplace_back(op, make); }

std::vector<result> send(const check_run& cx, const std::vector<call>& calls) {
  if (cx.wire == PV_F32) return run_batch(cx.lib, calls, cx.ro);  // sent as they are: no copy
  std::vector<call> sent = calls;  // the float32 law's buffers travel as 16-bit values
  for (auto& c : sent)
    if (const pv_dtype t = sent_dtype(cx, c); t != c.t) {
      c.t = t;
      const auto& bufs = c.row().buffers;
      for (std::size_t k = 0; k < c.in.size(); ++k)
        if (bufs[k].type == sandbox::elem::dtype) c.in[k] = narrow(c.in[k], c.t);
    }
  auto res = run_batch(cx.lib, sent, cx.ro);
  for (std::size_t i = 0; i < res.size() && i < sent.size(); ++i)
    if (sent[i].t == cx.wire) res[i].out = widen_result(sent[i], res[i].out);
  return res;
}

std::shared_ptr<const std::set<std::string>> probe_declarations(const check_run& cx) {
  std::vector<call> calls;
  for (const auto& [op, make] : probes()) {
    if (!cx.lib.has(op)) continue;
    for (pv_dtype t : {PV_F32, PV_F64}) {
      if (t == PV_F64 && cx.float_only) continue;
      for (auto& c : make(cx, t)) calls.push_back(std::move(c));
    }
  }
  auto ran = std::make_shared<std::set<std::string>>();
  if (calls.empty()) return ran;
  const auto res = send(cx, calls);
  for (std::size_t i = 0; i < res.size() && i < calls.size(); ++i) {
    if (res[i].st == status::unsupported || res[i].st == status::not_run) continue;
    ran->insert(declaration_of(calls[i], sent_dtype(cx, calls[i])));
  }
  return ran;
}

void judge_declines(std::vector<law_result>& laws, const std::set<std::string>* probed) {
  std::map<std::string, std::size_t> first_ran;  // a declaration -> the first law that ran it
  for (std::size_t i = 0; i < laws.size(); ++i)
    for (const auto& d : laws[i].ran) first_ran.emplace(d, i);
  for (std::size_t i = 0; i < laws.size(); ++i) {
    law_result& r = laws[i];
    if (r.verdict == verdict::failed) continue;
    for (const auto& [d, n] : r.declined) {
      std::string where;
      if (r.ran.count(d)) where = "in other cases of this law";
      else if (probed && probed->count(d)) where = "in the probe";
      else if (auto it = first_ran.find(d); it != first_ran.end()) where = "in " + laws[it->second].id;
      else continue;
      r.verdict = verdict::insufficient;
      r.finding = std::to_string(r.cases) + " cases evaluated; the library declined " + std::to_string(n) +
                  (n == 1 ? " call" : " calls") + " of " + d + " (returned 1), yet ran calls of that dtype and "
                  "configuration " + where +
                  ": a kernel may decline a dtype or a configuration, never particular values, sizes, positions "
                  "or layouts, nor one law (docs/check.md, \"Declines\")";
      break;
    }
  }
}

}  // namespace pv::blackbox
