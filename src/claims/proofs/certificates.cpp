// Certified numbers: the rounding rule, the chapter's figures as MPFI
// enclosures, and their attachments (certificates.h).
#include "claims/proofs/certificates.h"

#include "claims/carousel_printed.h"
#include "claims/history_printed.h"
#include "claims/problem5_printed.h"
#include "claims/problem6_printed.h"
#include "claims/proofs/attach.h"
#include "claims/proofs/exhaustive.h"  // prove_rope30: the 30-degree dots in Q(sqrt 3)
#include "claims/registry.h"
#include "claims/worked_example_printed.h"

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace pv::proofs {

// ---- the rule ------------------------------------------------------------------

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

namespace {

// The lower (left, rounded down) or upper (right, rounded up) end of `x`.
std::string end_decimal(const interval& x, int digits, bool lower_end) {
  mpfr_t v;
  mpfr_init2(v, mpfi_get_prec(x.backend().data()));
  if (lower_end)
    mpfi_get_left(v, x.backend().data());
  else
    mpfi_get_right(v, x.backend().data());
  std::string s = decimal(v, digits, lower_end ? MPFR_RNDD : MPFR_RNDU);
  mpfr_clear(v);
  return s;
}

}  // namespace

std::string lower_decimal(const interval& x, int digits) { return end_decimal(x, digits, true); }
std::string upper_decimal(const interval& x, int digits) { return end_decimal(x, digits, false); }

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

// ---- the chapter's numbers -----------------------------------------------------

namespace {

interval deg30() { return interval_pi() / exact(6); }

interval frac(long num, long den) { return exact(num) / exact(den); }

/// A printed decimal of at most 3 places ("0.841", "-0.416", "1") as the exact
/// fraction n / 1000.
interval thousandths(const std::string& printed) {
  const bool neg = !printed.empty() && printed[0] == '-';
  const std::string s = neg ? printed.substr(1) : printed;
  const auto dot = s.find('.');
  std::string frac_digits = dot == std::string::npos ? "" : s.substr(dot + 1);
  if (frac_digits.size() > 3) throw std::invalid_argument("p5: '" + printed + "' has more than 3 decimals");
  frac_digits.resize(3, '0');
  const long n = std::stol(s.substr(0, dot)) * 1000 + std::stol(frac_digits);
  return frac(neg ? -n : n, 1000);
}

std::array<interval, 2> rotate(const std::array<interval, 2>& x, const interval& a) {
  const interval c = cos(a), s = sin(a);
  return {x[0] * c - x[1] * s, x[0] * s + x[1] * c};
}

}  // namespace

interval rope30_dot(long m, long n) {
  const std::array<interval, 2> one{exact(1), exact(0)};
  auto qm = rotate(one, exact(m) * deg30());
  auto kn = rotate(one, exact(n) * deg30());
  return qm[0] * kn[0] + qm[1] * kn[1];
}

const char* to_string(additive_reading r) {
  switch (r) {
    case additive_reading::content_plus_position: return "(q + p(m)).(k + p(n)), p(m) = (sin m, cos m)";
    case additive_reading::content_plus_cos_sin: return "(q + p(m)).(k + p(n)), p(m) = (cos m, sin m)";
    default: return "p(m).p(n) = cos(m - n)";
  }
}

interval additive_dot(long m, long n, additive_reading r) {
  const interval sm = sin(exact(m)), cm = cos(exact(m)), sn = sin(exact(n)), cn = cos(exact(n));
  switch (r) {
    case additive_reading::content_plus_position:
      return (exact(1) + sm) * (exact(1) + sn) + cm * cn;
    case additive_reading::content_plus_cos_sin:
      return (exact(1) + cm) * (exact(1) + cn) + sm * sn;
    default:
      return sm * sn + cm * cn;
  }
}

std::vector<ivec> p5_attention(const std::string& order, p5_encoding enc) {
  std::vector<ivec> X;
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    ivec t;
    switch (order[pos]) {
      case 'a': t = {exact(1), exact(0)}; break;
      case 'b': t = {exact(0), exact(1)}; break;
      case 'c': t = {exact(1), exact(1)}; break;
      default: throw std::invalid_argument(std::string("p5: unknown token '") + order[pos] + "'");
    }
    if (enc == p5_encoding::exact) {
      t[0] += sin(exact(static_cast<long>(pos)));
      t[1] += cos(exact(static_cast<long>(pos)));
    } else if (enc == p5_encoding::rounded) {
      const auto& pe = claims::printed_numbers::p5_with_encoding.pe;
      if (pos >= pe.size()) throw std::invalid_argument("p5: rounded vectors exist for positions 0..2 only");
      t[0] += thousandths(pe[pos][0]);
      t[1] += thousandths(pe[pos][1]);
    }
    X.push_back(t);
  }
  // softmax(X X^T / sqrt 2) X; no max subtraction is needed in MPFI (the
  // enclosures stay tight at 257 bits for these small scores).
  const interval inv_scale = exact(1) / sqrt(exact(2));
  std::vector<ivec> out;
  for (const auto& q : X) {
    interval z = exact(0);
    ivec num(2, exact(0));
    for (const auto& k : X) {
      interval e = exp((q[0] * k[0] + q[1] * k[1]) * inv_scale);
      z += e;
      num[0] += e * k[0];
      num[1] += e * k[1];
    }
    out.push_back({num[0] / z, num[1] / z});
  }
  return out;
}

