// posverify verify: every claim and property; claims.md and claims.json.
#include "claims/fault_matrix.h"
#include "claims/registry.h"
#include "cli/commands.h"
#include "cli/verify_args.h"
#include "posverify/report.h"
#include "posverify/scalar.h"
#include "properties/runner.h"
#include "report/html.h"

#include <iostream>

namespace pv::cli {

void print_property(const property_result& r, std::ostream& os) {
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

  pv::html::bundle();  // index.html needs the chart libraries: fail before the run, not after
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
  const json claims = pv::to_json(rep);
  pv::write_files_atomic({{out_dir + "/claims.json", claims.dump()},
                          {out_dir + "/claims.md", pv::to_markdown(rep)},
                          {out_dir + "/index.html", index_page(out_dir, claims)}});
  std::cout << "wrote " << out_dir << "/claims.json, claims.md and index.html\n";
  return ok ? 0 : 1;
}

}  // namespace pv::cli
