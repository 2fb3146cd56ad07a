// The operations of the plugin interface (include/posverify/impl.h), one row
// each (the description: operation.h). The child, the probe, the pipe
// adapter, the Python server (which receives this table, docs/protocol.md),
// the report and `merge` walk these rows; the black-box laws of an operation
// register under its op (blackbox/laws.h).
//
// Adding an operation: its member at the end of pv_impl (a new ABI version,
// `since`), an enumerator and a row here, and its laws. The enumerators
// follow the rows: op k is row k, provides bit k (the probe, the HELLO of
// the pipe) and request type k + 2 on the pipe.
#pragma once

#include "sandbox/call.h"
#include "sandbox/operation.h"

#include <cstddef>
#include <vector>

namespace pv::sandbox {

enum class op : std::uint8_t { attention, rope, sinusoid };

inline const std::vector<operation>& operations() {
  static const std::vector<operation> rows = {
      {
          // out[n_q x d_v] = softmax(q k^T / sqrt(d)) v
          .name = "attention",
          .since = 1,
          .fields = {{.name = "n_q"}, {.name = "n_k"}, {.name = "d"}, {.name = "d_v"}},
          .buffers = {{.name = "q", .shape = {"n_q", "d"}},
                      {.name = "k", .shape = {"n_k", "d"}},
                      {.name = "v", .shape = {"n_k", "d_v"}},
                      {.name = "out", .use = role::out, .shape = {"n_q", "d_v"}}},
          .python = {"q", "k", "v"},
          .provided = [](const pv_impl& f) { return f.attention != nullptr; },
          .invoke = [](const pv_impl& f, const invocation& a) {
            return f.attention(a.t, a.p(0), a.p(1), a.p(2), a.i(0), a.i(1), a.i(2), a.i(3), a.p(3));
          },
          .work = [](const call& c) {
            return double(c.dim("n_q")) * double(c.dim("n_k")) * double(c.dim("d") + c.dim("d_v"));
          },
      },
      {
          // rotates x[n x head_dim] in place; pos[n x n_axes]
          .name = "rope",
          .since = 1,
          .fields = {{.name = "n"},
                     {.name = "head_dim", .type = wire::i32, .config = 0, .offset = offsetof(pv_rope_config, head_dim)},
                     {.name = "n_axes", .type = wire::i32, .config = 0, .offset = offsetof(pv_rope_config, n_axes),
                      .lo = 1, .hi = 4},
                     {.name = "axes_dim", .type = wire::i32, .config = 0, .offset = offsetof(pv_rope_config, axes_dim),
                      .count = 4, .length = "n_axes"},
                     {.name = "theta", .type = wire::f64, .config = 0, .offset = offsetof(pv_rope_config, theta)},
                     {.name = "pairing", .type = wire::u8, .config = 0, .offset = offsetof(pv_rope_config, pairing),
                      .lo = 0, .hi = 1, .names = "adjacent|halves"}},
          .buffers = {{.name = "cfg", .type = elem::config, .bytes = sizeof(pv_rope_config),
                       .python_class = "RopeConfig"},
                      {.name = "pos", .type = elem::f64, .shape = {"n", "n_axes"}},
                      {.name = "x", .use = role::inout, .shape = {"n", "head_dim"}}},
          .python = {"x", "pos", "cfg"},
          .provided = [](const pv_impl& f) { return f.rope != nullptr; },
          .invoke = [](const pv_impl& f, const invocation& a) {
            return f.rope(a.t, a.p<const pv_rope_config>(0), a.p<const double>(1), a.i(0), a.p(2));
          },
          .work = [](const call& c) { return double(c.dim("n")) * double(c.dim("head_dim")); },
          // partial rotary, M-RoPE, scaled speeds: version 3 (pv_rope_config_version)
          .needs = [](const call& c) {
            return std::uint32_t(pv_rope_config_version(reinterpret_cast<const pv_rope_config*>(c.input(0).data())));
          },
      },
      {
          // out[n x d] = additive sinusoid, adjacent (sin, cos) pairs
          .name = "sinusoid",
          .since = 1,
          .fields = {{.name = "n"}, {.name = "d"}, {.name = "base", .type = wire::f64}},
          .buffers = {{.name = "pos", .type = elem::f64, .shape = {"n"}},
                      {.name = "out", .use = role::out, .shape = {"n", "d"}}},
          .python = {"pos", "d", "base", "dtype"},
          .provided = [](const pv_impl& f) { return f.sinusoid != nullptr; },
          .invoke = [](const pv_impl& f, const invocation& a) {
            return f.sinusoid(a.t, a.i(1), a.f(2), a.p<const double>(0), a.i(0), a.p(1));
          },
          .work = [](const call& c) { return double(c.dim("n")) * double(c.dim("d")); },
      },
  };
  return rows;
}

}  // namespace pv::sandbox
