// libFuzzer target: the decoder of reproduce strings (properties/reproduce.cpp)
// behind `posverify replay ID HEX`. Invariants: no crash or read past the
// input (ASan), only std::invalid_argument, and an accepted string encodes back
// to itself (lower case).
#include "properties/reproduce.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string hex(reinterpret_cast<const char*>(data), size);
  rc::detail::Reproduce r;
  try {
    r = pv::prop::decode_reproduce(hex, 100);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (r.size < 0 || r.size > 100) std::abort();
  std::string lower = hex;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (pv::prop::encode_reproduce(r) != lower) std::abort();
  return 0;
}
