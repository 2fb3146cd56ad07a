// posverify_bench: the reference tiers side by side (not a test; it prints
// figures and writes reports/bench.md, verdicts computed from the figures).
//
//   build/posverify_bench [--out FILE] [--python PATH] [--threads N]
//                         [--skip-flux] [--skip-check] [--skip-suite]
//                         [--build-figures "CLEAN_WALL CLEAN_CPU REBUILD_WALL REBUILD_CPU"]
//                         [--main-job-seconds S --main-job-steps TEXT]
//                         [--ci-seconds S --ci-steps TEXT]
//
// scripts/posverify-bench builds a copy of the tree from scratch, times it and
// the rebuild after touching one law, runs the main job after that build and
// CI on a fresh clone, and passes those figures here (the slowest steps as
// text).
//
// Figures: ns per multiply-add (n_q n_k (d + d_v) per attention) of the fast
// tier, the MPFR tier at 113 and 256 bits, plain double and an mpmath peer at
// 113 bits; the reference of one FLUX head (4608 x 4608 x 128) with its
// certified error; the default `posverify check` time of one attention and one
// RoPE plugin; and the longer runs of the everyday loop and the main job (a
// Python RoPE, `--profile models`, `verify`, the mutation suite, the panel).
#include "reference/fast/fast.h"

#include "numerics/attention.h"
#include "core/files.h"
#include "core/heap.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>  // clock_gettime

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <thread>
#include <string>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// CPU time of the whole process (all threads): the machine may be shared, so
// wall-clock alone would measure the neighbours.
double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct shape {
  std::size_t n_q, n_k, d, d_v;
  double mads() const { return double(n_q) * double(n_k) * double(d + d_v); }
  std::string str() const {
    return std::to_string(n_q) + " x " + std::to_string(n_k) + " x " + std::to_string(d) + " x " +
           std::to_string(d_v);
  }
};

struct inputs {
  std::vector<double> q, k, v;
};

inputs random_inputs(const shape& s, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  inputs in;
  in.q.resize(s.n_q * s.d), in.k.resize(s.n_k * s.d), in.v.resize(s.n_k * s.d_v);
  for (auto* x : {&in.q, &in.k, &in.v})
    for (auto& e : *x) e = u(g);
  return in;
}

template <class T>
pv::matrix<T> to_matrix(const std::vector<double>& x, std::size_t r, std::size_t c) {
  pv::matrix<T> m(r, c);
  for (std::size_t i = 0; i < x.size(); ++i) m.a[i] = T(x[i]);
  return m;
}

struct row {
  std::string tier, shape, note;
  double seconds = 0, ns_per_mad = 0;
  double cpu = 0;  ///< CPU seconds of the process during the run
};

