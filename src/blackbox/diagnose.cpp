#include "blackbox/diagnose.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace pv::blackbox {

/// Reads the matrix out of a probe call (rows = R e_j) as doubles.
std::vector<std::vector<double>> probe_rows(const result& r, pv_dtype t, std::size_t d) {
  std::vector<std::vector<double>> m(d, std::vector<double>(d, 0.0));
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      if (t == PV_F32) {
        float f;
        std::memcpy(&f, r.out.data() + (i * d + j) * 4, 4);
        m[i][j] = f;
      } else {
        std::memcpy(&m[i][j], r.out.data() + (i * d + j) * 8, 8);
      }
    }
  return m;
}

call rope_probe(const rope_cfg& rc, pv_dtype t, const std::vector<double>& pos1) {
  const std::size_t d = std::size_t(rc.c.head_dim), na = std::size_t(rc.c.n_axes);
  std::vector<unsigned char> x(d * d * (t == PV_F32 ? 4 : 8), 0);
  for (std::size_t j = 0; j < d; ++j) {
    if (t == PV_F32) {
      float one = 1;
      std::memcpy(x.data() + (j * d + j) * 4, &one, 4);
    } else {
      double one = 1;
      std::memcpy(x.data() + (j * d + j) * 8, &one, 8);
    }
  }
  std::vector<double> pos;
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t a = 0; a < na; ++a) pos.push_back(pos1[a]);
  return call(op::rope, t, {std::int64_t(d)}, {sandbox::bytes_of_struct(rc.c), sandbox::bytes_of(pos), std::move(x)});
}

namespace {

struct probe_pair {
  std::size_t a, b;  // a < b
  double angle;      // signed angle at the probe position (radians)
};

/// Pairs rotated in a probe matrix (components left alone are omitted).
std::vector<probe_pair> pairs_of(const std::vector<std::vector<double>>& M, double thr,
                                 std::vector<std::string>& oddities, int* same_sign = nullptr) {
  const std::size_t d = M.size();
  std::vector<long> partner(d, -1);
  for (std::size_t j = 0; j < d; ++j) {
    double best = 0;
    for (std::size_t k = 0; k < d; ++k)
      if (k != j && std::abs(M[j][k]) > best) {
        best = std::abs(M[j][k]);
        partner[j] = long(k);
      }
    if (best < thr) partner[j] = -1;
  }
  std::vector<probe_pair> out;
  for (std::size_t j = 0; j < d; ++j) {
    long p = partner[j];
    if (p < 0 || std::size_t(p) <= j) continue;
    if (partner[std::size_t(p)] != long(j)) {
      oddities.push_back("component " + std::to_string(j) + " mixes with " + std::to_string(p) +
                         " but not the other way round");
      continue;
    }
    const std::size_t b = std::size_t(p);
    // standard rotation: R e_a = (cos at a, sin at b), R e_b = (-sin at a, cos at b)
    const bool same = std::abs(M[j][b] + M[b][j]) > 1e3 * thr && std::abs(M[j][b] - M[b][j]) < 1e3 * thr;
    if (same && same_sign) ++*same_sign;
    out.push_back({j, b, same ? std::abs(std::atan2(M[j][b], M[j][j])) : std::atan2(M[j][b], M[j][j])});
  }
  return out;
}

std::string fmt(double x, int digits = 4) {
  std::ostringstream s;
  s.precision(digits);
  s << x;
  return s.str();
}

std::string range_text(const std::set<std::size_t>& s) {
  if (s.empty()) return "none";
  std::vector<std::size_t> v(s.begin(), s.end());
  bool contiguous = v.back() - v.front() + 1 == v.size();
  if (contiguous) return std::to_string(v.front()) + ".." + std::to_string(v.back());
  std::string r;
  for (std::size_t i = 0; i < v.size() && i < 12; ++i) {
    if (i) r += ',';
    r += std::to_string(v[i]);
  }
  return r + (v.size() > 12 ? ",..." : "");
}

}  // namespace