json p5_encoding_breaks_every_order() {
  const std::string base_order = "abc";
  const auto base = p5_attention(base_order, p5_encoding::exact);
  json orders = json::object();
  bool all = true;
  std::string order = base_order;
  while (std::next_permutation(order.begin(), order.end())) {
    const auto out = p5_attention(order, p5_encoding::exact);
    std::string witness;
    for (std::size_t pos = 0; pos < order.size() && witness.empty(); ++pos) {
      const std::size_t was = base_order.find(order[pos]);
      for (std::size_t c = 0; c < 2 && witness.empty(); ++c) {
        const auto* x = out[pos][c].backend().data();
        const auto* y = base[was][c].backend().data();
        if (mpfr_cmp(&x->right, &y->left) < 0 || mpfr_cmp(&y->right, &x->left) < 0)
          witness = std::string("token ") + order[pos] + " component " + std::to_string(c) + ": [" +
                    lower_decimal(out[pos][c], 12) + ", " + upper_decimal(out[pos][c], 12) + "] vs [" +
                    lower_decimal(base[was][c], 12) + ", " + upper_decimal(base[was][c], 12) + "]";
      }
    }
    json o = json::object();
    o.set("verdict", json::string(witness.empty() ? to_string(verdict::undecided) : to_string(verdict::proved) + std::string(" broken")));
    if (!witness.empty()) o.set("witness", json::string(witness));
    all = all && !witness.empty();
    orders.set(std::string("[") + order[0] + ", " + order[1] + ", " + order[2] + "]", o);
  }
  json j = json::object();
  j.set("law", json::string("with (sin m, cos m) added at positions 0, 1, 2, no non-identity order of "
                            "a, b, c just permutes the outputs"));
  j.set("orders", orders);
  j.set("verdict", json::string(all ? qualified(verdict::proved, "MPFI, every non-identity order") : to_string(verdict::undecided)));
  return j;
}

