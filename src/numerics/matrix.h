// A small dense row-major matrix: tokens are rows, features are columns.
#pragma once

#include "numerics/fault.h"
#include "numerics/scalar.h"

#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace pv {

template <class T>
struct matrix {
  std::size_t rows = 0, cols = 0;
  std::vector<T> a;

  matrix() = default;
  matrix(std::size_t r, std::size_t c) : rows(r), cols(c), a(r * c, T(0)) {}
  matrix(std::initializer_list<std::initializer_list<T>> init) {
    rows = init.size();
    cols = rows ? init.begin()->size() : 0;
    for (auto& row : init) {
      assert(row.size() == cols);
      for (auto& v : row) a.push_back(v);
    }
  }

  T& operator()(std::size_t i, std::size_t j) { return a[i * cols + j]; }
  const T& operator()(std::size_t i, std::size_t j) const { return a[i * cols + j]; }
  T* row(std::size_t i) { return a.data() + i * cols; }
  const T* row(std::size_t i) const { return a.data() + i * cols; }

  static matrix identity(std::size_t n) {
    matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i) m(i, i) = T(1);
    return m;
  }
};

template <class To, class From>
matrix<To> convert_matrix(const matrix<From>& m) {
  matrix<To> r(m.rows, m.cols);
  for (std::size_t i = 0; i < m.a.size(); ++i) r.a[i] = convert<To>(m.a[i]);
  return r;
}

/// C = A B, each entry a left-to-right dot product.
template <class T>
matrix<T> matmul(const matrix<T>& A, const matrix<T>& B) {
  assert(A.cols == B.rows);
  matrix<T> C(A.rows, B.cols);
  for (std::size_t i = 0; i < A.rows; ++i)
    for (std::size_t j = 0; j < B.cols; ++j) {
      T s = T(0);
      for (std::size_t k = 0; k < A.cols; ++k) s += A(i, k) * B(k, j);
      C(i, j) = s;
    }
  return C;
}

template <class T>
matrix<T> add(const matrix<T>& A, const matrix<T>& B) {
  assert(A.rows == B.rows && A.cols == B.cols);
  matrix<T> C = A;
  for (std::size_t i = 0; i < C.a.size(); ++i) C.a[i] += B.a[i];
  if (fault_is(fault::add_rounds_to_float32))  // planted fault
    for (auto& v : C.a) v = convert<T>(convert<float>(v));
  return C;
}

/// Left-to-right dot product of two length-n arrays.
template <class T>
T dot(const T* x, const T* y, std::size_t n) {
  T s = T(0);
  for (std::size_t i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}

/// max |A - B| over all entries, computed in hp from the exact values.
template <class T, class U>
hp max_abs_diff(const matrix<T>& A, const matrix<U>& B) {
  assert(A.rows == B.rows && A.cols == B.cols);
  hp m = 0;
  for (std::size_t i = 0; i < A.a.size(); ++i) {
    hp d = abs(convert<hp>(A.a[i]) - convert<hp>(B.a[i]));
    if (d > m) m = d;
  }
  return m;
}

template <class T>
std::string to_string(const matrix<T>& m) {
  std::string s = "[";
  for (std::size_t i = 0; i < m.rows; ++i) {
    s += i ? ", [" : "[";
    for (std::size_t j = 0; j < m.cols; ++j) s += (j ? ", " : "") + to_decimal(m(i, j));
    s += "]";
  }
  return s + "]";
}

}  // namespace pv
