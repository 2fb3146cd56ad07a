// attention.shapes (laws/attention/shapes.h, judged by blackbox/shapes.h) at tile-boundary sizes on
// structured inputs. The fast reference tier and MPFR agree within their
// bounds; the a-priori bound covers the plain same-dtype implementation; the
// six size-class mutants are caught by the default profile (and by nothing
// else: their bugs live only at those sizes) while their correct sibling
// passes; bad --shape / --profile values exit 2.
#include "blackbox/shapes.h"
#include "blackbox/structured_inputs.h"
#include "laws/attention/any_order_bound.h"
#include "support/plugins.h"
#include "numerics/attention.h"
#include "core/json.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>

namespace blackbox_shapes_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv;
using namespace pv::blackbox;
using pv::plugin_test::out_dir;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;

std::vector<double> doubles(const auto& m) { return std::vector<double>(m.a.begin(), m.a.end()); }

struct small_shape {
  std::size_t n_q, n_k, d, d_v;
};
const small_shape kShapes[] = {{1, 257, 80, 32}, {17, 65, 256, 64}, {5, 129, 128, 96}};

template <class T>
void agreement_for(double& worst, long& entries, int& mpfr_cases) {
  check_run cx;
  const value_range vr = range_of<T>(cx);
  auto kinds = mixed_structures();
  kinds.push_back(structure::flux_rope);
  int seed = 0;
  for (const auto& s : kShapes)
    for (structure kind : kinds) {
      rng g(1234 + std::uint64_t(seed++));
      const auto in = structured_attention<T>(g, s.n_q, s.n_k, s.d, s.d_v, kind, vr);
      const auto q = doubles(in.q), k = doubles(in.k), v = doubles(in.v);
      const auto ref = reference_attention(q.data(), k.data(), v.data(), s.n_q, s.n_k, s.d, s.d_v);
      if (ref.mpfr) {
        ++mpfr_cases;
        // only scores beyond the fast tier's range go to MPFR
        EXPECT_EQ(kind, structure::large_products) << to_string(kind);
        continue;
      }
      std::vector<std::size_t> rows;
      for (std::size_t i = 0; i < s.n_q; ++i) rows.push_back(i);
      const auto a = mpfr_sample(ref, q.data(), k.data(), v.data(), s.n_q, s.n_k, s.d, s.d_v, rows);
      EXPECT_EQ(a.entries, long(s.n_q * s.d_v));
      EXPECT_LE(a.worst_ratio, 1.0) << to_string(kind) << " " << s.n_q << "x" << s.n_k << " at " << a.worst_where;
      worst = std::max(worst, a.worst_ratio);
      entries += a.entries;
      // the plain same-dtype implementation (a correct kernel) lies within
      // the a-priori bound plus the reference's
      const double u = double(unit_roundoff<T>());
      const auto B = pv::laws::attention_bound::any_order_binary64(q.data(), k.data(), v.data(), s.n_q, s.n_k,
                                                                   s.d, s.d_v, u,
                                                                   double(std::numeric_limits<T>::min()), vr.denorm);
      const auto plain = attention(in.q, in.k, in.v);
      for (std::size_t e = 0; e < plain.a.size(); ++e) {
        if (!std::isfinite(B[e])) continue;  // scores beyond any bound: only finiteness is judged
        const double err = std::abs((double(plain.a[e]) - ref.hi[e]) - ref.lo[e]);
        ASSERT_LE(err, B[e] + ref.bound[e]) << to_string(kind) << " entry " << e;
      }
    }
}

TEST(CheckShapes, FastReferenceAndMpfrAgreeWithinTheirBounds) {
  double worst = 0;
  long entries = 0;
  int mpfr_cases = 0;
  agreement_for<float>(worst, entries, mpfr_cases);
  agreement_for<double>(worst, entries, mpfr_cases);
  EXPECT_GT(entries, 1000);
  EXPECT_GE(mpfr_cases, 1);  // large products: the fallback is exercised
  std::printf("fast vs MPFR: %ld entries, worst |fast - MPFR| / (b_fast + b_MPFR) = %.3g\n", entries, worst);
}

