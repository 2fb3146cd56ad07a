# The claims' tests read ../shared/CLAIMS.md and the committed reports/ from
# the source tree.
if(TARGET posverify_unit_test)
  target_compile_definitions(posverify_unit_test PRIVATE POSVERIFY_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
endif()
