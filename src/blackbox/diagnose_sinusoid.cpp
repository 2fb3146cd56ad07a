#include "blackbox/diagnose_sinusoid.h"

#include "blackbox/accuracy.h"
#include "blackbox/calls.h"
#include "blackbox/declines.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pv::blackbox {

namespace {

/// Where pair i's sine and cosine sit in a row of d entries.
struct layout {
  const char* name;
  std::size_t (*sin_at)(std::size_t i, std::size_t d);
  std::size_t (*cos_at)(std::size_t i, std::size_t d);
};

const layout kLayouts[] = {
    {"(sin, cos) interleaved (sin at 2i, cos at 2i + 1)", [](std::size_t i, std::size_t) { return 2 * i; },
     [](std::size_t i, std::size_t) { return 2 * i + 1; }},
    {"(cos, sin) interleaved (cos at 2i, sin at 2i + 1: sin and cos swapped)",
     [](std::size_t i, std::size_t) { return 2 * i + 1; }, [](std::size_t i, std::size_t) { return 2 * i; }},
    {"halves (every sin in the first d/2 entries, then every cos)", [](std::size_t i, std::size_t) { return i; },
     [](std::size_t i, std::size_t d) { return d / 2 + i; }},
    {"halves (every cos in the first d/2 entries, then every sin)",
     [](std::size_t i, std::size_t d) { return d / 2 + i; }, [](std::size_t i, std::size_t) { return i; }},
};

}  // namespace

std::string sinusoid_finding(const std::vector<double>& p0, const std::vector<double>& p1, std::size_t d, double base,
                             double tol) {
  const std::size_t h = d / 2;
  if (h == 0 || p0.size() != d || p1.size() != d) return "";
  // the layout: the one whose pairs are (sin, cos) of one angle at both positions,
  // preferring the one that is the identity angle at position 0
  const layout* L = nullptr;
  for (int pass = 0; pass < 2 && !L; ++pass)
    for (const auto& l : kLayouts) {
      bool fits = true;
      for (std::size_t i = 0; i < h && fits; ++i) {
        const double s0 = p0[l.sin_at(i, d)], c0 = p0[l.cos_at(i, d)];
        const double s1 = p1[l.sin_at(i, d)], c1 = p1[l.cos_at(i, d)];
        fits = pass == 0 ? std::abs(s0) <= tol && std::abs(c0 - 1) <= tol
                         : std::abs(std::hypot(s0, c0) - 1) <= 4 * tol;
        fits = fits && std::abs(std::hypot(s1, c1) - 1) <= 4 * tol;
      }
      if (fits) {
        L = &l;
        break;
      }
    }
  const std::string asked =
      "you asked for d = " + std::to_string(d) + ", base = " + significant(base) + ", " + kLayouts[0].name;
  if (!L) return asked + "; its rows at positions 0 and 1 are not (sin, cos) pairs of one angle in any layout";
  std::vector<std::string> seen;
  if (L != &kLayouts[0]) seen.push_back("it lays the entries out as " + std::string(L->name));
  std::vector<double> th0(h), sp(h), w(h);
  bool offset = false, as_asked = true;
  for (std::size_t i = 0; i < h; ++i) {
    th0[i] = std::atan2(p0[L->sin_at(i, d)], p0[L->cos_at(i, d)]);
    sp[i] = std::remainder(std::atan2(p1[L->sin_at(i, d)], p1[L->cos_at(i, d)]) - th0[i], 2 * M_PI);
    w[i] = std::pow(base, -2.0 * double(i) / double(d));
    offset = offset || std::abs(th0[i]) > 4 * tol;
    as_asked = as_asked && std::abs(sp[i] - w[i]) <= 4 * tol;
  }
  if (offset) {
    bool one = true;
    const double k0 = th0[0] / sp[0];
    for (std::size_t i = 0; i < h && one; ++i) one = std::abs(th0[i] - k0 * sp[i]) <= 4 * tol;
    seen.push_back(one ? "position 0 acts as " + significant(k0) + " (positions offset)"
                       : "position 0 is not the identity (pair 0 at angle " + significant(th0[0]) + ")");
  }
  if (!as_asked) {
    bool equal = h > 1, fitted = h > 1;
    for (std::size_t i = 1; i < h; ++i) equal = equal && std::abs(sp[i] - sp[0]) <= 4 * tol;
    // speeds base^(-a i/d): a from each pair from 1 on
    std::vector<double> a(h, 0.0);
    for (std::size_t i = 1; i < h && fitted; ++i) {
      fitted = sp[i] > 0;
      if (fitted) a[i] = -std::log(sp[i]) * double(d) / (double(i) * std::log(base));
    }
    for (std::size_t i = 2; i < h && fitted; ++i) fitted = std::abs(a[i] - a[1]) <= 1e-2 * std::abs(a[1]);
    const bool first_ok = std::abs(sp[0] - 1) <= 4 * tol;
    if (equal)
      seen.push_back("every pair turns at the same speed " + significant(sp[0]) +
                     " (the exponent 2i/d is 0 for every pair: an integer division?)");
    else if (fitted && std::abs(a[1] - 1) <= 1e-2)
      seen.push_back("its speeds are base^(-i/d) instead of base^(-2i/d) (the exponent is halved)");
    else if (fitted)
      seen.push_back("its speeds are b^(-2i/d) with b = " + significant(std::pow(base, a[1] / 2)) +
                     " instead of base = " + significant(base) + " (equivalently base^(-" + significant(a[1]) +
                     " i/d))");
    else {
      std::size_t i = 0;
      while (i < h && std::abs(sp[i] - w[i]) <= 4 * tol) ++i;
      seen.push_back("pair " + std::to_string(i) + " turns at " + significant(sp[i]) + " per position instead of " +
                     significant(w[i]) + " (its speeds match no rule tried)");
    }
    if ((fitted || equal) && !first_ok) seen.push_back("its first pair turns at " + significant(sp[0]) + " instead of 1");
  }
  if (seen.empty()) return "";
  std::string m = asked;
  for (std::size_t i = 0; i < seen.size(); ++i) m += (i == 0 ? "; " : ", ") + seen[i];
  if (as_asked && !offset) m += ", with speeds as asked";
  return m;
}

