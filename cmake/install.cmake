# `cmake --install`: the posverify binary, the plugin header
# include/posverify/impl.h and a CMake package, so that another project can
#   find_package(posverify REQUIRED)
#   target_link_libraries(my_kernel PRIVATE posverify::impl)   # the header
#   add_test(NAME laws COMMAND posverify::posverify check --impl $<TARGET_FILE:my_kernel>)
include(CMakePackageConfigHelpers)

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
