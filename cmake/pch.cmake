# Precompiled headers: the build in minutes. Profiled on 2 cores
# (a launcher timing each compile, GCC 12, -O3): 273 compiles took 1609 s of
# CPU, and an empty file that includes only Boost.Multiprecision's MPFR and
# MPFI back-ends (src/reference/mp.h) takes 4-5 s to compile, RapidCheck 2 s
# and GoogleTest 2 s: parsing the same external headers again in every file
# was most of the build. Each kind below is compiled once, by a host target,
# and every other target of that kind reuses it (REUSE_FROM).
#   product     the C++ standard library and Boost.Multiprecision (every stage)
#   rapidcheck  product + RapidCheck (the properties and mutation stages)
#   tests       rapidcheck + GoogleTest (the test programs)
# Only external headers: a header of posverify in a PCH would hide a missing
# include and the layers' (cmake/stages.cmake) include paths.
#
# GCC only: clang refuses a PCH built with other sanitizer or language
# options (the fuzz build instruments only some files), and GCC falls back to
# the header text when a PCH does not match (fast.cpp's own flags skip it).
# POSVERIFY_PCH=OFF compiles every file from its own includes alone (a build
# that checks each file includes what it uses).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(_pch_default ON)
else()
  set(_pch_default OFF)
endif()
option(POSVERIFY_PCH "Precompile the external headers (GCC)" ${_pch_default})
if(POSVERIFY_PCH)
  # a user whose flags or definitions differ from its kind's host would
  # silently parse every header again: say so
  list(APPEND POSVERIFY_WARNINGS -Winvalid-pch)
endif()

set(_pch_product
  <algorithm> <array> <chrono> <cmath> <cstddef> <cstdint> <cstdio> <cstdlib> <cstring>
  <functional> <iostream> <limits> <map> <memory> <optional> <set> <sstream> <stdexcept>
  <string> <string_view> <utility> <vector>
  <boost/multiprecision/mpfr.hpp> <boost/multiprecision/mpfi.hpp>)
set(_pch_rapidcheck ${_pch_product} <rapidcheck.h>)
set(_pch_tests ${_pch_rapidcheck} <gtest/gtest.h> <rapidcheck/gtest.h>)

# The host of each kind: an object library of one empty file, with the flags
# every user of that kind has (the warnings; the global ones come by themselves).
if(POSVERIFY_PCH)
  file(WRITE ${CMAKE_BINARY_DIR}/pch/empty.cpp "// the host of a precompiled header (cmake/pch.cmake)\n")
  foreach(kind product rapidcheck tests)
    if(kind STREQUAL "tests" AND NOT POSVERIFY_BUILD_TESTS)
      continue()
    endif()
    add_library(pv_pch_${kind} OBJECT ${CMAKE_BINARY_DIR}/pch/empty.cpp)
    target_link_libraries(pv_pch_${kind} PRIVATE Boost::boost)
    if(NOT kind STREQUAL "product")
      target_link_libraries(pv_pch_${kind} PRIVATE rapidcheck)
    endif()
    if(kind STREQUAL "tests")  # as the test programs compile (CMakeLists.txt)
      target_link_libraries(pv_pch_${kind} PRIVATE GTest::gtest)
      target_compile_options(pv_pch_${kind} PRIVATE ${POSVERIFY_TEST_FLAGS})
    endif()
    target_compile_options(pv_pch_${kind} PRIVATE ${POSVERIFY_WARNINGS})
    target_precompile_headers(pv_pch_${kind} PRIVATE ${_pch_${kind}})
  endforeach()
endif()

# posverify_use_pch(target kind): `target` compiles with the precompiled
# headers of `kind` (above); nothing when POSVERIFY_PCH is OFF.
function(posverify_use_pch target kind)
  if(POSVERIFY_PCH)
    target_precompile_headers(${target} REUSE_FROM pv_pch_${kind})
  endif()
endfunction()
