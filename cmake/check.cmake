# `posverify check`: the C interface (include/posverify/impl.h), the sandboxed
# runner and the black-box laws (src/check/), the built-in plugins and the
# mutation suite (plugins/), and their tests (label `check`).

file(GLOB POSVERIFY_CHECK_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/check/*.cpp)
add_library(posverify_check STATIC ${POSVERIFY_CHECK_SOURCES})
target_include_directories(posverify_check PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_link_libraries(posverify_check PUBLIC posverify_core posverify_fast ${CMAKE_DL_LIBS})
target_compile_options(posverify_check PRIVATE ${POSVERIFY_WARNINGS})
target_link_libraries(posverify PRIVATE posverify_check)

# (installing the header and the binary: cmake/install.cmake)

# Plugins: one shared library per file, built against the installed header
# exactly as a user's kernel would be.
function(posverify_add_plugin target source)
  add_library(${target} MODULE ${source})
  set_target_properties(${target} PROPERTIES PREFIX "lib" C_STANDARD 11 C_STANDARD_REQUIRED ON)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  target_link_libraries(${target} PRIVATE m)
endfunction()

set(POSVERIFY_BUILTIN_PLUGINS plain_double plain_float flash_float flux_rope reverse_order round_once scaled_rope)
set(POSVERIFY_BUILTIN_PLUGIN_FILES "")
foreach(p ${POSVERIFY_BUILTIN_PLUGINS})
  posverify_add_plugin(pv_builtin_${p} ${CMAKE_CURRENT_SOURCE_DIR}/plugins/builtin/${p}.c)
  list(APPEND POSVERIFY_BUILTIN_PLUGIN_FILES "${p}=$<TARGET_FILE:pv_builtin_${p}>")
endforeach()

# One plugin per C file of a folder, targets <prefix><name>; `out` receives
# "name=path" entries (what the tests read) and `srcs` the sources.
function(posverify_add_plugin_dir dir prefix out srcs)
  file(GLOB _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/plugins/${dir}/*.c)
  set(_files ${${out}})
  foreach(src ${_srcs})
    get_filename_component(m ${src} NAME_WE)
    posverify_add_plugin(${prefix}${m} ${src})
    list(APPEND _files "${m}=$<TARGET_FILE:${prefix}${m}>")
  endforeach()
  set(${out} ${_files} PARENT_SCOPE)
  set(${srcs} ${_srcs} PARENT_SCOPE)
endfunction()

set(POSVERIFY_MUTANT_FILES "")
posverify_add_plugin_dir(mutants pv_mutant_ POSVERIFY_MUTANT_FILES POSVERIFY_MUTANT_SOURCES)

# The panel of correct implementations written the ways real libraries write
# them (each must pass every law; its wrong sibling is in plugins/mutants/).
# The built-in flash_float (blocked online softmax) is a member too.
set(POSVERIFY_PANEL_FILES "flash_float=$<TARGET_FILE:pv_builtin_flash_float>")
posverify_add_plugin_dir(panel pv_panel_ POSVERIFY_PANEL_FILES POSVERIFY_PANEL_SOURCES)

if(POSVERIFY_BUILD_TESTS)
  file(GLOB POSVERIFY_CHECK_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/check/*_test.cpp)
  # The check tests live in their own binary (label `check`) with the plugin
  # paths compiled in (the unit-test glob of CMakeLists.txt leaves tests/check/ out).
  posverify_add_test(posverify_check_test SOURCES ${POSVERIFY_CHECK_TESTS}
    LIBS posverify_check GTest::gtest_main LABELS check)
  string(REPLACE ";" "," _builtin "${POSVERIFY_BUILTIN_PLUGIN_FILES}")
  string(REPLACE ";" "," _mutants "${POSVERIFY_MUTANT_FILES}")
  string(REPLACE ";" "," _panel "${POSVERIFY_PANEL_FILES}")
  target_compile_definitions(posverify_check_test PRIVATE
    POSVERIFY_BUILTIN_PLUGINS="${_builtin}" POSVERIFY_MUTANT_PLUGINS="${_mutants}"
    POSVERIFY_PANEL_PLUGINS="${_panel}"
    POSVERIFY_TEST_OUT="${CMAKE_CURRENT_BINARY_DIR}/check-reports")
  add_dependencies(posverify_check_test posverify)
  foreach(p ${POSVERIFY_BUILTIN_PLUGINS})
    add_dependencies(posverify_check_test pv_builtin_${p})
  endforeach()
  foreach(src ${POSVERIFY_MUTANT_SOURCES})
    get_filename_component(m ${src} NAME_WE)
    add_dependencies(posverify_check_test pv_mutant_${m})
  endforeach()
  foreach(src ${POSVERIFY_PANEL_SOURCES})
    get_filename_component(m ${src} NAME_WE)
    add_dependencies(posverify_check_test pv_panel_${m})
  endforeach()
endif()

# Libraries posverify must refuse with exit 2 (tests of the loader).
posverify_add_plugin(pv_bad_wrong_abi ${CMAKE_CURRENT_SOURCE_DIR}/plugins/bad/wrong_abi.c)
posverify_add_plugin(pv_bad_no_symbol ${CMAKE_CURRENT_SOURCE_DIR}/plugins/bad/no_symbol.c)
posverify_add_plugin(pv_bad_crash_on_load ${CMAKE_CURRENT_SOURCE_DIR}/plugins/bad/crash_on_load.c)
posverify_add_plugin(pv_bad_abi_v1 ${CMAKE_CURRENT_SOURCE_DIR}/plugins/bad/abi_v1.c)
posverify_add_plugin(pv_bad_abi_v2 ${CMAKE_CURRENT_SOURCE_DIR}/plugins/bad/abi_v2.c)
if(POSVERIFY_BUILD_TESTS)
  target_compile_definitions(posverify_check_test PRIVATE
    POSVERIFY_BAD_WRONG_ABI="$<TARGET_FILE:pv_bad_wrong_abi>"
    POSVERIFY_BAD_NO_SYMBOL="$<TARGET_FILE:pv_bad_no_symbol>"
    POSVERIFY_BAD_CRASH_ON_LOAD="$<TARGET_FILE:pv_bad_crash_on_load>"
    POSVERIFY_ABI_V1="$<TARGET_FILE:pv_bad_abi_v1>"
    POSVERIFY_ABI_V2="$<TARGET_FILE:pv_bad_abi_v2>")
  add_dependencies(posverify_check_test pv_bad_wrong_abi pv_bad_no_symbol pv_bad_crash_on_load pv_bad_abi_v1
    pv_bad_abi_v2)
endif()

# The process adapter finds the Python package of the source tree unless
# POSVERIFY_PYTHON_DIR says otherwise (python/posverify/, docs/python.md).
target_compile_definitions(posverify_check PRIVATE POSVERIFY_PYTHON_DIR="${CMAKE_CURRENT_SOURCE_DIR}/python")
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/python/posverify DESTINATION share/posverify/python)
