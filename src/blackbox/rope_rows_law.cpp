// rope.rows (every row of a batch up to model sizes, across tile boundaries)
// and flux.model_grid (the grid of a FLUX.1 image, --profile models) through
// the C interface; ids and statements from src/laws/rope/rows.h and
// src/laws/flux/model_grid.h.
#include "blackbox/rope_law_kit.h"
#include "blackbox/rows_outside.h"
#include "laws/flux/model_grid.h"
#include "laws/rope/rows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace pv::blackbox::rope_kit {

/// The grid a FLUX.1 image of 1024 x 1024 pixels gives (64 x 64 patches),
/// its text tokens at (0, 0, 0) ahead, every row against the reference. One
/// case: the grid is fixed, only the rows are random; 4,104 rows. Run by
/// --profile models; not when --max-position is below 63 (the grid's last
/// row and column).
template <class T>
law_result law_model_grid(const check_run& cx0, const rope_cfg& rc) {
  constexpr std::size_t H = 64, W = 64, text = 8;
  check_run cx = cx0;  // one case: the grid is the case
  cx.cases = 1;
  cx.min_cases = std::min(cx0.min_cases, 1);
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  return simple_law<T>(
      cx, rc, {laws::model_grid::id, laws::model_grid::check_case_stream}, laws::model_grid::statement(),
      model_rule(), nullptr,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        x = random_heads<T>(g, text + H * W, d);
        pos = grid_positions(text, H, W, na);
      },
      [](law_run& Lr, int k, const matrix<T>&, const std::vector<double>&, const rotated<T>& R,
         const std::function<std::string()>& desc) { return check_rows_vs_ref(Lr, k, R, "grid row", desc); },
      true,
      [&](std::size_t) {  // the 4,104 rows are too large to print
        return "config " + rc.name + "\n" + std::to_string(text) + " text tokens at (0, 0, 0), then the " +
               std::to_string(H) + " x " + std::to_string(W) + " grid, row-major (inputs too large to "
               "print: the replay command regenerates them from seed " + std::to_string(cx.seed) + ")";
      });
}

/// rope.rows (laws/rope/rows.h): one case per batch size; row r of a case is
/// pair r mod D of its D distinct (row, position) pairs, and every returned
/// row is judged against its pair's reference. An entry is first compared in
/// binary64 (|y - ref| + 2^-52 |ref| <= tol / 2, ref and tol rounded to
/// binary64, so that it is inside tol exactly); the entries not clearly
/// inside, and the case's worst, are judged exactly (law_run::within).
template <class T>
law_result law_rows(const check_run& cx0, const rope_cfg& rc) {
  namespace law = laws::rope_rows;
  constexpr std::size_t D = law::distinct, S = std::size(law::sizes);
  check_run cx = cx0;  // one case per size
  cx.cases = int(S);
  cx.min_cases = std::min(cx0.min_cases, cx.cases);
  law_run Lr(cx, law::id, type_name<T>(), rc.name, law::statement(),
             pv_rope_config_version(&rc.c) >= 3 ? scaled_model_rule() : model_rule());
  if (!Lr.selected()) return Lr.finish();
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  const long P = position_limit(cx, rc);
  const auto ks = Lr.case_indices();
  auto size_of = [&](std::size_t i) { return law::sizes[std::size_t(ks[i]) % S]; };
  std::vector<matrix<T>> xs;  // the distinct rows and positions of each case
  std::vector<std::vector<double>> ps;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    auto g = Lr.rng_for(ks[i]);
    xs.push_back(random_heads<T>(g, D, d));
    ps.emplace_back(D * na);
    for (auto& p : ps.back()) p = coord(g, P);
    const std::size_t n = size_of(i);
    std::vector<unsigned char> x(n * d * sizeof(T));  // the call's rows, written once (up to 4 MB)
    std::vector<double> pos(n * na);
    for (std::size_t r = 0; r < n; ++r) {
      std::memcpy(x.data() + r * d * sizeof(T), &xs[i].a[(r % D) * d], d * sizeof(T));
      for (std::size_t a = 0; a < na; ++a) pos[r * na + a] = ps[i][(r % D) * na + a];
    }
    Lr.add(rope_call<T>(rc.c, n, std::move(x), pos));
  }
  Lr.run();
  const auto L = reference_layout(rc.c);
  const rope_evaluator<T> evaluate(L, rc, rope_law_units<T>(cx));
  auto describe = [&](std::size_t i) {
    return "config " + rc.name + ", " + std::to_string(size_of(i)) + " rows, row r being pair r mod " +
           std::to_string(D) + " of\nx = " + to_string(xs[i]) + "\npositions = " + positions_text(ps[i], na);
  };
  Lr.each_case(ks, 1, describe, [&](std::size_t i, const describer& desc) {
    const std::size_t n = size_of(i);
    const rotated<T> R = evaluate(xs[i], ps[i], {});  // the pairs' reference and tolerances
    const std::vector<unsigned char>& out = Lr.results()[i].out;  // read in place, not copied
    const bool whole = out.size() == n * d * sizeof(T);
    auto y = [&](std::size_t r, std::size_t c) {
      T v{};
      if (whole) std::memcpy(&v, out.data() + (r * d + c) * sizeof(T), sizeof(T));
      return v;
    };
    // in binary64 (the fast reference's leading word, else MPFR's rounded; the tolerance in binary64)
    matrix<double> ref(D, d);
    const matrix<double>& tol = R.tol_d;
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t c = 0; c < d; ++c) ref(j, c) = R.fast ? R.ref_hi[j * d + c] : convert<double>(R.ref(j, c));
    auto judge = [&](std::size_t r, std::size_t c) {
      const std::size_t j = r % D;
      return Lr.within(
          ks[i], abs(convert<hp>(y(r, c)) - R.ref(j, c)), R.tol(j, c),
          [&] {
            return "row " + std::to_string(r) + " of " + std::to_string(n) + " (pair " + std::to_string(j) +
                   ") component " + std::to_string(c) + ": got " + to_decimal(y(r, c)) + ", reference " +
                   ref::to_decimal(R.ref(j, c), 20);
          },
          desc);
    };
    double worst = -1;
    std::size_t wr = 0, wc = 0;
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < d; ++c) {
        const std::size_t j = r % D;
        const double e = std::abs(double(y(r, c)) - ref(j, c));
        if (!(e + 0x1p-52 * std::abs(ref(j, c)) <= 0.5 * tol(j, c))) {  // NaN and infinity included
          if (judge(r, c)) continue;
          Lr.diagnose(rows_outside(from_bytes<T>(out, n, d), ref, tol, D));
          return false;
        }
        if (e / tol(j, c) > worst) worst = e / tol(j, c), wr = r, wc = c;
      }
    return worst < 0 || judge(wr, wc);  // the worst entry, judged exactly
  });
  return Lr.finish();
}

template law_result law_rows<float>(const check_run&, const rope_cfg&);
template law_result law_rows<double>(const check_run&, const rope_cfg&);
template law_result law_model_grid<float>(const check_run&, const rope_cfg&);
template law_result law_model_grid<double>(const check_run&, const rope_cfg&);

}  // namespace pv::blackbox::rope_kit
