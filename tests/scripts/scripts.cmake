# The shell scripts of scripts/ that CI runs (tests/scripts/*.sh):
# - scripts.slowest_tests: the ten-slowest table after each ctest of the setup
#   script survives a cost file many pipes long (the SIGPIPE of stop 29).
add_test(NAME scripts.slowest_tests
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/scripts/slowest_tests_test.sh
          ${CMAKE_CURRENT_SOURCE_DIR}/scripts/slowest-tests)
set_tests_properties(scripts.slowest_tests PROPERTIES LABELS unit TIMEOUT 60)
