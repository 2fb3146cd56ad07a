// RoPE: the structured positions the RoPE laws mix into
// their random ones (0 and 2^k - 1, 2^k, 2^k + 1 up to --max-position), FLUX
// grids with text tokens ahead of the patches, and the model-size grid
// (flux.model_grid, 64 x 64 patches and 8 text tokens). A kernel wrong
// only at 2^k - 1 is caught, and is not once the positions stop below 63.
#include "blackbox/structured_inputs.h"
#include "support/plugins.h"
#include "core/json.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace blackbox_rope_positions_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::blackbox;
using pv::plugin_test::out_dir;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;
using pv::test::run_posverify;

std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }
std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }

TEST(RopePositions, StructuredPositionsAreZeroAndTheNeighboursOfEveryPowerOfTwo) {
  EXPECT_EQ(structured_positions(1), (std::vector<long>{0, 1}));
  EXPECT_EQ(structured_positions(10), (std::vector<long>{0, 1, 2, 3, 4, 5, 7, 8, 9}));
  const auto v = structured_positions(8192);
  EXPECT_EQ(v.front(), 0);
  EXPECT_EQ(v.back(), 8192);  // 8193 is past --max-position
  for (long p : {63L, 64L, 65L, 256L, 257L, 2047L, 2048L, 2049L, 8191L})
    EXPECT_NE(std::find(v.begin(), v.end(), p), v.end()) << p;
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_EQ(std::adjacent_find(v.begin(), v.end()), v.end());
  // each is drawn: 2,000 draws over 38 positions
  rng g(7);
  std::set<long> seen;
  for (int i = 0; i < 2000; ++i) seen.insert(long(structured_position(g, 8192)));
  EXPECT_EQ(seen.size(), v.size());
}

TEST(RopePositions, GridsPutTextTokensFirstThenRowsAndColumnsOnTheLastTwoAxes) {
  const auto p = grid_positions(2, 2, 3, 3);  // 2 text tokens, 2 x 3 patches
  const std::vector<double> want{0, 0, 0, 0, 0, 0,                         // text
                                 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1, 0, 0, 1, 1, 0, 1, 2};
  EXPECT_EQ(p, want);
  EXPECT_EQ(grid_positions(0, 1, 2, 2), (std::vector<double>{0, 0, 0, 1}));
  EXPECT_EQ(flux_positions(1, 1, 1), grid_positions(1, 1, 1, 3));
}

// The table-edge mutant is right everywhere but at 2^k - 1 (k >= 6): the
// structured positions catch it; below 63 it has nothing to be caught at.
TEST(RopePositions, TableEdgeMutantIsCaughtAtStructuredPositionsOnly) {
  const std::string dir = out_dir("rope-positions");
  auto r = run_posverify("check --impl " + mutant("rope_table_edge") + " --cases 25 --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL  rope.reference["), std::string::npos) << r.out;
  auto below = run_posverify("check --impl " + mutant("rope_table_edge") +
                             " --cases 25 --max-position 62 --out " + dir);
  EXPECT_EQ(below.code, 0) << below.out;
}

// --profile models adds the 64 x 64 grid (4,104 rows with the text tokens);
// the default profile does not run it.
TEST(RopePositions, ModelGridLawRunsTheFluxImageWithTextTokensUnderProfileModels) {
  const std::string dir = out_dir("rope-model-grid");
  const std::string law = " --law flux.model_grid --out " + dir;
  auto ok = run_posverify("check --impl " + builtin("flux_rope") + " --profile models" + law);
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("ok    flux.model_grid[flux-16-56-56/float32]  (passed, 1 cases)"),
            std::string::npos)
      << ok.out;
  auto quick = run_posverify("check --impl " + builtin("flux_rope") + law);
  EXPECT_EQ(quick.out.find("flux.model_grid["), std::string::npos) << quick.out;
  auto bad = run_posverify("check --impl " + mutant("flux_axes_swapped") + " --profile models" + law);
  EXPECT_EQ(bad.code, 1) << bad.out;
  EXPECT_NE(bad.out.find("grid row"), std::string::npos) << bad.out;
  // the replay carries the profile, or it would replay another law's cases
  EXPECT_NE(bad.out.find("--profile models --law 'flux.model_grid[flux-16-56-56/float32]' --case 0"),
            std::string::npos)
      << bad.out;
}

}  // namespace

}  // namespace blackbox_rope_positions_test
