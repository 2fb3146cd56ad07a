// How one operation of the plugin interface (include/posverify/impl.h) is
// described, so that every part of posverify that handles calls walks one
// description instead of spelling each function: the child that calls a
// library (child_calls.cpp), the probe that reads what a library provides
// (loading.cpp), the pipe adapter that sends a call to a server and the
// Python server that decodes it (process_adapter.cpp, docs/protocol.md,
// python/posverify/server.py), the report and `merge`. The rows themselves
// are in operations.h.
//
// An operation has scalars (sizes, a base), buffers and a C function:
// - its *fields* are the values of its request header on the pipe, in order
//   after the dtype byte: the call's scalars, and the members of a
//   configuration struct passed by pointer (pv_rope_config);
// - its *buffers*, in the order of the pipe (configuration structs travel as
//   their fields instead): inputs, at most one buffer rotated in place, and
//   the output; each has a name (the findings say "modified input q"), an
//   element type and a shape in field names;
// - `invoke` calls the C function with the child's guarded buffers.
#pragma once

#include "core/json.h"
#include "posverify/impl.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pv::sandbox {

/// An operation: the index of its row in operations() (operations.h).
enum class op : std::uint8_t;

struct call;

/// How a field travels on the pipe: little-endian, no padding.
enum class wire : std::uint8_t { u8, i32, i64, f64 };

/// One field of a request header.
struct field {
  const char* name = nullptr;  ///< unique in the operation; shapes name fields
  wire type = wire::i64;
  /// -1: the next scalar of the call (call::scalars, in the order of the
  /// fields); else the index of the configuration buffer it is a member of,
  /// at byte `offset` (C type: double for f64, int64_t for i64, int32_t (or a
  /// C enum) for i32 and u8).
  int config = -1;
  std::size_t offset = 0;
  int count = 1;  ///< an array of count values (axes_dim)
  std::int64_t lo = std::numeric_limits<std::int64_t>::min();  ///< allowed values, for a server's checks
  std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  /// For the Python server: the array is cut to this field's value
  /// (axes_dim to n_axes), and the value named by its index ("adjacent|halves").
  const char* length = nullptr;
  const char* names = nullptr;
  /// The pipe protocol version that introduced it (docs/protocol.md): a
  /// request in version v carries the fields of versions 1 .. v only.
  std::uint32_t protocol = 1;
  /// For the Python server: the value is a bool (M-RoPE's flag).
  bool boolean = false;
  /// For the Python server: a dotted name ("scaling.kind") makes the value a
  /// member of an object (`scaling`) of this class of package posverify
  /// (RopeScaling), itself a member of the configuration.
  const char* python_class = nullptr;
};

/// What a buffer holds: values of the call's dtype, float64 (positions),
/// int64 (per-item positions and lengths), or the bytes of a C configuration
/// struct.
enum class elem : std::uint8_t { dtype, f64, config, i64 };
/// in: read only; inout: rotated in place (it is the output); out: written
/// (an operation may have several outputs, after its inputs: out, lse).
enum class role : std::uint8_t { in, inout, out };

struct buffer {
  const char* name = nullptr;
  elem type = elem::dtype;
  role use = role::in;
  /// Its dimensions, in field names, outermost first (row-major): {"n_q", "d"};
  /// a finding names an entry by (row, column), the column the last dimension.
  std::vector<const char*> shape{};
  std::size_t bytes = 0;              ///< config: the size of the struct
  const char* python_class = nullptr; ///< config: the class of package posverify its fields fill (RopeConfig)
  /// Its length in elements when its layout is strided (the shape then
  /// names its logical dimensions only): the span its strides reach.
  std::size_t (*elements)(const call&) = nullptr;
  /// Positions (f64): a Python kernel may ask for them as int64 when they
  /// are whole numbers (docs/python.md).
  bool positions = false;
  /// A strided tensor: the field (a configuration member of count
  /// shape.size() - 1) holding the strides, in elements, of its outer
  /// dimensions; the last is contiguous. An input travels on the pipe as the
  /// span those strides reach (`elements`), an output comes back dense.
  const char* strides = nullptr;
  /// For the Python server: the buffer is a member of this configuration
  /// object (attend's q_start, k_len, sink and alibi of its problem), None
  /// when it has no element; an output member is a bool, whether it is asked for.
  const char* member = nullptr;
  /// For the Python server: the shape the kernel returns this output in,
  /// when it differs (attend's lse: [batch, h_q, n_q] for n_lse entries).
  std::vector<const char*> python_shape{};
  /// A field that, when not 0, packs the tensor's items in one sequence: its
  /// dimension named "batch" (in shape and python_shape) then counts 1
  /// (attend's n_cu: the packed items of FlashAttention's varlen call).
  const char* sequence = nullptr;
};

