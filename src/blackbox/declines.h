// Declines depend only on what a kernel declares. A kernel may decline a call
// (return 1) for its dtype, or for the configuration of its operation
// (sandbox/operation.h, `configuration`: a RoPE configuration, a sinusoid
// base), never for its values, sizes, positions or layout, nor for the law
// that asks; attend's configurations are the capabilities a plugin declares,
// and posverify never sends a call beyond them.
//
// So a declined call is contradicted when a call of the same declaration
// (operation, dtype, configuration) ran: in the same law; in the probe, a few
// small calls per operation, dtype and configuration of the run, sent before
// the laws (the same in every shard and under --law); or in another law of
// the run (of the same shard). A law with a contradicted decline is
// insufficient, whatever its cases gave: a kernel that declines what it finds
// hard would otherwise pass by declining it.
#pragma once

#include "blackbox/calls.h"
#include "blackbox/check_run.h"
#include "blackbox/law_result.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pv::blackbox {

/// The declaration a call is judged under: "rope() on float32, configuration
/// 3f2a...", "sinusoid() on float64, base 100", "attention() on bfloat16".
std::string declaration_of(const call& c);
/// The same for c sent as dtype `sent_as` (sent_dtype()).
std::string declaration_of(const call& c, pv_dtype sent_as);

/// The calls of the probe of one operation for dtype t (PV_F32 or PV_F64) of
/// the run cx: small, of every configuration the laws send whole. Registered
/// by the file of the operation's laws.
using probe_fn = std::vector<call> (*)(const check_run& cx, pv_dtype t);
struct probe_registrar {
  probe_registrar(sandbox::op op, probe_fn make);
};

/// make(T()) with T the C type of dtype t: float for PV_F32, else double.
template <class Make>
std::vector<call> in_dtype(pv_dtype t, Make make) {
  return t == PV_F32 ? make(float()) : make(double());
}

/// Entry i of a probe's input: (i mod 7) / 8 - 3/8, small and exact in every dtype.
inline double probe_value(std::size_t i) { return double(i % 7) / 8 - 0.375; }

/// A rows x cols matrix of probe values.
template <class T>
matrix<T> probe_matrix(std::size_t rows, std::size_t cols) {
  matrix<T> m(rows, cols);
  for (std::size_t i = 0; i < m.a.size(); ++i) m.a[i] = T(probe_value(i));
  return m;
}

/// Sends calls as a law of cx sends them (float32 buffers in cx's 16-bit wire
/// format when it has one, read back as float32).
std::vector<result> send(const check_run& cx, const std::vector<call>& calls);
/// The dtype call c travels in when a law of cx sends it (send()).
inline pv_dtype sent_dtype(const check_run& cx, const call& c) { return cx.wire != PV_F32 && c.t == PV_F32 ? cx.wire : c.t; }

/// The declarations the library ran (returned 0, or failed otherwise than by
/// declining) in the probe of cx: every operation it provides, float32 in
/// cx's wire format, and float64 unless cx.float_only.
std::shared_ptr<const std::set<std::string>> probe_declarations(const check_run& cx);

/// Makes every law of `laws` with a contradicted decline insufficient (a
/// failed law stays failed), its finding naming the declaration and where it
/// ran: in the law itself, in the probe (`probed`, may be null), or in
/// another law of `laws`.
void judge_declines(std::vector<law_result>& laws, const std::set<std::string>* probed);

}  // namespace pv::blackbox
