// Black-box diagnosis of a kernel that disagrees with the reference of a
// configuration of ABI version 3 (partial rotary, M-RoPE, scaled speeds):
// which components it rotates, whether it applies YaRN's attention factor,
// and which rule its speeds follow (the configured one, the plain ladder,
// position interpolation by the factor, the factor applied to theta, a
// dynamic NTK base of another length, a ramp the wrong way or placed for
// another original length, llama3's two frequency factors swapped, the
// factor inverted), which pairing it uses, and which M-RoPE axis drives
// which pairs.
#include "blackbox/diagnose.h"

#include "core/ranges.h"
#include "sandbox/length_model.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace pv::blackbox {
namespace {

std::string num(double x, int digits = 6) { return significant(x, digits); }

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

/// The angle by which component c of a probe turns (A: row j = R e_j).
double turned_by(const std::vector<std::vector<double>>& A, std::size_t c) {
  double off = 0;
  for (std::size_t k = 0; k < A[c].size(); ++k)
    if (k != c) off += A[c][k] * A[c][k];
  return std::atan2(std::sqrt(off), A[c][c]);
}

/// The length a dynamic-NTK base theta' stands for (the inverse of
/// theta' = theta (S L / L0 - (S - 1))^(R/(R-2))).
double length_of_base(double theta_seen, const pv_rope_config& c, std::size_t R) {
  const double b = std::pow(theta_seen / c.theta, double(R - 2) / double(R)), S = c.scaling.factor;
  return (b + S - 1) * c.scaling.original_length / S;
}

/// Dynamic NTK whose speeds agree with the configuration's at position 1 (a
/// length off by a little moves them by 1e-4 or less): the base the kernel
/// turns by, fitted from one probe at the run's largest position P, where a
/// relative change D of theta' moves the angle of pair k by -P w_k (2k/R) D.
/// The least-squares D over the pairs; nullopt when the probe fails or the
/// angles do not follow one base (a residual above a tenth of the largest
/// deviation).
std::optional<double> fitted_base(const check_run& cx, const rope_cfg& rc, pv_dtype t) {
  const double P = double(position_limit(cx, rc));
  const std::size_t D = std::size_t(rc.c.head_dim), R = rotary_dim(rc.c);
  auto res = run_batch(cx.lib, {rope_probe(rc, t, {P})}, cx.ro);
  if (res[0].st != status::ok) return std::nullopt;
  const auto M = probe_rows(res[0], t, D);
  const auto L = reference_layout(rc.c);
  const hp two_pi = 2 * pi<hp>();
  std::vector<double> dev, sens;
  std::size_t k = 0;
  for (const auto& pp : L.pairs) {
    const hp mw = hp(P) * pp.speed;
    hp delta = convert<hp>(std::atan2(M[pp.a][pp.b], M[pp.a][pp.a])) - (mw - two_pi * floor(mw / two_pi));
    delta -= two_pi * floor(delta / two_pi + hp(0.5));  // into [-pi, pi)
    dev.push_back(convert<double>(delta));
    sens.push_back(-convert<double>(mw) * 2.0 * double(k++) / double(R));
  }
  double num = 0, den = 0, worst = 0;
  for (std::size_t i = 0; i < dev.size(); ++i) num += sens[i] * dev[i], den += sens[i] * sens[i], worst = std::max(worst, std::abs(dev[i]));
  if (den == 0 || worst == 0) return std::nullopt;
  const double d = num / den;
  double resid = 0;
  for (std::size_t i = 0; i < dev.size(); ++i) resid = std::max(resid, std::abs(dev[i] - sens[i] * d));
  if (resid > 0.1 * worst) return std::nullopt;
  return convert<double>(effective_theta(scaling_of(rc.c), rc.c.theta, R)) * std::exp(d);
}

/// The pairing a probe shows: each turned component's partner is the
/// component its row turns into (the largest off-diagonal entry). "adjacent"
/// or "halves" when at least 90 % of the readable rows (off-diagonal above
/// thr) agree with it and it is not both (R = 2), else "".
std::string pairing_seen(const std::vector<std::vector<double>>& M, const std::vector<std::size_t>& turned,
                         std::size_t off0, std::size_t Rk, double thr) {
  std::size_t adj = 0, hal = 0, read = 0;
  for (std::size_t c : turned) {
    if (c < off0 || c >= off0 + Rk) continue;
    std::size_t best = c;
    double bv = 0;
    for (std::size_t k = 0; k < M[c].size(); ++k)
      if (k != c && std::abs(M[c][k]) > bv) bv = std::abs(M[c][k]), best = k;
    if (!(bv > thr) || best < off0 || best >= off0 + Rk) continue;
    const std::size_t i = c - off0, p = best - off0;
    ++read;
    adj += (i ^ 1) == p;
    hal += p == (i < Rk / 2 ? i + Rk / 2 : i - Rk / 2);
  }
  if (read < 2 || Rk <= 2) return "";
  if (10 * adj >= 9 * read && adj > hal) return "adjacent";
  if (10 * hal >= 9 * read && hal > adj) return "halves";
  return "";
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
    norm_sum += std::sqrt(n2);
  }
  const std::size_t first = turned.empty() ? 0 : turned.front(), last = turned.empty() ? 0 : turned.back();
  const std::size_t off = std::size_t(rc.c.rotary_offset);
  if (turned.size() == D && R < D)
    findings.push_back("it rotates all " + std::to_string(D) + " components, the configuration rotates " +
                       std::to_string(R));
  else if (!turned.empty() && (first != off || last + 1 > off + R))
    findings.push_back("it rotates components " + std::to_string(first) + " to " + std::to_string(last) +
                       ", the configuration " +
                       (off == 0 ? "the first " + std::to_string(R)
                                 : "components " + std::to_string(off) + " to " + std::to_string(off + R - 1)));
  // the attention factor
  const double a = rope_temperature<double>(scaling_of(rc.c));
  const double norm = turned.empty() ? 1 : norm_sum / double(turned.size());
  if (a != 1 && std::abs(norm - 1) < 1e3 * thr)
    findings.push_back("it leaves out YaRN's attention factor a = " + num(a) + " (rotated rows keep norm 1, so q.k is not scaled by a^2)");
  else if (std::abs(norm - a) > 1e3 * thr)
    findings.push_back("it scales the rotated components by " + num(norm) + ", the configuration by " + num(a));
  // the speeds, in ladder order over the rotated components (pair k: its first component)
  const std::size_t Rk = turned.size() == D ? D : R, off0 = turned.size() == D ? 0 : first;
  // the pairing it shows (the speeds are read with it)
  const bool halves_asked = rc.c.pairing == PV_PAIRS_HALVES;
  bool halves = halves_asked;
  if (const std::string p = pairing_seen(M, turned, off0, Rk, thr); !p.empty() && (p == "halves") != halves_asked) {
    halves = !halves_asked;
    findings.push_back(halves ? "it pairs split halves (i, i + R/2), the configuration adjacent components (2i, 2i + 1)"
                              : "it pairs adjacent components (2i, 2i + 1), the configuration split halves (i, i + R/2)");
  }
  // every pair's angle, also below the threshold that says which components
  // turn: a float32 probe at theta 500000 turns the slow pairs of a head of
  // 128 by less than 1e-5 rad, which the probe still reads to about u of itself
  // (read as 0, they matched no rule)
  std::vector<double> seen;
  for (std::size_t k = 0; k < Rk / 2; ++k) seen.push_back(turned_by(M, off0 + (halves ? k : 2 * k)));
  const auto s = scaling_of(rc.c);
  const double S = s.factor;
  // the configuration's frequency factors divide each pair's speed (ff = 1:
  // ignored, ff = -1: multiplied instead)
  auto speeds = [&](const rope_scaling& sc, double theta, int ff = 0) {
    auto w = scaled_speeds<double>(Rk, theta, sc);
    for (std::size_t k = 0; k < w.size() && k < std::size_t(rc.c.n_freq_factors) && ff != 1; ++k)
      w[k] = ff == 0 ? w[k] / rc.c.freq_factors[k] : w[k] * rc.c.freq_factors[k];
    return w;
  };
  const rope_scaling none{};
  rope_scaling lin{};
  lin.kind = rope_scaling_kind::linear;
  lin.factor = S;
  const double tol = 1e4 * thr;
  std::string speed_note;
  const bool dynamic = rc.c.scaling.kind == PV_SCALE_DYNAMIC_NTK, from_positions = sandbox::length_from_positions(cx.lib, rc.c);
  // the length a dynamic-NTK call stands for (sandbox/length_model.h)
  const double L_asked = from_positions ? sandbox::sequence_length(rc.c) : s.length;
  const std::string L_why = from_positions ? " (it declares that it reads the length from the positions: each call's "
                                             "largest position is " + num(L_asked - 1, 10) + ")"
                                           : "";
  // dynamic NTK at a length read from the positions, undeclared: the probe
  // (every row at position 1) is a sequence of 2, whose base is theta; the same
  // probe with one more row at the configuration's last position turns by the
  // configuration's base (read from pair 1, the fastest pair that turns)
  auto reads_length = [&]() -> std::string {
    if (!dynamic || from_positions || !(s.length > s.original_length) || Rk != R || Rk < 4) return "";
    const call probe = rope_probe(rc, t, one);
    auto ar = run_batch(cx.lib, {sandbox::with_anchor(probe)}, cx.ro);
    if (ar[0].st != status::ok) return "";
    sandbox::drop_anchor(probe, ar[0]);
    const double w1 = turned_by(probe_rows(ar[0], t, D), off0 + (halves ? 1 : 2));
    if (!(w1 > 0)) return "";
    const double L_seen = length_of_base(std::pow(w1, -double(Rk) / 2), rc.c, Rk);
    if (std::abs(L_seen - s.length) > 0.01 * (s.length - s.original_length)) return "";
    j.set("advice", json::string("length_from_positions"));
    return "it reads dynamic NTK's length from the call's positions (1 + the largest, as Hugging Face's dynamic "
           "update does), not from scaling.length: a probe at position 1 turns by the plain speeds, the same probe "
           "with one more row at position " + num(sandbox::sequence_length(rc.c) - 1, 10) +
           " by the configuration's";
  };
  if (rc.c.n_freq_factors && rel_diff(seen, speeds(s, rc.c.theta, 1)) < tol) {
    speed_note = "it ignores the frequency factors (pair k turns at w_k, not w_k / freq_factors[k])";
  } else if (rc.c.n_freq_factors && rel_diff(seen, speeds(s, rc.c.theta, -1)) < tol) {
    speed_note = "it multiplies the speeds by the frequency factors instead of dividing them (pair k turns at "
                 "w_k freq_factors[k])";
  } else if (rel_diff(seen, speeds(s, rc.c.theta)) < tol) {
    speed_note = "its speeds are those of the configuration";
    // a length off by a little: fitted from the angles at the largest position
    if (dynamic && Rk == R)
      if (const auto th = fitted_base(cx, rc, t)) {
        const double L_seen = length_of_base(*th, rc.c, R);
        if (std::abs(L_seen - std::max(L_asked, s.original_length)) >= 0.5 && L_seen > s.original_length)
          speed_note = "it computes dynamic NTK's base for length " + num(L_seen, 7) + " (theta' = " + num(*th, 7) +
                       ", fitted from the angles at position " + num(double(position_limit(cx, rc)), 10) +
                       "), the configuration's length is " + num(L_asked, 10) + L_why;
      }
  } else if (rc.c.scaling.kind != PV_SCALE_NONE && rel_diff(seen, speeds(none, rc.c.theta)) < tol) {
    speed_note = std::string("it ignores ") + kind_name(rc.c.scaling.kind) + ": plain speeds theta^(-2k/R)";
    if (const std::string n = reads_length(); !n.empty()) speed_note = n;
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
    // the pairs that differ from the configuration's speeds, and by what factor
    const auto want = speeds(s, rc.c.theta);
    std::vector<std::size_t> differ;
    double lo = INFINITY, hi = 0;
    for (std::size_t k = 0; k < seen.size() && k < want.size(); ++k)
      if (const double q = seen[k] / want[k]; !(std::abs(q - 1) < tol)) {
        differ.push_back(k);
        lo = std::min(lo, q), hi = std::max(hi, q);
      }
    speed_note = "its speeds match no known rule: pairs " + text::ranges(differ) + " of " +
                 std::to_string(seen.size()) + " differ from the configuration's, by factors " +
                 (differ.empty() ? std::string("1") : num(lo, 4) + (hi > lo ? " to " + num(hi, 4) : "")) +
                 " (pair " + std::to_string(differ.empty() ? 0 : differ[0]) + " turns at " +
                 num(seen[differ.empty() ? 0 : differ[0]], 10) + ", the configuration's at " +
                 num(want[differ.empty() ? 0 : differ[0]], 10) + "; pair 1 implies the base " + num(theta_seen) + ")";
    if (const std::string n = dynamic && theta_seen < 1.01 * rc.c.theta ? reads_length() : ""; !n.empty()) {
      speed_note = n;  // plain speeds but for float noise (slow pairs below the probe's threshold)
    } else if (rc.c.scaling.kind == PV_SCALE_DYNAMIC_NTK && theta_seen > rc.c.theta) {
      speed_note = "it computes dynamic NTK's base for length " + num(length_of_base(theta_seen, rc.c, Rk)) +
                   " (theta' = " + num(theta_seen) + "), the configuration's length is " + num(L_asked) + L_why;
    } else if (rc.c.scaling.kind == PV_SCALE_YARN || rc.c.scaling.kind == PV_SCALE_LLAMA3) {
      // a ramp the other way round: slow pairs kept, fast ones divided
      if (std::abs(seen.front() - 1.0 / S) < tol && std::abs(seen.back() / speeds(none, rc.c.theta).back() - 1) < tol) {
        speed_note = std::string("the ramp of ") + kind_name(rc.c.scaling.kind) +
                     " runs the wrong way: the fastest pair is divided by " + num(S) + ", the slowest kept";
      } else {
        // llama3's low and high frequency factors swapped, or the factor
        // inverted (speeds multiplied by S where they are divided)
        rope_scaling swapped = s, inverted = s;
        std::swap(swapped.low, swapped.high);
        inverted.factor = 1 / S;
        if (rc.c.scaling.kind == PV_SCALE_LLAMA3 && s.low != s.high &&
            rel_diff(seen, speeds(swapped, rc.c.theta)) < tol)
          speed_note = "it swaps llama3's low_freq_factor and high_freq_factor (" + num(s.low) + " and " +
                       num(s.high) + "): the pairs of wavelength above L0 / " + num(s.high) +
                       " are divided by the factor, the rest kept, none smoothed";
        else if (rel_diff(seen, speeds(inverted, rc.c.theta)) < tol)
          speed_note = std::string("it inverts the factor of ") + kind_name(rc.c.scaling.kind) +
                       ": the slow pairs' speeds are multiplied by " + num(S) + ", not divided";
      }
      if (speed_note.rfind("its speeds match no known rule", 0) == 0) {
        // the ramp placed for another original length L0 (the pretraining
        // context read from another field, or the scaled length S L0)
        const double L0 = s.original_length;
        for (double cand : {L0 * S, L0 / S, 2 * L0, L0 / 2, 4 * L0, L0 / 4, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0,
                            131072.0}) {
          if (cand == L0 || !(cand >= 2)) continue;
          rope_scaling other = s;
          other.original_length = cand;
          if (rel_diff(seen, speeds(other, rc.c.theta)) < 1e-2 * tol) {
            speed_note = std::string("it places the ramp of ") + kind_name(rc.c.scaling.kind) + " for original length " +
                         num(cand) + ", the configuration's is " + num(L0);
            break;
          }
        }
      }
    }
  }
  if (!speed_note.empty()) findings.insert(findings.begin(), speed_note);
  // M-RoPE: which axis drives each pair, from one probe per axis (position 1
  // on that axis, 0 on the others), against the sections' assignment
  if (rc.c.mrope && na > 1 && Rk == R) {
    std::vector<call> probes;
    for (std::size_t a = 0; a < na; ++a) {
      std::vector<double> e(na, 0.0);
      e[a] = 1;
      probes.push_back(rope_probe(rc, t, e));
    }
    auto ar = run_batch(cx.lib, probes, cx.ro);
    bool ok = true;
    for (const auto& r : ar) ok = ok && r.st == status::ok;
    if (ok) {
      const auto L = reference_layout(rc.c);
      std::vector<std::vector<std::size_t>> drives(na), asked(na);
      bool differ = false, interleaved = true;
      std::vector<std::vector<std::vector<double>>> Ms;
      for (const auto& r : ar) Ms.push_back(probe_rows(r, t, D));
      for (std::size_t k = 0; k < Rk / 2 && k < L.pairs.size(); ++k) {
        const std::size_t comp = off0 + (halves ? k : 2 * k);
        std::size_t by = na;
        double most = 0;
        for (std::size_t a = 0; a < na; ++a)
          if (const double ang = turned_by(Ms[a], comp); ang > most) most = ang, by = a;
        if (by == na) continue;  // turns on no axis: unread
        drives[by].push_back(k);
        asked[L.pairs[k].axis].push_back(k);
        differ = differ || by != L.pairs[k].axis;
        interleaved = interleaved && by == k % na;
      }
      if (differ) {
        std::string f = "position axes drive other pairs than the sections assign";
        if (interleaved) f += " (pair k is driven by axis k mod " + std::to_string(na) + ": interleaved sections, not contiguous)";
        for (std::size_t a = 0; a < na; ++a)
          f += (a == 0 ? ": " : "; ") + std::string("axis ") + std::to_string(a) + " drives pairs " +
               text::ranges(drives[a]) + " (expected " + text::ranges(asked[a]) + ")";
        findings.push_back(f);
      }
    }
  }
  // positions 257 and 2049 on every coordinate: the position it turns by, read
  // off the two fastest pairs whose angle there stays below 3 rad (no wrap),
  // which must agree (cos and sin rounded to 16 bits are too noisy to read)
  bool exact257 = true;
  for (double m : {257.0, 2049.0}) {
    std::vector<std::size_t> by;  // pair indices, fastest first, angle at m below 3 rad
    for (std::size_t k = 0; k < seen.size(); ++k)
      if (seen[k] > 0 && seen[k] * m <= 3) by.push_back(k);
    std::sort(by.begin(), by.end(), [&](std::size_t x, std::size_t y) { return seen[x] > seen[y]; });
    if (by.empty()) continue;
    auto pr = run_batch(cx.lib, {rope_probe(rc, t, std::vector<double>(na, m))}, cx.ro);
    if (pr[0].st != status::ok) continue;
    const auto Mm = probe_rows(pr[0], t, D);
    auto read = [&](std::size_t k) { return turned_by(Mm, off0 + (halves ? k : 2 * k)) / seen[k]; };
    const double m_eff = read(by[0]);
    if (by.size() > 1 && std::abs(read(by[1]) - m_eff) > 0.25) continue;  // noisy
    if (std::abs(m_eff - m) <= 0.25) continue;
    findings.push_back("position " + num(m) + " acts as " + num(m_eff, 7) + rounded_position(m, m_eff, exact257));
    if (m == 257.0) exact257 = false;
  }
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
