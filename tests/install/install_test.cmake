# ctest install_find_package: `cmake --install` into a temporary prefix, then a
# consumer project finds the package, builds a plugin against posverify::impl
# and runs the installed binary on it. Any failing step fails the test.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
foreach(f bin/posverify include/posverify/impl.h)
  if(NOT EXISTS ${WORK_DIR}/prefix/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
     -DPLUGIN_SOURCE=${PLUGIN_SOURCE})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer --target check_laws)