/// The guarded buffers of a call, as its C function receives them.
struct invocation {
  pv_dtype t = PV_F64;
  const call* c = nullptr;
  std::vector<void*> buf;  ///< one per buffer of the row, in its order
  std::int64_t i(std::size_t k) const;  ///< scalar k as an integer
  double f(std::size_t k) const;        ///< scalar k as a double
  template <class T = void>
  T* p(std::size_t k) const { return static_cast<T*>(buf[k]); }
};

struct operation {
  const char* name = nullptr;  ///< its pv_impl member, its key in reports, its Python method
  std::uint32_t since = 1;     ///< the ABI version whose pv_impl has the member
  std::vector<field> fields{};
  std::vector<buffer> buffers{};
  /// The Python method's arguments, in order: buffer names (configuration
  /// buffers as their python_class), field names, or "dtype".
  std::vector<const char*> python{};
  bool (*provided)(const pv_impl&) = nullptr;  ///< the member is not NULL
  int (*invoke)(const pv_impl&, const invocation&) = nullptr;
  /// Multiply-adds of a call (the per-call time limit grows with it).
  double (*work)(const call&) = nullptr;
  /// What of a call, besides its dtype, a kernel may decline on: the
  /// configuration it asks for (the RoPE configuration struct, the
  /// sinusoid's base), as text. Sizes, positions and values never are: a
  /// kernel's declines are a function of the dtype and this
  /// (blackbox/declines.h). Null: of the dtype alone (attention, and attend,
  /// whose configurations a plugin declares as capabilities instead).
  std::string (*configuration)(const call&) = nullptr;
  /// The ABI version a call needs (1 when null): a plugin declaring less is
  /// never called with it, the call is "unsupported".
  std::uint32_t (*needs)(const call&) = nullptr;
  /// Capabilities: the bits a call needs (null: none) and the bits a plugin
  /// of the row's version declares for it (pv_impl.attend_caps); a call
  /// needing a bit the plugin does not declare is never made, the call is
  /// "unsupported" (a kernel's declines depend only on what it declares).
  std::uint32_t (*demands)(const call&) = nullptr;
  std::uint32_t (*declares)(const pv_impl&) = nullptr;
  /// The sandbox flags a non-finite output as a finding (false: the laws
  /// judge every entry themselves, a declared NaN convention included).
  bool checks_finite = true;
  /// The pipe protocol version that carries it (docs/protocol.md): a server
  /// of an earlier version is never sent it (its `provides` bit is ignored).
  std::uint32_t protocol = 1;

  /// The index of the (first) buffer written (role out or inout); the
  /// outputs are the buffers from there on.
  std::size_t output() const;
  /// The bytes a request header takes on the pipe in protocol version
  /// `protocol` (its fields of that version and earlier), the type and dtype
  /// bytes included (docs/protocol.md).
  std::size_t header_bytes(std::uint32_t protocol) const;
};

std::size_t wire_bytes(wire w);

/// The rows of operations() as JSON: what a server receives in the
/// environment variable POSVERIFY_OPERATIONS to decode requests from
/// (docs/protocol.md, "The operations").
json operations_json();

}  // namespace pv::sandbox