// The agreement check has teeth: a reference moved by three times its bound is caught.
TEST(CheckShapes, AgreementCatchesAReferenceOffByMoreThanItsBound) {
  check_run cx;
  rng g(7);
  const auto in = structured_attention<double>(g, 3, 65, 64, 16, structure::random, range_of<double>(cx));
  const auto q = doubles(in.q), k = doubles(in.k), v = doubles(in.v);
  auto ref = reference_attention(q.data(), k.data(), v.data(), 3, 65, 64, 16);
  ASSERT_FALSE(ref.mpfr);
  EXPECT_LE(mpfr_sample(ref, q.data(), k.data(), v.data(), 3, 65, 64, 16, {0, 1, 2}).worst_ratio, 1.0);
  ref.lo[5] += 3 * ref.bound[5] + 1e-300;
  EXPECT_GT(mpfr_sample(ref, q.data(), k.data(), v.data(), 3, 65, 64, 16, {0}).worst_ratio, 1.0);  // entry 5: row 0
  ref.hi[5] = NAN;  // a NaN is a disagreement, not a ratio that loses every comparison
  EXPECT_EQ(mpfr_sample(ref, q.data(), k.data(), v.data(), 3, 65, 64, 16, {0}).worst_ratio, INFINITY);
}

// Found by the panel (20 seeds): with products near the overflow
// at 4x32x32x32 (seed 4 f32, seed 13 f64 of attention.shapes) the fast tier
// returned NaN instead of refusing, and every correct kernel was a false alarm.
// Many draws of every structure at small shapes: the reference is finite, and
// MPFR's sample would see a NaN (not a ratio of 0).
template <class T>
void reference_finite_for_many_draws() {
  check_run cx;
  const value_range vr = range_of<T>(cx);
  for (structure kind : mixed_structures())
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      rng g(seed);
      const std::size_t n_q = 1 + seed % 4, n_k = 1 + seed % 33, d = 32, d_v = 8;
      const auto in = structured_attention<T>(g, n_q, n_k, d, d_v, kind, vr);
      const auto q = doubles(in.q), k = doubles(in.k), v = doubles(in.v);
      const auto ref = reference_attention(q.data(), k.data(), v.data(), n_q, n_k, d, d_v);
      for (std::size_t e = 0; e < ref.hi.size(); ++e)
        ASSERT_TRUE(std::isfinite(ref.hi[e]) && std::isfinite(ref.lo[e]) && !std::isnan(ref.bound[e]))
            << to_string(kind) << " seed " << seed << " entry " << e << (ref.mpfr ? " (mpfr)" : " (fast)")
            << " hi " << ref.hi[e] << " bound " << ref.bound[e] << " shape " << n_q << "x" << n_k;
      // and MPFR agrees with it on its first row
      if (!ref.mpfr) {
        ASSERT_LE(mpfr_sample(ref, q.data(), k.data(), v.data(), n_q, n_k, d, d_v, {0}).worst_ratio, 1.0)
            << to_string(kind) << " seed " << seed;
      }
    }
}

TEST(CheckShapes, ReferenceIsFiniteOnEveryStructure) {
  reference_finite_for_many_draws<float>();
  reference_finite_for_many_draws<double>();
}

TEST(CheckShapes, StructuredInputsHaveTheirStructure) {
  check_run cx;
  const value_range vr = range_of<float>(cx);
  rng g(3);
  const auto ties = structured_attention<float>(g, 2, 20, 32, 8, structure::identical_keys, vr);
  for (std::size_t j = 1; j < 20; ++j)
    for (std::size_t l = 0; l < 32; ++l) ASSERT_EQ(ties.k(j, l), ties.k(0, l));
  const auto pad = structured_attention<float>(g, 4, 20, 32, 8, structure::padding, vr);
  for (std::size_t l = 0; l < 32; ++l) EXPECT_EQ(pad.k(19, l), 0.0f);
  const auto tiny = structured_attention<float>(g, 4, 20, 32, 8, structure::tiny, vr);
  int subnormal = 0;
  for (float x : tiny.v.a) subnormal += std::fpclassify(x) == FP_SUBNORMAL;
  EXPECT_GT(subnormal, 0);
  // FLUX positions: 512 text tokens at (0, 0, 0), then the 64 x 64 grid
  const auto p = flux_positions(512, 64, 64);
  ASSERT_EQ(p.size(), 3u * 4608);
  EXPECT_EQ(p[3 * 511 + 1], 0.0);
  EXPECT_EQ(p[3 * 4607 + 1], 63.0);
  EXPECT_EQ(p[3 * 4607 + 2], 63.0);
}

