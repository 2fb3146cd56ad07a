// The Markdown and number-formatting layer of every report (markdown.h).
#include "reports/markdown.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace reports_markdown_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::json;
namespace md = pv::md;

TEST(MarkdownNum, FourSignificantDigitsInPrintfLayout) {
  EXPECT_EQ(md::num(std::string("1.7272337110188889250772703725600799142232e-77")), "1.727e-77");
  EXPECT_EQ(md::num(std::string("2.2204460492503130808472633361816406250000e-16")), "2.22e-16");
  EXPECT_EQ(md::num(std::string("0.14495890")), "0.145");
  EXPECT_EQ(md::num(std::string("0.12345")), "0.1235");  // half away from zero on the digits
  EXPECT_EQ(md::num(std::string("-0.12344")), "-0.1234");
  EXPECT_EQ(md::num(std::string("6.061147716626105726085108986389448558554e4")), "6.061e+04");
  EXPECT_EQ(md::num(std::string("1234.56")), "1235");
  EXPECT_EQ(md::num(std::string("9999.6")), "1e+04");  // the carry moves the exponent
  EXPECT_EQ(md::num(std::string("0.000123456")), "0.0001235");
  EXPECT_EQ(md::num(std::string("0.0000123456")), "1.235e-05");
  EXPECT_EQ(md::num(std::string("1.036632928438e+00")), "1.037");
  EXPECT_EQ(md::num(std::string(".5")), "0.5");
}

TEST(MarkdownNum, ExactIntegersStayIntegers) {
  EXPECT_EQ(md::num(std::string("3.0000000000000000000000000000000000000000e+00")), "3");
  EXPECT_EQ(md::num(std::string("1.3000000000000000000000000000000000000000e+01")), "13");
  EXPECT_EQ(md::num(std::string("-8.0e+01")), "-80");
  EXPECT_EQ(md::num(std::string("123456789")), "123456789");  // every digit, not 1.235e+08
  EXPECT_EQ(md::num(std::string("1e14")), "100000000000000");  // 15 digits
  EXPECT_EQ(md::num(std::string("1e15")), "1e+15");            // 16: a figure
  EXPECT_EQ(md::num(std::string("1.2345678e40")), "1.235e+40");  // too long for an integer
  EXPECT_EQ(md::num(std::int64_t{-42}), "-42");
  EXPECT_EQ(md::num(3.0), "3");
  EXPECT_EQ(md::num(65536.0), "65536");
}

