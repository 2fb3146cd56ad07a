# The layers of the pipeline (cmake/stages.cmake):
# - layering.upward_includes_do_not_compile: for every pair of stages, a file
#   of the first including a header of the second preprocesses with the first
#   stage's include folders exactly when the second is one it uses;
# - Layering.* (includes_test.cpp, in the unit tests): every include written
#   in src/ names a stage the file's stage may use, rooted, with no `../`.
add_test(NAME layering.upward_includes_do_not_compile
  COMMAND ${CMAKE_COMMAND} -DCXX=${CMAKE_CXX_COMPILER} -DSRC=${CMAKE_SOURCE_DIR}
          -DLAYERS=${CMAKE_BINARY_DIR}/layering -DWORK=${CMAKE_BINARY_DIR}/layering/work
          -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/layering/upward_includes.cmake)
set_tests_properties(layering.upward_includes_do_not_compile PROPERTIES LABELS unit TIMEOUT 300)
target_compile_definitions(posverify_unit_test PRIVATE POSVERIFY_LAYERS="${CMAKE_BINARY_DIR}/layering/stages.txt")