using pv::test::run_posverify;

TEST(CheckShapes, BadShapeOrProfileExits2) {
  const std::string dir = out_dir("shapes-usage");
  auto a = run_posverify("check --impl x.so --shape 1x2x3 --out " + dir);
  EXPECT_EQ(a.code, 2) << a.out;
  EXPECT_NE(a.out.find("--shape: '1x2x3' is not NQxNKxDxDV"), std::string::npos) << a.out;
  auto b = run_posverify("check --impl x.so --profile huge --out " + dir);
  EXPECT_EQ(b.code, 2) << b.out;
  EXPECT_NE(b.out.find("--profile: 'huge' is not a profile"), std::string::npos) << b.out;
}

std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }
std::string panel(const std::string& n) { return plugin_map(POSVERIFY_PANEL_PLUGINS).at(n); }

// Item 5: every size-class mutant fails attention.shapes under the default
// profile, and only it (the small laws cannot see these bugs); the finding
// says what happened.
TEST(CheckShapes, SizeMutantsCaughtByTheDefaultProfileOnly) {
  const std::string dir = out_dir("shapes-mutants");
  const std::pair<const char*, const char*> cases[] = {
      {"size_drop_past_tile", "exceeds the tolerance"},
      {"size_partial_tile", "exceeds the tolerance"},
      {"size_nan_on_ties", "non-finite-output"},
      {"size_crash_above_size", "crashed: killed by signal"},
      {"size_no_rescale", "exceeds the tolerance"},
      {"size_split_weights", "exceeds the tolerance"}};
  for (const auto& [m, expect] : cases) {
    auto r = run_posverify("check --impl " + mutant(m) + " --cases 10 --out " + dir);
    EXPECT_EQ(r.code, 1) << m << "\n" << r.out;
    EXPECT_NE(r.out.find("FAIL  attention.shapes[float32]"), std::string::npos) << m << "\n" << r.out;
    EXPECT_NE(r.out.find(expect), std::string::npos) << m << "\n" << r.out;
    auto j = pv::json::parse(slurp(dir + "/" + m + ".json"));
    for (const auto& kv : j.find("laws")->items()) {
      const auto& l = kv.second;
      if (pv::parse_verdict(l.find("verdict")->as_string()) == pv::verdict::failed) {
        EXPECT_EQ(l.find("base_id")->as_string(), "attention.shapes") << m << ": " << l.find("id")->as_string();
      }
    }
  }
}