double round_to_bits(double x, int bits) {
  int e;
  double m = std::frexp(x, &e);
  double scale = std::ldexp(1.0, bits);
  return std::ldexp(std::nearbyint(m * scale) / scale, e);
}

std::string rounded_position(double m, double m_eff, bool exact257) {
  // 257 is exact in float16 and not in bfloat16; 2049 is exact in neither
  if (m == 257.0 && std::abs(m_eff - round_to_bits(m, 8)) < 0.25) return " (= position rounded to bfloat16)";
  if (m == 2049.0 && exact257 && std::abs(m_eff - round_to_bits(m, 11)) < 0.25) return " (= position rounded to float16)";
  if (m == 2049.0 && std::abs(m_eff - round_to_bits(m, 8)) < 0.25) return " (= position rounded to bfloat16)";
  return "";
}

json diagnose_rope(const check_run& cx, const rope_cfg& rc) {
  if (pv_rope_config_version(&rc.c) >= 3) return diagnose_scaled_rope(cx, rc);
  json j = json::object();
  j.set("config", json::string(rc.name));
  const std::size_t d = std::size_t(rc.c.head_dim), na = std::size_t(rc.c.n_axes);
  const double theta = rc.c.theta;
  const bool halves = rc.c.pairing == PV_PAIRS_HALVES;
  // probe in float64 when the library offers it (finer), else float32
  std::vector<call> calls;
  std::vector<double> zero(na, 0.0);
  const std::size_t last = na - 1;
  // the last entries of tables of 2^k positions (k = 6 .. 13) within the run's range
  std::vector<double> table_ends;
  for (int k = 6; k <= 13; ++k)
    if (std::ldexp(1.0, k) - 1 <= double(position_limit(cx, rc))) table_ends.push_back(std::ldexp(1.0, k) - 1);
  auto build = [&](pv_dtype t) {
    calls.clear();
    calls.push_back(rope_probe(rc, t, zero));
    for (std::size_t a = 0; a < na; ++a) {
      auto p = zero;
      p[a] = 1;
      calls.push_back(rope_probe(rc, t, p));
    }
    for (double m : {257.0, 2049.0}) {
      auto p = zero;
      p[last] = m;
      calls.push_back(rope_probe(rc, t, p));
    }
    for (double m : table_ends) {
      auto p = zero;
      p[last] = m;
      calls.push_back(rope_probe(rc, t, p));
    }
  };
  pv_dtype t = PV_F64;
  build(t);
  auto res = run_batch(cx.lib, calls, cx.ro);
  if (res[0].st != status::ok) {
    t = PV_F32;
    build(t);
    res = run_batch(cx.lib, calls, cx.ro);
  }
  j.set("dtype", json::string(t == PV_F32 ? "float32" : "float64"));
  for (const auto& r : res)
    if (r.st != status::ok) {
      j.set("message", json::string(std::string("cannot probe: a probe call ended ") + to_string(r.st) +
                                    (r.detail.empty() ? "" : ": " + r.detail)));
      return j;
    }
  const double thr = t == PV_F32 ? 1e-6 : 1e-12;
  std::vector<std::string> findings, odd;

  // expected layout
  std::vector<std::size_t> off(na, 0);
  for (std::size_t a = 1; a < na; ++a) off[a] = off[a - 1] + std::size_t(rc.c.axes_dim[a - 1]);

  // position 0
  auto M0 = probe_rows(res[0], t, d);
  double dev0 = 0;
  for (std::size_t r = 0; r < d; ++r)
    for (std::size_t c = 0; c < d; ++c) dev0 = std::max(dev0, std::abs(M0[r][c] - (r == c ? 1.0 : 0.0)));

  std::string pairing_seen, speed_seen;
  std::vector<std::vector<probe_pair>> per_axis(na);
  std::vector<std::set<std::size_t>> driven(na);
  json pairs_json = json::array();
  int same_sign = 0, n_pairs = 0;
  for (std::size_t a = 0; a < na; ++a) {
    auto M1 = probe_rows(res[1 + a], t, d);
    per_axis[a] = pairs_of(M1, thr, odd, &same_sign);
    // an implementation with positions off by one also turns at 0: remove that part
    if (dev0 > thr) {
      auto P0 = pairs_of(M0, thr, odd);
      for (auto& p : per_axis[a])
        for (auto& q : P0)
          if (q.a == p.a && q.b == p.b) p.angle -= q.angle;
      std::vector<probe_pair> kept;
      for (auto& p : per_axis[a])
        if (std::abs(p.angle) > 1e3 * thr) kept.push_back(p);
      per_axis[a] = kept;
    }
    n_pairs += int(per_axis[a].size());
    for (auto& p : per_axis[a]) {
      driven[a].insert(p.a);
      driven[a].insert(p.b);
      json pj = json::object();
      pj.set("axis", json::integer(long(a)));
      std::string comp = "(";
      comp += std::to_string(p.a);
      comp += ", ";
      comp += std::to_string(p.b);
      comp += ')';
      pj.set("components", json::string(comp));
      pj.set("speed", json::number(fmt(p.angle, 17)));
      pairs_json.push(pj);
    }
  }
  j.set("pairs", pairs_json);

  // which components each axis drives
  bool axes_ok = true;
  for (std::size_t a = 0; a < na; ++a) {
    std::set<std::size_t> want;
    for (std::size_t c = off[a]; c < off[a] + std::size_t(rc.c.axes_dim[a]); ++c) want.insert(c);
    if (driven[a] != want) axes_ok = false;
  }
  if (!axes_ok && na > 1) {
    std::string s = "position axes drive other components than asked:";
    for (std::size_t a = 0; a < na; ++a) {
      std::set<std::size_t> want;
      for (std::size_t c = off[a]; c < off[a] + std::size_t(rc.c.axes_dim[a]); ++c) want.insert(c);
      s += " axis " + std::to_string(a) + " drives " + range_text(driven[a]) + " (expected " +
           range_text(want) + ")";
      s += a + 1 < na ? ";" : "";
    }
    // name the common mistakes
    {
      const std::size_t ra = na - 2, ca = na - 1;  // rows and columns: the last two axes
      std::set<std::size_t> w1, w2;
      for (std::size_t c = off[ra]; c < off[ra] + std::size_t(rc.c.axes_dim[ra]); ++c) w1.insert(c);
      for (std::size_t c = off[ca]; c < off[ca] + std::size_t(rc.c.axes_dim[ca]); ++c) w2.insert(c);
      if (driven[ra] == w2 && driven[ca] == w1)
        s += " -- rows and columns are swapped (it reads the column coordinate for the row components)";
      else if (driven[0] != std::set<std::size_t>() && *driven[0].begin() != 0)
        s += " -- the head is split among the axes in the wrong order";
    }
    findings.push_back(s);
  } else if (!axes_ok) {
    findings.push_back("it rotates components " + range_text(driven[0]) + " (expected all " +
                       std::to_string(d) + ")");
  }

  // pairing and speeds, axis by axis
  bool all_adjacent = true, all_halves = true, reversed = false;
  std::vector<std::string> speed_notes;
  for (std::size_t a = 0; a < na; ++a) {
    auto& P = per_axis[a];
    if (P.empty()) continue;
    const std::size_t lo = *driven[a].begin(), dim = driven[a].size();
    for (auto& p : P) {
      if (!(p.b == p.a + 1 && (p.a - lo) % 2 == 0)) all_adjacent = false;
      if (!(p.b == p.a + dim / 2 && p.a - lo < dim / 2)) all_halves = false;
      if (p.angle < 0) reversed = true;
    }
    std::sort(P.begin(), P.end(), [](auto& x, auto& y) { return x.a < y.a; });
    const double w0 = std::abs(P.front().angle), wl = std::abs(P.back().angle);
    const double K = double(P.size());
    const double dim_a = double(rc.c.axes_dim[a]);
    // w_k = w0 r^k; expected w0 = 1 and r = theta^(-2/dim)
    if (K >= 2 && w0 > 0 && wl > 0) {
      const double lnr = std::log(wl / w0) / (K - 1);
      const double per_i = -lnr / std::log(theta) * dim_a;  // 2 for theta^(-2i/d)
      std::string ladder;
      const double head = double(rc.c.head_dim);
      if (std::abs(per_i - 2) < 0.02) ladder = "theta^(-2i/d)";
      else if (na > 1 && std::abs(per_i * head / dim_a - 2) < 0.02)
        ladder = "theta^(-2i/" + std::to_string(rc.c.head_dim) + "): one ladder over the whole head instead of axes_dim[" +
                 std::to_string(a) + "] = " + std::to_string(rc.c.axes_dim[a]);
      else if (std::abs(per_i - 1) < 0.02) ladder = "theta^(-i/d)";
      else if (std::abs(per_i) < 0.02)  // every pair at the first pair's speed
        ladder = "all equal (the exponent 2i/d is 0 for every pair: an integer division?)";
      else {
        const double base_eff = std::exp(-lnr * dim_a / 2);
        ladder = "base^(-2i/d) with base " + fmt(base_eff, 6) + " instead of theta = " + fmt(theta, 6) +
                 " (equivalently theta^(-" + fmt(per_i, 4) + " i/d))";
      }
      std::string note = (na > 1 ? "axis " + std::to_string(a) + ": " : std::string()) + "speeds " + ladder;
      if (std::abs(w0 - 1) > 1e-3) {
        const bool head_ladder = ladder.find("whole head") != std::string::npos;
        const double k0 = -std::log(w0) / std::log(theta) * (head_ladder ? double(rc.c.head_dim) : dim_a) / 2;
        note += ", but the first pair turns at " + fmt(w0, 6) + " instead of 1 (the ladder starts at k = " +
                fmt(k0, 4) + (na > 1 ? ": not reset for this axis)" : ")");
      }
      speed_notes.push_back(note);
    }
  }
  if (all_adjacent && !all_halves) pairing_seen = "adjacent pairs (2i, 2i+1)";
  else if (all_halves && !all_adjacent) pairing_seen = "split halves (i, i + d/2)";
  else if (all_halves && all_adjacent) pairing_seen = "pairs that fit both conventions";
  else pairing_seen = "pairs that are neither adjacent nor split halves";
  if (same_sign > 0)
    findings.push_back("in " + std::to_string(same_sign) + " of " + std::to_string(n_pairs) +
                       " pairs both components receive the sine with the same sign, so the map is "
                       "not a rotation (the sign of the sine is flipped in one of the two formulas)");
  else if (reversed)
    findings.push_back("it rotates the other way (the sign of both sines is flipped: R(-m))");

  if (dev0 > thr) {
    // offset = angle at 0 / speed, read on the fastest pair
    std::string off_txt;
    auto P0 = pairs_of(M0, thr, odd);
    double best_w = 0, offset = 0;
    for (std::size_t a = 0; a < na; ++a)
      for (auto& p : per_axis[a])
        for (auto& q : P0)
          if (q.a == p.a && q.b == p.b && std::abs(p.angle) > best_w) {
            best_w = std::abs(p.angle);
            offset = q.angle / p.angle;
          }
    if (best_w > 0) off_txt = ": position 0 acts as " + fmt(offset, 6);
    findings.push_back("it is not the identity at position 0 (largest deviation " + fmt(dev0) + ")" +
                       off_txt + " -- positions are offset (off by one?)");
  }

  // 257 and 2049 on the last axis: effective position from the slowest pair
  if (!per_axis[last].empty() && same_sign == 0) {
    auto slow = *std::min_element(per_axis[last].begin(), per_axis[last].end(),
                                  [](auto& x, auto& y) { return std::abs(x.angle) < std::abs(y.angle); });
    // the pairs' angles at position 0 (a kernel with offset positions turns
    // there too), read once; their oddities are in `odd` already
    std::vector<std::string> scratch;
    const auto P0 = dev0 > thr ? pairs_of(M0, thr, scratch) : std::vector<probe_pair>{};
    // the position pair pp turned by in probe M
    auto read = [&](const std::vector<std::vector<double>>& M, const probe_pair& pp) {
      double ang = std::atan2(M[pp.a][pp.b], M[pp.a][pp.a]);
      for (auto& q : P0)
        if (q.a == pp.a && q.b == pp.b) ang -= q.angle;
      return ang / pp.angle;
    };
    // whether another pair without a wrap at m reads M otherwise than m_eff:
    // angles too noisy (e.g. cos/sin rounded to bfloat16) to read positions
    auto noisy = [&](const std::vector<std::vector<double>>& M, double m, double m_eff) {
      for (const auto& pp : per_axis[last])
        if (!(pp.a == slow.a && pp.b == slow.b) && std::abs(pp.angle) * m <= 3.0 && std::abs(read(M, pp) - m_eff) > 0.25)
          return true;
      return false;
    };
    std::vector<std::string> notes;
    int k = 0;
    bool exact257 = true;
    for (double m : {257.0, 2049.0}) {
      if (std::abs(slow.angle) * m > 3.0) {  // the angle wraps: cannot read the position
        ++k;
        continue;
      }
      auto M = probe_rows(res[1 + na + std::size_t(k++)], t, d);
      const double m_eff = read(M, slow);
      if (!noisy(M, m, m_eff) && std::abs(m_eff - m) > 0.25) {
        notes.push_back("position " + fmt(m, 6) + " acts as " + fmt(m_eff, 7) + rounded_position(m, m_eff, exact257));
        if (m == 257.0) exact257 = false;
      }
    }
    // the last entry of a table of 2^k positions read as the one before it
    // (only when 257 and 2049 read right: a 16-bit position is named above)
    std::vector<std::string> ends;
    std::vector<std::pair<double, double>> read_as;  // (m, m_eff) of the ends read otherwise
    for (std::size_t e = 0; e < table_ends.size() && notes.empty(); ++e) {
      const double m = table_ends[e];
      if (std::abs(slow.angle) * m > 3.0) continue;
      auto M = probe_rows(res[1 + na + 2 + e], t, d);
      const double m_eff = read(M, slow);
      // read twice, as above; a position that is not a whole one names nothing either
      if (noisy(M, m, m_eff) || std::abs(m_eff - std::round(m_eff)) > 0.25) {
        ends.clear();
        read_as.clear();
        break;
      }
      if (std::abs(m_eff - m) > 0.25) {
        ends.push_back(fmt(m, 6) + " acts as " + fmt(m_eff, 7));
        read_as.emplace_back(m, m_eff);
      }
    }
    if (!ends.empty()) {
      std::string s;
      for (auto& n : ends) s += (s.empty() ? "" : ", ") + n;
      // one less each time: the end of each table read off by one; the
      // position modulo one power of two: a table of that size, wrapped
      bool one_less = true, wraps = true;
      // (the power of two just above the first reading)
      const double W = std::ldexp(1.0, int(std::floor(std::log2(std::max(1.0, read_as.front().second)))) + 1);
      for (const auto& [m, m_eff] : read_as) {
        one_less = one_less && std::abs(m_eff - (m - 1)) < 0.25;
        wraps = wraps && std::abs(m_eff - std::fmod(m, W)) < 0.25;
      }
      notes.push_back("position " + s +
                      (one_less ? " (the last entry of a table of 2^k positions: read off by one?)"
                       : wraps  ? " (positions from " + fmt(W, 10) + " on wrap around: a table of " + fmt(W, 10) +
                                     " positions indexed past its end?)"
                                : ""));
    }
    if (!notes.empty()) {
      std::string s;
      for (auto& n : notes) s += (s.empty() ? "" : "; ") + n;
      findings.push_back(s);
    }
  }
  for (auto& o : odd) findings.push_back(o);

  // convention and speeds as asked: say where the accuracy falls short. At
  // --max-position on the last axis, the angle error of each pair in units of
  // u |m w|, against the model's allowance eps_w(k)/u + 1 (+ e_rot / (u |m w|)).
  // Not when the pairing or a speed is other than asked: that is the cause
  // (saying "as asked" after it contradicted the finding).
  bool as_asked = pairing_seen == (halves ? "split halves (i, i + d/2)" : "adjacent pairs (2i, 2i+1)") ||
                  pairing_seen == "pairs that fit both conventions";
  for (const auto& s : speed_notes) {
    const std::string want = "speeds theta^(-2i/d)";
    as_asked = as_asked && s.size() >= want.size() && s.compare(s.size() - want.size(), want.size(), want) == 0;
  }
  if (findings.empty() && as_asked) {
    const double P = double(position_limit(cx, rc));
    const auto L = reference_layout(rc.c);
    for (pv_dtype tt : {PV_F32, PV_F64}) {
      auto p = zero;
      p[last] = P;
      auto pr = run_batch(cx.lib, {rope_probe(rc, tt, p)}, cx.ro);
      if (pr[0].st != status::ok) continue;
      auto M = probe_rows(pr[0], tt, d);
      const hp u = convert<hp>(tt == PV_F32 ? unit_roundoff<float>() : unit_roundoff<double>());
      const hp two_pi = 2 * pi<hp>();
      hp worst = -1, worst_e = 0, worst_a = 0;
      std::size_t worst_k = 0;
      std::vector<std::size_t> k_of_axis(na, 0);
      for (const auto& pp : L.pairs) {
        const std::size_t k = k_of_axis[pp.axis]++;
        if (pp.axis != last) continue;
        const hp mw = hp(P) * pp.speed;
        hp delta = convert<hp>(std::atan2(M[pp.a][pp.b], M[pp.a][pp.a])) - (mw - two_pi * floor(mw / two_pi));
        delta -= two_pi * floor(delta / two_pi + hp(0.5));  // into [-pi, pi)
        const hp e = abs(delta) / (u * mw);
        const hp a = speed_error(rc.c.theta, k, std::size_t(rc.c.axes_dim[pp.axis]), u) / u + 1 +
                     rotation_rounding(same_units(u)) / u / mw;
        if (e - a > worst) {
          worst = e - a;
          worst_e = e;
          worst_a = a;
          worst_k = k;
        }
      }
      if (worst < -0.5) continue;  // nothing to compare
      const std::string where = std::string(tt == PV_F32 ? "float32" : "float64") + ", position " + fmt(P, 10) +
                                (na > 1 ? " on axis " + std::to_string(last) : "") + ", pair " + std::to_string(worst_k);
      findings.push_back(worst > 0 ? "convention and speeds as asked, but the accuracy is short by " +
                                         ref::to_decimal(worst, 3) + " u (" + where + ": angle error " +
                                         ref::to_decimal(worst_e, 3) + " u |m w|, the model allows " +
                                         ref::to_decimal(worst_a, 3) + ")"
                                   : "convention and speeds as asked; the angles are within the model at " + where +
                                         " (largest angle error " + ref::to_decimal(worst_e, 3) + " u |m w| of " +
                                         ref::to_decimal(worst_a, 3) + " allowed): the disagreement is elsewhere");
    }
  }

  std::string asked = std::string("you asked for ") + (halves ? "split halves (i, i + d/2)" : "adjacent pairs (2i, 2i+1)") +
                      " with speeds theta^(-2i/d), theta = " + fmt(theta, 10);
  if (na > 1) {
    asked += ", axes_dim [";
    for (std::size_t a = 0; a < na; ++a) asked += (a ? ", " : "") + std::to_string(rc.c.axes_dim[a]);
    asked += "]";
  }
  std::string it = "it rotates " + pairing_seen;
  for (auto& s : speed_notes) it += (na > 1 ? "; " : " with ") + s;
  std::string msg = asked + "; " + it;
  for (auto& f : findings) msg += "; " + f;
  j.set("message", json::string(msg));
  json fj = json::array();
  for (auto& f : findings) fj.push(json::string(f));
  j.set("findings", fj);
  return j;
}

}  // namespace pv::blackbox
