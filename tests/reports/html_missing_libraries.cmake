# Without the chart libraries, `html`, `verify` and `check --out` stop with
# exit 2 and a message naming the command that installs them, and write
# nothing (cmake/html.cmake, docs/reports.md).
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(COPY "${SRC}/reports/claims.json" DESTINATION "${OUT}")
foreach(cmd "html;--out;${OUT}" "verify;--cases;1;--out;${OUT}/verify"
            "check;--impl;${PLUGIN};--cases;1;--out;${OUT}/check")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env POSVERIFY_JS_DIR=${OUT}/no-such-folder "${PV}" ${cmd}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "posverify ${cmd} without the chart libraries: exit ${rc}, expected 2\n${out}${err}")
  endif()
  string(FIND "${err}" "npm ci --prefix js" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "posverify ${cmd}: the error does not name `npm ci --prefix js`:\n${err}")
  endif()
endforeach()
file(GLOB written "${OUT}/*.html" "${OUT}/verify/*" "${OUT}/check/*")
if(written)
  message(FATAL_ERROR "written although the chart libraries are missing: ${written}")
endif()
