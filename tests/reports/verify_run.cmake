# The ctest fixture reports.verify_run: one `posverify verify` at the
# committed reports/claims.json's seed and property case count (the main
# job's run) into OUT, for the tests that read its claims
# (tests/support/verify_run.h). Exit 0 (every verdict holds) and 1 (a claim
# fails: the tests name it) are runs; anything else fails the fixture, and
# with it the tests that need it.
#   cmake -DBIN=posverify -DSOURCE=<source tree> -DOUT=<folder> -P verify_run.cmake
file(READ "${SOURCE}/reports/claims.json" _committed)
string(JSON _seed GET "${_committed}" seed)
string(JSON _cases ERROR_VARIABLE _none GET "${_committed}" properties 0 cases)
if(_none)
  set(_cases 1000)
endif()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${BIN}" verify --out "${OUT}" --seed "${_seed}" --cases "${_cases}"
                OUTPUT_FILE "${OUT}/log.txt" ERROR_FILE "${OUT}/log.txt" RESULT_VARIABLE _rc)
if(NOT (_rc STREQUAL "0" OR _rc STREQUAL "1"))
  file(READ "${OUT}/log.txt" _log)
  file(REMOVE "${OUT}/claims.json")  # the tests must not read a run that did not end
  message(FATAL_ERROR "posverify verify --seed ${_seed} --cases ${_cases} exited ${_rc}:\n${_log}")
endif()
message(STATUS "posverify verify --seed ${_seed} --cases ${_cases}: exit ${_rc}, ${OUT}")
