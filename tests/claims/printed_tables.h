// Test helpers for the claims' printed-number tables (src/claims/*_printed.h):
// what a claim prints under `printed`, what its certificates certify, how many
// printed numbers its comparison counted, and a scan of the sources for a
// table's decimals typed anywhere else.
#pragma once

#include "claims_test_util.h"
#include "claims/proofs/certificates.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace pv::claims::test {

using entries = std::map<std::string, std::string>;

/// A claim's `printed` list flattened: "dot_3_4" -> "0.866", a vector as
/// "c_at_2[1]", a matrix as "abc_out[0][1]".
inline entries printed_entries(const claim_result& r) {
  entries out;
  std::function<void(const std::string&, const json&)> walk = [&](const std::string& key, const json& v) {
    if (v.type() != json::kind::array) {
      out[key] = v.as_string();
      return;
    }
    std::size_t i = 0;
    for (const auto& kv : v.items()) walk(key + "[" + std::to_string(i++) + "]", kv.second);
  };
  for (const auto& kv : r.printed.items()) walk(kv.first, kv.second);
  return out;
}

/// The certificates of claim `id` (claims/proofs/certificates.cpp): name -> printed.
inline entries certificate_entries(const std::string& id) {
  entries out;
  for (const auto& c : proofs::chapter_certificates(id)) out[c.name] = c.printed;
  return out;
}

/// "3 of 3 printed numbers agree" in a claim's `checked`: the printed numbers
/// its comparison counted (printed_check::summary), summed over every summary.
inline int printed_numbers_compared(const claim_result& r) {
  static const std::regex count(R"((\d+) of (\d+) printed numbers agree)");
  int total = 0;
  for (std::sregex_iterator it(r.checked.begin(), r.checked.end(), count), end; it != end; ++it)
    total += std::stoi((*it)[2].str());
  return total;
}

/// Every file of the product (src/, include/) but `table_header`
/// in which one of `values` occurs outside a // comment, as "path:line".
/// Only decimals (with a '.') are looked for: a table's integers (90, 4096,
/// 10000) also occur as unrelated numbers (a base, a seed).
inline std::vector<std::string> typed_elsewhere(const std::string& table_header,
                                                const std::vector<std::string>& values) {
  namespace fs = std::filesystem;
  std::vector<std::regex> patterns;
  for (std::string v : values) {
    if (v.find('.') == std::string::npos) continue;
    if (v[0] == '-') v = v.substr(1);
    patterns.emplace_back("(^|[^0-9.])" + std::regex_replace(v, std::regex(R"(\.)"), R"(\.)") + "($|[^0-9])");
  }
  std::vector<std::string> hits;
  const fs::path root = POSVERIFY_SOURCE_DIR;
  for (const char* dir : {"src", "include"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const auto ext = e.path().extension();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".c")) continue;
      if (e.path().filename() == table_header) continue;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        const std::string code = line.substr(0, line.find("//"));
        for (const auto& p : patterns)
          if (std::regex_search(code, p)) hits.push_back(fs::relative(e.path(), root).string() + ":" + std::to_string(n));
      }
    }
  return hits;
}

}  // namespace pv::claims::test
