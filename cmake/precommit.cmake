# The pre-commit hook (.pre-commit-hooks.yaml, docs/check.md section 3.1), run by
# Debian's pre-commit in a scratch repository on a correct and a wrong kernel
# (tests/precommit/hook_test.sh). Needs git and pre-commit (scripts/posverify-setup
# test installs them); without them the test is left out with a message.
if(POSVERIFY_BUILD_TESTS)
  find_program(POSVERIFY_PRE_COMMIT pre-commit)
  find_program(POSVERIFY_GIT git)
  if(NOT POSVERIFY_PRE_COMMIT OR NOT POSVERIFY_GIT)
    message(STATUS "posverify: pre-commit or git not found: the pre-commit hook test is left out")
  else()
    add_test(NAME precommit.hook
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/precommit/hook_test.sh ${CMAKE_CURRENT_SOURCE_DIR}
              $<TARGET_FILE:posverify> $<TARGET_FILE:pv_builtin_flash_float> $<TARGET_FILE:pv_mutant_attn_no_scale>
              ${CMAKE_CURRENT_BINARY_DIR}/precommit-test)
    # its own label: the sanitizer build (scripts/posverify-setup) builds no mutant
    set_tests_properties(precommit.hook PROPERTIES LABELS precommit TIMEOUT 120)
  endif()
endif()
