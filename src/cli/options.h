// The option tables of the subcommands (verify, budgets, check): one row per
// option, parsed by CLI11, with the same usage errors everywhere (exit 2,
// naming the option and the value). Adding an option is one row:
//   {"--shard", "I/N", "run shard I of N", [&](const std::string& v) { a.shard = parse_shard(v); }},
#pragma once

#include "cli/args.h"

#include <functional>
#include <string>
#include <vector>

namespace pv::cli {

/// One option: its flag, the name of its value ("" for a switch, which takes
/// none), one line of help, and what a given value does (for a switch, set
/// is called with ""). `set` throws usage_error for a bad value, naming the
/// flag and the value (parse_u64 does).
struct option {
  std::string flag;
  std::string value;
  std::string help;
  std::function<void(const std::string&)> set;
};
using option_table = std::vector<option>;

/// Parses `args` (the arguments after the subcommand `cmd`) against `table`:
/// every occurrence of an option calls its `set`, in the order of the command
/// line. Arguments that are not options go to `positional` when it is given;
/// otherwise (and for any unknown option) usage_error "<cmd>: unknown option
/// 'X'". An option missing its value: usage_error "X needs a value".
void parse_options(const std::string& cmd, const option_table& table,
                   const std::vector<std::string>& args,
                   std::vector<std::string>* positional = nullptr);

/// The table as help lines, one layout for every subcommand:
/// "  --flag VALUE         help".
std::string options_help(const option_table& table);

}  // namespace pv::cli
