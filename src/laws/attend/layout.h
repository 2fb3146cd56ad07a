// attend.layout, written once: the output does not depend on how the
// tensors are laid out. The same problem is called with every tensor dense
// (batch, token, head), then with one tensor at a time -- q, k, v, out -- laid
// out otherwise (dense (batch, head, token), or with gaps after each head,
// token and item, the gaps NaN): each call's output and log-sum-exp agree
// with the dense call's.
//
// What breaks it: a kernel that ignores a tensor's strides and reads or
// writes it as if it were contiguous (FlashAttention PR 1562: non-contiguous
// inputs gave other outputs than contiguous ones), or a head and a token
// stride swapped. Every other attend law draws its layouts at random too;
// this one changes one tensor at a time, so that the finding names the
// tensor whose layout the kernel mishandles, and the diagnosis checks
// whether the output is what reading that tensor's buffer densely gives.
//
// Exactness class: within a reassociation bound: both calls compute the
// same problem, each within B of its exact value (problem.h), so
// |A_dense - A_strided| <= 2 B per entry and 2 B_lse per log-sum-exp. (A
// kernel may take another code path for another layout, e.g. a copy to a
// contiguous tensor and a different summation order.)
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <string>
#include <vector>

namespace pv::laws::attend_layout {

inline constexpr const char* id = "attend.layout";

inline std::string statement() {
  return "the output does not depend on the layout: each of q, k, v and out laid out otherwise (heads before tokens, "
         "or gaps between strides) gives the output of the call with every tensor dense";
}

inline std::string tolerance_rule() {
  return "|A_dense - A_other| <= 2 B per entry and 2 B_lse per log-sum-exp, " + attend::any_order_rule();
}

/// The law body: the output (and log-sum-exp) of the call with one tensor
/// laid out otherwise against the dense call's, within 2 B.
inline attend_compare::worst compare(const attend::problem& P, const std::vector<double>& dense,
                                     const std::vector<double>& dense_lse, const std::vector<double>& other,
                                     const std::vector<double>& other_lse, const attend::bounds& B) {
  attend_compare::worst w;
  for (std::size_t e = 0; e < other.size(); ++e) attend_compare::raise(w, e, false, other[e], hp(dense[e]), 2 * B.out[e]);
  if (P.lse)
    for (std::size_t e = 0; e < other_lse.size() && e < dense_lse.size(); ++e)
      attend_compare::raise(w, e, true, other_lse[e], hp(dense_lse[e]), 2 * B.lse[e]);
  return w;
}

}  // namespace pv::laws::attend_layout
