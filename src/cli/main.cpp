// posverify: verify the chapter's claims and the laws of attention and
// positional encodings; write the reports.
#include "check/check.h"
#include "cli/args.h"
#include "cli/verify_args.h"
#include "claims/fault_matrix.h"
#include "claims/registry.h"
#include "posverify/report.h"
#include "posverify/scalar.h"
#include "proofs/budgets.h"
#include "properties/reproduce.h"
#include "properties/runner.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* usage_text =
    "usage: posverify <command> [options]\n"
    "\n"
    "commands:\n"
    "  verify               check every claim of the chapter and every property,\n"
    "                       write claims.md and claims.json\n"
    "  replay ID HEX        rerun exactly one failing case of property ID\n"
    "  list                 list the claim and property ids\n"
    "  budgets [--out DIR] [--seed S] [--cases N] [--case I]  error budgets of the\n"
    "                       built-in implementations: error_budgets.md and .json\n"
    "  check --impl LIB.so  run the laws on a user's implementation\n"
    "                       (`posverify check --help` lists its options)\n"
    "\n"
    "options of verify:\n"
    "  --out DIR            where the reports go (default reports/)\n"
    "  --cases N            random cases per property (default 1000)\n"
    "  --seed S             seed of the run (default 1); the same seed gives the\n"
    "                       same claims.json byte for byte\n"
    "  --property ID        run one property only, print its result, write nothing\n"
    "  --precision-bits B   reference precision in bits (default 256, range [64, 4096])\n"
    "  --fault-matrix       run every claim and property under every planted fault\n"
    "                       (--cases per property, default 100); write fault_matrix.*\n"
    "  --help               this text\n"
    "\n"
    "exit codes: 0 every claim holds and every property passes; 1 something\n"
    "fails; 2 bad usage or input.\n";

using pv::cli::parse_u64;
using pv::cli::usage_error;

void print_property(const pv::property_result& r, std::ostream& os) {
  os << (r.verdict == "passed" ? "  ok    " : "  FAIL  ") << r.id << "  " << r.verdict << " ("
     << r.cases << " cases, seed " << r.seed << ")\n";
  if (r.verdict != "passed") {
    if (r.counterexample) os << "        counterexample:\n" << *r.counterexample << "\n";
    if (r.replay) os << "        replay: " << *r.replay << "\n";
    if (auto* rr = r.extra.find("rerun")) os << "        rerun:  " << rr->as_string() << "\n";
  }
}

int cmd_verify(const std::vector<std::string>& args) {
  const auto va = pv::cli::parse_verify_args(args);
  const std::string& out_dir = va.out_dir;
  const pv::prop::run_options& opt = va.run;
  const std::string& only = va.only;
  pv::ref::set_precision_bits(va.precision_bits);

  if (!only.empty()) {
    const auto* p = pv::prop::find_property(only);
    if (!p) throw usage_error("--property: no property named '" + only + "' (see posverify list)");
    auto r = pv::prop::run_property(*p, opt);
    print_property(r, std::cout);
    return r.verdict == "passed" ? 0 : 1;
  }

  pv::make_out_dir(out_dir, "--out");

  if (va.fault_matrix)
    return pv::claims::cmd_fault_matrix(out_dir, {opt.seed, va.cases_given ? opt.cases : 100});

  pv::report rep;
  rep.version = POSVERIFY_VERSION;
  rep.precision_bits = pv::ref::precision_bits();
  rep.seed = std::to_string(opt.seed);
  bool ok = true;
  std::cout << "properties (" << opt.cases << " cases each, seed " << opt.seed << "):\n";
  for (const auto& p : pv::prop::registry()) {
    auto r = pv::prop::run_property(p, opt);
    print_property(r, std::cout);
    ok = ok && r.verdict == "passed";
    rep.properties.push_back(std::move(r));
  }
  pv::claims::context ctx;
  ctx.seed = opt.seed;
  ctx.properties = &rep.properties;
  rep.claims = pv::claims::run_all(ctx);
  std::cout << "claims:\n";
  for (const auto& c : rep.claims) {
    bool good = c.result != pv::verdict::fails;
    ok = ok && good;
    std::cout << (good ? "  ok    " : "  FAIL  ") << c.id << "  " << pv::to_string(c.result) << "\n";
  }
  pv::write_files_atomic(
      {{out_dir + "/claims.json", pv::to_json(rep).dump()}, {out_dir + "/claims.md", pv::to_markdown(rep)}});
  std::cout << "wrote " << out_dir << "/claims.json and " << out_dir << "/claims.md\n";
  return ok ? 0 : 1;
}

int cmd_replay(const std::vector<std::string>& args) {
  if (args.size() != 2) throw usage_error("replay takes a property id and a reproduce string");
  const auto* p = pv::prop::find_property(args[0]);
  if (!p) throw usage_error("replay: no property named '" + args[0] + "'");
  pv::prop::run_options opt;
  opt.reproduce = args[1];
  try {  // checked before anything runs: an empty string would mean "no replay"
    pv::prop::decode_reproduce(opt.reproduce, opt.max_size);
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("replay: ") + e.what());
  }
  const pv::property_result r = pv::prop::run_property(*p, opt);
  print_property(r, std::cout);
  return r.verdict == "passed" ? 0 : 1;
}

int cmd_list() {
  std::cout << "claims:\n";
  for (const auto& e : pv::claims::catalogue()) std::cout << "  " << e.id << "\n";
  std::cout << "properties:\n";
  for (const auto& p : pv::prop::registry()) std::cout << "  " << p.id << "  " << p.law << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) throw usage_error("no command given");
    std::string cmd = args[0];
    std::vector<std::string> rest(args.begin() + 1, args.end());
    // `check` has options of its own and prints them for --help.
    if (cmd == "check") return cmd_check(rest);
    for (const auto& a : args)
      if (a == "--help" || a == "-h" || a == "help") {
        std::cout << usage_text;
        return 0;
      }
    if (cmd == "verify") return cmd_verify(rest);
    if (cmd == "replay") return cmd_replay(rest);
    if (cmd == "list") return cmd_list();
    if (cmd == "budgets") return pv::proofs::cmd_budgets(rest);
    throw usage_error("unknown command '" + cmd + "'");
  } catch (const usage_error& e) {
    std::cerr << "posverify: " << e.what() << "\n\n" << usage_text;
    return 2;
  } catch (const std::bad_alloc&) {  // inputs are bounded; what is left is an input too large
    std::cerr << "posverify: out of memory (an input or option too large for this machine?)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "posverify: " << e.what() << "\n";
    return 2;
  }
}