TEST(MarkdownNum, ZeroSignsInfinitiesAndNaN) {
  EXPECT_EQ(md::num(std::string("0")), "0");
  EXPECT_EQ(md::num(std::string("0.000e+00")), "0");
  EXPECT_EQ(md::num(std::string("-0.0")), "-0");
  EXPECT_EQ(md::num(0.0), "0");
  EXPECT_EQ(md::num(-0.0), "-0");
  EXPECT_EQ(md::num(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(md::num(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(md::num(std::nan("")), "NaN");
  EXPECT_EQ(md::num(std::string("inf")), "inf");
  EXPECT_EQ(md::num(std::string("-inf")), "-inf");
  EXPECT_EQ(md::num(std::string("nan")), "NaN");
}

TEST(MarkdownNum, ExponentsBeyondDoubleKeepTheirValue) {
  EXPECT_EQ(md::num(std::string("1.23456e-400")), "1.235e-400");
  EXPECT_EQ(md::num(std::string("-9.99999e+1000")), "-1e+1001");
  EXPECT_EQ(md::num(4.9406564584124654e-324), "4.941e-324");  // the least subnormal
  EXPECT_EQ(md::num(1.7976931348623157e308), "1.798e+308");
  EXPECT_EQ(md::num(2.2250738585072014e-308), "2.225e-308");
}

TEST(MarkdownNum, TextThatIsNotANumberIsUnchanged) {
  for (const char* t : {"", "-", "1e", "1.2.3", "10000*2*pi (62831.853)", "abc", "0x10", "1e+"})
    EXPECT_EQ(md::num(std::string(t)), t) << t;
}

TEST(MarkdownValue, JsonValuesForPeople) {
  EXPECT_EQ(md::value(json::integer(3)), "3");
  EXPECT_EQ(md::value(json::number("2.2204460492503130808e-16")), "2.22e-16");
  EXPECT_EQ(md::value(json::string("1.0000000000000000000e+00")), "1");
  EXPECT_EQ(md::value(json::boolean(false)), "no");
  EXPECT_EQ(md::value(json()), "—");
  EXPECT_EQ(md::value(json::array().push(json::integer(1)).push(json::string("0.333333333"))), "[1, 0.3333]");
  json o = json::object();
  o.set("a", json::integer(2));
  o.set("b", json::string("x"));
  EXPECT_EQ(md::value(o), "a = 2; b = x");
}

TEST(MarkdownProse, ShortensLongFiguresOnly) {
  EXPECT_EQ(md::prose("|difference| = 2.4688102379599708225482488298811571298458e+01 exceeds the tolerance "
                      "2.2040570690869089970777561551582887267246e-05"),
            "|difference| = 24.69 exceeds the tolerance 2.204e-05");
  EXPECT_EQ(md::prose("got -23.2873821, reference 1.40072025374521603798e+00"), "got -23.29, reference 1.401");
  // short figures, integers, identifiers, versions and code spans stay
  EXPECT_EQ(md::prose("3.0 ulp at position 123456789 in float32, v0.1.0, printed 0.866"),
            "3.0 ulp at position 123456789 in float32, v0.1.0, printed 0.866");
  EXPECT_EQ(md::prose("0.1.0 and 1.2345678.5"), "0.1.0 and 1.2345678.5");
  EXPECT_EQ(md::prose("replay `--max-position 1.2345678e6` or 1.2345678e6"),
            "replay `--max-position 1.2345678e6` or 1.235e+06");
  EXPECT_EQ(md::prose("x1.2345678 and 1.2345678x"), "x1.2345678 and 1.2345678x");
}

TEST(MarkdownCell, EscapesPipesAndNewlines) {
  EXPECT_EQ(pv::markdown_cell("a|b\nc"), "a\\|b<br>c");
  EXPECT_EQ(pv::markdown_cell("plain"), "plain");
}

TEST(MarkdownTable, RowsStayOnOneLine) {
  md::table t({"law", "ratio"});
  t.row({"`a`", md::num(0.123456)}).row({"two\nlines"});
  EXPECT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.str(), "| law | ratio |\n|---|---|\n| `a` | 0.1235 |\n| two<br>lines |  |\n");
  EXPECT_EQ(md::heading(2, "At a glance"), "## At a glance\n\n");
  EXPECT_EQ(md::heading(9, "x"), "###### x\n\n");
}

}  // namespace

namespace {

TEST(MarkdownWrap, BreaksAtSpacesButNotInCodeOrBeforeBlockSyntax) {
  EXPECT_EQ(pv::md::wrap("aaa bbb ccc ddd", 7), "aaa bbb\nccc ddd");
  EXPECT_EQ(pv::md::wrap("- aaa bbb ccc", 9, "  "), "- aaa bbb\n  ccc");
  EXPECT_EQ(pv::md::wrap("aa `x y z` bb", 5), "aa\n`x y z`\nbb");  // a span stays whole
  EXPECT_EQ(pv::md::wrap("aaa - bbb", 3), "aaa -\nbbb");           // "-" never starts a line
  EXPECT_EQ(pv::md::wrap("aaa 12. bbb", 3), "aaa 12.\nbbb");      // nor "12."
  EXPECT_EQ(pv::md::wrap("aaa #x", 3), "aaa #x");                  // nor a heading
  EXPECT_EQ(pv::md::wrap("averyveryverylongword x", 5), "averyveryverylongword\nx");
  EXPECT_EQ(pv::md::wrap("", 5), "");
}

}  // namespace

namespace {

TEST(MarkdownUntrusted, NoTagCanStartOutsideACodeSpan) {
  namespace md = pv::md;
  EXPECT_EQ(md::untrusted("<script>alert(1)</script>"), "&lt;script>alert(1)&lt;/script>");
  EXPECT_EQ(md::untrusted("<img src=x onerror=alert(1)> <!-- c"), "&lt;img src=x onerror=alert(1)> &lt;!-- c");
  EXPECT_EQ(md::untrusted("a `x<y` b"), "a `x<y` b");              // a code span shows '<' literally
  EXPECT_EQ(md::untrusted("``a`<b``"), "``a`<b``");                // closed by a run of the same length
  EXPECT_EQ(md::untrusted("``a<b`"), "``a&lt;b`");                 // no closing run of 2: literal backticks
  EXPECT_EQ(md::untrusted("``a`<b`"), "``a`<b`");                  // ... then a span of 1 opens
  EXPECT_EQ(md::untrusted("\\`<img>`"), "\\`&lt;img>`");           // an escaped backtick opens no span
  EXPECT_EQ(md::untrusted("\\\\`<i>`"), "\\\\`<i>`");              // an escaped backslash: the span opens
  EXPECT_EQ(md::untrusted("\\<b>"), "\\<b>");                      // already literal
  EXPECT_EQ(md::untrusted("x < y, 3 > 2"), "x &lt; y, 3 > 2");
  EXPECT_EQ(md::untrusted(""), "");
}

TEST(MarkdownFence, LongerThanAnyBacktickRunInside) {
  EXPECT_EQ(pv::md::fence("a = 1"), "```");
  EXPECT_EQ(pv::md::fence("```\n<script>"), "````");
  EXPECT_EQ(pv::md::fence("`````"), "``````");
}

}  // namespace

}  // namespace reports_markdown_test
