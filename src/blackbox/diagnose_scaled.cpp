// Black-box diagnosis of a kernel that disagrees with the reference of a
// configuration of ABI version 3 (partial rotary, M-RoPE, scaled speeds):
// which components it rotates, whether it applies YaRN's attention factor,
// and which rule its speeds follow (the configured one, the plain ladder,
// position interpolation by the factor, the factor applied to theta, or a
// dynamic NTK base of another length).
#include "blackbox/diagnose.h"

#include <cmath>
#include <sstream>

namespace pv::blackbox {
namespace {

std::string num(double x, int digits = 6) {
  std::ostringstream s;
  s.precision(digits);
  s << x;
  return s.str();
}

const char* kind_name(int k) {
  switch (k) {
    case PV_SCALE_LINEAR: return "linear position interpolation";
    case PV_SCALE_NTK: return "NTK-aware scaling";
    case PV_SCALE_DYNAMIC_NTK: return "dynamic NTK";
    case PV_SCALE_YARN: return "YaRN";
    case PV_SCALE_LLAMA3: return "the llama3 rule";
    default: return "no scaling";
  }
}

/// Largest relative difference of two speed lists (infinite when the sizes differ).
double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]) / std::abs(b[i]));
  return m;
}

}  // namespace

json diagnose_scaled_rope(const check_run& cx, const rope_cfg& rc) {
  json j = json::object();
  j.set("config", json::string(rc.name));
  const std::size_t D = std::size_t(rc.c.head_dim), na = std::size_t(rc.c.n_axes), R = rotary_dim(rc.c);
  // every coordinate at 1: each pair turns by its speed, whichever axis drives it
  const std::vector<double> one(na, 1.0);
  pv_dtype t = PV_F64;
  auto res = run_batch(cx.lib, {rope_probe(rc, t, one)}, cx.ro);
  if (res[0].st != status::ok) {
    t = PV_F32;
    res = run_batch(cx.lib, {rope_probe(rc, t, one)}, cx.ro);
  }
  j.set("dtype", json::string(t == PV_F32 ? "float32" : "float64"));
  if (res[0].st != status::ok) {
    j.set("message", json::string(std::string("cannot probe: the probe call ended ") + to_string(res[0].st)));
    return j;
  }
  const double thr = t == PV_F32 ? 1e-5 : 1e-11;
  auto M = probe_rows(res[0], t, D);  // row c = R e_c
  std::vector<std::string> findings;
  // which components turn, by how much, and the norm of each rotated row
  std::vector<std::size_t> turned;
  std::vector<double> angle(D, 0.0);
  double norm_sum = 0;
  for (std::size_t c = 0; c < D; ++c) {
    double off = 0, n2 = 0;
    for (std::size_t k = 0; k < D; ++k) {
      n2 += M[c][k] * M[c][k];
      if (k != c) off += M[c][k] * M[c][k];
    }
    const bool moved = std::abs(M[c][c] - 1) > thr || std::sqrt(off) > thr;
    if (!moved) continue;
    turned.push_back(c);
    angle[c] = std::atan2(std::sqrt(off), M[c][c]);
    norm_sum += std::sqrt(n2);
  }
  const std::size_t first = turned.empty() ? 0 : turned.front(), last = turned.empty() ? 0 : turned.back();
  if (turned.size() == D && R < D)
    findings.push_back("it rotates all " + std::to_string(D) + " components, the configuration rotates " +
                       std::to_string(R));
  else if (!turned.empty() && (first != 0 || last + 1 > R))
    findings.push_back("it rotates components " + std::to_string(first) + " to " + std::to_string(last) +
                       ", the configuration the first " + std::to_string(R));
  // the attention factor
  const double a = rope_temperature<double>(scaling_of(rc.c));
  const double norm = turned.empty() ? 1 : norm_sum / double(turned.size());
  if (a != 1 && std::abs(norm - 1) < 1e3 * thr)
    findings.push_back("it leaves out YaRN's attention factor a = " + num(a) + " (rotated rows keep norm 1, so q.k is not scaled by a^2)");
  else if (std::abs(norm - a) > 1e3 * thr)
    findings.push_back("it scales the rotated components by " + num(norm) + ", the configuration by " + num(a));
  // the speeds, in ladder order over the rotated components (pair k: its first component)
  const bool halves = rc.c.pairing == PV_PAIRS_HALVES;
  const std::size_t Rk = turned.size() == D ? D : R, off0 = turned.size() == D ? 0 : first;
  std::vector<double> seen;
  for (std::size_t k = 0; k < Rk / 2; ++k) seen.push_back(angle[off0 + (halves ? k : 2 * k)]);
  const auto s = scaling_of(rc.c);
  const double S = s.factor;
  auto speeds = [&](const rope_scaling& sc, double theta) { return scaled_speeds<double>(Rk, theta, sc); };
  const rope_scaling none{};
  rope_scaling lin{};
  lin.kind = rope_scaling_kind::linear;
  lin.factor = S;
  const double tol = 1e4 * thr;
  std::string speed_note;
  if (rel_diff(seen, speeds(s, rc.c.theta)) < tol) {
    speed_note = "its speeds are those of the configuration";
  } else if (rc.c.scaling.kind != PV_SCALE_NONE && rel_diff(seen, speeds(none, rc.c.theta)) < tol) {
    speed_note = std::string("it ignores ") + kind_name(rc.c.scaling.kind) + ": plain speeds theta^(-2k/R)";
  } else if (rc.c.scaling.kind != PV_SCALE_NONE && rc.c.scaling.kind != PV_SCALE_LINEAR &&
             rel_diff(seen, speeds(lin, rc.c.theta)) < tol) {
    speed_note = rc.c.scaling.kind == PV_SCALE_LLAMA3
                     ? "the llama3 ramp is missing, all speeds divided by " + num(S)
                     : "it applies position interpolation with factor " + num(S) + ", not " + kind_name(rc.c.scaling.kind);
  } else if (rc.c.scaling.kind != PV_SCALE_NONE && rel_diff(seen, speeds(none, rc.c.theta * S)) < tol) {
    speed_note = "it applies the factor " + num(S) + " to theta (plain ladder of theta " + num(rc.c.theta * S) +
                 ") instead of " + kind_name(rc.c.scaling.kind);
  } else if (seen.size() >= 2 && seen[1] > 0) {
    // the base its ladder implies, from pair 1 (speed theta'^(-2/R))
    const double theta_seen = std::pow(seen[1], -double(Rk) / 2);
    speed_note = "its speeds match no known rule: pair 1 turns at " + num(seen[1], 10) + " (base " + num(theta_seen) +
                 "), the configuration's at " + num(speeds(s, rc.c.theta)[1], 10);
    if (rc.c.scaling.kind == PV_SCALE_DYNAMIC_NTK && theta_seen > rc.c.theta) {
      const double b = std::pow(theta_seen / rc.c.theta, double(Rk - 2) / double(Rk));
      const double L = (b + S - 1) * s.original_length / S;
      speed_note = "it computes dynamic NTK's base for length " + num(L) + " (theta' = " + num(theta_seen) +
                   "), the configuration's length is " + num(s.length);
    } else if (rc.c.scaling.kind == PV_SCALE_YARN || rc.c.scaling.kind == PV_SCALE_LLAMA3) {
      // a ramp the other way round: slow pairs kept, fast ones divided
      if (std::abs(seen.front() - 1.0 / S) < tol && std::abs(seen.back() / speeds(none, rc.c.theta).back() - 1) < tol)
        speed_note = std::string("the ramp of ") + kind_name(rc.c.scaling.kind) +
                     " runs the wrong way: the fastest pair is divided by " + num(S) + ", the slowest kept";
    }
  }
  if (!speed_note.empty()) findings.insert(findings.begin(), speed_note);
  std::string msg = "you asked for " + rc.name + " (" + kind_name(rc.c.scaling.kind) + ", " + std::to_string(R) +
                    " of " + std::to_string(D) + " components rotated" + (rc.c.mrope ? ", M-RoPE sections" : "") + ")";
  for (const auto& f : findings) msg += "; " + f;
  j.set("message", json::string(msg));
  json fj = json::array();
  for (const auto& f : findings) fj.push(json::string(f));
  j.set("findings", fj);
  return j;
}

}  // namespace pv::blackbox
