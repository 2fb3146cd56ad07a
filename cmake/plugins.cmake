# The plugins (plugins/): one shared library per C file, built against the
# installed header exactly as a user's kernel would be, and the tests that
# run posverify on them (tests/blackbox/, tests/sandbox/; label `check`).
#   plugins/builtin/  the built-in implementations
#   plugins/panel/    correct kernels written the ways real libraries write them
#   plugins/mutants/  deliberately wrong kernels (the mutation suite)
#   plugins/bad/      libraries posverify must refuse with exit 2
#   plugins/hostile/  libraries that attack the sandbox
# A plugin includes another plugin's files from the root plugins/
# ("builtin/rope_config.h").

# Binary16 conversions by the CPU's F16C instructions where the building
# machine has them, as a library built for that machine converts (PyTorch's
# c10::Half, ggml's tables): without the flag, GCC converts every _Float16
# in libgcc (__extendhfsf2, __truncsfhf2), about 5 % of the panel's CPU time
# and 40 % of its float16-accumulating member's. The same values: both round
# to nearest even, and _Float16 arithmetic is still evaluated in float (F16C
# converts, it does not compute); panel.json and mutation.json unchanged.
# OFF: the portable build.
include(CheckCSourceRuns)
check_c_source_runs("int main(void) { __builtin_cpu_init(); return !__builtin_cpu_supports(\"f16c\"); }"
                    POSVERIFY_CPU_HAS_F16C)
option(POSVERIFY_PLUGIN_F16C "Build the plugins with -mf16c (default: when this machine has F16C)"
       ${POSVERIFY_CPU_HAS_F16C})

function(posverify_add_plugin target source)
  add_library(${target} MODULE ${source})
  set_target_properties(${target} PROPERTIES PREFIX "lib" C_STANDARD 11 C_STANDARD_REQUIRED ON)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/plugins)
  target_compile_options(${target} PRIVATE -Wall -Wextra $<$<BOOL:${POSVERIFY_PLUGIN_F16C}>:-mf16c>)
  target_link_libraries(${target} PRIVATE m)
endfunction()

set(POSVERIFY_BUILTIN_PLUGINS plain_double plain_float flash_float flux_rope reverse_order round_once scaled_rope attend_tiled)
set(POSVERIFY_BUILTIN_PLUGIN_FILES "")
foreach(p ${POSVERIFY_BUILTIN_PLUGINS})
  posverify_add_plugin(pv_builtin_${p} ${CMAKE_CURRENT_SOURCE_DIR}/plugins/builtin/${p}.c)
  list(APPEND POSVERIFY_BUILTIN_PLUGIN_FILES "${p}=$<TARGET_FILE:pv_builtin_${p}>")
endforeach()

