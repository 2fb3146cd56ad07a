// The result channel between a sandboxed child and posverify (internal to
// the sandbox): every result is a fixed header (wire_header: magic, call
// index, return code, status, output length, the cause in words) followed by
// the output bytes. The parent accepts a record only when it is well formed
// for the call it waits for; anything else is a "garbled" finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pv::sandbox {

constexpr std::uint32_t kMagic = 0x31435650;       // "PVC1": the start of every record
constexpr std::uint32_t kNoteEnomem = 0x454E4F4D;  // a record that only says "ENOMEM"
/// The exit status of a child that could not write a result.
constexpr int kExitChannelLost = 120;

struct wire_header {
  std::uint32_t magic;
  std::uint32_t index;
  std::int32_t rc;
  std::uint32_t st;
  std::uint32_t out_len;
  char detail[400];
};

void set_detail(wire_header& h, const std::string& s);

/// What the child writes to its stderr before call i, so that the parent
/// can tell which call said what.
std::string stderr_marker(std::size_t i);

/// Child: sends one record; a child that cannot says so on stderr and exits
/// with kExitChannelLost.
void send(std::size_t index, const wire_header& h, const std::vector<unsigned char>& out);

/// Parent: whether h is a well-formed record of call `index` with out_len
/// bytes expected on success.
bool well_formed(const wire_header& h, std::uint32_t index, std::size_t out_len);

/// Parent: the finding for a record that is not one.
std::string garbled_detail(const wire_header& h, std::size_t index);

}  // namespace pv::sandbox
