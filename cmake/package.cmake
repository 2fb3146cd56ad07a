# Packages (CPack): a Debian package and a relocatable tarball of what
# `cmake --install` installs (cmake/install.cmake), docs/packaging.md:
#   cmake --build build --target package
#   -> build/posverify_<version>_<arch>.deb, build/posverify-<version>-Linux-<cpu>.tar.gz
#   cpack --config build/CPackConfig.cmake -G DEB    (the .deb alone, into the current folder)
# The built-in plugins are not packaged as libraries: posverify's documented
# use checks the user's own library (`check --impl`), and `budgets` runs the
# built-in implementations compiled into the binary; their sources come as
# examples (share/doc/posverify/examples/plugins/builtin/), which the test
# below builds against the packaged header.

# --- the Python package's metadata --------------------------------------------
# lib/python3/dist-packages/posverify-<version>.dist-info, written from
# python/pyproject.toml (what `pip install python/` would record): Debian's
# python3 sees the distribution, and pytest loads the plugins its
# [project.entry-points.pytest11] names. Only the TOML this file uses is read:
# one-line "double-quoted" values of [project] and of the entry-point tables.
set(_pv_pyproject ${CMAKE_CURRENT_SOURCE_DIR}/python/pyproject.toml)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_pv_pyproject})
file(STRINGS ${_pv_pyproject} _pv_lines)
set(_pv_table "")
set(_pv_entry_points "")
set(_pv_py_name "")
set(_pv_py_version "")
set(_pv_py_summary "")
set(_pv_py_requires "")
foreach(_line IN LISTS _pv_lines)
  if(_line MATCHES "^[ \t]*\\[([^]]+)\\][ \t]*$")
    set(_pv_table "${CMAKE_MATCH_1}")
    if(_pv_table MATCHES "^project\\.entry-points\\.(.+)$")
      string(REGEX REPLACE "^\"(.*)\"$" "\\1" _group "${CMAKE_MATCH_1}")
      if(_pv_entry_points)
        string(APPEND _pv_entry_points "\n")
      endif()
      string(APPEND _pv_entry_points "[${_group}]\n")
    endif()
  elseif(_line MATCHES "^[ \t]*([A-Za-z0-9_.\"-]+)[ \t]*=[ \t]*(.*)$")
    set(_key "${CMAKE_MATCH_1}")
    set(_value "${CMAKE_MATCH_2}")
    string(REGEX REPLACE "^\"(.*)\"$" "\\1" _key "${_key}")
    if(_value MATCHES "^\"([^\"]*)\"[ \t]*(#.*)?$")
      set(_string "${CMAKE_MATCH_1}")
    else()
      set(_string "")
    endif()
    if(_pv_table MATCHES "^project\\.entry-points\\.")
      if(_string STREQUAL "")
        message(FATAL_ERROR "${_pv_pyproject}: [${_pv_table}] ${_key} = ${_value}: expected a one-line \"module:object\" "
                            "string (cmake/package.cmake writes the package's entry_points.txt from it)")
      endif()
      string(APPEND _pv_entry_points "${_key} = ${_string}\n")
    elseif(_pv_table STREQUAL "project")
      if(_key STREQUAL "name")
        set(_pv_py_name "${_string}")
      elseif(_key STREQUAL "version")
        set(_pv_py_version "${_string}")
      elseif(_key STREQUAL "description")
        set(_pv_py_summary "${_string}")
      elseif(_key STREQUAL "requires-python")
        set(_pv_py_requires "${_string}")
      endif()
    endif()
  endif()
endforeach()
if(NOT _pv_py_name STREQUAL "posverify")
  message(FATAL_ERROR "${_pv_pyproject}: [project] name is \"${_pv_py_name}\", expected \"posverify\" "
                      "(a one-line double-quoted string: cmake/package.cmake reads it)")
endif()
if(NOT _pv_py_version STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "${_pv_pyproject}: [project] version is \"${_pv_py_version}\", but CMakeLists.txt's project() "
                      "is ${PROJECT_VERSION}: the Python package is released with the binary, give both the same version")
endif()
set(POSVERIFY_DIST_INFO ${CMAKE_CURRENT_BINARY_DIR}/python-dist-info/posverify-${PROJECT_VERSION}.dist-info)
file(REMOVE_RECURSE ${CMAKE_CURRENT_BINARY_DIR}/python-dist-info)
set(_metadata "Metadata-Version: 2.1\nName: posverify\nVersion: ${PROJECT_VERSION}\n")
if(_pv_py_summary)
  string(APPEND _metadata "Summary: ${_pv_py_summary}\n")
endif()
if(_pv_py_requires)
  string(APPEND _metadata "Requires-Python: ${_pv_py_requires}\n")
endif()
file(WRITE ${POSVERIFY_DIST_INFO}/METADATA "${_metadata}")
file(WRITE ${POSVERIFY_DIST_INFO}/top_level.txt "posverify\n")
if(_pv_entry_points)
  file(WRITE ${POSVERIFY_DIST_INFO}/entry_points.txt "${_pv_entry_points}")
endif()
install(DIRECTORY ${POSVERIFY_DIST_INFO} DESTINATION lib/python3/dist-packages)

