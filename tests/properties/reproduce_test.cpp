// The decoder of reproduce strings (`posverify replay ID HEX`) against hostile
// strings: each is rejected naming the problem, before any generator runs.
#include "properties/reproduce.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace properties_reproduce_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::prop::decode_reproduce;
using pv::prop::encode_reproduce;

std::string error_of(const std::string& hex, int max_size = 100) {
  try {
    decode_reproduce(hex, max_size);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

rc::detail::Reproduce sample() {
  rc::detail::Reproduce r;
  r.random = rc::Random({1, 2, 3, 0xFFFFFFFFFFFFFFFFull});
  r.random.next();  // a counter and bits that are not zero
  r.size = 57;
  r.shrinkPath = {0, 3, 200, 70000};
  return r;
}

TEST(Reproduce, RoundTrip) {
  const auto r = sample();
  const std::string hex = encode_reproduce(r);
  EXPECT_EQ(decode_reproduce(hex, 100), r);
  std::string upper = hex;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(decode_reproduce(upper, 100), r);
}

TEST(Reproduce, TheAdversarialSizeIsRejected) {
  // 35 zero bytes (key, bits, counter, bit index), size 0xffffffff, empty path:
  // this allocated without limit (6.7 GB after 12 s)
  const std::string hex = std::string(70, '0') + "ffffffff00";
  EXPECT_EQ(error_of(hex), "reproduce string: size 4294967295 is out of range [0, 100]");
  EXPECT_EQ(error_of(std::string(70, '0') + "6400000000"), "");  // size 100 is fine
  EXPECT_NE(error_of(std::string(70, '0') + "6500000000"), "");  // 101 is not
}

TEST(Reproduce, EmptyOddAndNonHexAreRejected) {
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_NE(error_of("abc").find("odd number of hex digits"), std::string::npos);
  EXPECT_NE(error_of("zz").find("character 1 is not a hex digit"), std::string::npos);
  EXPECT_NE(error_of(std::string(pv::prop::max_reproduce_hex + 2, '0')).find("accepted"), std::string::npos);
}

TEST(Reproduce, EveryTruncationIsRejected) {
  // the old decoder read past the end of a truncated string (valgrind)
  const std::string hex = encode_reproduce(sample());
  for (std::size_t n = 2; n < hex.size(); n += 2) {
    const std::string msg = error_of(hex.substr(0, n));
    EXPECT_NE(msg.find("truncated"), std::string::npos) << n << ": " << msg;
  }
  EXPECT_NE(error_of(hex + "00").find("1 trailing bytes"), std::string::npos);
}

TEST(Reproduce, FieldsOutOfRangeAreRejected) {
  const std::string key(64, '0');
  // a varint longer than 64 bits in the random bits
  EXPECT_NE(error_of(key + "ffffffffffffffffffff01" + "00" + "00" + "00000000" + "00").find("does not fit 64 bits"),
            std::string::npos);
  // an overlong varint: RapidCheck writes 72 as 48, not c800
  EXPECT_NE(error_of(key + "c800" + "00" + "00" + "00000000" + "00").find("the random bits has a redundant zero byte"),
            std::string::npos);
  // bit index 65
  EXPECT_NE(error_of(key + "00" + "00" + "41" + "00000000" + "00").find("bit index 65"), std::string::npos);
  // a shrink path claiming more steps than the string holds
  EXPECT_NE(error_of(key + "00" + "00" + "00" + "00000000" + "ff7f").find("truncated in the shrink path (16383 steps"),
            std::string::npos);
  // a shrink step beyond 32 bits
  EXPECT_NE(error_of(key + "00" + "00" + "00" + "00000000" + "01" + "8080808010").find("out of range"),
            std::string::npos);
}

}  // namespace

}  // namespace properties_reproduce_test
