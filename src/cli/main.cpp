// posverify: verify the chapter's claims and the laws of attention and
// positional encodings; write the reports. Each subcommand lives in its own
// file (src/cli/<command>.cpp, declared in cli/commands.h).
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/verify_args.h"
#include "budgets/budgets.h"
#include "core/heap.h"

#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using pv::usage_error;

/// The usage text; the options of verify come from its option table.
std::string usage() {
  pv::cli::verify_args scratch;
  return "usage: posverify <command> [options]\n"
         "\n"
         "commands:\n"
         "  verify               check every claim of the chapter and every property,\n"
         "                       write claims.md and claims.json\n"
         "  replay ID HEX        rerun exactly one failing case of property ID\n"
         "  list                 list the claim and property ids\n"
         "  budgets [--out DIR] [--seed S] [--cases N] [--case I]  error budgets of the\n"
         "                       built-in implementations: error_budgets.md and .json\n"
         "  html [--out DIR] [--check NAME.json]  index.html from the JSON reports of DIR\n"
         "                       (or NAME.html beside a check report; docs/reports.md)\n"
         "  check --impl LIB.so  run the laws on a user's implementation\n"
         "                       (`posverify check --help` lists its options)\n"
         "  --version, -V        the version, commit, plugin ABI and protocol versions,\n"
         "                       and the MPFR/MPFI/GMP/Boost versions\n"
         "  merge OUT SHARD.json...  join the reports of the shards of one check or\n"
         "                       verify run (--shard K/N) into the whole run's report\n"
         "\n"
         "options of verify:\n" +
         pv::cli::options_help(pv::cli::verify_options(scratch)) +
         "  --help               this text\n"
         "\n"
         "exit codes: 0 every claim holds and every property passes; 1 something\n"
         "fails; 2 bad usage or input.\n";
}

}  // namespace

int main(int argc, char** argv) {
  pv::tune_heap();  // for this process, its workers and the children that call a kernel
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) throw usage_error("no command given");
    std::string cmd = args[0];
    if (cmd == "--version" || cmd == "-V" || cmd == "version") return pv::cli::cmd_version();
    std::vector<std::string> rest(args.begin() + 1, args.end());
    // `check` has options of its own and prints them for --help.
    if (cmd == "check") return pv::cli::cmd_check(rest);
    if (cmd == "merge") return pv::cli::cmd_merge(rest);
    for (const auto& a : args)
      if (a == "--help" || a == "-h" || a == "help") {
        std::cout << usage();
        return 0;
      }
    if (cmd == "verify") return pv::cli::cmd_verify(rest);
    if (cmd == "replay") return pv::cli::cmd_replay(rest);
    if (cmd == "list") return pv::cli::cmd_list();
    if (cmd == "html") return pv::cli::cmd_html(rest);
    if (cmd == "budgets") return pv::cli::cmd_budgets(rest);
    throw usage_error("unknown command '" + cmd + "'");
  } catch (const usage_error& e) {
    std::cerr << "posverify: " << e.what() << "\n\n" << usage();
    return 2;
  } catch (const std::bad_alloc&) {  // inputs are bounded; what is left is an input too large
    std::cerr << "posverify: out of memory (an input or option too large for this machine?)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "posverify: " << e.what() << "\n";
    return 2;
  }
}
