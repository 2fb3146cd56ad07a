#include "sandbox/operation.h"

#include "sandbox/operations.h"

#include <stdexcept>
#include <string>

namespace pv::sandbox {

std::size_t wire_bytes(wire w) {
  switch (w) {
    case wire::u8: return 1;
    case wire::i32: return 4;
    case wire::i64: return 8;
    case wire::f64: return 8;
  }
  return 0;
}

std::size_t operation::output() const {
  for (std::size_t k = 0; k < buffers.size(); ++k)
    if (buffers[k].use != role::in && buffers[k].type != elem::config) return k;
  throw std::logic_error(std::string(name) + " has no output buffer");
}

std::size_t operation::header_bytes(std::uint32_t protocol) const {
  std::size_t n = 2;  // request type, dtype
  for (const field& f : fields)
    if (f.protocol <= protocol) n += wire_bytes(f.type) * std::size_t(f.count);
  return n;
}

namespace {

const char* wire_name(wire w) {
  switch (w) {
    case wire::u8: return "u8";
    case wire::i32: return "i32";
    case wire::i64: return "i64";
    case wire::f64: return "f64";
  }
  return "?";
}

const char* elem_name(elem e) {
  return e == elem::dtype ? "dtype" : e == elem::f64 ? "f64" : e == elem::i64 ? "i64" : "config";
}
const char* role_name(role r) { return r == role::in ? "in" : r == role::inout ? "inout" : "out"; }

}  // namespace

json operations_json() {
  json all = json::array();
  const auto& rows = operations();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const operation& o = rows[k];
    json row = json::object();
    row.set("name", json::string(o.name));
    row.set("request", json::integer(std::int64_t(k) + 2));
    row.set("bit", json::integer(std::int64_t(k)));
    row.set("protocol", json::integer(o.protocol));
    json fields = json::array();
    for (const field& f : o.fields) {
      json j = json::object();
      j.set("name", json::string(f.name));
      j.set("wire", json::string(wire_name(f.type)));
      if (f.count != 1) j.set("count", json::integer(f.count));
      if (f.config >= 0) j.set("of", json::string(o.buffers.at(std::size_t(f.config)).name));
      if (f.lo != field{}.lo) j.set("min", json::integer(f.lo));
      if (f.hi != field{}.hi) j.set("max", json::integer(f.hi));
      if (f.length) j.set("length", json::string(f.length));
      if (f.names) j.set("names", json::string(f.names));
      j.set("protocol", json::integer(f.protocol));
      if (f.boolean) j.set("bool", json::boolean(true));
      if (f.python_class) j.set("class", json::string(f.python_class));
      fields.push(std::move(j));
    }
    row.set("fields", std::move(fields));
    json bufs = json::array();
    for (const buffer& b : o.buffers) {
      json j = json::object();
      j.set("name", json::string(b.name));
      j.set("elem", json::string(elem_name(b.type)));
      j.set("role", json::string(role_name(b.use)));
      json shape = json::array();
      for (const char* d : b.shape) shape.push(json::string(d));
      j.set("shape", std::move(shape));
      if (b.python_class) j.set("class", json::string(b.python_class));
      if (b.positions) j.set("positions", json::boolean(true));
      if (b.strides) j.set("strides", json::string(b.strides));
      if (b.sequence) j.set("sequence", json::string(b.sequence));
      if (b.member) j.set("member", json::string(b.member));
      if (!b.python_shape.empty()) {
        json ps = json::array();
        for (const char* d : b.python_shape) ps.push(json::string(d));
        j.set("python_shape", std::move(ps));
      }
      bufs.push(std::move(j));
    }
    row.set("buffers", std::move(bufs));
    json py = json::array();
    for (const char* a : o.python) py.push(json::string(a));
    row.set("python", std::move(py));
    all.push(std::move(row));
  }
  return all;
}

}  // namespace pv::sandbox