template <class T>
std::string diagnose_sinusoid(const check_run& cx, std::size_t d, double base) {
  const std::vector<double> pos = {0.0, 1.0};
  std::vector<call> calls = {
      call(op::sinusoid, dtype_of<T>(), {std::int64_t(2), std::int64_t(d), base}, {sandbox::bytes_of(pos)})};
  const auto res = send(cx, calls);
  if (res.empty() || res[0].st != status::ok)
    return "cannot probe: the call at positions 0 and 1 ended " +
           (res.empty() ? std::string("unrun") : to_string(res[0].st));
  const auto out = from_bytes<T>(res[0].out, 2, d);
  std::vector<double> p0(d), p1(d);
  for (std::size_t c = 0; c < d; ++c) p0[c] = double(out(0, c)), p1[c] = double(out(1, c));
  // the entries' rounding in the run's class, with room for the speeds' and sines' own
  double u = double(unit_roundoff<T>());
  if (cx.accuracy.u > u) u = cx.accuracy.u;
  if (cx.wire != PV_F32) u = std::max(u, parse_accuracy(sandbox::dtype_name(cx.wire)).u);
  const std::string f = sinusoid_finding(p0, p1, d, base, std::max(1e-4, 64 * u));
  return f.empty() ? "its rows at positions 0 and 1 are the reference's (layout, speeds and position 0 as asked)" : f;
}

template std::string diagnose_sinusoid<float>(const check_run&, std::size_t, double);
template std::string diagnose_sinusoid<double>(const check_run&, std::size_t, double);

}  // namespace pv::blackbox
