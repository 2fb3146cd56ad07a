# libFuzzer targets for the inputs posverify reads (fuzz/): the JSON reader and
# the baseline validator, the replay decoder, --rope-config, the option
# parser, the HTML page of a check report and merge's reading of shards. A separate build, because libFuzzer needs clang:
#   cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
#         -DPOSVERIFY_FUZZ=ON -DPOSVERIFY_BUILD_TESTS=OFF
#   cmake --build build-fuzz --target posverify_fuzzers && ctest --test-dir build-fuzz -L fuzz
# Each target is a ctest test (label `fuzz`, only in that build) that fuzzes
# for POSVERIFY_FUZZ_SECONDS from the committed seeds in fuzz/corpus/<name>.

option(POSVERIFY_FUZZ "Build the libFuzzer targets (needs clang)" OFF)
set(POSVERIFY_FUZZ_SECONDS 60 CACHE STRING "How long each fuzz test runs, in seconds")
# A fixed seed: a CI run mutates the same way each time and any finding replays
# (libFuzzer prints "INFO: Seed: N"); give another to explore further.
set(POSVERIFY_FUZZ_SEED 1 CACHE STRING "libFuzzer's -seed for the fuzz tests")

if(POSVERIFY_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "POSVERIFY_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(_fuzz_flags -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                  -fno-omit-frame-pointer -g)
  # Only the sources that read input, instrumented for coverage.
  add_library(posverify_fuzz_inputs STATIC
    src/reference/mp.cpp
    src/core/json.cpp
    src/core/files.cpp
    src/core/verdict.cpp
    src/reports/markdown.cpp
    src/cli/options.cpp
    src/blackbox/baseline.cpp
    src/blackbox/rope_config.cpp
    src/properties/reproduce.cpp
    src/reports/html.cpp
    src/reports/html_check.cpp
    src/reports/merge_reports.cpp
    src/reports/consistency.cpp
    src/reports/check_merge.cpp
    src/reports/check_report.cpp
    src/reports/claims_report.cpp
    src/sandbox/call.cpp
    src/sandbox/operation.cpp
    src/sandbox/size_text.cpp)
  # the stages' include folders (cmake/stages.cmake) and the plugin header
  set(_stage_dirs "")
  foreach(s core reference numerics laws sandbox properties blackbox claims budgets mutation reports cli)
    list(APPEND _stage_dirs ${POSVERIFY_STAGE_ROOT}/${s})
  endforeach()
  target_include_directories(posverify_fuzz_inputs PUBLIC ${_stage_dirs} ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(posverify_fuzz_inputs PUBLIC Boost::boost rapidcheck ${MPFI_LIB} ${MPFR_LIB} ${GMP_LIB})
  target_compile_definitions(posverify_fuzz_inputs PUBLIC POSVERIFY_VERSION="${PROJECT_VERSION}"
                             POSVERIFY_JS_DIR="${CMAKE_CURRENT_SOURCE_DIR}/js/node_modules")
  target_compile_options(posverify_fuzz_inputs PUBLIC ${_fuzz_flags})
  target_link_options(posverify_fuzz_inputs PUBLIC -fsanitize=address,undefined)

  add_custom_target(posverify_fuzzers)
  enable_testing()
  foreach(name json replay rope_config cli html merge)
    add_executable(fuzz_${name} fuzz/${name}_fuzz.cpp)
    target_link_libraries(fuzz_${name} PRIVATE posverify_fuzz_inputs)
    target_compile_options(fuzz_${name} PRIVATE ${POSVERIFY_WARNINGS})
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    add_dependencies(posverify_fuzzers fuzz_${name})
    # New inputs go to a corpus in the build folder; the committed seeds stay
    # as they are. -timeout: one input taking 10 s is a hang, a finding.
    set(_corpus ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus/${name})
    file(MAKE_DIRECTORY ${_corpus})
    add_test(NAME fuzz_${name}
             COMMAND fuzz_${name} -seed=${POSVERIFY_FUZZ_SEED} -max_total_time=${POSVERIFY_FUZZ_SECONDS} -timeout=10
                     -rss_limit_mb=2048 -print_final_stats=1
                     -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz-${name}-
                     ${_corpus} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${name})
    math(EXPR _limit "${POSVERIFY_FUZZ_SECONDS} + 120")
    set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz TIMEOUT ${_limit})
  endforeach()
endif()