namespace {

std::vector<certificate> rope30() {
  std::vector<certificate> r;
  const char* f = "<R(m*pi/6)(1,0), R(n*pi/6)(1,0)> in MPFI";
  const auto& P = claims::printed_numbers::rope_example_30deg;
  r.push_back(certify_rounding("dot_2_5", f, rope30_dot(2, 5), P.dot_2_5));
  r.push_back(certify_rounding("dot_7_10", f, rope30_dot(7, 10), P.dot_7_10));
  r.push_back(certify_rounding("dot_3_4", f, rope30_dot(3, 4), P.dot_3_4));
  // The exact values, in Q(sqrt 3) (see proof.exhaustive_box).
  const vec3 one{qsqrt3{1, 0}, qsqrt3{0, 0}};
  const auto exact_dots = prove_rope30(one, one, 11);
  r[0].exact = exact_dots.dot_2_5.str();
  r[1].exact = exact_dots.dot_7_10.str();
  r[2].exact = exact_dots.dot_3_4.str();
  return r;
}

std::vector<certificate> additive() {
  std::vector<certificate> r;
  const auto main = additive_reading::content_plus_position;
  const auto& P = claims::printed_numbers::additive_example;
  r.push_back(certify_rounding("dot_2_5", to_string(main), additive_dot(2, 5, main), P.dot_2_5));
  r.push_back(certify_rounding("dot_7_10", to_string(main), additive_dot(7, 10, main), P.dot_7_10));
  // The other readings, so the report shows which formula the chapter used.
  for (auto alt : {additive_reading::content_plus_cos_sin, additive_reading::position_only}) {
    const std::string tag = alt == additive_reading::position_only ? "position_only" : "cos_sin_order";
    r.push_back(certify_rounding("dot_2_5 [" + tag + "]", to_string(alt), additive_dot(2, 5, alt), P.dot_2_5));
    r.push_back(certify_rounding("dot_7_10 [" + tag + "]", to_string(alt), additive_dot(7, 10, alt), P.dot_7_10));
  }
  for (std::size_t i = 2; i < r.size(); ++i) {
    r[i].expected = pv::verdict::disproved;
    r[i].rejected_reading = true;
    r[i].expected_why = "another reading of the formula, tried to show that only the chapter's "
                        "reading (content plus position) reproduces its figures";
  }
  return r;
}

std::vector<certificate> wavelengths() {
  // d_model = 512: omega_i = 10000^(-2i/512); wavelength 2 pi / omega_i.
  std::vector<certificate> r;
  const interval two_pi = exact(2) * interval_pi();
  auto omega = [](long i) { return pow(exact(10000), -(exact(2 * i) / exact(512))); };
  const auto& P = claims::printed_numbers::sinusoid_wavelengths;
  // In units of 2 pi the wavelength is 1/omega_i: exact integers for i = 0
  // and for the limit i = d/2, so equality with the printed figure is exact.
  r.push_back(certify_exact("wavelength_first / 2pi", "1 / omega_0, omega_0 = 10000^0",
                            exact(1) / omega(0), P.first_over_2pi));
  // The end of the sequence, i = d/2: the exponent 2 (d/2) / d reduces to the
  // integer 1, so the power is taken by exact multiplication.
  long num = 2 * 256, den = 512;
  for (long g = den; g > 1; --g)
    if (num % g == 0 && den % g == 0) { num /= g; den /= g; }
  interval limit = exact(1);
  if (den == 1)
    for (long k = 0; k < num; ++k) limit *= exact(10000);
  else
    limit = pow(exact(10000), exact(num) / exact(den));
  r.push_back(certify_exact("limit / 2pi", "10000^(2 (d/2) / d), the end of the geometric sequence",
                            limit, P.limit_over_2pi));
  r.push_back(certify_exact("wavelength_last / 2pi (d = 512)", "1 / omega_255 = 10000^(510/512)",
                            exact(1) / omega(255), P.limit_over_2pi));
  r.back().expected = pv::verdict::disproved;
  r.back().expected_why = "the printed " + std::to_string(P.limit_over_2pi) +
                          " * 2 pi is the limit i = d/2, which the last pair "
                          "i = d/2 - 1 does not reach; the claim is qualified for it";
  // The first and the limit are the chapter's arithmetic restated (10000^0 = 1,
  // 10000^(512/512) = 10000): exact integers, no code of posverify involved.
  r[0].checks = r[1].checks = "the chapter's arithmetic restated in exact integers; posverify's numerics are not inspected";
  certificate first = certify_rounding("wavelength_first", "2 pi / omega_0", two_pi / omega(0), P.first);
  first.why = "printed as 2*pi; compared at 3 decimals";
  r.push_back(first);
  certificate last = certify_rounding("wavelength_last (d = 512)", "2 pi / omega_255",
                                      two_pi / omega(255), P.limit);
  last.printed = std::to_string(P.limit_over_2pi) + "*2*pi (" + P.limit + ")";
  last.expected = pv::verdict::disproved;
  last.expected_why = r[2].expected_why;
  r.push_back(last);
  return r;
}

std::vector<certificate> carousel(const std::string& id) {
  // Angles in degrees are exact integers: the enclosures are points.
  std::vector<certificate> r;
  auto wrap = [](const interval& deg) {  // deg mod 360 for a point interval
    const long v = lower(deg).convert_to<long>();
    return exact(((v % 360) + 360) % 360);
  };
  const interval step = exact(30);
  namespace P = claims::printed_numbers;
  if (id == "carousel.a") {
    interval a = exact(40) + exact(3) * step, b = exact(100) + exact(3) * step;
    r.push_back(certify_exact("a_deg", "40 + 3*30", a, P::carousel_a.a_deg));
    r.push_back(certify_exact("b_deg", "100 + 3*30", b, P::carousel_a.b_deg));
    r.push_back(certify_exact("gap_deg", "(100 + 3*30) - (40 + 3*30)", b - a, P::carousel_a.gap_deg));
  } else if (id == "carousel.b") {
    r.push_back(certify_exact("t2_deg", "2*30", exact(2) * step, P::carousel_b.t2_deg));
    r.push_back(certify_exact("t5_deg", "5*30", exact(5) * step, P::carousel_b.t5_deg));
    r.push_back(certify_exact("t7_deg", "7*30", exact(7) * step, P::carousel_b.t7_deg));
    r.push_back(certify_exact("t10_deg", "10*30", exact(10) * step, P::carousel_b.t10_deg));
    r.push_back(certify_exact("gap_deg", "5*30 - 2*30 and 10*30 - 7*30", exact(5) * step - exact(2) * step,
                              P::carousel_b.gap_deg));
    r.push_back(certify_exact("gap_deg (7, 10)", "10*30 - 7*30", exact(10) * step - exact(7) * step,
                              P::carousel_b.gap_deg));
  } else if (id == "carousel.c") {
    r.push_back(certify_exact("angle_diff_15_deg (unwrapped)", "15*30", exact(15) * step,
                              P::carousel_c.angle_15_unwrapped_deg));
    r.push_back(certify_exact("angle_diff_15_deg", "15*30 mod 360", wrap(exact(15) * step),
                              P::carousel_c.angle_diff_15_deg));
    r.push_back(certify_exact("period", "360 / 30", exact(360) / step, P::carousel_c.period));
  }
  for (auto& c : r)
    c.checks = "the chapter's arithmetic restated in exact integers (degrees); posverify's numerics "
               "are not inspected (the claim itself runs the RoPE rotation)";
  return r;
}

std::vector<certificate> p5(bool with_encoding) {
  std::vector<certificate> r;
  auto add = [&](const std::string& name, const std::string& formula, const ivec& v,
                 const claims::printed_numbers::printed_pair& p) {
    r.push_back(certify_rounding(name + "[0]", formula, v[0], p[0]));
    r.push_back(certify_rounding(name + "[1]", formula, v[1], p[1]));
  };
  if (!with_encoding) {
    const auto& P = claims::printed_numbers::p5_no_encoding;
    const auto abc_p = P.abc_out, cab_p = P.cab_out();
    auto abc = p5_attention("abc", p5_encoding::none);
    auto cab = p5_attention("cab", p5_encoding::none);
    const std::string f = "softmax(X X^T / sqrt 2) X, X = [a, b, c]";
    add("abc_out[a]", f, abc[0], abc_p[0]);
    add("abc_out[b]", f, abc[1], abc_p[1]);
    add("abc_out[c]", f, abc[2], abc_p[2]);
    const std::string g = "softmax(X X^T / sqrt 2) X, X = [c, a, b]";
    add("cab_out[c]", g, cab[0], cab_p[0]);
    add("cab_out[a]", g, cab[1], cab_p[1]);
    add("cab_out[b]", g, cab[2], cab_p[2]);
    return r;
  }
  const auto& P = claims::printed_numbers::p5_with_encoding;
  for (auto enc : {p5_encoding::exact, p5_encoding::rounded}) {
    const std::string sfx = enc == p5_encoding::exact ? "" : "_rounded_pe";
    std::string pe = "(sin m, cos m)";
    if (enc == p5_encoding::rounded) {
      pe.clear();
      for (const auto& v : P.pe) pe += std::string(pe.empty() ? "" : ", ") + "(" + v[0] + "," + v[1] + ")";
    }
    auto abc = p5_attention("abc", enc);
    auto cab = p5_attention("cab", enc);
    add("c_at_2" + sfx, "row 2 of attention of [a, b, c] + " + pe, abc[2], P.c_at_2);
    add("c_at_0" + sfx, "row 0 of attention of [c, a, b] + " + pe, cab[0], P.c_at_0);
  }
  // The position vectors the chapter prints, p(m) = (sin m, cos m), m = 0, 1, 2.
  for (long m = 0; m < static_cast<long>(P.pe.size()); ++m)
    add("pe_at_" + std::to_string(m), "(sin m, cos m) at m = " + std::to_string(m),
        {sin(exact(m)), cos(exact(m))}, P.pe[static_cast<std::size_t>(m)]);
  return r;
}

std::vector<certificate> p6_tokens(const std::string& id) {
  // 64 x 64 cells; for FLUX.1 a 1024 x 1024 picture, VAE factor 8, 2 x 2 patches.
  const auto& sd = claims::printed_numbers::p6_sd_no_encoding;
  const auto& flux = claims::printed_numbers::p6_flux_bag;
  const interval side = exact(flux.picture_side) / exact(8) / exact(2);
  certificate c = id == "p6.sd-no-encoding"
                      ? certify_exact("tokens", "64 * 64 cells of the feature map", exact(sd.side) * exact(sd.side),
                                      sd.tokens)
                      : certify_exact("tokens", "(1024 / 8 / 2)^2 patches", side * side, flux.tokens);
  c.checks = "the chapter's arithmetic restated in exact integers; posverify's numerics are not inspected";
  return {c};
}

/// The one list of certified claims: each id with the certificates of its
/// printed numbers, in the order the certificates are attached.
using certified = std::pair<std::string, std::vector<certificate> (*)()>;
const std::vector<certified>& certified_table() {
  static const std::vector<certified> t = {
      {"rope.example-30deg", [] { return rope30(); }},
      {"additive.example", [] { return additive(); }},
      {"sinusoid.wavelengths", [] { return wavelengths(); }},
      {"carousel.a", [] { return carousel("carousel.a"); }},
      {"carousel.b", [] { return carousel("carousel.b"); }},
      {"carousel.c", [] { return carousel("carousel.c"); }},
      {"p5.no-encoding", [] { return p5(false); }},
      {"p5.with-encoding", [] { return p5(true); }},
      {"p6.sd-no-encoding", [] { return p6_tokens("p6.sd-no-encoding"); }},
      {"p6.flux-bag", [] { return p6_tokens("p6.flux-bag"); }},
  };
  return t;
}

}  // namespace

