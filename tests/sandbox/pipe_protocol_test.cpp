// The negotiation of the pipe protocol (docs/protocol.md): posverify's HELLO
// offers its highest version (4), the server answers the version it speaks,
// versions 1 to 4 are accepted with their own layouts (version 2's answer
// adds the RoPE configurations the server declares, version 4's its attend
// capabilities and empty-row convention; version 1 gets partial rotary
// only), any other is refused naming both.
#include "sandbox/operations.h"
#include "sandbox/process_adapter.h"
#include "sandbox/sandbox.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace sandbox_pipe_protocol_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::sandbox;

template <class T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

/// A HELLO answer's payload in version `version` (rope_caps appended when
/// `caps` is given).
std::string hello_payload(std::uint32_t version, std::uint8_t provides, const std::string& name,
                          const std::string& accuracy, const std::uint32_t* caps) {
  std::string p;
  put<std::uint32_t>(p, version);
  put<std::uint8_t>(p, provides);
  put<std::uint32_t>(p, std::uint32_t(name.size()));
  p += name;
  put<std::uint32_t>(p, std::uint32_t(accuracy.size()));
  p += accuracy;
  if (caps) put<std::uint32_t>(p, *caps);
  return p;
}

TEST(PipeProtocol, Version1AnswerIsReadAsBeforeAndGetsPartialRotaryOnly) {
  hello_answer h;
  ASSERT_EQ(read_hello(hello_payload(1, 0b110, "k1", "bfloat16", nullptr), h), "");
  EXPECT_EQ(h.version, 1u);
  EXPECT_EQ(h.provides, 0b110);
  EXPECT_EQ(h.name, "k1");
  EXPECT_EQ(h.accuracy, "bfloat16");
  EXPECT_EQ(h.rope_caps, std::uint32_t(PV_ROPE_PARTIAL)) << "version 1 carries no M-RoPE or scaling";
}

TEST(PipeProtocol, Version2AnswerCarriesTheDeclaredRopeConfigurations) {
  hello_answer h;
  std::uint32_t caps = PV_ROPE_MROPE | PV_ROPE_SCALED;
  ASSERT_EQ(read_hello(hello_payload(2, 0b010, "full", "", &caps), h), "");
  EXPECT_EQ(h.version, 2u);
  EXPECT_EQ(h.name, "full");
  EXPECT_EQ(h.accuracy, "");
  EXPECT_EQ(h.rope_caps, caps) << "exactly what it declares: no partial rotary here";
  caps = 0xF0u | PV_ROPE_PARTIAL;  // bits of no configuration are dropped, as for a plugin
  ASSERT_EQ(read_hello(hello_payload(2, 0b010, "x", "", &caps), h), "");
  EXPECT_EQ(h.rope_caps, std::uint32_t(PV_ROPE_PARTIAL));
  caps = 0;
  ASSERT_EQ(read_hello(hello_payload(2, 0b010, "plain", "", &caps), h), "");
  EXPECT_EQ(h.rope_caps, 0u) << "plain configurations only";
  // a rotary offset and frequency factors travel in version 3 only: a version-2
  // server declaring them is not taken at its word
  caps = PV_ROPE_SCALED | PV_ROPE_ROTARY_OFFSET | PV_ROPE_FREQ_FACTORS;
  ASSERT_EQ(read_hello(hello_payload(2, 0b010, "v2", "", &caps), h), "");
  EXPECT_EQ(h.rope_caps, std::uint32_t(PV_ROPE_SCALED));
  ASSERT_EQ(read_hello(hello_payload(3, 0b010, "v3", "", &caps), h), "");
  EXPECT_EQ(h.version, 3u);
  EXPECT_EQ(h.rope_caps, caps);
}

TEST(PipeProtocol, MalformedAndUnknownVersionsAreRefused) {
  hello_answer h;
  const std::string without_caps = hello_payload(2, 1, "k", "", nullptr);
  const std::string e = read_hello(without_caps, h);
  EXPECT_NE(e.find("malformed"), std::string::npos) << e;
  EXPECT_NE(e.find("rope_caps"), std::string::npos) << e;
  for (std::uint32_t v : {0u, 7u, 8u}) {
    const std::uint32_t caps = 0;
    const std::string r = read_hello(hello_payload(v, 1, "k", "", &caps), h);
    EXPECT_NE(r.find("it speaks protocol version " + std::to_string(v) + ", posverify speaks versions 1 to 6"),
              std::string::npos)
        << r;
  }
  EXPECT_NE(read_hello(std::string(3, '\0'), h).find("malformed"), std::string::npos);
}