// The median of `runs` timings of f(), wall and CPU seconds each (the
// machine is shared: one run can land beside a neighbour's burst).
constexpr int timing_runs = 5;
template <class F>
std::pair<double, double> median_time(F f, int runs = timing_runs) {
  std::vector<double> wall, cpu;
  for (int i = 0; i < runs; ++i) {
    const double c0 = cpu_seconds();
    const auto t0 = clock_type::now();
    f();
    wall.push_back(seconds_since(t0));
    cpu.push_back(cpu_seconds() - c0);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

template <class T>
row time_generic(const std::string& tier, const shape& s) {
  auto in = random_inputs(s, 1);
  auto Q = to_matrix<T>(in.q, s.n_q, s.d), K = to_matrix<T>(in.k, s.n_k, s.d),
       V = to_matrix<T>(in.v, s.n_k, s.d_v);
  const auto [sec, cpu] = median_time([&] { auto out = pv::attention(Q, K, V); });
  return {tier, s.str(), "one core", sec, sec * 1e9 / s.mads(), cpu};
}

std::string fmt(double x, int digits = 4) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*g", digits, x);
  return b;
}

// Runs a shell command, returns (seconds, exit status, its stdout).
struct run_result {
  double seconds = 0;
  double cpu = 0;  ///< user + system seconds of the command and every descendant it waited for
  int status = -1;
  std::string out;
};

double children_cpu() {
  rusage u{};
  ::getrusage(RUSAGE_CHILDREN, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
run_result run(const std::string& cmd) {
  run_result r;
  auto t0 = clock_type::now();
  const double cpu0 = children_cpu();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) r.out += buf;
  int st = pclose(p);
  r.seconds = seconds_since(t0);
  r.cpu = children_cpu() - cpu0;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string load_average() {
  FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return "unknown";
  char b[64] = {};
  if (!std::fgets(b, sizeof b, f)) b[0] = 0;
  std::fclose(f);
  std::string s(b);
  return s.substr(0, s.find(' '));
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = "reports/bench.md", python = "/usr/bin/python3";
  unsigned threads = 0;
  bool skip_flux = false, skip_check = false, skip_suite = false;
  std::string build_figures, main_job_steps, ci_steps;
  double main_job_seconds = -1, ci_seconds = -1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* name) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "posverify_bench: %s needs a value\n", name);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--out") out = value("--out");
    else if (a == "--python") python = value("--python");
    else if (a == "--threads") threads = static_cast<unsigned>(std::stoul(value("--threads")));
    else if (a == "--skip-flux") skip_flux = true;
    else if (a == "--skip-check") skip_check = true;
    else if (a == "--skip-suite") skip_suite = true;
    else if (a == "--build-figures") build_figures = value("--build-figures");
    else if (a == "--main-job-seconds") main_job_seconds = std::stod(value("--main-job-seconds"));
    else if (a == "--main-job-steps") main_job_steps = value("--main-job-steps");
    else if (a == "--ci-seconds") ci_seconds = std::stod(value("--ci-seconds"));
    else if (a == "--ci-steps") ci_steps = value("--ci-steps");
    else {
      std::fprintf(stderr, "posverify_bench: unknown option '%s'\n", a.c_str());
      return 2;
    }
  }
  // malloc tuned as in every posverify process (src/cli/main.cpp), which is
  // where the fast tier runs: freed blocks are kept, not given back and
  // faulted in again at the next call
  pv::tune_heap();
  pv::ref::set_precision_bits(113);
  const std::string load_at_start = load_average();

  std::vector<row> rows;
  // Fast tier on both cores.
  const shape fast_shape{1024, 1024, 128, 128};
  {
    auto in = random_inputs(fast_shape, 1);
    auto fast = [&](unsigned t) {
      pv::fast::attention(in.q.data(), in.k.data(), in.v.data(), fast_shape.n_q, fast_shape.n_k,
                          fast_shape.d, fast_shape.d_v, t);
    };
    const auto [sec, cpu] = median_time([&] { fast(threads); });
    rows.push_back({"fast (double-word, certified)", fast_shape.str(),
                    "all cores (" + std::to_string(threads ? threads : std::thread::hardware_concurrency()) + ")",
                    sec, sec * 1e9 / fast_shape.mads(), cpu});
    const auto [sec1, cpu1] = median_time([&] { fast(1); });
    rows.push_back({"fast (double-word, certified)", fast_shape.str(), "one core", sec1,
                    sec1 * 1e9 / fast_shape.mads(), cpu1});
  }
  const shape mp_shape{8, 128, 64, 64};
  rows.push_back(time_generic<pv::hp>("MPFR 113 bits (pv::hp)", mp_shape));
  pv::ref::set_precision_bits(256);
  rows.push_back(time_generic<pv::hp>("MPFR 256 bits (pv::hp)", mp_shape));
  pv::ref::set_precision_bits(113);
  rows.push_back(time_generic<double>("plain double", shape{256, 256, 128, 128}));
  const shape py_shape{4, 64, 32, 32};
  {
    // the script times itself (interpreter start-up excluded); the median
    // of three runs by CPU ns per multiply-add
    std::vector<std::array<double, 4>> runs;
    std::string failure;
    for (int i = 0; i < 3 && failure.empty(); ++i) {
      auto r = run(python + " " + POSVERIFY_SOURCE_DIR "/bench/mpmath_attention.py " +
                   std::to_string(py_shape.n_q) + " " + std::to_string(py_shape.n_k) + " " +
                   std::to_string(py_shape.d) + " " + std::to_string(py_shape.d_v) + " 113 2>&1");
      std::array<double, 4> f{};  // ns, seconds, multiply-adds, CPU ns
      if (r.status == 0 && std::sscanf(r.out.c_str(), "%lf %lf %lf %lf", &f[0], &f[1], &f[2], &f[3]) == 4)
        runs.push_back(f);
      else
        failure = r.out.substr(0, 120);
    }
    if (failure.empty()) {
      std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a[3] < b[3]; });
      const auto& f = runs[runs.size() / 2];
      rows.push_back({"mpmath 113 bits (" + python + ")", py_shape.str(), "one core", f[1], f[0],
                      f[3] * f[2] * 1e-9});
    } else {
      rows.push_back({"mpmath 113 bits (" + python + ")", py_shape.str(),
                      "not available: " + failure, 0, 0});
    }
  }
  // Ratios from CPU time per multiply-add (the machine may be shared, which
  // wall-clock would charge to whichever tier ran while the neighbours did).
  auto cpu_ns_of = [&](const std::string& prefix, const std::string& note) {
    for (auto& r : rows)
      if (r.tier.rfind(prefix, 0) == 0 && (note.empty() || r.note.rfind(note, 0) == 0) && r.ns_per_mad > 0)
        return r.cpu * r.ns_per_mad / r.seconds;
    return 0.0;
  };
  const double cores = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  const double fast1_ns = cpu_ns_of("fast", "one"), fast_all_ns = cpu_ns_of("fast", "all") / cores;
  const double mp113 = cpu_ns_of("MPFR 113", ""), mpm = cpu_ns_of("mpmath", "one");

  std::ostringstream md;
  // the posverify this benchmark measured, as every report names it (src/reports/build_line.h)
  std::string build = run(std::string(POSVERIFY_BENCH_POSVERIFY) + " --version").out;
  while (!build.empty() && (build.back() == '\n' || build.back() == '\r')) build.pop_back();
  md << "# Benchmark: reference tiers\n\n"
     << (build.empty() ? std::string() : "`" + build + "`\n\n")
     << "Written by `build/posverify_bench` (bench/bench.cpp) on this machine ("
     << std::thread::hardware_concurrency()
     << " hardware threads, load average " << load_at_start
     << " when it started). Timings of the tiers are the median of " << timing_runs
     << " runs (mpmath: of 3; the FLUX head: one run), random inputs in [-1, 1]; "
        "a multiply-add is one of the n_q n_k (d + d_v) of an attention.\n\n";

  // FLUX head.
  std::string flux_line;
  bool flux_time_ok = false, flux_cpu_ok = false, flux_err_ok = false;
  double flux_sec = 0, flux_cpu = 0, flux_rel = 0, flux_rel_out_max = 0, flux_rel_out_med = 0;
  if (!skip_flux) {
    const shape fx{4608, 4608, 128, 128};
    auto in = random_inputs(fx, 2);
    const double c0 = cpu_seconds();
    auto t0 = clock_type::now();
    auto r = pv::fast::attention(in.q.data(), in.k.data(), in.v.data(), fx.n_q, fx.n_k, fx.d,
                                 fx.d_v, threads);
    flux_sec = seconds_since(t0);
    flux_cpu = cpu_seconds() - c0;
    std::vector<double> rel_out;
    for (std::size_t i = 0; i < r.value.size(); ++i) {
      flux_rel = std::max(flux_rel, r.relative[i]);
      rel_out.push_back(r.value[i].hi != 0 ? r.bound[i] / std::fabs(r.value[i].hi) : INFINITY);
    }
    std::sort(rel_out.begin(), rel_out.end());
    flux_rel_out_max = rel_out.back();
    flux_rel_out_med = rel_out[rel_out.size() / 2];
    flux_time_ok = flux_sec <= 1.0;
    flux_cpu_ok = flux_cpu / 2 <= 1.0;
    flux_err_ok = flux_rel <= 0x1p-80;
    rows.push_back({"fast, FLUX head", fx.str(), "all cores", flux_sec, flux_sec * 1e9 / fx.mads(),
                    flux_cpu});
  }

  md << "## Targets\n\n| target | measured | met |\n|---|---|---|\n";
  {
    double cw = 0, cc = 0, rw = 0, rc = 0;
    if (std::sscanf(build_figures.c_str(), "%lf %lf %lf %lf", &cw, &cc, &rw, &rc) == 4) {
      md << "| clean build (configure and `cmake --build -j2`, tests included, no compiler cache) <= 120 s | "
         << fmt(cw, 3) << " s wall, " << fmt(cc, 3) << " CPU s | " << (cw <= 120 ? "yes" : "**no**") << " |\n";
      md << "| rebuild after touching one law (src/blackbox/rope_laws.cpp) <= 20 s | " << fmt(rw, 3) << " s wall, "
         << fmt(rc, 3) << " CPU s | " << (rw <= 20 ? "yes" : "**no**") << " |\n";
    } else {
      md << "| clean build <= 120 s, rebuild after touching one law <= 20 s | not measured "
            "(scripts/posverify-bench measures them) | not measured |\n";
    }
  }
  // the main job and CI, as scripts/posverify-bench ran them
  auto whole_run_row = [&](const std::string& what, double seconds, const std::string& steps,
                           double target, const std::string& how) {
    if (seconds < 0) {
      md << "| " << what << " <= " << fmt(target) << " s | not measured (" << how << ") | not measured |\n";
      return;
    }
    md << "| " << what << " <= " << fmt(target) << " s | " << fmt(seconds, 4) << " s"
       << (steps.empty() ? std::string() : " (slowest: " + steps + ")") << " | "
       << (seconds <= target ? "yes" : "**no**") << " |\n";
  };
  whole_run_row("main job after the packages and the build (`scripts/posverify-setup main`: verify, "
                "budgets, the mutation suite, the fault matrix, the panel beside them, html)",
                main_job_seconds, main_job_steps, 180, "scripts/posverify-bench measures it");
  whole_run_row("CI: `.ci/run` (README's test command) on a fresh clone", ci_seconds, ci_steps, 1200,
                "scripts/posverify-bench without --skip-ci measures it");
  if (!skip_flux) {
    md << "| FLUX head (4608 x 4608 x 128) reference on 2 cores <= 1 s | " << fmt(flux_sec, 3) << " s | "
       << (flux_time_ok ? "yes" : "**no**") << " |\n";
    md << "| the same with 2 uncontended cores: CPU seconds / 2 <= 1 s | " << fmt(flux_cpu, 3)
       << " CPU s / 2 = " << fmt(flux_cpu / 2, 3) << " s | " << (flux_cpu_ok ? "yes" : "**no**")
       << " |\n";
    md << "| its certified relative error <= 2^-80 (bound / sum_j w_j abs(v_jc), worst entry) | 2^"
       << fmt(std::log2(flux_rel), 3) << " | " << (flux_err_ok ? "yes" : "**no**") << " |\n";
  }
  auto ratio_row = [&](const std::string& what, double other, double fast, double target) {
    md << "| fast >= " << fmt(target) << "x " << what << " | " << fmt(other / fast, 3) << "x | "
       << (other / fast >= target ? "yes" : "**no**") << " |\n";
  };
  md << "| fast tier <= 0.3 ns per multiply-add, CPU time, one core | " << fmt(fast1_ns, 3)
     << " ns | " << (fast1_ns > 0 && fast1_ns <= 0.3 ? "yes" : "**no**") << " |\n";
  ratio_row("MPFR (113 bits) per multiply-add, CPU time, one core each", mp113, fast1_ns, 250);
  ratio_row("MPFR (113 bits) per multiply-add, fast tier on all " + fmt(cores) + " cores", mp113,
            fast_all_ns, 250);
  if (mpm > 0) {
    ratio_row("mpmath per multiply-add, CPU time, one core each", mpm, fast1_ns, 2000);
    ratio_row("mpmath per multiply-add, fast tier on all " + fmt(cores) + " cores", mpm, fast_all_ns,
              2000);
  } else {
    md << "| fast >= 2000x mpmath per multiply-add | mpmath not available | not measured |\n";
  }

  if (!skip_check) {
    // `check` of the built-in plugins, default options, one process and then
    // every core (--jobs auto): the targets of the everyday loop (2 s each),
    // and of the attention of real models (attend(): 60 s)
    struct plugin {
      const char* what;
      const char* path;
      double target;  ///< seconds
    };
    for (plugin p : {plugin{"attention (builtin flash_float)", POSVERIFY_BENCH_ATTN_PLUGIN, 2},
                     plugin{"builtin plain_float (attention, RoPE, sinusoid)", POSVERIFY_BENCH_PLAIN_PLUGIN, 2},
                     plugin{"RoPE (builtin flux_rope)", POSVERIFY_BENCH_ROPE_PLUGIN, 2},
                     plugin{"RoPE (builtin scaled_rope)", POSVERIFY_BENCH_SCALED_PLUGIN, 2},
                     plugin{"attend() of models (builtin attend_tiled: heads, GQA, masks, softcap, sinks, ALiBi)",
                            POSVERIFY_BENCH_ATTEND_PLUGIN, 60}})
      for (const char* jobs : {"1", "auto"}) {
        auto r = run(std::string(POSVERIFY_BENCH_POSVERIFY) + " check --impl " + p.path + " --jobs " + jobs +
                     " --out /tmp/posverify_bench_check >/dev/null 2>&1");
        md << "| default `check` of " << p.what << ", --jobs " << jobs << " <= " << fmt(p.target) << " s | "
           << fmt(r.seconds, 3) << " s wall, " << fmt(r.cpu, 3) << " CPU s (exit " << r.status << ") | "
           << (r.status == 0 && r.seconds <= p.target ? "yes" : "**no**") << " |\n";
      }
  }
  if (!skip_suite) {
    // the rest of the everyday loop and the main job, as scripts/posverify-setup runs them
    const std::string pv = POSVERIFY_BENCH_POSVERIFY, build = POSVERIFY_BENCH_BUILD_DIR,
                      src = POSVERIFY_SOURCE_DIR, sink = " >/dev/null 2>&1";
    struct step {
      std::string what, cmd;
      double target;  ///< seconds; 0: a figure without a target
    };
    const std::vector<step> steps = {
        {"default `check` of the Python Llama RoPE example (examples/python/llama_rope.py)",
         pv + " check --impl python:llama_rope:LlamaRope --python-path " + src + "/examples/python --python " +
             python + " --out /tmp/posverify_bench_python" + sink,
         4},
        {"`check --profile models` of attention (builtin flash_float)",
         pv + " check --impl " + POSVERIFY_BENCH_ATTN_PLUGIN + " --profile models --out /tmp/posverify_bench_models" + sink,
         20},
        {"`check --profile models` of attend() (builtin attend_tiled, the five model presets)",
         pv + " check --impl " + POSVERIFY_BENCH_ATTEND_PLUGIN + " --profile models --out /tmp/posverify_bench_models" +
             sink,
         300},
        {"`verify` (every claim of the chapter)", pv + " verify --out /tmp/posverify_bench_verify" + sink, 0},
        {"mutation suite (`check --mutation` of every mutant)",
         pv + " check --mutation " + build + "/libpv_mutant_*.so --out /tmp/posverify_bench_mutation" + sink, 90},
        {"panel, 20 seeds (`check --panel`, as the main job runs it)",
         pv + " check --panel " + build + "/libpv_panel_*.so " + POSVERIFY_BENCH_ATTN_PLUGIN + " " +
             POSVERIFY_BENCH_ATTEND_PLUGIN + " --seeds 20 --cases 25 --timeout-ms 10000 --out /tmp/posverify_bench_panel" + sink,
         120},
    };
    for (const auto& st : steps) {
      auto r = run(st.cmd);
      md << "| " << st.what << (st.target > 0 ? " <= " + fmt(st.target) + " s" : std::string()) << " | "
         << fmt(r.seconds, 3) << " s wall, " << fmt(r.cpu, 3) << " CPU s (exit " << r.status << ") | "
         << (st.target <= 0 ? "no target" : r.status == 0 && r.seconds <= st.target ? "yes" : "**no**") << " |\n";
    }
  }
  if (!skip_flux)
    md << "\nThe FLUX head's bound relative to the entry itself (bound / abs(out), which "
          "grows where the weighted sum of V cancels): median 2^"
       << fmt(std::log2(flux_rel_out_med), 3) << ", worst 2^" << fmt(std::log2(flux_rel_out_max), 3)
       << ".\n";

  md << "\n## ns per multiply-add\n\n| tier | shape n_q x n_k x d x d_v | threads | seconds | ns per "
        "multiply-add | CPU seconds | CPU ns per multiply-add |\n|---|---|---|---|---|---|---|\n";
  for (auto& r : rows)
    md << "| " << r.tier << " | " << r.shape << " | " << r.note << " | " << fmt(r.seconds, 3)
       << " | " << fmt(r.ns_per_mad, 3) << " | " << (r.cpu > 0 ? fmt(r.cpu, 3) : "-") << " | "
       << (r.cpu > 0 ? fmt(r.cpu * 1e9 / (r.seconds * 1e9 / r.ns_per_mad), 3) : "-") << " |\n";
  md << "\nThe MPFR, double and mpmath tiers run on one core (they are not parallelised); the "
        "fast tier spreads query rows over std::threads. The machine is shared: figures vary "
        "from run to run by tens of percent.\n";
  std::fputs(md.str().c_str(), stdout);
  pv::write_file_atomic(out, md.str());
  return 0;
}
