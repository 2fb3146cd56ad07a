// `posverify check`: runs the laws of attention, RoPE and the sinusoid on an
// implementation a user brings (a shared library exporting posverify_impl(),
// include/posverify/impl.h), in a sandboxed child process; writes
// <name>.md/.json; compares with a baseline; scores a mutation suite.
#pragma once

#include <string>
#include <vector>

/// Entry point of `posverify check ...` (arguments after "check"). Returns
/// 0 every law holds, 1 a law fails or regressed (or a mutant survived),
/// 2 bad usage or a library that cannot be loaded.
int cmd_check(const std::vector<std::string>& args);
