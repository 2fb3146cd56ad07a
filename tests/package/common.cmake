cmake_minimum_required(VERSION 3.20)
# Helpers of the package tests (cmake/package.cmake): run a step, fail with
# its command and output; the files cpack made (package.build).
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "step failed (exit ${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(STEP_OUT "${out}" PARENT_SCOPE)
  set(STEP_ERR "${err}" PARENT_SCOPE)
endfunction()

# DEB and TGZ: the one package of each kind package.build wrote.
macro(find_packages)
  file(GLOB DEB ${WORK_DIR}/out/posverify_${VERSION}_*.deb)
  file(GLOB TGZ ${WORK_DIR}/out/posverify-${VERSION}-*.tar.gz)
  list(LENGTH DEB _n_deb)
  list(LENGTH TGZ _n_tgz)
  if(NOT _n_deb EQUAL 1 OR NOT _n_tgz EQUAL 1)
    message(FATAL_ERROR "expected one posverify_${VERSION}_*.deb and one posverify-${VERSION}-*.tar.gz in "
                        "${WORK_DIR}/out (ctest test package.build), found: ${DEB} ${TGZ}")
  endif()
endmacro()

# True when `file` starts with the ELF magic number.
function(is_elf file out)
  file(READ ${file} magic LIMIT 4 HEX)
  if(magic STREQUAL "7f454c46")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Every ELF file under `root` (symbolic links not followed).
function(elf_files root out)
  file(GLOB_RECURSE all LIST_DIRECTORIES false ${root}/*)
  set(elves "")
  foreach(f ${all})
    if(NOT IS_SYMLINK ${f})
      is_elf(${f} e)
      if(e)
        list(APPEND elves ${f})
      endif()
    endif()
  endforeach()
  set(${out} ${elves} PARENT_SCOPE)
endfunction()
