// Exact algebra for the rotation laws: Pythagorean instances, the grid
// argument for all angles, and their attachments (algebra.h).
#include "claims/proofs/algebra.h"

#include "claims/proofs/attach.h"
#include "claims/registry.h"
#include "core/verdict.h"

#include <algorithm>
#include <array>
#include <utility>

namespace pv::proofs {

// ---- instances: Pythagorean rotations ----------------------------------------

namespace {

using v2 = std::array<rational, 2>;

struct angle_table {
  std::vector<rational> c, s;  ///< cos, sin of m * base, m = 0 .. upto
};

angle_table chebyshev_table(const rational& c, const rational& s, long upto) {
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
    rope.pairs.push_back(chebyshev_table(triples()[i].first, triples()[i].second, 4 * box));
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
      flux.pairs.push_back(chebyshev_table(triples()[i].first, triples()[i].second, 8));
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

// ---- all angles: the grid argument -------------------------------------------

tracked tracked::constant(std::size_t vars, const rational& v) {
  tracked t;
  t.value = v;
  t.n.assign(vars, 0);
  t.e.assign(vars, 0);
  return t;
}

tracked tracked::variable(std::size_t vars, std::size_t v, const rational& value) {
  tracked t = constant(vars, value);
  t.n[v] = 1;
  return t;
}

tracked tracked::cos_of(std::size_t vars, std::size_t v, const rational& t) {
  tracked r = constant(vars, (1 - t * t) / (1 + t * t));
  r.n[v] = 2;
  r.e[v] = 1;
  return r;
}

tracked tracked::sin_of(std::size_t vars, std::size_t v, const rational& t) {
  tracked r = constant(vars, 2 * t / (1 + t * t));
  r.n[v] = 1;
  r.e[v] = 1;
  return r;
}

namespace {
tracked add_or_sub(const tracked& a, const tracked& b, bool sub) {
  tracked r;
  r.value = sub ? a.value - b.value : a.value + b.value;
  const std::size_t V = a.n.size();
  r.n.resize(V);
  r.e.resize(V);
  for (std::size_t v = 0; v < V; ++v) {
    r.e[v] = std::max(a.e[v], b.e[v]);
    r.n[v] = std::max(a.n[v] + 2 * (r.e[v] - a.e[v]), b.n[v] + 2 * (r.e[v] - b.e[v]));
  }
  return r;
}
}  // namespace

tracked operator+(const tracked& a, const tracked& b) { return add_or_sub(a, b, false); }
tracked operator-(const tracked& a, const tracked& b) { return add_or_sub(a, b, true); }
tracked operator-(const tracked& a) {
  tracked r = a;
  r.value = -a.value;
  return r;
}
tracked operator*(const tracked& a, const tracked& b) {
  tracked r;
  r.value = a.value * b.value;
  const std::size_t V = a.n.size();
  r.n.resize(V);
  r.e.resize(V);
  for (std::size_t v = 0; v < V; ++v) {
    r.n[v] = a.n[v] + b.n[v];
    r.e[v] = a.e[v] + b.e[v];
  }
  return r;
}

namespace {

rational grid_value(int i) {  // 0, 1, -1, 2, -2, ...
  return i == 0 ? rational(0) : (i % 2 ? rational((i + 1) / 2) : rational(-(i / 2)));
}

law_point make_point(const law_variables& vars, const std::vector<int>& idx) {
  const std::size_t V = vars.names.size();
  law_point p;
  p.x.resize(V);
  p.c.resize(V);
  p.s.resize(V);
  for (std::size_t v = 0; v < V; ++v) {
    const rational t = grid_value(idx[v]);
    p.x[v] = tracked::variable(V, v, t);
    if (vars.is_angle[v]) {
      p.c[v] = tracked::cos_of(V, v, t);
      p.s[v] = tracked::sin_of(V, v, t);
    }
  }
  return p;
}

}  // namespace

algebraic_result prove_identity(const std::string& name, const law_variables& vars,
                                const law_fn& law, long max_points) {
  algebraic_result r;
  r.name = name;
  r.vars = vars.names;
  const std::size_t V = vars.names.size();
  std::vector<int> idx(V, 0);
  // The degree bookkeeping does not depend on the point: read it at the origin.
  const tracked probe = law(make_point(vars, idx));
  r.degree = probe.n;
  long points = 1;
  for (int d : r.degree) {
    points *= d + 1;
    if (points > max_points) {
      r.too_large = true;
      return r;
    }
  }
  r.holds = true;
  for (;;) {
    const tracked val = law(make_point(vars, idx));
    ++r.points;
    if (val.value != 0) {
      r.holds = false;
      std::string at;
      for (std::size_t v = 0; v < V; ++v)
        at += (v ? ", " : "") + vars.names[v] + "=" + grid_value(idx[v]).str();
      r.counterexample = "LHS - RHS = " + val.value.str() + " at " + at;
      return r;
    }
    std::size_t v = 0;
    while (v < V && ++idx[v] > r.degree[v]) idx[v++] = 0;
    if (v == V) break;
  }
  return r;
}

json to_json(const algebraic_result& r) {
  json j = json::object();
  j.set("law", json::string(r.name));
  json deg = json::object();
  for (std::size_t v = 0; v < r.vars.size(); ++v) deg.set(r.vars[v], json::integer(r.degree[v]));
  j.set("degree_bound", deg);
  j.set("grid", json::string("D_v + 1 values 0, 1, -1, 2, -2, ... per variable"));
  j.set("grid_points", json::integer(r.points));
  j.set("verdict", json::string(r.too_large ? pv::qualified(pv::verdict::undecided, "grid over budget")
                                            : r.holds ? pv::qualified(pv::verdict::proved, "algebraic")
                                                      : pv::qualified(pv::verdict::disproved, "")));
  if (!r.counterexample.empty()) j.set("counterexample", json::string(r.counterexample));
  return j;
}

// ---- the laws --------------------------------------------------------------

namespace {

using tv = std::array<tracked, 2>;

tv rot(const tracked& c, const tracked& s, const tv& x) {
  return {x[0] * c - x[1] * s, x[0] * s + x[1] * c};
}
tracked dot(const tv& a, const tv& b) { return a[0] * b[0] + a[1] * b[1]; }

/// Folds several components into one check: the value is the first non-zero
/// component (0 iff all are 0), the degrees the max over components.
tracked fold(const std::vector<tracked>& parts) {
  tracked r = parts.front();
  for (const auto& p : parts) {
    for (std::size_t v = 0; v < r.n.size(); ++v) {
      r.n[v] = std::max(r.n[v], p.n[v]);
      r.e[v] = std::max(r.e[v], p.e[v]);
    }
  }
  r.value = 0;
  for (const auto& p : parts)
    if (p.value != 0) {
      r.value = p.value;
      break;
    }
  return r;
}

/// cos(m w), sin(m w) from (c, s) = (cos w, sin w) by Chebyshev recurrences
/// T_{m+1} = 2c T_m - T_{m-1}, U_{m+1} = 2c U_m - U_{m-1}, sin(m w) = s U_{m-1}.
std::pair<std::vector<tracked>, std::vector<tracked>> chebyshev_tracked(const tracked& c,
                                                                        const tracked& s, long upto) {
  const std::size_t V = c.n.size();
  std::vector<tracked> T{tracked::constant(V, 1), c}, U{tracked::constant(V, 1), c + c};
  for (long m = 2; m <= upto; ++m) {
    T.push_back((c + c) * T[m - 1] - T[m - 2]);
    U.push_back((c + c) * U[m - 1] - U[m - 2]);
  }
  std::vector<tracked> cm, sm;
  for (long m = 0; m <= upto; ++m) {
    cm.push_back(T[m]);
    sm.push_back(m == 0 ? tracked::constant(V, 0) : s * U[m - 1]);
  }
  return {cm, sm};
}

}  // namespace

std::vector<algebraic_result> rope_algebraic_laws(long box) {
  std::vector<algebraic_result> out;
  {
    law_variables v{{"t_alpha", "t_beta", "t_gamma", "q0", "q1", "k0", "k1"},
                    {true, true, true, false, false, false, false}};
    out.push_back(prove_identity(
        "shift invariance: <R(gamma) R(alpha) q, R(gamma) R(beta) k> = <R(alpha) q, R(beta) k>", v,
        [](const law_point& p) {
          tv qa = rot(p.c[0], p.s[0], {p.x[3], p.x[4]});
          tv kb = rot(p.c[1], p.s[1], {p.x[5], p.x[6]});
          return dot(rot(p.c[2], p.s[2], qa), rot(p.c[2], p.s[2], kb)) - dot(qa, kb);
        }));
  }
  {
    law_variables v{{"t_alpha", "t_beta", "q0", "q1", "k0", "k1"},
                    {true, true, false, false, false, false}};
    out.push_back(prove_identity(
        "relative form: <R(alpha) q, R(beta) k> = <q, R(-alpha) R(beta) k>", v,
        [](const law_point& p) {
          tv q{p.x[2], p.x[3]}, k{p.x[4], p.x[5]};
          tv kb = rot(p.c[1], p.s[1], k);
          return dot(rot(p.c[0], p.s[0], q), kb) - dot(q, rot(p.c[0], -p.s[0], kb));
        }));
  }
  {
    law_variables v{{"t_alpha", "x0", "x1"}, {true, false, false}};
    out.push_back(prove_identity("norm preservation: |R(alpha) x|^2 = |x|^2", v,
                                 [](const law_point& p) {
                                   tv x{p.x[1], p.x[2]};
                                   tv y = rot(p.c[0], p.s[0], x);
                                   return dot(y, y) - dot(x, x);
                                 }));
  }
  {
    law_variables v{{"t_omega", "x0", "x1"}, {true, false, false}};
    out.push_back(prove_identity(
        "composition: R(m w) R(n w) x = R((m + n) w) x for all m, n in [0, " + std::to_string(box) +
            "), cos/sin(m w) by Chebyshev polynomials of (cos w, sin w)",
        v, [box](const law_point& p) {
          auto [cm, sm] = chebyshev_tracked(p.c[0], p.s[0], 2 * box);
          tv x{p.x[1], p.x[2]};
          std::vector<tracked> parts;
          for (long m = 0; m < box; ++m)
            for (long n = 0; n < box; ++n) {
              tv lhs = rot(cm[m], sm[m], rot(cm[n], sm[n], x));
              tv rhs = rot(cm[m + n], sm[m + n], x);
              parts.push_back(lhs[0] - rhs[0]);
              parts.push_back(lhs[1] - rhs[1]);
            }
          return fold(parts);
        }));
  }
  {
    law_variables v{{"t_omega", "q0", "q1", "k0", "k1"}, {true, false, false, false, false}};
    out.push_back(prove_identity(
        "shift invariance in positions: <R((m+s) w) q, R((n+s) w) k> = <R(m w) q, R(n w) k> for "
        "all m, n, s in [0, " + std::to_string(box) + ")",
        v, [box](const law_point& p) {
          auto [cm, sm] = chebyshev_tracked(p.c[0], p.s[0], 2 * box);
          tv q{p.x[1], p.x[2]}, k{p.x[3], p.x[4]};
          std::vector<tracked> parts;
          for (long m = 0; m < box; ++m)
            for (long n = 0; n < box; ++n)
              for (long s = 0; s < box; ++s)
                parts.push_back(dot(rot(cm[m + s], sm[m + s], q), rot(cm[n + s], sm[n + s], k)) -
                                dot(rot(cm[m], sm[m], q), rot(cm[n], sm[n], k)));
          return fold(parts);
        }));
  }
  return out;
}

algebraic_result flux_decomposition_law() {
  // Three groups (image, row, column) of one pair each. Query angles a_g, key
  // angles a_g + d_g (R(a + d) = R(a) R(d)). Both sides are bilinear in
  // (q, k) (of the form q^T M k), so the law holds for all q, k iff it holds
  // for the 36 basis pairs (e_i, e_j), which are the components checked.
  law_variables v{{"t_a_image", "t_a_row", "t_a_col", "t_d_image", "t_d_row", "t_d_col"},
                  {true, true, true, true, true, true}};
  return prove_identity(
      "FLUX three-group decomposition: <R(a) q, R(a + d) k> = sum_g <q_g, R(d_g) k_g>, "
      "each axis offset d_g separately; q, k over the 36 basis pairs",
      v, [](const law_point& p) {
        const std::size_t V = p.c.size();
        std::vector<tracked> parts;
        for (int i = 0; i < 6; ++i)
          for (int j = 0; j < 6; ++j) {
            tracked lhs = tracked::constant(V, 0), rhs = tracked::constant(V, 0);
            for (int g = 0; g < 3; ++g) {
              auto basis = [&](int idx) {
                return tv{tracked::constant(V, idx == 2 * g ? 1 : 0),
                          tracked::constant(V, idx == 2 * g + 1 ? 1 : 0)};
              };
              tv q = basis(i), k = basis(j);
              tv kd = rot(p.c[3 + g], p.s[3 + g], k);
              lhs = lhs + dot(rot(p.c[g], p.s[g], q), rot(p.c[g], p.s[g], kd));
              rhs = rhs + dot(q, kd);
            }
            parts.push_back(lhs - rhs);
          }
        return fold(parts);
      });
}

std::vector<algebraic_result> sinusoid_shift_laws(long box) {
  law_variables v{{"t_omega"}, {true}};
  return {prove_identity(
      "sinusoid shift map: p((m + k) w) = M_k p(m w), p = (sin, cos), M_k = [[cos kw, sin kw], "
      "[-sin kw, cos kw]], all m, k in [0, " + std::to_string(box) + ")",
      v, [box](const law_point& p) {
        auto [cm, sm] = chebyshev_tracked(p.c[0], p.s[0], 2 * box);
        std::vector<tracked> parts;
        for (long m = 0; m < box; ++m)
          for (long k = 0; k < box; ++k) {
            tv pm{sm[m], cm[m]};
            tv mapped{cm[k] * pm[0] + sm[k] * pm[1], -sm[k] * pm[0] + cm[k] * pm[1]};
            parts.push_back(mapped[0] - sm[m + k]);
            parts.push_back(mapped[1] - cm[m + k]);
          }
        return fold(parts);
      })};
}

algebraic_result planted_false_shift_law() {
  law_variables v{{"t_alpha", "t_beta", "t_gamma", "q0", "q1", "k0", "k1"},
                  {true, true, true, false, false, false, false}};
  return prove_identity(
      "PLANTED FALSE: shift invariance with the sine of the key's extra rotation flipped", v,
      [](const law_point& p) {
        tv qa = rot(p.c[0], p.s[0], {p.x[3], p.x[4]});
        tv kb = rot(p.c[1], p.s[1], {p.x[5], p.x[6]});
        tv kg{kb[0] * p.c[2] - kb[1] * p.s[2], -(kb[0] * p.s[2]) + kb[1] * p.c[2]};
        return dot(rot(p.c[2], p.s[2], qa), kg) - dot(qa, kb);
      });
}

// ---- attachments -------------------------------------------------------------

namespace {

/// The Pythagorean laws whose name begins with `prefix` ("RoPE", "FLUX", "sinusoid").
json laws_named(const std::vector<exact_law_result>& all, const std::string& prefix) {
  std::vector<exact_law_result> some;
  for (const auto& r : all)
    if (r.name.rfind(prefix, 0) == 0) some.push_back(r);
  return to_json(some);
}

/// {"pythagorean": the instances of `family`, "all_angles": the grid proofs}.
json exact_algebra(const std::string& family, const std::vector<algebraic_result>& all_angles) {
  json angles = json::array();
  for (const auto& r : all_angles) angles.push(to_json(r));
  json o = json::object();
  o.set("pythagorean", laws_named(pythagorean_laws(), family));
  o.set("all_angles", angles);
  return o;
}

}  // namespace

}  // namespace pv::proofs

// The proofs do not depend on the run's seed: each is computed once per
// process (function-local statics) and copied into every report.
PV_CLAIM_PROOF("rope.relative", "exact algebra", [](const pv::claims::claim_context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::exact_algebra("RoPE", pv::proofs::rope_algebraic_laws());
  pv::proofs::add_proof(r, "exact_algebra", j);
});
PV_CLAIM_PROOF("flux.separate-offsets", "exact algebra", [](const pv::claims::claim_context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::exact_algebra("FLUX", {pv::proofs::flux_decomposition_law()});
  pv::proofs::add_proof(r, "exact_algebra", j);
});
PV_CLAIM_PROOF("sinusoid.linear-shift", "exact algebra", [](const pv::claims::claim_context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::exact_algebra("sinusoid", pv::proofs::sinusoid_shift_laws());
  pv::proofs::add_proof(r, "exact_algebra", j);
});
