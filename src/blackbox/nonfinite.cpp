#include "blackbox/nonfinite.h"

#include "blackbox/accuracy.h"
#include "blackbox/calls.h"
#include "blackbox/declines.h"
#include "core/ranges.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace pv::blackbox {

namespace {

std::string scores_text(const nonfinite_reading& r) {
  switch (r.kind) {
    case score_probe::ties: return "q = 0: every score " + significant(r.lo);
    case score_probe::rising: return "scores in [" + significant(r.lo) + ", " + significant(r.hi) + "]";
    case score_probe::rising_shifted:
      return "the same scores shifted by +" + significant(r.shift) + ", to [" + significant(r.lo) + ", " +
             significant(r.hi) + "]";
    case score_probe::ties_shifted: return "every score " + significant(r.lo);
  }
  return "";
}

std::string what(const nonfinite_reading& r) { return r.nan ? "NaN" : "infinite"; }

const nonfinite_reading* find(const std::vector<nonfinite_reading>& rs, score_probe k) {
  for (const auto& r : rs)
    if (r.kind == k) return &r;
  return nullptr;
}

}  // namespace

std::string nonfinite_finding(const std::vector<nonfinite_reading>& rs, const nonfinite_rows& failing) {
  if (rs.empty()) return "";
  std::vector<const nonfinite_reading*> bad, good;
  for (const auto& r : rs) (r.finite ? good : bad).push_back(&r);
  auto list = [](const std::vector<const nonfinite_reading*>& v) {
    std::vector<std::string> items;
    for (const auto* r : v) items.push_back(scores_text(*r));
    return text::listed(items);
  };
  std::vector<std::string> said;
  const auto *t0 = find(rs, score_probe::ties), *r0 = find(rs, score_probe::rising),
             *rsh = find(rs, score_probe::rising_shifted), *tsh = find(rs, score_probe::ties_shifted);
  if (bad.empty()) {
    said.push_back("every probe at this shape is finite (" + list(good) +
                   "): the non-finite output needs more than large or tied scores (the failing call's values)");
  } else if (good.empty()) {
    said.push_back("non-finite on every probe (" + list(bad) + "): not a matter of the scores' size or ties");
  } else {
    // a shift leaves softmax unchanged: finite before it and not after is exp overflowing
    const bool overflow = r0 && rsh && r0->finite && !rsh->finite;
    // ties: every score of a row equal breaks it, distinct scores do not
    const bool ties = t0 && r0 && !t0->finite && r0->finite && r0->distinct;
    if (overflow) {
      std::string s = "finite with " + scores_text(*r0) + ", " + what(*rsh) + " with " + scores_text(*rsh) +
                      " (softmax is unchanged by a shift)";
      if (t0 && tsh && t0->finite && !tsh->finite)
        s += ", and so with every score tied: finite at " + significant(t0->lo) + ", " + what(*tsh) + " at " +
             significant(tsh->lo);
      said.push_back(s + ": exp overflows; the row maximum is not subtracted before exp");
    }
    if (ties) {
      std::string s = what(*t0) + " when every score of a row ties (" + scores_text(*t0) +
                      "), finite when the scores differ (" + scores_text(*r0);
      if (rsh && rsh->finite && rsh->distinct) s += ", and " + scores_text(*rsh);
      said.push_back(s + "): ties are mishandled (a score equal to the row's maximum)");
    }
    if (!overflow && !ties)
      said.push_back("non-finite with " + list(bad) + "; finite with " + list(good));
  }
  std::string f;
  for (const auto& s : said) f += (f.empty() ? "" : "; ") + s;
  f = "the probes at this shape (v = ones): " + f;
  if (!failing.rows.empty() && failing.rows.size() < failing.n_q)
    f += "; in the failing call, row" + std::string(failing.rows.size() == 1 ? " " : "s ") +
         text::ranges(failing.rows, " to ", "none", 6) + " of " + std::to_string(failing.n_q) +
         (failing.rows.size() == 1 ? " is" : " are") + " non-finite";
  return f;
}

nonfinite_rows nonfinite_rows_of(const call& c, const std::vector<unsigned char>& out) {
  nonfinite_rows r;
  r.n_q = std::size_t(c.dim("n_q"));
  const std::size_t dv = std::size_t(c.dim("d_v")), es = c.t == PV_F32 ? 4 : 8;
  if (dv == 0 || out.size() < r.n_q * dv * es) return r;
  auto rows_of = [&](const auto& o) {
    for (std::size_t i = 0; i < r.n_q; ++i)
      for (std::size_t col = 0; col < dv; ++col)
        if (!std::isfinite(double(o(i, col)))) {
          r.rows.push_back(i);
          break;
        }
  };
  if (es == 4) rows_of(from_bytes<float>(out, r.n_q, dv));
  else rows_of(from_bytes<double>(out, r.n_q, dv));
  return r;
}

