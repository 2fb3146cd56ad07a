// attend_calls.h's text of a problem, in a file of its own so that the files
// of the attend laws (attend_law_kit.h) do not each compile it.
#include "blackbox/attend_calls.h"

#include <string>

namespace pv::blackbox::attend_calls {

std::string describe(const problem& P, const layouts& L) {
  std::string s = "batch = " + std::to_string(P.batch) + ", h_q = " + std::to_string(P.h_q) +
                  ", h_kv = " + std::to_string(P.h_kv) + ", n_q = " + std::to_string(P.n_q) +
                  ", n_k = " + std::to_string(P.n_k) + ", d = " + std::to_string(P.d) +
                  ", d_v = " + std::to_string(P.d_v) + "\nq_start = " + list_text(P.q_start) +
                  ", k_len = " + list_text(P.k_len) + ", causal = " + (P.causal ? "1" : "0") +
                  ", window = (" + std::to_string(P.left) + ", " + std::to_string(P.right) +
                  "), scale = " + to_decimal(P.scale) + ", softcap = " + to_decimal(P.softcap) +
                  "\nsink = " + list_text(P.sink) + ", alibi = " + list_text(P.alibi) +
                  ", lse = " + (P.lse ? "1" : "0") +
                  (P.bias.empty() ? std::string()
                                  : "\nbias_batch = " + std::to_string(P.bias_batch) +
                                        ", bias [b][i][j] = " + list_text(P.bias)) +
                  (!P.varlen.packed()
                       ? std::string()
                       : "\nsent as packed items (in place of the bias and flags): cu_seqlens_q = " +
                             list_text(P.varlen.cu_q) + ", cu_seqlens_k = " + list_text(P.varlen.cu_k) +
                             ", q_start = " + list_text(P.varlen.q_start) + ", k_len = " + list_text(P.varlen.k_len) +
                             ", causal = " + (P.varlen.causal ? "1" : "0") + ", window = (" +
                             std::to_string(P.varlen.left) + ", " + std::to_string(P.varlen.right) + ")") +
                  "\nstrides: q " + strides_text(L.q) + ", k " +
                  strides_text(L.k) + ", v " + strides_text(L.v) + ", out " + strides_text(L.out) +
                  "\nq [b][i][h][l] = " + list_text(P.q) + "\nk [b][j][g][l] = " + list_text(P.k) +
                  "\nv [b][j][g][c] = " + list_text(P.v);
  return s;
}

}  // namespace pv::blackbox::attend_calls