std::vector<std::string> certified_claim_ids() {
  std::vector<std::string> ids;
  for (const auto& c : certified_table()) ids.push_back(c.first);
  return ids;
}

std::vector<certificate> chapter_certificates(const std::string& id) {
  for (const auto& c : certified_table())
    if (c.first == id) return c.second();
  return {};
}

}  // namespace pv::proofs

// ---- attachments ---------------------------------------------------------------
// extra["certificate"] of every certified claim, and the proofs built on the
// certificates.

namespace {

void attach_certificates(const std::string& id, pv::claim_result& r) {
  r.extra.set("certificate", pv::proofs::to_json(pv::proofs::chapter_certificates(id)));
}

// Every certified claim (the one list: certified_claim_ids) gets its certificate.
const bool certificates_registered = [] {
  for (const auto& id : pv::proofs::certified_claim_ids())
    pv::claims::proofs().push_back(
        {id, "certificate", [id](const pv::claims::claim_context&, pv::claim_result& r) { attach_certificates(id, r); }});
  return true;
}();

}  // namespace

// Which reading of the additive example reproduces both printed figures.
PV_CLAIM_PROOF("additive.example", "reading", [](const pv::claims::claim_context&, pv::claim_result& r) {
  using namespace pv::proofs;
  const auto& printed = pv::claims::printed_numbers::additive_example;
  pv::json readings = pv::json::array();
  for (auto rd : {additive_reading::content_plus_position, additive_reading::content_plus_cos_sin,
                  additive_reading::position_only}) {
    const bool both = certify_rounding("", "", additive_dot(2, 5, rd), printed.dot_2_5).verdict == pv::verdict::proved &&
                      certify_rounding("", "", additive_dot(7, 10, rd), printed.dot_7_10).verdict == pv::verdict::proved;
    if (both) readings.push(pv::json::string(to_string(rd)));
  }
  pv::json j = pv::json::object();
  j.set("readings_tried", pv::json::integer(3));
  j.set("readings_reproducing_both_printed_values", readings);
  add_proof(r, "additive_reading", j);
});

PV_CLAIM_PROOF("p5.with-encoding", "symmetry broken in every order",
               [](const pv::claims::claim_context&, pv::claim_result& r) {
                 pv::proofs::add_proof(r, "every_order_breaks_symmetry",
                                       pv::proofs::p5_encoding_breaks_every_order());
               });
