#include "pythagorean.h"
#include "posverify/verdict.h"

#include <array>
#include <utility>

namespace pv::proofs {

namespace {

using v2 = std::array<rational, 2>;

struct angle_table {
  std::vector<rational> c, s;  ///< cos, sin of m * base, m = 0 .. upto
};

angle_table chebyshev(const rational& c, const rational& s, long upto) {
  std::vector<rational> T{1, c}, U{1, 2 * c};
  for (long m = 2; m <= upto; ++m) {
    T.push_back(2 * c * T[m - 1] - T[m - 2]);
    U.push_back(2 * c * U[m - 1] - U[m - 2]);
  }
  angle_table t;
  for (long m = 0; m <= upto; ++m) {
    t.c.push_back(T[m]);
    t.s.push_back(m == 0 ? rational(0) : s * U[m - 1]);
  }
  return t;
}

const std::vector<std::pair<rational, rational>>& triples() {
  static const std::vector<std::pair<rational, rational>> t = {
      {rational(3, 5), rational(4, 5)},     {rational(5, 13), rational(12, 13)},
      {rational(8, 17), rational(15, 17)},  {rational(7, 25), rational(24, 25)},
      {rational(20, 29), rational(21, 29)}};
  return t;
}

struct rope_exact {
  std::vector<angle_table> pairs;
  bool flip = false;
  /// Rotates pair i of x by m (m may be negative: R(-m) = R(m)^T).
  v2 rotate(std::size_t i, long m, const v2& x) const {
    const long a = m < 0 ? -m : m;
    const rational c = pairs[i].c[a], s = m < 0 ? -pairs[i].s[a] : pairs[i].s[a];
    return {x[0] * c - x[1] * s, flip ? x[1] * c - x[0] * s : x[0] * s + x[1] * c};
  }
  std::vector<rational> apply(const std::vector<long>& pos_per_pair, const std::vector<rational>& x) const {
    std::vector<rational> y(x.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      v2 r = rotate(i, pos_per_pair[i], {x[2 * i], x[2 * i + 1]});
      y[2 * i] = r[0];
      y[2 * i + 1] = r[1];
    }
    return y;
  }
};

rational dot(const std::vector<rational>& a, const std::vector<rational>& b) {
  rational s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

void record(exact_law_result& r, const rational& diff, const std::string& where) {
  ++r.instances;
  if (diff != 0 && r.exact_zero) {
    r.exact_zero = false;
    r.counterexample = "difference " + diff.str() + " at " + where;
  }
}

}  // namespace

std::vector<exact_law_result> pythagorean_laws(bool flip_sine) {
  std::vector<exact_law_result> out;
  const long box = 8;
  rope_exact rope;
  rope.flip = flip_sine;
  for (std::size_t i = 0; i < 4; ++i)
    rope.pairs.push_back(chebyshev(triples()[i].first, triples()[i].second, 4 * box));
  const std::vector<rational> q{rational(2, 3), rational(-5, 7), rational(1, 4), 3,
                                rational(-1, 2), rational(9, 11), 0, rational(7, 5)};
  const std::vector<rational> k{rational(1, 3), 2, rational(-4, 9), rational(5, 6),
                                rational(3, 8), -1, rational(2, 13), rational(-6, 7)};
  auto at = [](long p, std::size_t n) { return std::vector<long>(n, p); };
  {
    exact_law_result r{"RoPE shift invariance <R(m+s)q, R(n+s)k> = <R(m)q, R(n)k>, d = 8, "
                       "m, n, s in [0, 8)", 0, true, ""};
    for (long m = 0; m < box; ++m)
      for (long n = 0; n < box; ++n) {
        const rational base = dot(rope.apply(at(m, 4), q), rope.apply(at(n, 4), k));
        for (long s = 0; s < box; ++s)
          record(r, dot(rope.apply(at(m + s, 4), q), rope.apply(at(n + s, 4), k)) - base,
                 "m=" + std::to_string(m) + " n=" + std::to_string(n) + " s=" + std::to_string(s));
      }
    out.push_back(r);
  }
  {
    exact_law_result r{"RoPE composition R(m) R(n) x = R(m+n) x, m, n in [0, 16)", 0, true, ""};
    for (long m = 0; m < 2 * box; ++m)
      for (long n = 0; n < 2 * box; ++n) {
        auto lhs = rope.apply(at(m, 4), rope.apply(at(n, 4), q));
        auto rhs = rope.apply(at(m + n, 4), q);
        for (std::size_t i = 0; i < q.size(); ++i)
          record(r, lhs[i] - rhs[i], "m=" + std::to_string(m) + " n=" + std::to_string(n) +
                                         " component " + std::to_string(i));
      }
    out.push_back(r);
  }
  {
    exact_law_result r{"RoPE norm preservation |R(m) x|^2 = |x|^2, m in [0, 32)", 0, true, ""};
    for (long m = 0; m < 4 * box; ++m) {
      auto y = rope.apply(at(m, 4), q);
      record(r, dot(y, y) - dot(q, q), "m=" + std::to_string(m));
    }
    out.push_back(r);
  }
  {
    // FLUX-like head: groups [2, 4, 4] = pairs (image), (row, row), (col, col).
    exact_law_result r{"FLUX three-group decomposition <R(p) q, R(p') k> = sum_g <q_g, R_g(p'_g - p_g) k_g>, "
                       "groups [2, 4, 4], p, p' in [0, 3)^3", 0, true, ""};
    rope_exact flux;
    flux.flip = flip_sine;
    for (std::size_t i = 0; i < 5; ++i)
      flux.pairs.push_back(chebyshev(triples()[i].first, triples()[i].second, 8));
    const std::size_t axis_of_pair[5] = {0, 1, 1, 2, 2};
    std::vector<rational> q10(q.begin(), q.end()), k10(k.begin(), k.end());
    q10.push_back(rational(4, 3));
    q10.push_back(rational(-2, 5));
    k10.push_back(rational(1, 6));
    k10.push_back(rational(5, 2));
    for (long p = 0; p < 27; ++p)
      for (long pp = 0; pp < 27; ++pp) {
        const long P[3] = {p / 9, (p / 3) % 3, p % 3}, PP[3] = {pp / 9, (pp / 3) % 3, pp % 3};
        std::vector<long> pq(5), pk(5);
        for (std::size_t i = 0; i < 5; ++i) {
          pq[i] = P[axis_of_pair[i]];
          pk[i] = PP[axis_of_pair[i]];
        }
        const rational lhs = dot(flux.apply(pq, q10), flux.apply(pk, k10));
        rational rhs = 0;
        for (std::size_t g = 0; g < 3; ++g) {
          std::vector<long> off(5, 0);
          std::vector<rational> qg(10, 0), kg(10, 0);
          for (std::size_t i = 0; i < 5; ++i)
            if (axis_of_pair[i] == g) {
              off[i] = PP[g] - P[g];
              qg[2 * i] = q10[2 * i];
              qg[2 * i + 1] = q10[2 * i + 1];
              kg[2 * i] = k10[2 * i];
              kg[2 * i + 1] = k10[2 * i + 1];
            }
          rhs += dot(qg, flux.apply(off, kg));
        }
        record(r, lhs - rhs, "p=(" + std::to_string(P[0]) + "," + std::to_string(P[1]) + "," +
                                 std::to_string(P[2]) + ") p'=(" + std::to_string(PP[0]) + "," +
                                 std::to_string(PP[1]) + "," + std::to_string(PP[2]) + ")");
      }
    out.push_back(r);
  }
  {
    exact_law_result r{"sinusoid linear shift p(m + k) = M_k p(m), 4 Pythagorean speeds, m, k in [0, 16)",
                       0, true, ""};
    for (std::size_t i = 0; i < 4; ++i) {
      const auto& t = rope.pairs[i];
      for (long m = 0; m < 2 * box; ++m)
        for (long kk = 0; kk < 2 * box; ++kk) {
          const rational ps = t.s[m], pc = t.c[m];
          const rational ms = t.c[kk] * ps + t.s[kk] * pc;   // sin(x + a)
          const rational mc = -t.s[kk] * ps + t.c[kk] * pc;  // cos(x + a)
          const std::string where = "pair " + std::to_string(i) + " m=" + std::to_string(m) +
                                    " k=" + std::to_string(kk);
          record(r, ms - t.s[m + kk], where);
          record(r, mc - t.c[m + kk], where);
        }
    }
    out.push_back(r);
  }
  return out;
}

json to_json(const std::vector<exact_law_result>& rs) {
  json j = json::array();
  for (const auto& r : rs) {
    json o = json::object();
    o.set("law", json::string(r.name));
    o.set("instances", json::integer(r.instances));
    o.set("difference_exactly_zero", json::boolean(r.exact_zero));
    o.set("verdict", json::string(pv::qualified(r.exact_zero ? pv::verdict::proved : pv::verdict::disproved, r.exact_zero ? "exact, on these instances" : "")));
    if (!r.counterexample.empty()) o.set("counterexample", json::string(r.counterexample));
    j.push(o);
  }
  return j;
}

}  // namespace pv::proofs
