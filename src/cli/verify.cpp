// posverify verify: every claim and property; claims.md and claims.json.
#include "mutation/fault_matrix.h"
#include "reports/build_line.h"
#include "reports/fault_matrix_report.h"
#include "core/files.h"
#include "claims/registry.h"
#include "cli/commands.h"
#include "cli/verify_args.h"
#include "reports/junit.h"
#include "core/progress.h"
#include "reports/claims_report.h"
#include "numerics/scalar.h"
#include "core/shard.h"
#include "properties/runner.h"
#include "reports/html.h"

#include <chrono>
#include <deque>
#include <iostream>
#include <memory>

namespace pv::cli {

namespace {

/// `posverify verify --fault-matrix`: runs the matrix, writes
/// OUT/fault_matrix.md and .json (atomically), prints a summary; returns 0
/// when every checkable claim and every property is flipped by some fault, 1
/// otherwise.
int cmd_fault_matrix(const std::string& out_dir, const mutation::fault_matrix_options& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto m = mutation::run_fault_matrix(o);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  write_file_atomic(out_dir + "/fault_matrix.json", reports::to_json(m).dump());
  write_file_atomic(out_dir + "/fault_matrix.md", reports::to_markdown(m));
  const auto un = m.unflipped();
  std::cout << "fault matrix: " << m.faults.size() << " faults, " << m.claims.size()
            << " claims, " << m.properties.size() << " properties (" << o.property_cases
            << " cases each), " << static_cast<int>(secs + 0.5) << " s\n";
  for (const auto* rows : {&m.claims, &m.properties})
    for (const auto& r : *rows) {
      const auto by = r.flipped_by(m.faults);
      std::cout << (r.checkable && by.empty() ? "  NONE  " : "  ok    ") << r.id << "  ";
      for (std::size_t i = 0; i < by.size(); ++i) std::cout << (i ? ", " : "") << by[i];
      if (!r.checkable) std::cout << "(not checkable)";
      std::cout << "\n";
    }
  std::cout << "wrote " << out_dir << "/fault_matrix.json and " << out_dir << "/fault_matrix.md\n";
  return un.empty() ? 0 : 1;
}

}  // namespace

void print_property(const property_result& r, std::ostream& os) {
  os << (r.verdict == verdict::passed ? "  ok    " : "  FAIL  ") << r.id << "  " << to_string(r.verdict) << " ("
     << r.cases << " cases, seed " << r.seed << ")\n";
  if (r.verdict != verdict::passed) {
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
  shard::spec sh;  // the units: the properties in registry order, then the claims in catalogue order
  try {
    if (va.shard_given && (va.fault_matrix || !only.empty()))
      throw usage_error(std::string("--shard: not with ") + (va.fault_matrix ? "--fault-matrix" : "--property"));
    if (va.shard_given || (!va.fault_matrix && only.empty())) sh = shard::resolve(va.shard, va.shard_given);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }

  if (!only.empty()) {
    const auto* p = pv::prop::find_property(only);
    if (!p) throw usage_error("--property: no property named '" + only + "' (see posverify list)");
    auto r = pv::prop::run_property(*p, opt);
    print_property(r, std::cout);
    return r.verdict == verdict::passed ? 0 : 1;
  }

  pv::make_out_dir(out_dir, "--out");

  if (va.fault_matrix)
    return cmd_fault_matrix(out_dir, {opt.seed, va.cases_given ? opt.cases : 100});

  pv::html::bundle();  // index.html needs the chart libraries: fail before the run, not after
  pv::report rep;
  rep.version = POSVERIFY_VERSION;
  rep.build = reports::build_line();
  rep.precision_bits = pv::ref::precision_bits();
  rep.seed = std::to_string(opt.seed);
  const long n_props = long(pv::prop::property_registry().size()), n_units = n_props + long(pv::claims::catalogue().size());
  long mine = 0;
  for (long u = 0; u < n_units; ++u) mine += sh.mine(u);
  progress bar("verify", "properties and claims", mine);
  std::vector<long> prop_units, claim_units;
  bool ok = true;
  bar.clear();
  std::cout << "properties (" << opt.cases << " cases each, seed " << opt.seed
            << (sh.sharded() ? ", shard " + sh.text() : std::string()) << "):" << std::endl;
  bar.step(0);
  for (long i = 0; i < n_props; ++i) {
    if (!sh.mine(i)) continue;
    auto r = pv::prop::run_property(pv::prop::property_registry()[std::size_t(i)], opt);
    bar.clear();  // the result line, then the progress line again
    std::cout << std::flush;
    print_property(r, std::cout);
    std::cout << std::flush;
    ok = ok && r.verdict == verdict::passed;
    rep.properties.push_back(std::move(r));
    prop_units.push_back(i);
    bar.step();
  }
  pv::claims::claim_context ctx;
  ctx.seed = opt.seed;
  ctx.properties = &rep.properties;
  std::deque<property_result> others;  // a claim backed by another shard's property runs it here
  if (sh.sharded())
    ctx.run_missing = [&](const std::string& id) -> const property_result* {
      const auto* p = pv::prop::find_property(id);
      if (!p) return nullptr;
      others.push_back(pv::prop::run_property(*p, opt));
      return &others.back();
    };
  rep.claims = pv::claims::run_claims(ctx, [&](std::size_t i) {
    if (!sh.mine(n_props + long(i))) return false;
    claim_units.push_back(n_props + long(i));
    bar.step();  // counted as it starts: the claims report nothing while they run
    return true;
  });
  bar.finish();
  std::cout << "claims:\n";
  for (const auto& c : rep.claims) {
    bool good = c.result != pv::verdict::fails;
    ok = ok && good;
    std::cout << (good ? "  ok    " : "  FAIL  ") << c.id << "  " << pv::to_string(c.result) << "\n";
  }
  json j = reports::to_json(rep);
  if (sh.sharded()) j.set("shard", shard::record(sh, n_units, {{"claims", claim_units}, {"properties", prop_units}}));
  std::vector<std::pair<std::string, std::string>> files = {{out_dir + "/claims.json", j.dump()},
                                                            {out_dir + "/claims.md", reports::to_markdown(rep)},
                                                            {out_dir + "/index.html", index_page(out_dir, j)}};
  if (!va.junit.empty()) files.emplace_back(va.junit, junit::of_report(j));
  pv::write_files_atomic(files);
  std::cout << "wrote " << out_dir << "/claims.json, claims.md and index.html"
            << (va.junit.empty() ? std::string() : " and " + va.junit) << "\n";
  return ok ? 0 : 1;
}

}  // namespace pv::cli
