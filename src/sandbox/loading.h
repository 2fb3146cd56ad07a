// Loading a plugin (internal to the sandbox): dlopen and posverify_impl() in
// a child, and what the library provides, read from its pv_impl through the
// operation table (a member exists from its row's ABI version on).
#pragma once

#include "posverify/impl.h"

#include <cstdint>
#include <string>

namespace pv::sandbox {

/// Child: dlopens path and returns its pv_impl; nullptr with err set.
const pv_impl* load_in_child(const std::string& path, std::string& err);

/// Bit k set when impl provides operation k: its ABI version has the row's
/// member and the member is not NULL.
std::uint32_t provided_by(const pv_impl& impl);

/// The dtypes impl is offered, as PV_DTYPE_BIT bits: float32 and float64
/// always, float16 and bfloat16 only as its `dtypes` declares them (version 5;
/// no earlier version declares any, whatever it implied before).
std::uint32_t offered_dtypes(const pv_impl& impl);

}  // namespace pv::sandbox