# One plugin per C file of a folder, targets <prefix><name>; `out` receives
# "name=path" entries (what the tests read) and `targets` the targets.
function(posverify_add_plugin_dir dir prefix out targets)
  file(GLOB _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/plugins/${dir}/*.c)
  set(_files ${${out}})
  set(_targets "")
  foreach(src ${_srcs})
    get_filename_component(m ${src} NAME_WE)
    posverify_add_plugin(${prefix}${m} ${src})
    list(APPEND _files "${m}=$<TARGET_FILE:${prefix}${m}>")
    list(APPEND _targets ${prefix}${m})
  endforeach()
  set(${out} ${_files} PARENT_SCOPE)
  set(${targets} ${_targets} PARENT_SCOPE)
endfunction()

set(POSVERIFY_MUTANT_FILES "")
posverify_add_plugin_dir(mutants pv_mutant_ POSVERIFY_MUTANT_FILES POSVERIFY_MUTANT_TARGETS)

# The panel of correct implementations written the ways real libraries write
# them (each must pass every law; its wrong sibling is in plugins/mutants/).
# The built-in flash_float (blocked online softmax) is a member too.
set(POSVERIFY_PANEL_FILES "flash_float=$<TARGET_FILE:pv_builtin_flash_float>")
posverify_add_plugin_dir(panel pv_panel_ POSVERIFY_PANEL_FILES POSVERIFY_PANEL_TARGETS)

# The loader's tests: libraries posverify must refuse with exit 2, and libraries
# of earlier ABI versions (abi_v*) it must load and check as they were written.
foreach(b wrong_abi no_symbol crash_on_load abi_v1 abi_v1_rebuilt abi_v2 abi_v3 abi_v6_all_caps attend_no_caps
         attend_empty_nan rope_dynamic_undeclared)
  posverify_add_plugin(pv_bad_${b} ${CMAKE_CURRENT_SOURCE_DIR}/plugins/bad/${b}.c)
endforeach()

if(POSVERIFY_BUILD_TESTS)
  # Hostile plugins: each reproduces one way a plugin attacked posverify's
  # sandbox (stray writes, forks, stderr spam, huge allocations, ...);
  # tests/sandbox/hostile_test.cpp runs posverify on them.
  set(POSVERIFY_HOSTILE_FILES "")
  posverify_add_plugin_dir(hostile pv_hostile_ POSVERIFY_HOSTILE_FILES POSVERIFY_HOSTILE_TARGETS)

  # The tests that run plugins live in their own binary (label `check`) with
  # the plugin paths compiled in.
  file(GLOB POSVERIFY_CHECK_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/blackbox/*_test.cpp
       ${CMAKE_CURRENT_SOURCE_DIR}/tests/sandbox/*_test.cpp)
  posverify_add_test(posverify_check_test SOURCES ${POSVERIFY_CHECK_TESTS}
    STAGES blackbox LIBS GTest::gtest_main LABELS check)
  string(REPLACE ";" "," _builtin "${POSVERIFY_BUILTIN_PLUGIN_FILES}")
  string(REPLACE ";" "," _mutants "${POSVERIFY_MUTANT_FILES}")
  string(REPLACE ";" "," _panel "${POSVERIFY_PANEL_FILES}")
  string(REPLACE ";" "," _hostile "${POSVERIFY_HOSTILE_FILES}")
  target_compile_definitions(posverify_check_test PRIVATE
    POSVERIFY_BUILTIN_PLUGINS="${_builtin}" POSVERIFY_MUTANT_PLUGINS="${_mutants}"
    POSVERIFY_PANEL_PLUGINS="${_panel}" POSVERIFY_HOSTILE_PLUGINS="${_hostile}"
    POSVERIFY_TEST_OUT="${CMAKE_CURRENT_BINARY_DIR}/check-reports"
    POSVERIFY_BAD_WRONG_ABI="$<TARGET_FILE:pv_bad_wrong_abi>"
    POSVERIFY_BAD_NO_SYMBOL="$<TARGET_FILE:pv_bad_no_symbol>"
    POSVERIFY_BAD_CRASH_ON_LOAD="$<TARGET_FILE:pv_bad_crash_on_load>"
    POSVERIFY_ABI_V1="$<TARGET_FILE:pv_bad_abi_v1>"
    POSVERIFY_ABI_V1_REBUILT="$<TARGET_FILE:pv_bad_abi_v1_rebuilt>"
    POSVERIFY_ABI_V2="$<TARGET_FILE:pv_bad_abi_v2>"
    POSVERIFY_ABI_V3="$<TARGET_FILE:pv_bad_abi_v3>"
    POSVERIFY_ABI_V6_ALL_CAPS="$<TARGET_FILE:pv_bad_abi_v6_all_caps>"
    POSVERIFY_ATTEND_NO_CAPS="$<TARGET_FILE:pv_bad_attend_no_caps>"
    POSVERIFY_ATTEND_EMPTY_NAN="$<TARGET_FILE:pv_bad_attend_empty_nan>"
    POSVERIFY_ROPE_DYNAMIC_UNDECLARED="$<TARGET_FILE:pv_bad_rope_dynamic_undeclared>")
  add_dependencies(posverify_check_test posverify)
  foreach(p ${POSVERIFY_BUILTIN_PLUGINS})
    add_dependencies(posverify_check_test pv_builtin_${p})
  endforeach()
  foreach(b wrong_abi no_symbol crash_on_load abi_v1 abi_v1_rebuilt abi_v2 abi_v3 abi_v6_all_caps attend_no_caps
         attend_empty_nan rope_dynamic_undeclared)
    add_dependencies(posverify_check_test pv_bad_${b})
  endforeach()
  foreach(t ${POSVERIFY_MUTANT_TARGETS} ${POSVERIFY_PANEL_TARGETS} ${POSVERIFY_HOSTILE_TARGETS})
    add_dependencies(posverify_check_test ${t})
  endforeach()
endif()