namespace {

template <class T>
std::vector<nonfinite_reading> probe(const check_run& cx, std::size_t nq, std::size_t nk, std::size_t d,
                                     std::size_t dv, std::string& error) {
  // the values as they reach the kernel (a 16-bit wire rounds them)
  auto sent = [&](double x) { return as_sent<T>(cx, x); };
  const double rs = std::sqrt(double(d));
  // exp(100) overflows float32 (and float16 and bfloat16 arithmetic); float64 needs exp(1000)
  const double shift = std::is_same_v<T, double> ? 1000 : 100;
  auto rise = [&](std::size_t j) { return 8 * double(j) / double(nk > 1 ? nk - 1 : 1); };
  matrix<T> v(nk, dv);
  for (auto& x : v.a) x = T(1);
  std::vector<nonfinite_reading> out;
  std::vector<call> calls;
  for (score_probe kind : {score_probe::ties, score_probe::rising, score_probe::rising_shifted,
                           score_probe::ties_shifted}) {
    matrix<T> q(nq, d), k(nk, d);
    // the shift in a column of its own when there is one: the rising part is then the same values as sent
    const bool own = kind == score_probe::rising_shifted && d >= 2;
    for (std::size_t j = 0; j < nk; ++j) {
      if (kind == score_probe::ties_shifted) k(j, 0) = sent(shift * rs);
      else if (kind == score_probe::rising_shifted && !own) k(j, 0) = sent((rise(j) + shift) * rs);
      else k(j, 0) = sent(rise(j) * rs);
      if (own) k(j, 1) = sent(shift * rs);
    }
    for (std::size_t i = 0; i < nq && kind != score_probe::ties; ++i) {
      q(i, 0) = T(1);
      if (own) q(i, 1) = T(1);
    }
    nonfinite_reading r;
    r.kind = kind;
    std::vector<double> s(nk);
    for (std::size_t j = 0; j < nk; ++j) {
      double dot = 0;
      for (std::size_t l = 0; l < d; ++l) dot += double(q(0, l)) * double(k(j, l));
      s[j] = dot / rs;
    }
    r.lo = *std::min_element(s.begin(), s.end());
    r.hi = *std::max_element(s.begin(), s.end());
    auto sorted = s;
    std::sort(sorted.begin(), sorted.end());
    r.distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    out.push_back(r);
    calls.push_back(attention_call(q, k, v));
  }
  // the shifts as sent: the shifted scores less the unshifted ones
  out[2].shift = out[2].lo - out[1].lo;
  out[3].shift = out[3].lo;
  const auto res = send(cx, calls);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (i >= res.size() || (res[i].st != status::ok && res[i].st != status::non_finite)) {
      error = "a non-finite probe ended " + (i < res.size() ? std::string(to_string(res[i].st)) : "unrun");
      return {};
    }
    const auto o = from_bytes<T>(res[i].out, nq, dv);
    for (const T& x : o.a) {
      if (std::isfinite(double(x))) continue;
      out[i].finite = false;
      out[i].nan = out[i].nan || std::isnan(double(x));
    }
  }
  return out;
}

}  // namespace

std::vector<nonfinite_reading> read_nonfinite(const check_run& cx, const call& c, std::string& error) {
  const std::size_t nq = std::size_t(c.dim("n_q")), nk = std::size_t(c.dim("n_k")), d = std::size_t(c.dim("d")),
                    dv = std::size_t(c.dim("d_v"));
  if (nq == 0 || nk == 0 || d == 0 || dv == 0) {
    error = "no probe at an empty shape";
    return {};
  }
  // every query row of a probe is alike: past 2^27 multiply-adds a call (the
  // FLUX.1 head of --profile models) the probes keep fewer rows, so that four
  // of them cost no more than a few seconds
  const double per_row = double(nk) * double(d + dv);
  const std::size_t rows = std::max<std::size_t>(1, std::min(nq, std::size_t(0x1p27 / per_row)));
  return c.t == PV_F32 ? probe<float>(cx, rows, nk, d, dv, error) : probe<double>(cx, rows, nk, d, dv, error);
}

std::string diagnose_nonfinite(const check_run& cx, const call& c, const std::vector<unsigned char>& out) {
  if (c.kind != op::attention || (c.t != PV_F32 && c.t != PV_F64)) return "";
  std::string error;
  const auto rs = read_nonfinite(cx, c, error);
  if (rs.empty()) return "";
  return nonfinite_finding(rs, nonfinite_rows_of(c, out));
}

}  // namespace pv::blackbox
