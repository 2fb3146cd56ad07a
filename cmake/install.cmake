# `cmake --install`: the posverify binary, the plugin header
# include/posverify/impl.h and a CMake package, so that another project can
#   find_package(posverify REQUIRED)
#   target_link_libraries(my_kernel PRIVATE posverify::impl)   # the header
#   add_test(NAME laws COMMAND posverify::posverify check --impl $<TARGET_FILE:my_kernel>)
include(CMakePackageConfigHelpers)
# Folders 755 whatever the umask (files are 644 and programs 755 by default):
# the packages (cmake/package.cmake) are built from this installation.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# (the header-only target posverify_impl: cmake/stages.cmake)
install(TARGETS posverify EXPORT posverifyTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS posverify_impl EXPORT posverifyTargets)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/include/posverify/impl.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/posverify)
set(POSVERIFY_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/posverify)
install(EXPORT posverifyTargets NAMESPACE posverify:: DESTINATION ${POSVERIFY_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/posverifyConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/posverifyConfig.cmake INSTALL_DESTINATION ${POSVERIFY_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/posverifyConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/posverifyConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/posverifyConfigVersion.cmake
        DESTINATION ${POSVERIFY_CMAKE_DIR})

# What the binary reads at run time, where an installed binary looks for it:
# relative to itself, <prefix>/bin/posverify (src/core/install_dirs.h names
# the folders; the tarball and the Debian package are relocatable,
# docs/packaging.md).
# - The Python package at lib/python3/dist-packages/posverify, where Debian's
#   python3 imports it from (with its dist-info: cmake/package.cmake), and
#   share/posverify/python/posverify, a relative link to it: the folder the
#   binary adds to its Python server's PYTHONPATH holds posverify/ alone.
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/python/posverify DESTINATION lib/python3/dist-packages
        PATTERN __pycache__ EXCLUDE PATTERN *.pyc EXCLUDE)
set(_pv_links ${CMAKE_CURRENT_BINARY_DIR}/install-links)
file(MAKE_DIRECTORY ${_pv_links})
file(CREATE_LINK ../../../lib/python3/dist-packages/posverify ${_pv_links}/posverify SYMBOLIC)
install(FILES ${_pv_links}/posverify DESTINATION share/posverify/python)
# - The chart libraries the HTML reports inline (the files src/reports/html.cpp
#   reads, in the layout of js/node_modules), with their licences. `check
#   --out`, `verify` and `html` need them: installing without them stops with
#   the command that fetches them.
set(POSVERIFY_JS_FILES vega/build/vega.min.js vega/LICENSE vega-lite/build/vega-lite.min.js vega-lite/LICENSE
    vega-embed/build/vega-embed.min.js vega-embed/LICENSE)
install(CODE "set(_pv_js_src \"${CMAKE_CURRENT_SOURCE_DIR}/js/node_modules\")
set(_pv_js_files \"${POSVERIFY_JS_FILES}\")")
install(CODE [[
foreach(f ${_pv_js_files})
  if(NOT EXISTS "${_pv_js_src}/${f}")
    message(FATAL_ERROR "posverify's install needs ${_pv_js_src}/${f} (the HTML reports inline it): "
                        "run `npm ci --prefix js` in the source tree first")
  endif()
endforeach()
]])
foreach(f ${POSVERIFY_JS_FILES})
  get_filename_component(_dir ${f} DIRECTORY)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/js/node_modules/${f} DESTINATION share/posverify/js/${_dir})
endforeach()
# - Documentation and examples: the README, docs/, the Python examples and the
#   built-in plugins' sources (complete plugins, docs/check.md).
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/examples/python/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/python
        PATTERN __pycache__ EXCLUDE PATTERN *.pyc EXCLUDE)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/plugins/builtin/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/plugins/builtin)

# The proof: install into a fresh prefix, then configure and build a tiny
# consumer project (tests/install/consumer) that finds the package, builds a
# plugin against posverify::impl and runs the installed posverify on it.
if(POSVERIFY_BUILD_TESTS)
  add_test(NAME install_find_package
    COMMAND ${CMAKE_COMMAND}
      -DBUILD_DIR=${CMAKE_BINARY_DIR}
      -DCONSUMER_DIR=${CMAKE_CURRENT_SOURCE_DIR}/tests/install/consumer
      -DPLUGIN_SOURCE=${CMAKE_CURRENT_SOURCE_DIR}/plugins/builtin/plain_double.c
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/install-test
      -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/install/install_test.cmake)
  set_tests_properties(install_find_package PROPERTIES LABELS unit TIMEOUT 300)
  # Installing the tool needs no test framework: with POSVERIFY_BUILD_TESTS=OFF
  # the configure must succeed with GoogleTest made unfindable (a
  # find_package(GTest REQUIRED) outside the tests would stop it).
  add_test(NAME configure_without_tests
    COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR} -B ${CMAKE_CURRENT_BINARY_DIR}/configure-without-tests
      -DPOSVERIFY_BUILD_TESTS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
  set_tests_properties(configure_without_tests PROPERTIES LABELS unit TIMEOUT 300)
endif()
