# Fixture of the browser test (cmake/html.cmake): in OUT, an index.html built
# by `posverify html` from copies of the committed JSON reports, and the page
# of a short `posverify check` of a built-in plugin. Any failure stops the test.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(GLOB jsons "${SRC}/reports/*.json")
file(COPY ${jsons} DESTINATION "${OUT}")
execute_process(COMMAND "${PV}" html --out "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "posverify html --out ${OUT}: exit ${rc}")
endif()
execute_process(COMMAND "${PV}" check --impl "${PLUGIN}" --cases 5 --out "${OUT}/check" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "posverify check --impl ${PLUGIN}: exit ${rc}\n${out}")
endif()
