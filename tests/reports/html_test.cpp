// The HTML page writer (src/report/html.*): numbers as tables show them, and
// text from reports that cannot end a <script> element early.
#include "reports/html.h"

#include <gtest/gtest.h>

namespace reports_html_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::json;

TEST(HtmlDisplay, IntegersWholeOthersAtFourDigits) {
  EXPECT_EQ(pv::html::display(json::number("16385")), "16385");  // %.4g would say 1.638e+04
  EXPECT_EQ(pv::html::display(json::integer(-3)), "-3");
  EXPECT_EQ(pv::html::display(json::number("0.123456")), "0.1235");
  EXPECT_EQ(pv::html::display(json::number("1.7272337110188889e-77")), "1.727e-77");
  EXPECT_EQ(pv::html::display(json()), "\u2014");
  EXPECT_EQ(pv::html::display(json::string("a<b")), "a<b");  // escaped by the table, not here
}

TEST(HtmlPage, LabelsCannotCloseTheSpecScript) {
  pv::html::chart c{"c1", "t", "", pv::html::spec(R"({"mark": "bar"})"), json::array(), {{"law", "law"}}, {}};
  c.rows.push(pv::html::row({{"law", json::string("x</script><script>alert(1)</script>")}}));
  const std::string page = pv::html::page("p", "", {{"s", "", {c}}});
  const auto spec_at = page.find("id=\"c1-spec\">");
  ASSERT_NE(spec_at, std::string::npos);
  const auto spec_end = page.find("</script>", spec_at);
  const std::string spec = page.substr(spec_at, spec_end - spec_at);
  EXPECT_NE(spec.find("x\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"), std::string::npos) << spec;
  // the table cell is escaped HTML
  EXPECT_NE(page.find("x&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST(HtmlPage, ACommentOpenerInALabelCannotSwallowThePage) {
  // "<!--<script>" inside a script element puts the HTML parser into the
  // script-data double-escaped state: the "</script>" that should end the
  // element no longer does, and the rest of the page (the rendering code) is
  // swallowed. No '<' at all may reach the inside of a script element.
  pv::html::chart c{"c1", "t", "", pv::html::spec(R"({"mark": "bar"})"), json::array(), {{"law", "law"}}, {}};
  c.rows.push(pv::html::row({{"law", json::string("<!--<script>")}}));
  const std::string page = pv::html::page("p", "", {{"s", "", {c}}});
  const std::string open = "id=\"c1-spec\">";
  const auto spec_at = page.find(open);
  ASSERT_NE(spec_at, std::string::npos);
  const auto spec_end = page.find("</script>", spec_at);
  const std::string spec = page.substr(spec_at + open.size(), spec_end - spec_at - open.size());
  EXPECT_EQ(spec.find('<'), std::string::npos) << spec;
  EXPECT_NE(spec.find("\\u003c!--\\u003cscript>"), std::string::npos) << spec;
  // the string the script reads back is the label
  EXPECT_EQ(json::parse(spec).find("data")->find("values")->items()[0].second.find("law")->as_string(),
            "<!--<script>");
  // the rendering script is still its own element after the spec
  EXPECT_NE(page.find("<script>\n(function () {", spec_end), std::string::npos);
}

}  // namespace

}  // namespace reports_html_test
