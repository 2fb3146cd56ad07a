# The HTML reports (src/reports/html*.cpp, docs/reports.md): pages with Vega-Lite charts
# and the chart libraries inlined from js/node_modules (js/package-lock.json,
# installed by `npm ci --prefix js` in scripts/posverify-setup); the headless
# Chromium test of every page (tests/reports/html_browser.mjs, label `html`).

if(POSVERIFY_BUILD_TESTS)
  find_program(POSVERIFY_NODE node)
  set(_html_out ${CMAKE_CURRENT_BINARY_DIR}/html_test)
  add_test(NAME html.pages COMMAND ${CMAKE_COMMAND} -DPV=$<TARGET_FILE:posverify>
           -DPLUGIN=$<TARGET_FILE:pv_builtin_plain_float> -DSRC=${CMAKE_CURRENT_SOURCE_DIR} -DOUT=${_html_out}
           -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/reports/html_pages.cmake)
  set_tests_properties(html.pages PROPERTIES FIXTURES_SETUP html_pages LABELS html)
  # Every page in headless Chromium: the committed reports/index.html, the one
  # built from the committed JSON, and a check report's page.
  add_test(NAME html.browser COMMAND ${POSVERIFY_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/tests/reports/html_browser.mjs check
           ${CMAKE_CURRENT_SOURCE_DIR}/reports/index.html ${_html_out}/index.html ${_html_out}/check/builtin-plain-float.html)
  # The test itself can fail: broken copies of a page must each be reported.
  add_test(NAME html.browser_self_test COMMAND ${POSVERIFY_NODE}
           ${CMAKE_CURRENT_SOURCE_DIR}/tests/reports/html_browser.mjs self-test ${_html_out}/index.html)
  # Without the libraries: exit 2, naming the command to run, nothing written.
  add_test(NAME html.missing_libraries COMMAND ${CMAKE_COMMAND} -DPV=$<TARGET_FILE:posverify>
           -DPLUGIN=$<TARGET_FILE:pv_builtin_plain_float> -DSRC=${CMAKE_CURRENT_SOURCE_DIR}
           -DOUT=${CMAKE_CURRENT_BINARY_DIR}/html_missing -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/reports/html_missing_libraries.cmake)
  set_tests_properties(html.missing_libraries PROPERTIES LABELS html)
  set_tests_properties(html.browser html.browser_self_test PROPERTIES FIXTURES_REQUIRED html_pages LABELS html
                       TIMEOUT 300)
endif()
