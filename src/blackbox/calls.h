// The calls a black-box law sends through the sandbox: matrices in and out of
// the byte buffers of a call, one attention() or rope() call, and the
// lossless text of a case for a failure report.
#pragma once

#include "blackbox/rope_model.h"
#include "core/seeded.h"
#include "numerics/matrix.h"
#include "numerics/scalar.h"
#include "sandbox/sandbox.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace pv::blackbox {

// The sandbox's call model (sandbox/sandbox.h), as the black-box laws use it.
using sandbox::call;
using sandbox::impl_info;
using sandbox::load_error;
using sandbox::op;
using sandbox::probe_library;
using sandbox::result;
using sandbox::runner_options;
using sandbox::status;

/// The seeded generator (core/seeded.h).
using rng = seeded;

template <class T>
constexpr pv_dtype dtype_of() { return std::is_same_v<T, float> ? PV_F32 : PV_F64; }

template <class T>
std::vector<unsigned char> to_bytes(const matrix<T>& m) {
  const auto* p = reinterpret_cast<const unsigned char*>(m.a.data());
  return std::vector<unsigned char>(p, p + m.a.size() * sizeof(T));  // copied once, not zeroed first
}

template <class T>
matrix<T> from_bytes(const std::vector<unsigned char>& b, std::size_t rows, std::size_t cols) {
  matrix<T> m(rows, cols);
  if (b.size() == rows * cols * sizeof(T) && !b.empty()) std::memcpy(m.a.data(), b.data(), b.size());
  return m;
}

/// A random rows x cols matrix of T values, entries uniform in [-s, s].
template <class T>
matrix<T> random_matrix(rng& g, std::size_t rows, std::size_t cols, double s) {
  matrix<T> m(rows, cols);
  for (auto& x : m.a) x = static_cast<T>(g.real(-s, s));
  return m;
}

/// One attention() call on q, k, v.
template <class T>
call attention_call(const matrix<T>& q, const matrix<T>& k, const matrix<T>& v) {
  return call(op::attention, dtype_of<T>(),
              {std::int64_t(q.rows), std::int64_t(k.rows), std::int64_t(q.cols), std::int64_t(v.cols)},
              {to_bytes(q), to_bytes(k), to_bytes(v)});
}

/// Lossless text of a vector of positions.
std::string positions_text(const std::vector<double>& p, std::size_t per_row);

/// One rope() call rotating `rows` rows of type T, given as their bytes (moved
/// in: a law that writes a large call's rows once), at pos (n_axes
/// coordinates per row).
template <class T>
call rope_call(const pv_rope_config& cfg, std::size_t rows, std::vector<unsigned char>&& x,
               const std::vector<double>& pos) {
  return call(op::rope, dtype_of<T>(), {std::int64_t(rows)},
              {sandbox::bytes_of_struct(cfg), sandbox::bytes_of(pos), std::move(x)});
}

/// One rope() call rotating the rows of x at pos (n_axes coordinates per row).
template <class T>
call rope_call(const pv_rope_config& cfg, const matrix<T>& x, const std::vector<double>& pos) {
  return rope_call<T>(cfg, x.rows, to_bytes(x), pos);
}

/// Lossless description of a RoPE case: configuration, rows and positions.
template <class T>
std::string describe_rows(const rope_cfg& rc, const matrix<T>& x, const std::vector<double>& pos) {
  return "config " + rc.name + "\nx = " + to_string(x) + "\npositions = " +
         positions_text(pos, std::size_t(rc.c.n_axes));
}

}  // namespace pv::blackbox
