#include "cli/options.h"

#include <CLI/CLI.hpp>

#include <map>

namespace pv::cli {

void parse_options(const std::string& cmd, const option_table& table,
                   const std::vector<std::string>& args, std::vector<std::string>* positional) {
  CLI::App app(cmd, cmd);
  app.set_help_flag();  // --help is answered by the caller, with the usage text
  app.allow_extras();   // unknown options and positionals: reported below, in our words
  std::map<const CLI::Option*, const option*> row_of;
  for (const auto& row : table) {
    CLI::Option* o = row.value.empty()
                         ? app.add_flag(row.flag, row.help)
                         : app.add_option(row.flag, row.help)
                               ->type_name(row.value)
                               ->expected(1)
                               ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    row_of[o] = &row;
  }
  // CLI11 wants the arguments in reverse order (it pops from the back).
  std::vector<std::string> rev(args.rbegin(), args.rend());
  try {
    app.parse(rev);
  } catch (const CLI::ArgumentMismatch& e) {
    // an option of one value given none (the last argument, or followed by
    // another option): CLI11 names it before the colon
    const std::string what = e.what();
    const auto colon = what.find(':');
    if (what.rfind("--", 0) == 0 && colon != std::string::npos)
      throw usage_error(what.substr(0, colon) + " needs a value");
    throw usage_error(cmd + ": " + what);
  } catch (const CLI::ParseError& e) {
    throw usage_error(cmd + ": " + e.what());
  }
  for (const auto& a : app.remaining()) {
    if (!positional || (!a.empty() && a[0] == '-')) throw usage_error(cmd + ": unknown option '" + a + "'");
    positional->push_back(a);
  }
  // every occurrence in command-line order
  std::map<const CLI::Option*, std::size_t> next;
  for (const CLI::Option* o : app.parse_order()) {
    const option& row = *row_of.at(o);
    if (row.value.empty()) {
      row.set("");
    } else {
      const auto& res = o->results();
      const std::size_t i = next[o]++;
      row.set(i < res.size() ? res[i] : std::string());
    }
  }
}

std::string options_help(const option_table& table) {
  std::string s;
  for (const auto& row : table) {
    std::string head = "  " + row.flag + (row.value.empty() ? "" : " " + row.value);
    if (head.size() < 23) head.resize(23, ' ');
    else head += "\n" + std::string(23, ' ');
    s += head + row.help + "\n";
  }
  return s;
}

}  // namespace pv::cli
