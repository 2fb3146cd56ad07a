#include "certify.h"

#include <mpfi.h>
#include <mpfr.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace pv::proofs {

interval exact(long x) {
  interval r;
  mpfi_set_si(r.backend().data(), x);
  return r;
}

interval interval_pi() {
  interval r;
  mpfi_const_pi(r.backend().data());
  return r;
}

namespace {

// Decimal spelling of an MPFR number rounded in direction `rnd`.
std::string decimal(mpfr_srcptr v, int digits, mpfr_rnd_t rnd) {
  if (mpfr_zero_p(v)) return "0";
  mpfr_exp_t e = 0;
  char* s = mpfr_get_str(nullptr, &e, 10, static_cast<std::size_t>(digits), v, rnd);
  if (!s) throw std::runtime_error("mpfr_get_str failed");
  std::string m(s);
  mpfr_free_str(s);
  std::string sign;
  if (!m.empty() && m[0] == '-') {
    sign = "-";
    m.erase(0, 1);
  }
  // m = d1 d2 ... dn, value = 0.d1d2...dn · 10^e = d1.d2...dn · 10^(e-1)
  return sign + m.substr(0, 1) + "." + m.substr(1) + "e" + std::to_string(static_cast<long>(e) - 1);
}

struct parsed_decimal {
  long scaled = 0;  ///< printed value times 10^decimals, with its sign
  int decimals = 0;
};

parsed_decimal parse_printed(const std::string& p) {
  parsed_decimal r;
  std::size_t i = 0;
  bool neg = false;
  std::string s = p;
  // Accept the chapter's minus sign U+2212 as well as '-'.
  if (s.rfind("\u2212", 0) == 0) s.replace(0, 3, "-");
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  std::string digits;
  bool dot = false, any = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.' && !dot) { dot = true; continue; }
    if (s[i] < '0' || s[i] > '9') throw std::invalid_argument("printed value '" + p + "' is not a plain decimal");
    digits += s[i];
    any = true;
    if (dot) ++r.decimals;
  }
  if (!any || digits.size() > 17) throw std::invalid_argument("printed value '" + p + "' is not a plain decimal of at most 17 digits");
  r.scaled = std::strtol(digits.c_str(), nullptr, 10) * (neg ? -1 : 1);
  return r;
}

interval pow10(int k) {
  interval r = exact(1);
  for (int i = 0; i < k; ++i) r *= exact(10);
  return r;
}

}  // namespace

std::string lower_decimal(const interval& x, int digits) {
  mpfr_t v;
  mpfr_init2(v, mpfi_get_prec(x.backend().data()));
  mpfi_get_left(v, x.backend().data());
  std::string s = decimal(v, digits, MPFR_RNDD);
  mpfr_clear(v);
  return s;
}

std::string upper_decimal(const interval& x, int digits) {
  mpfr_t v;
  mpfr_init2(v, mpfi_get_prec(x.backend().data()));
  mpfi_get_right(v, x.backend().data());
  std::string s = decimal(v, digits, MPFR_RNDU);
  mpfr_clear(v);
  return s;
}

certificate certify_rounding(std::string name, std::string formula, const interval& x,
                             const std::string& printed) {
  certificate c;
  c.name = std::move(name);
  c.formula = std::move(formula);
  c.enclosure = x;
  c.printed = printed;
  auto p = parse_printed(printed);
  c.rule = "every number in the enclosure rounds to the printed value at " +
           std::to_string(p.decimals) + " decimals";
  // Rounding interval (2·scaled ∓ 1) / (2·10^decimals), enclosed in MPFI.
  const interval den = exact(2) * pow10(p.decimals);
  const interval lo_tie = exact(2 * p.scaled - 1) / den;
  const interval hi_tie = exact(2 * p.scaled + 1) / den;
  const auto& xb = x.backend().data();
  // Rigorous comparisons: strictly inside needs lo > every possible lower
  // tie and hi < every possible upper tie; disjoint the other way round.
  const bool inside = mpfr_cmp(&xb->left, &lo_tie.backend().data()->right) > 0 &&
                      mpfr_cmp(&xb->right, &hi_tie.backend().data()->left) < 0;
  const bool below = mpfr_cmp(&xb->right, &lo_tie.backend().data()->left) < 0;
  const bool above = mpfr_cmp(&xb->left, &hi_tie.backend().data()->right) > 0;
  if (mpfi_nan_p(xb)) {
    c.verdict = pv::verdict::undecided;
    c.why = "the enclosure is NaN";
  } else if (inside) {
    c.verdict = pv::verdict::proved;
  } else if (below || above) {
    c.verdict = pv::verdict::disproved;
    c.why = std::string("the whole enclosure lies ") + (below ? "below" : "above") +
            " the rounding interval of " + printed;
  } else {
    c.verdict = pv::verdict::undecided;
    c.why = "the enclosure straddles an end point of the rounding interval of " + printed +
            " (width " + upper_decimal(interval(upper(x) - lower(x)), 3) + ")";
  }
  return c;
}

certificate certify_exact(std::string name, std::string formula, const interval& x, long printed) {
  certificate c;
  c.name = std::move(name);
  c.formula = std::move(formula);
  c.enclosure = x;
  c.printed = std::to_string(printed);
  c.rule = "the exact value equals the printed integer";
  const auto* xb = x.backend().data();
  const bool point = mpfr_equal_p(&xb->left, &xb->right) != 0;
  if (point && mpfr_cmp_si(&xb->left, printed) == 0) {
    c.verdict = pv::verdict::proved;
  } else if (mpfr_cmp_si(&xb->left, printed) > 0 || mpfr_cmp_si(&xb->right, printed) < 0) {
    c.verdict = pv::verdict::disproved;
    c.why = "the printed integer lies outside the enclosure";
  } else {
    c.why = "the enclosure contains the printed integer but is not a point";
  }
  return c;
}

json to_json(const certificate& c) {
  json j = json::object();
  j.set("enclosure", json::array().push(json::string(lower_decimal(c.enclosure)))
                         .push(json::string(upper_decimal(c.enclosure))));
  j.set("printed", json::string(c.printed));
  j.set("verdict", json::string(to_string(c.verdict)));
  j.set("expected", json::string(to_string(c.expected)));
  if (!c.expected_why.empty()) j.set("expected_why", json::string(c.expected_why));
  if (c.rejected_reading) j.set("rejected_reading", json::boolean(true));
  j.set("checks", json::string(c.checks));
  j.set("rule", json::string(c.rule));
  j.set("formula", json::string(c.formula));
  if (!c.why.empty()) j.set("why", json::string(c.why));
  if (!c.exact.empty()) j.set("exact", json::string(c.exact));
  return j;
}

json to_json(const std::vector<certificate>& cs) {
  json j = json::object();
  for (const auto& c : cs) j.set(c.name, to_json(c));
  return j;
}

}  // namespace pv::proofs
