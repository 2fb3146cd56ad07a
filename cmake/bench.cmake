# The benchmark of the reference tiers (bench/, run by hand; not a test: it
# prints figures and writes reports/bench.md). Plugins whose default `check`
# it times (one process and --jobs auto) are the built-in flash_float,
# plain_float, flux_rope, scaled_rope and attend_tiled; then (unless
# --skip-suite) the Python RoPE example, --profile models (flash_float's and
# attend_tiled's), verify, the mutation suite and the panel of 20 seeds, from
# the build's mutants and panel members.
add_executable(posverify_bench bench/bench.cpp)
posverify_link_stages(posverify_bench numerics)
target_compile_options(posverify_bench PRIVATE ${POSVERIFY_WARNINGS})
posverify_use_pch(posverify_bench product)
target_compile_definitions(posverify_bench PRIVATE
  POSVERIFY_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
  POSVERIFY_BENCH_POSVERIFY="$<TARGET_FILE:posverify>"
  POSVERIFY_BENCH_BUILD_DIR="$<TARGET_FILE_DIR:posverify>"
  POSVERIFY_BENCH_ATTN_PLUGIN="$<TARGET_FILE:pv_builtin_flash_float>"
  POSVERIFY_BENCH_ROPE_PLUGIN="$<TARGET_FILE:pv_builtin_flux_rope>"
  POSVERIFY_BENCH_PLAIN_PLUGIN="$<TARGET_FILE:pv_builtin_plain_float>"
  POSVERIFY_BENCH_SCALED_PLUGIN="$<TARGET_FILE:pv_builtin_scaled_rope>"
  POSVERIFY_BENCH_ATTEND_PLUGIN="$<TARGET_FILE:pv_builtin_attend_tiled>")
add_dependencies(posverify_bench posverify pv_builtin_flash_float pv_builtin_flux_rope pv_builtin_plain_float
                 pv_builtin_scaled_rope pv_builtin_attend_tiled)
