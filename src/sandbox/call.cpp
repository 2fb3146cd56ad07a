#include "sandbox/call.h"

#include "sandbox/half_formats.h"
#include "sandbox/operations.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace pv::sandbox {

const operation& operation_of(op o) { return operations().at(std::size_t(o)); }

const char* to_string(op o) {
  return std::size_t(o) < operations().size() ? operations()[std::size_t(o)].name : "?";
}

std::vector<unsigned char> bytes_of(const std::vector<double>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(double));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

call::call(op o, pv_dtype dt, std::vector<scalar> s, std::vector<std::vector<unsigned char>> bufs)
    : kind(o), t(dt), scalars(std::move(s)), in(std::move(bufs)) {
  const operation& r = row();
  std::size_t ns = 0, nb = 0;
  for (const field& f : r.fields) ns += f.config < 0;
  for (const buffer& b : r.buffers) nb += b.use != role::out;
  if (scalars.size() != ns || in.size() != nb)
    throw std::logic_error(std::string("a ") + r.name + " call needs " + std::to_string(ns) + " scalars and " +
                           std::to_string(nb) + " buffers, not " + std::to_string(scalars.size()) + " and " +
                           std::to_string(in.size()));
}

const std::vector<unsigned char>& call::input(std::size_t k) const { return in.at(k); }

std::int64_t call::dim(std::string_view name) const {
  std::size_t k = 0;
  for (const field& f : row().fields) {
    if (name == f.name) {
      if (f.config < 0) return scalars.at(k).i;
      const auto& cfg = input(std::size_t(f.config));
      if (f.type == wire::i64) {
        std::int64_t v = 0;
        if (f.offset + 8 <= cfg.size()) std::memcpy(&v, cfg.data() + f.offset, 8);
        return v;
      }
      std::int32_t v = 0;
      if (f.offset + 4 <= cfg.size()) std::memcpy(&v, cfg.data() + f.offset, 4);
      return v;
    }
    k += f.config < 0;
  }
  throw std::logic_error(std::string(row().name) + " has no field " + std::string(name));
}

std::size_t call::bytes(const buffer& b) const {
  if (b.type == elem::config) return b.bytes;
  const std::size_t es = b.type == elem::f64 || b.type == elem::i64 ? 8 : elem_size(t);
  if (b.elements) return b.elements(*this) * es;
  return dense_bytes(b);
}

std::int64_t call::extent(const buffer& b, std::size_t axis) const {
  const char* d = b.shape.at(axis);
  return std::string_view(d) == "batch" ? batch_extent(b.sequence, dim(d)) : dim(d);
}

std::int64_t call::batch_extent(const char* sequence, std::int64_t batch) const {
  return sequence && dim(sequence) != 0 ? std::min<std::int64_t>(batch, 1) : batch;
}

std::size_t call::dense_bytes(const buffer& b) const {
  std::size_t n = b.type == elem::f64 || b.type == elem::i64 ? 8 : elem_size(t);
  for (std::size_t a = 0; a < b.shape.size(); ++a) n *= std::size_t(std::max<std::int64_t>(extent(b, a), 0));
  return n;
}

std::size_t call::out_bytes() const {
  std::size_t n = 0;
  for (const buffer& b : row().buffers)
    if (b.use == role::out) n += bytes(b);
  return n + (row().buffers[row().output()].use == role::inout ? bytes(row().buffers[row().output()]) : 0);
}

double call::work() const { return row().work(*this); }

std::int64_t invocation::i(std::size_t k) const { return c->scalars.at(k).i; }
double invocation::f(std::size_t k) const { return c->scalars.at(k).f; }

const char* to_string(status s) {
  switch (s) {
    case status::ok: return "ok";
    case status::unsupported: return "unsupported";
    case status::error_code: return "error-code";
    case status::crashed: return "crashed";
    case status::hung: return "hung";
    case status::guard: return "wrote-outside-buffer";
    case status::input_written: return "modified-input";
    case status::non_finite: return "non-finite-output";
    case status::garbled: return "garbled-result";
    case status::not_run: return "not-run";
  }
  return "?";
}

}  // namespace pv::sandbox
