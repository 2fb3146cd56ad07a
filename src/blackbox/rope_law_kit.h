// What the RoPE laws of `check` share across their files (rope_laws.cpp: the
// laws against the reference and the order every law runs in;
// rope_relation_laws.cpp; rope_translation_law.cpp; rope_rows_law.cpp): how a case draws its coordinates and rows, the
// judgement of rotated rows against the reference, the runner of a law of one
// call per case, and the laws that live in files of their own, each
// instantiated there for float and double. The laws are split so that a
// change to one recompiles its file, not every RoPE law (each file is its own
// compiler run, outside the unity batches: cmake/stages.cmake).
#pragma once

#include "blackbox/check_run.h"
#include "blackbox/calls.h"
#include "blackbox/law_run.h"
#include "blackbox/rope_model.h"
#include "blackbox/rope_rotated.h"
#include "blackbox/structured_inputs.h"

#include <cmath>
#include <functional>
#include <string>

namespace pv::blackbox::rope_kit {

/// One coordinate: 30 % small (0..64), 20 % structured (structured_position),
/// else anywhere in [0, P].
inline double coord(rng& g, long P) {
  const double u = g.uniform();
  if (u < 0.3) return double(g.range(0, std::min(64L, P)));
  if (u < 0.5) return structured_position(g, P);
  return double(g.range(0, P));
}

template <class T>
matrix<T> random_heads(rng& g, std::size_t n, std::size_t d) {
  return random_matrix<T>(g, n, d, std::pow(10.0, g.real(-1, 1)));
}

template <class T>
bool check_rows_vs_ref(law_run& Lr, int k, const rotated<T>& R, const std::string& what,
                       const std::function<std::string()>& desc) {
  for (std::size_t i = 0; i < R.y.rows; ++i)
    for (std::size_t c = 0; c < R.y.cols; ++c)
      if (!Lr.within_fast(
              k, R.error_above(i, c), rope_tolerance_fast::lower(R.tol_d(i, c)),
              [&] { return std::pair<hp, hp>(abs(convert<hp>(R.y(i, c)) - R.ref(i, c)), R.tol(i, c)); },
              [&] {
                return (what.empty() ? "" : what + " ") + "row " + std::to_string(i) + " component " +
                       std::to_string(c) + ": got " + to_decimal(R.y(i, c)) + ", reference " +
                       ref::to_decimal(R.ref(i, c), 20);
              },
              desc))
        return false;
  return true;
}

/// A law's id (from its header in src/laws/) and the id its cases are seeded
/// from: its own, or the one it had before a rename (the header's
/// check_case_stream), so that the cases stay the same.
struct law_name {
  std::string id, stream;
  law_name(const char* i) : id(i), stream(i) {}  // NOLINT: the usual case, one id
  law_name(const char* i, const char* s) : id(i), stream(s) {}
};

/// Runs a one-call-per-case law; `make` fills x and pos for case k, `check`
/// evaluates it.
template <class T, class Make, class Check>
law_result simple_law(const check_run& cx, const rope_cfg& rc, const law_name& id,
                      const std::string& law, const std::string& tol, const kernel_speeds* speeds,
                      Make make, Check check, bool diagnose = false,
                      std::function<std::string(std::size_t)> describe = {}) {
  law_run Lr(cx, id.id, type_name<T>(), rc.name, law, tol);
  Lr.seed_cases_from(id.stream);
  Lr.result_ref().diagnose = diagnose;
  if (!Lr.selected()) return Lr.finish();
  const auto L = reference_layout(rc.c);
  auto ks = Lr.case_indices();
  std::vector<matrix<T>> xs;
  std::vector<std::vector<double>> ps;
  draw_rope_cases<T>(Lr, ks, {&rc.c}, make, xs, ps);
  Lr.run();
  auto describe_case = [&](std::size_t i) { return describe ? describe(i) : describe_rows(rc, xs[i], ps[i]); };
  const rope_evaluator<T> evaluate(L, rc, rope_law_units<T>(cx), speeds);
  Lr.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    auto R = evaluate(xs[i], ps[i], Lr.results()[i].out);
    return check(Lr, ks[i], xs[i], ps[i], R, desc);
  });
  return Lr.finish();
}

/// The laws relating the kernel's outputs to each other (rope_relation_laws.cpp):
/// rope.composition, rope.shift_invariance, flux.per_axis_shift, flux.same_row_col.
template <class T>
law_result law_composition(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds);
template <class T>
law_result law_shift_invariance(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds);
template <class T>
law_result law_per_axis_shift(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds);
template <class T>
law_result law_same_row_col(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds);

/// rope.attention_translation_invariance (rope_translation_law.cpp).
template <class T>
law_result law_attention_translation(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds);

/// rope.rows, every row of a large batch across tile boundaries, and
/// flux.model_grid, the grid of a FLUX.1 image (rope_rows_law.cpp).
template <class T>
law_result law_rows(const check_run& cx, const rope_cfg& rc);
template <class T>
law_result law_model_grid(const check_run& cx, const rope_cfg& rc);

}  // namespace pv::blackbox::rope_kit
