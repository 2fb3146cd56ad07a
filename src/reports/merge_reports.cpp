#include "reports/merge_reports.h"

#include "blackbox/law_result.h"
#include "core/json_read.h"
#include "core/results_fields.h"
#include "core/shard.h"
#include "numerics/scalar.h"
#include "reference/precision_bits.h"
#include "reports/check_report.h"
#include "reports/claims_report.h"
#include "reports/consistency.h"

#include <map>
#include <stdexcept>

namespace pv::reports {

namespace {

/// Reads every record of a shard back with its field table (laws:
/// blackbox/law_result.h; claims, properties: core/results_fields.h), so that a bad
/// field stops the merge naming the file, the entry and the field; then the
/// rules a report as written keeps (reports/consistency.h).
void check_records(const json& shard, const std::string& file) {
  for (const char* list : {"laws", "claims", "properties"})  // every verdict names one (parse_verdict)
    if (const json* items = shard.find(list); items && items->type() == json::kind::array)
      for (std::size_t i = 0; i < items->size(); ++i)
        json_read::verdict_of(items->items()[i].second, file + ": " + list + "[" + std::to_string(i) + "]");
  fields::read_list(shard, "laws", blackbox::law_fields(), file);
  fields::read_list(shard, "claims", claim_fields(), file);
  fields::read_list(shard, "properties", property_fields(), file);
  if (shard.find("laws")) {  // a check report's
    json_read::seed_of(shard, file);
    check_consistent_check_report(shard, file);
    (void)markdown_of_json(shard);  // every entry its Markdown reads (sweep rows, shapes) is there
  } else {
    check_consistent_verify_report(shard, file);
    (void)report_of_json(shard, file + ": ");
  }
}

}  // namespace

merged_run merge_reports(const std::vector<std::pair<std::string, std::string>>& texts) {
  if (texts.empty()) throw std::runtime_error("merge: no shard reports given");
  std::vector<std::pair<std::string, json>> shards;
  for (const auto& [f, text] : texts) {
    try {
      shards.emplace_back(f, json::parse(text));
      if (shards.back().second.type() != json::kind::object) throw std::runtime_error("not a JSON object");
      check_records(shards.back().second, f);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string(e.what()).rfind(f, 0) == 0 ? e.what() : f + ": " + e.what());
    }
  }
  const std::string& file0 = texts.front().first;
  const json& first = shards.front().second;
  const bool is_check = first.find("laws") != nullptr;
  if (!is_check && !first.find("claims"))
    throw std::runtime_error(file0 + ": neither a check report (\"laws\") nor a verify report (\"claims\")");
  // a check's unit is a law on one dtype or a RoPE configuration with its
  // laws: it has one law at least, unless --law left it out (options.law)
  const json* opt = first.find("options");
  const bool filtered = opt && opt->find("law");
  merged_run m;
  m.report = is_check ? shard::merge(shards, {"laws", "sweep", "diagnosis"}, {"laws"},
                                     filtered ? shard::coverage::any : shard::coverage::at_least_once)
                      : shard::merge(shards, {"claims", "properties"}, {"claims", "properties"},
                                     shard::coverage::exactly_once);
  json& merged = m.report;
  if (merged.type() != json::kind::object) throw std::runtime_error(file0 + ": not a JSON object");
  if (const json* bits = merged.find("precision_bits")) {
    // the run's, within what a run may ask for; a report states the precision
    // set_precision_bits gives, rounded up to whole decimal digits (3.3 bits
    // each: --precision-bits 4096 states 4098)
    const long most = long(ref::max_precision_bits) + 4;
    if (bits->type() != json::kind::integer || bits->as_integer() < ref::min_precision_bits || bits->as_integer() > most)
      throw std::runtime_error(file0 + ": precision_bits: expected a whole number in [" +
                               std::to_string(ref::min_precision_bits) + ", " + std::to_string(most) + "], got " +
                               (bits->type() == json::kind::integer ? number_text(*bits) : fields::kind_name(bits->type())));
    ref::set_precision_bits(unsigned(bits->as_integer()));
  }
  if (is_check) {
    std::map<std::string, int> count;  // the summary, as check.cpp's report_json counts it
    for (const auto& kv : merged.find("laws")->items()) {
      const verdict v = json_read::verdict_of(kv.second, "the merged check report: law " + json_read::text(kv.second, "id"));
      count[to_string(v)]++;
      m.holds = m.holds && !fails_the_run(v);
    }
    json sum = json::object();
    for (const auto& kv : count) sum.set(kv.first, json::integer(kv.second));
    merged.set("summary", sum);
    if (const json* regs = merged.find("regressions")) m.holds = m.holds && regs->size() == 0;
    m.markdown = markdown_of_json(merged);
  } else {
    const report r = report_of_json(merged, "the merged verify report: ");
    for (const auto& c : r.claims) m.holds = m.holds && c.result != verdict::fails;
    for (const auto& p : r.properties) m.holds = m.holds && p.verdict == verdict::passed;
    m.markdown = to_markdown(r);
  }
  return m;
}

}  // namespace pv::reports