TEST(PipeProtocol, Version4AnswerCarriesTheAttendCapabilitiesAndEmptyRowConvention) {
  hello_answer h;
  const std::uint32_t caps = PV_ROPE_PARTIAL;
  std::string p = hello_payload(4, 0b1010, "eager", "", &caps);
  // bits of no capability or declaration are dropped; the fixed-schedule declaration (256) is kept
  put<std::uint32_t>(p, PV_ATTEND_CAUSAL | PV_ATTEND_GQA | PV_ATTEND_FIXED_SCHEDULE | 0xE00u);
  put<std::uint32_t>(p, PV_EMPTY_MEAN);
  ASSERT_EQ(read_hello(p, h), "");
  EXPECT_EQ(h.version, 4u);
  EXPECT_EQ(h.provides, 0b1010);
  EXPECT_EQ(h.attend_caps, std::uint32_t(PV_ATTEND_CAUSAL | PV_ATTEND_GQA | PV_ATTEND_FIXED_SCHEDULE));
  EXPECT_EQ(h.attend_empty_rows, std::uint32_t(PV_EMPTY_MEAN));
  // a version-3 answer declares nothing for attend (it is never sent one)
  ASSERT_EQ(read_hello(hello_payload(3, 0b1010, "v3", "", &caps), h), "");
  EXPECT_EQ(h.attend_caps, 0u);
  EXPECT_EQ(h.attend_empty_rows, 0u);
  // too short, or a convention that does not exist: refused, naming it
  std::string e = read_hello(hello_payload(4, 0b1010, "short", "", &caps), h);
  EXPECT_NE(e.find("too few for attend_caps and attend_empty_rows"), std::string::npos) << e;
  p = hello_payload(4, 0b1010, "odd", "", &caps);
  put<std::uint32_t>(p, 0);
  put<std::uint32_t>(p, 7);
  e = read_hello(p, h);
  EXPECT_NE(e.find("attend_empty_rows 7"), std::string::npos) << e;
}

/// A temporary directory with a server script that records posverify's HELLO
/// request and answers `answer` (a whole frame).
struct scripted_server {
  std::string dir;
  explicit scripted_server(const std::string& payload) {
    char t[] = "/tmp/pv_pipe_protocol_XXXXXX";
    dir = ::mkdtemp(t);
    std::string frame;
    put<std::uint32_t>(frame, std::uint32_t(6 + payload.size()));
    put<std::uint8_t>(frame, 0);   // ok
    put<std::uint8_t>(frame, 0);   // written
    put<std::uint32_t>(frame, 0);  // no text
    frame += payload;
    std::ofstream(dir + "/answer", std::ios::binary) << frame;
  }
  std::string spec() const {
    return "cmd:sh -c 'head -c 9 > " + dir + "/hello; cat " + dir + "/answer; cat > /dev/null'";
  }
  std::string hello_request() const {
    std::ifstream f(dir + "/hello", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }
  ~scripted_server() { std::system(("rm -rf " + dir).c_str()); }
};

TEST(PipeProtocol, HelloOffersVersion4AndTheAnswerSetsWhatTheServerIsSent) {
  runner_options o;
  std::string want_hello;
  put<std::uint32_t>(want_hello, 5);
  put<std::uint8_t>(want_hello, 1);  // HELLO
  put<std::uint32_t>(want_hello, 6);
  const std::uint32_t scaled = PV_ROPE_SCALED;
  {
    scripted_server s(hello_payload(2, 0b1010, "v2", "", &scaled));
    const impl_info info = probe_process(s.spec(), o);
    EXPECT_EQ(s.hello_request(), want_hello) << "posverify offers the highest version it speaks";
    EXPECT_TRUE(info.has(op::rope));
    EXPECT_FALSE(info.has(op::attend)) << "a version-2 server is never sent attend, whatever it says";
    EXPECT_EQ(info.name, "v2");
    EXPECT_EQ(info.rope_caps, scaled) << "what the server declares, nothing else";
  }
  {
    scripted_server s(hello_payload(1, 0b010, "v1", "", nullptr));
    const impl_info info = probe_process(s.spec(), o);
    EXPECT_EQ(info.name, "v1");
    EXPECT_EQ(info.rope_caps, std::uint32_t(PV_ROPE_PARTIAL)) << "a version-1 server as before";
  }
  {
    std::string p = hello_payload(4, 0b1010, "v4", "", &scaled);
    put<std::uint32_t>(p, PV_ATTEND_CAUSAL | PV_ATTEND_WINDOW);
    put<std::uint32_t>(p, PV_EMPTY_ZEROS);
    scripted_server s(p);
    const impl_info info = probe_process(s.spec(), o);
    EXPECT_TRUE(info.has(op::attend));
    EXPECT_EQ(info.attend_caps, std::uint32_t(PV_ATTEND_CAUSAL | PV_ATTEND_WINDOW));
    EXPECT_EQ(info.attend_empty_rows, std::uint32_t(PV_EMPTY_ZEROS));
  }
  // the explicit bias travels from version 5, packed items from version 6: a server of an earlier
  // version declaring them is never sent one
  for (std::uint32_t v : {4u, 5u, 6u}) {
    std::string p = hello_payload(v, 0b1010, "v", "", &scaled);
    put<std::uint32_t>(p, PV_ATTEND_CAUSAL | PV_ATTEND_BIAS | PV_ATTEND_VARLEN);
    put<std::uint32_t>(p, PV_EMPTY_ZEROS);
    scripted_server s(p);
    const impl_info info = probe_process(s.spec(), o);
    EXPECT_EQ(info.attend_caps, std::uint32_t(PV_ATTEND_CAUSAL | (v >= 5 ? PV_ATTEND_BIAS : 0u) |
                                              (v >= 6 ? PV_ATTEND_VARLEN : 0u)))
        << v;
  }
  {
    scripted_server s(hello_payload(7, 0b010, "v7", "", &scaled));
    try {
      probe_process(s.spec(), o);
      ADD_FAILURE() << "a version-7 answer was accepted";
    } catch (const load_error& e) {
      EXPECT_NE(std::string(e.what()).find("it speaks protocol version 7, posverify speaks versions 1 to 6"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace

}  // namespace sandbox_pipe_protocol_test
