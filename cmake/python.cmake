# The process adapter with real PyTorch and numpy (label `python`): the
# examples of examples/python/ must pass and their wrong siblings must be
# caught (tests/python/test_examples.py), the pytest regression flow of
# examples/python/test_posverify_regression.py on the pytest plugin, the
# plugin itself (tests/python/test_plugin.py) and the Python API
# (tests/python/test_api.py). They need Debian's
# python3-torch, python3-numpy and python3-pytest for POSVERIFY_TEST_PYTHON
# (scripts/posverify-setup test installs them); without them the tests are
# left out with a message.
set(POSVERIFY_TEST_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with torch, numpy and pytest for the python tests")

# One ctest test python.NAME running the pytest test FUNCTION of FILE, for
# CASE "NAME:FUNCTION" (label python, the environment _pv_py_env).
function(pv_python_pytest_case case file)
  string(REPLACE ":" ";" _pair "${case}")
  list(GET _pair 0 _name)
  list(GET _pair 1 _fn)
  add_test(NAME python.${_name} COMMAND ${POSVERIFY_TEST_PYTHON} -m pytest -q -p no:cacheprovider ${file}::${_fn})
  set_tests_properties(python.${_name} PROPERTIES LABELS python ENVIRONMENT "${_pv_py_env}")
endfunction()

if(POSVERIFY_BUILD_TESTS)
  execute_process(COMMAND ${POSVERIFY_TEST_PYTHON} -c "import torch, numpy, pytest"
                  RESULT_VARIABLE _pv_py_ok OUTPUT_QUIET ERROR_QUIET)
  if(NOT _pv_py_ok EQUAL 0)
    message(STATUS "posverify: ${POSVERIFY_TEST_PYTHON} lacks torch, numpy or pytest: the python tests are left out")
  else()
    set(_pv_py_env "POSVERIFY_BIN=$<TARGET_FILE:posverify>"
                   "POSVERIFY_PYTHON=${POSVERIFY_TEST_PYTHON}"
                   "PYTHONPATH=${CMAKE_CURRENT_SOURCE_DIR}/python"
                   "POSVERIFY_TEST_OUT=${CMAKE_CURRENT_BINARY_DIR}/python-reports")
    # one ctest test per example, so that ctest -j runs them side by side
    set(_pv_py_tests ${CMAKE_CURRENT_SOURCE_DIR}/tests/python/test_examples.py)
    foreach(case llama_rope llama_rope_exponent llama_rope_sign llama_rope_pos_bf16
                 flux_rope flux_rope_swapped sdpa numpy_rope)
      add_test(NAME python.${case}
               COMMAND ${POSVERIFY_TEST_PYTHON} -m pytest -q -p no:cacheprovider ${_pv_py_tests}::test_${case})
      set_tests_properties(python.${case} PROPERTIES LABELS python ENVIRONMENT "${_pv_py_env}")
    endforeach()
    # protocol version 2 (docs/protocol.md): Llama 3.1's scaling reaches the
    # example that declares it and catches its sibling that ignores it; the
    # RoPE configurations a server is sent (rope_caps), a version-1 server,
    # M-RoPE, int64 positions, and the server's negotiation and decoding;
    # dynamic NTK with the length read from the positions, declared or not,
    # and its sibling whose cache never resets; protocol version 3 (a rotary
    # offset, frequency factors)
    foreach(case llama_rope_llama3:test_llama_rope_llama3
                 llama_rope_ignores_scaling:test_llama_rope_ignores_scaling
                 llama_rope_pos_bf16_llama3:test_llama_rope_pos_bf16_llama3
                 llama_rope_llama3_wrong_original_length:test_llama_rope_llama3_wrong_original_length
                 llama_rope_yarn_offset_and_factors:test_llama_rope_yarn_offset_and_factors
                 llama_rope_yarn_siblings:test_llama_rope_yarn_no_temperature_and_offset_ignored
                 protocol_undeclared:test_protocol_undeclared_scaling_is_unsupported_and_never_sent
                 protocol_declared:test_protocol_declared_mrope_and_scaling_reach_the_kernel
                 protocol_version1:test_protocol_version1_server_behaves_as_before
                 protocol_version3:test_protocol_version3_carries_rotary_offset_and_freq_factors
                 protocol_int64_positions:test_protocol_int64_positions
                 protocol_server:test_protocol_server_negotiates_and_decodes_by_version
                 llama_rope_dynamic:test_llama_rope_dynamic
                 llama_rope_dynamic_undeclared:test_llama_rope_dynamic_undeclared
                 llama_rope_dynamic_never_resets:test_llama_rope_dynamic_never_resets)
      pv_python_pytest_case("${case}" ${_pv_py_tests})
    endforeach()
    # protocol version 4: attend through the pipe (examples/python/eager_attention.py
    # and sdpa.py, each with wrong siblings, the eager one at the shapes of
    # shipped models too; --impl-cmd; the numpy backend and
    # the server's findings, tests/python/attend_kernels.py)
    foreach(case eager_attention:test_eager_attention
                 eager_attention_siblings:test_eager_attention_siblings
                 eager_attention_models:test_eager_attention_models
                 sdpa_attend:test_sdpa_attend
                 attend_impl_cmd:test_attend_impl_cmd
                 attend_protocol:test_attend_protocol)
      pv_python_pytest_case("${case}" ${_pv_py_tests})
    endforeach()
    foreach(case adapter)
      add_test(NAME python.${case}
               COMMAND ${POSVERIFY_TEST_PYTHON} -m pytest -q -p no:cacheprovider ${_pv_py_tests} -k test_${case})
      set_tests_properties(python.${case} PROPERTIES LABELS python ENVIRONMENT "${_pv_py_env}")
    endforeach()
    # the regression example through the pytest plugin of this source tree
    # (-p no:posverify: not also an installed copy's entry point)
    add_test(NAME python.regression_flow
             COMMAND ${POSVERIFY_TEST_PYTHON} -m pytest -q -p no:cacheprovider -p no:posverify -p posverify.pytest_plugin
                     ${CMAKE_CURRENT_SOURCE_DIR}/examples/python/test_posverify_regression.py)
    set_tests_properties(python.regression_flow PROPERTIES LABELS python ENVIRONMENT "${_pv_py_env}")
    # the pytest plugin (tests/python/test_plugin.py) and the Python API
    # (tests/python/test_api.py), one ctest test each
    foreach(case plugin_items:test_plugin_one_item_per_law
                 plugin_planted_failure:test_plugin_planted_failure_shows_finding_and_replay
                 plugin_select:test_plugin_k_selects_one_law)
      pv_python_pytest_case("${case}" ${CMAKE_CURRENT_SOURCE_DIR}/tests/python/test_plugin.py)
    endforeach()
    add_test(NAME python.api
             COMMAND ${POSVERIFY_TEST_PYTHON} -m pytest -q -p no:cacheprovider
                     ${CMAKE_CURRENT_SOURCE_DIR}/tests/python/test_api.py)
    set_tests_properties(python.api PROPERTIES LABELS python ENVIRONMENT "${_pv_py_env}")
  endif()
endif()