// A failure's replay carries the run's --profile and each --shape once (they
// were appended twice: law_run's replay has them already), and replays the case.
TEST(CheckShapes, AReplayCarriesTheProfileAndEachShapeOnce) {
  const std::string dir = out_dir("shapes-replay");
  auto r = run_posverify("check --impl " + mutant("size_drop_past_tile") +
                         " --law 'attention.shapes[float32]' --profile quick --shape 1x129x64x64 --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  const auto j = pv::json::parse(slurp(dir + "/size_drop_past_tile.json"));
  const std::string replay = j.find("laws")->items().at(0).second.find("replay")->as_string();
  const auto count = [&](const std::string& w) {
    std::size_t n = 0;
    for (auto at = replay.find(w); at != std::string::npos; at = replay.find(w, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(" --profile quick"), 1u) << replay;
  EXPECT_EQ(count(" --shape 1x129x64x64"), 1u) << replay;
  auto again = run_posverify(replay.substr(replay.find(" check ") + 1) + " --out " + dir);
  EXPECT_EQ(again.code, 1) << again.out;
  EXPECT_NE(again.out.find("FAIL  attention.shapes[float32]"), std::string::npos) << again.out;
}

// A storage class (16-bit inputs, float32 arithmetic) counted every rounding
// at the 16-bit u, inside gamma_{4n+4} too: the bound was infinite from about
// 511 keys and vacuous well before, so size_partial_tile and size_no_rescale
// passed under --accuracy float16. Storage at float16's u, sums at float32's:
// caught, while the correct sibling passes, no shape left unbounded by the class.
TEST(CheckShapes, SizeMutantsCaughtUnderAStorageClass) {
  const std::string dir = out_dir("shapes-storage-class");
  for (const char* m : {"size_partial_tile", "size_no_rescale"}) {
    auto r = run_posverify("check --impl " + mutant(m) + " --accuracy float16 --law attention.shapes --out " + dir);
    EXPECT_EQ(r.code, 1) << m << "\n" << r.out;
    EXPECT_NE(r.out.find("FAIL  attention.shapes[float32]"), std::string::npos) << m << "\n" << r.out;
  }
  // the class leaves no shape unbounded that float32 bounds: the random inputs
  // are bounded at every size (the structures past exp's or the dtype's range
  // are not, in any class, and say so)
  std::map<std::string, std::set<std::string>> unbounded;  // class -> shapes not bounded (float32)
  for (const std::string cls : {"float32", "float16"}) {
    const std::string d = out_dir("shapes-storage-class-" + cls);
    auto ok = run_posverify("check --impl " + panel("attn_tiled_split") + " --accuracy " + cls +
                            " --law 'attention.shapes[float32]' --out " + d);
    EXPECT_EQ(ok.code, 0) << ok.out;
    auto j = pv::json::parse(slurp(d + "/attn_tiled_split.json"));
    int rows = 0;
    for (const auto& kv : j.find("laws")->items())
      if (const auto* shapes = kv.second.find("shapes"))
        for (const auto& s : shapes->items()) {
          ++rows;
          const auto* b = s.second.find("bounded");
          ASSERT_NE(b, nullptr);
          const std::string what = s.second.find("shape")->as_string() + " " + s.second.find("inputs")->as_string();
          if (!b->as_bool()) unbounded[cls].insert(what);
          if (s.second.find("inputs")->as_string() == "random") EXPECT_TRUE(b->as_bool()) << cls << ": " << what;
        }
    EXPECT_GT(rows, 10);
  }
  EXPECT_EQ(unbounded["float16"], unbounded["float32"]);
}

// The correct sibling (tiles of 64, split-K from 128 keys) passes, and the
// report gives time, limit and memory per shape.
TEST(CheckShapes, TiledSplitKernelPassesWithTimeAndMemoryPerShape) {
  const std::string dir = out_dir("shapes-tiled");
  auto r = run_posverify("check --impl " + panel("attn_tiled_split") + " --cases 10 --out " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ok    attention.shapes[float32]  (passed, 22 cases)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok    attention.shapes[float64]  (passed, 22 cases)"), std::string::npos) << r.out;
  auto j = pv::json::parse(slurp(dir + "/attn_tiled_split.json"));
  int rows = 0;
  for (const auto& kv : j.find("laws")->items()) {
    const auto& l = kv.second;
    if (l.find("base_id")->as_string() != "attention.shapes" || pv::parse_verdict(l.find("verdict")->as_string()) != pv::verdict::passed) continue;
    const auto* ag = l.find("fast_vs_mpfr");
    ASSERT_NE(ag, nullptr);
    EXPECT_GT(ag->find("entries")->as_integer(), 100);
    EXPECT_LE(std::stod(ag->find("worst_ratio")->as_string()), 1.0);
    for (const auto& s : l.find("shapes")->items()) {
      ++rows;
      EXPECT_GT(s.second.find("peak_rss_kib")->as_integer(), 0);
      EXPECT_GE(s.second.find("time_limit_ms")->as_integer(), 2000);
    }
  }
  EXPECT_EQ(rows, 44);  // 22 shapes, 2 dtypes
  const std::string md = slurp(dir + "/attn_tiled_split.md");
  EXPECT_NE(md.find("| 16 | 17x257x128x64 | random | fast |"), std::string::npos);
  // a user's shape, replayed by its flags
  auto one = run_posverify("check --impl " + panel("attn_tiled_split") +
                           " --law 'attention.shapes[float64]' --shape 3x300x40x24 --out " + dir);
  EXPECT_EQ(one.code, 0) << one.out;
  EXPECT_NE(one.out.find("(passed, 1 cases)"), std::string::npos) << one.out;
}

}  // namespace

}  // namespace blackbox_shapes_test