# --- the Debian control data -----------------------------------------------
# Depends: the packages of the shared libraries the binary links (readelf -d:
# NEEDED), each at least at the upstream version the build linked against (the
# installed version without its Debian revision: any Debian 12 point release
# satisfies it, an older library is not claimed to work). An explicit list,
# not dpkg-shlibdeps: that needs dpkg-dev, which the build does not otherwise
# need; the ctest test package.depends checks this list against the NEEDED
# entries of every ELF file in the package, both ways.
set(POSVERIFY_DEB_DEPENDS_PACKAGES libc6 libstdc++6 libgcc-s1 libgmp10 libmpfr6 libmpfi0)
set(POSVERIFY_PACKAGE_MAINTAINER "posverify maintainers <posverify@example.org>"
    CACHE STRING "Maintainer field of the Debian package")
set(POSVERIFY_PACKAGE_HOMEPAGE "https://example.org/posverify" CACHE STRING "Homepage of the packages")

set(_pv_generators TGZ)
set(_pv_depends "")
find_program(POSVERIFY_DPKG_QUERY dpkg-query)
find_program(POSVERIFY_DPKG dpkg)
if(POSVERIFY_DPKG_QUERY AND POSVERIFY_DPKG)
  set(_pv_deb_ok TRUE)
  foreach(p ${POSVERIFY_DEB_DEPENDS_PACKAGES})
    execute_process(COMMAND ${POSVERIFY_DPKG_QUERY} -W -f=\${Version} ${p}
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _v ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT _rc EQUAL 0 OR _v STREQUAL "")
      message(STATUS "posverify: the Debian package ${p} is not installed: no .deb (cmake/package.cmake), the tarball only")
      set(_pv_deb_ok FALSE)
      break()
    endif()
    string(REGEX REPLACE "-[^-]*$" "" _v "${_v}")  # the upstream version: without the Debian revision
    list(APPEND _pv_depends "${p} (>= ${_v})")
  endforeach()
  if(_pv_deb_ok)
    list(PREPEND _pv_generators DEB)
    execute_process(COMMAND ${POSVERIFY_DPKG} --print-architecture OUTPUT_VARIABLE _pv_arch
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
endif()
string(REPLACE ";" ", " _pv_depends "${_pv_depends}")

# The machine-readable copyright file Debian requires, and a prerm that
# removes the byte code python3 wrote beside the package's modules (dpkg
# removes only the files it installed).
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/package/copyright.in
               ${CMAKE_CURRENT_BINARY_DIR}/package-control/copyright @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package-control/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/package/prerm.in
               ${CMAKE_CURRENT_BINARY_DIR}/package-control/prerm @ONLY
               FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_GENERATOR ${_pv_generators})
set(CPACK_PACKAGE_NAME posverify)
set(CPACK_PACKAGE_VENDOR posverify)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${POSVERIFY_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${POSVERIFY_PACKAGE_HOMEPAGE}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "property-based verification of attention and RoPE kernels")
set(CPACK_PACKAGE_FILE_NAME "posverify-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_STRIP_FILES ON)
set(CPACK_VERBATIM_VARIABLES ON)

set(CPACK_DEBIAN_PACKAGE_NAME posverify)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
if(_pv_arch)
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${_pv_arch})
endif()
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${POSVERIFY_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${POSVERIFY_PACKAGE_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# (the synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the text below it)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "posverify checks attention, RoPE and sinusoidal position encodings against
their mathematical laws (permutation equivariance, shift invariance,
composition, agreement with an MPFR reference, ...) with stated tolerances,
and checks a user's kernel (a shared library built against
/usr/include/posverify/impl.h, or a Python/PyTorch class) in a sandboxed
child process. Includes the CMake package posverify::impl and the Python
package posverify (a pytest plugin).")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_pv_depends}")
# Suggests, not Recommends: apt installs Recommends by default, and python3-torch
# is about a gigabyte. The binary needs no Python; `check --impl python:...` needs
# python3 and what the kernel imports (numpy, torch), pytest the plugin.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3, python3-numpy, python3-torch, python3-pytest")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_BINARY_DIR}/package-control/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)

# The tests (label `package`): package.build makes both packages into a
# scratch folder; package.relocation extracts them elsewhere and runs the
# binary, a plugin built against the packaged header and, with Debian's
# python3-torch, a Python kernel; package.depends checks Depends against what
# the packaged ELF files need.
if(POSVERIFY_BUILD_TESTS AND "DEB" IN_LIST _pv_generators)
  foreach(t build relocation depends)
    add_test(NAME package.${t}
      COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
        -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/package-test -DVERSION=${PROJECT_VERSION}
        -DCPACK=${CMAKE_CPACK_COMMAND} -DCC=${CMAKE_C_COMPILER} -DPYTHON=${POSVERIFY_TEST_PYTHON}
        -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/package/${t}.cmake)
    set_tests_properties(package.${t} PROPERTIES LABELS package TIMEOUT 120)
  endforeach()
  set_tests_properties(package.build PROPERTIES FIXTURES_SETUP posverify_packages)
  set_tests_properties(package.relocation package.depends PROPERTIES FIXTURES_REQUIRED posverify_packages)
endif()
