# The fast reference tier (reference/fast/): double-word attention, RoPE and
# sinusoid with a certified bound per output, its test (label `fast`) and the
# benchmark program (bench/, not a test: it prints and writes figures).
#
# No value-changing optimisation: -ffp-contract=off keeps the compiler from
# fusing a*b+c where the error-free transformations need two roundings;
# -fopenmp-simd only honours `#pragma omp simd` (no OpenMP runtime).
find_package(Threads REQUIRED)
# The results do not depend on the instruction set (every operation is IEEE
# and exactly specified, FMA included); only the speed does. Empty: portable.
set(POSVERIFY_FAST_MARCH "native" CACHE STRING "-march for reference/fast (empty: none)")
add_library(posverify_fast STATIC reference/fast/fast.cpp)
add_library(posverify::fast ALIAS posverify_fast)
target_link_libraries(posverify_fast PUBLIC posverify_core Threads::Threads)
target_compile_options(posverify_fast PRIVATE ${POSVERIFY_WARNINGS} -O3 -ffp-contract=off -fno-fast-math
  -fopenmp-simd)
if(POSVERIFY_FAST_MARCH)
  target_compile_options(posverify_fast PRIVATE -march=${POSVERIFY_FAST_MARCH})
endif()

if(POSVERIFY_BUILD_TESTS)
  # its own binary (CMakeLists.txt leaves tests/reference/fast/ out of posverify_unit_test)
  file(GLOB POSVERIFY_FAST_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/reference/fast/*_test.cpp)
  posverify_add_test(posverify_fast_test SOURCES ${POSVERIFY_FAST_TESTS}
    LIBS posverify_fast GTest::gtest_main LABELS fast)
endif()

# The benchmark (run by hand; writes reports/bench.md). Plugins whose default
# `check` it times are the built-in flash_float (attention) and flux_rope.
add_executable(posverify_bench bench/bench.cpp)
target_link_libraries(posverify_bench PRIVATE posverify_fast)
target_compile_options(posverify_bench PRIVATE ${POSVERIFY_WARNINGS})
target_compile_definitions(posverify_bench PRIVATE
  POSVERIFY_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
  POSVERIFY_BENCH_POSVERIFY="$<TARGET_FILE:posverify>"
  POSVERIFY_BENCH_ATTN_PLUGIN="$<TARGET_FILE:pv_builtin_flash_float>"
  POSVERIFY_BENCH_ROPE_PLUGIN="$<TARGET_FILE:pv_builtin_flux_rope>")
add_dependencies(posverify_bench posverify pv_builtin_flash_float pv_builtin_flux_rope)
