// Permutations of token rows: (P X)_i = X_{perm[i]}.
#pragma once

#include "numerics/matrix.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pv {

using permutation = std::vector<std::size_t>;

/// The chapter's shuffle of the six cells (opening section): new order
/// [5, 2, 4, 0, 1, 3].
inline permutation chapter_six_cell_order() { return {5, 2, 4, 0, 1, 3}; }

/// Row i of the result is row perm[i] of X.
template <class T>
matrix<T> permute_rows(const matrix<T>& X, const permutation& perm) {
  matrix<T> R(perm.size(), X.cols);
  for (std::size_t i = 0; i < perm.size(); ++i)
    for (std::size_t j = 0; j < X.cols; ++j) R(i, j) = X(perm[i], j);
  return R;
}

inline bool is_permutation_of_n(const permutation& p) {
  std::vector<bool> seen(p.size(), false);
  for (auto v : p) {
    if (v >= p.size() || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}

inline std::string to_string(const permutation& p) {
  std::string s = "[";
  for (std::size_t i = 0; i < p.size(); ++i) s += (i ? ", " : "") + std::to_string(p[i]);
  return s + "]";
}

}  // namespace pv
