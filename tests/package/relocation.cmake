# ctest package.relocation: the packages package.build made are sane and work
# wherever they are unpacked (cmake/package.cmake, docs/packaging.md).
# - The .deb's control fields and file list: everything under /usr, owned by
#   root, folders and the program 755, other files 644, the one ELF file the
#   program, no RPATH, no path of the build or source tree in any file but the
#   program (whose compiled-in source-tree paths are the build tree's
#   fallback, src/core/install_dirs.h).
# - `dpkg -x` into a scratch root: the program runs (--version); a built-in
#   plugin, built from its packaged source against the packaged header, is
#   checked, and its HTML report inlines the packaged chart libraries; the
#   packaged Python package imports with its version and entry points, and,
#   with Debian's python3-torch, a Python kernel (the packaged example) is
#   checked through the packaged server package; pytest loads the packaged
#   plugin by its entry point.
# - The tarball unpacked elsewhere: --version and a check, from there.
# That the packaged files were the ones used (not the source tree's, also
# present on this machine) is proved by markers added to the unpacked copies:
# a comment in vega.min.js that must appear in the HTML report, a line in
# posverify/__init__.py that writes where it was imported from.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
find_packages()
set(W ${WORK_DIR}/relocation)
file(REMOVE_RECURSE ${W})
file(MAKE_DIRECTORY ${W})
# posverify run with neither override: it must find its files by itself
set(RUN ${CMAKE_COMMAND} -E env --unset=POSVERIFY_PYTHON_DIR --unset=POSVERIFY_JS_DIR --unset=PYTHONPATH)

# --- control fields -------------------------------------------------------------
step(dpkg-deb -f ${DEB})
set(control "${STEP_OUT}")
foreach(field "Package: posverify" "Version: ${VERSION}" "Architecture: " "Maintainer: " "Homepage: "
              "Description: " "Depends: " "Suggests: " "Section: " "Installed-Size: ")
  string(FIND "${control}" "\n${field}" at)
  if(at EQUAL -1)
    string(FIND "${control}" "${field}" at0)
    if(NOT at0 EQUAL 0)
      message(FATAL_ERROR "${DEB}: the control file has no \"${field}\" line:\n${control}")
    endif()
  endif()
endforeach()
foreach(field Recommends Pre-Depends)
  if(control MATCHES "(^|\n)${field}:")
    message(FATAL_ERROR "${DEB}: ${field} is declared (apt would install it with the package):\n${control}")
  endif()
endforeach()
step(dpkg-deb -I ${DEB})
foreach(script prerm)
  if(NOT STEP_OUT MATCHES "[0-9]+ bytes, +[0-9]+ lines +\\* +${script} +#!/bin/sh")
    message(FATAL_ERROR "${DEB}: no executable ${script} (#!/bin/sh) in the control archive:\n${STEP_OUT}")
  endif()
endforeach()

# --- file list ------------------------------------------------------------------
step(dpkg-deb -c ${DEB})
string(REPLACE "\n" ";" listing "${STEP_OUT}")
set(paths "")
foreach(line ${listing})
  if(line STREQUAL "")
    continue()
  endif()
  if(NOT line MATCHES "^([-dl][-rwxsStT]+) ([^ ]+) +[0-9]+ [0-9-]+ [0-9:]+ \\./(.*)$")
    message(FATAL_ERROR "${DEB}: unexpected line of dpkg-deb -c: ${line}")
  endif()
  set(mode "${CMAKE_MATCH_1}")
  set(owner "${CMAKE_MATCH_2}")
  set(path "${CMAKE_MATCH_3}")
  string(REGEX REPLACE " -> .*$" "" path "${path}")
  if(NOT owner STREQUAL "root/root")
    message(FATAL_ERROR "${DEB}: ${path} is owned by ${owner}, not root/root")
  endif()
  if(NOT path STREQUAL "" AND NOT path MATCHES "^usr/")
    message(FATAL_ERROR "${DEB}: ${path} is outside /usr")
  endif()
  if(path MATCHES "__pycache__|\\.pyc$|CMakeFiles|_CPack|(^|/)libpv_|\\.o$|\\.so$")
    message(FATAL_ERROR "${DEB}: ${path} is a build product that does not belong in the package")
  endif()
  if(mode MATCHES "^d")
    set(want "drwxr-xr-x")
  elseif(mode MATCHES "^l")
    set(want "lrwxrwxrwx")
  elseif(path STREQUAL "usr/bin/posverify")
    set(want "-rwxr-xr-x")
  else()
    set(want "-rw-r--r--")
  endif()
  if(NOT mode STREQUAL want)
    message(FATAL_ERROR "${DEB}: ${path} has mode ${mode}, expected ${want}")
  endif()
  list(APPEND paths "${path}")
endforeach()
foreach(f usr/bin/posverify usr/include/posverify/impl.h usr/lib/cmake/posverify/posverifyConfig.cmake
          usr/lib/cmake/posverify/posverifyTargets.cmake
          usr/lib/python3/dist-packages/posverify/__init__.py usr/lib/python3/dist-packages/posverify/server.py
          usr/lib/python3/dist-packages/posverify-${VERSION}.dist-info/METADATA
          usr/share/posverify/python/posverify usr/share/posverify/js/vega/build/vega.min.js
          usr/share/doc/posverify/copyright usr/share/doc/posverify/README.md
          usr/share/doc/posverify/examples/plugins/builtin/plain_double.c)
  if(NOT f IN_LIST paths)
    message(FATAL_ERROR "${DEB}: ${f} is not in the package")
  endif()
endforeach()

message(STATUS "${DEB}: control fields and file list checked")

# --- dpkg -x into a scratch root --------------------------------------------------
set(ROOT ${W}/deb-root)
step(dpkg-deb -x ${DEB} ${ROOT})
elf_files(${ROOT} elves)
if(NOT elves STREQUAL "${ROOT}/usr/bin/posverify")
  message(FATAL_ERROR "${DEB}: the ELF files are ${elves}; expected the program usr/bin/posverify alone")
endif()
step(readelf -d ${ROOT}/usr/bin/posverify)
if(STEP_OUT MATCHES "\\((RPATH|RUNPATH)\\)[^\n]*")
  message(FATAL_ERROR "${DEB}: usr/bin/posverify carries ${CMAKE_MATCH_0}")
endif()
# The program's strings name no folder of the build tree, and of the source
# tree only the build tree's fallbacks (src/core/install_dirs.h).
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" build_re "${BUILD_DIR}")
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" source_re "${SOURCE_DIR}")
file(STRINGS ${ROOT}/usr/bin/posverify named REGEX "(${build_re}|${source_re})/")
foreach(n ${named})
  string(REGEX MATCH "(${build_re}|${source_re})/[^ \"']*" p "${n}")
  if(NOT p STREQUAL "${SOURCE_DIR}/python" AND NOT p STREQUAL "${SOURCE_DIR}/js/node_modules")
    message(FATAL_ERROR "${DEB}: usr/bin/posverify names ${p}, a folder of the machine that built it")
  endif()
endforeach()
file(GLOB_RECURSE texts LIST_DIRECTORIES false ${ROOT}/*)
list(REMOVE_ITEM texts ${ROOT}/usr/bin/posverify)
foreach(f ${texts})
  if(NOT IS_SYMLINK ${f})
    file(READ ${f} content)
    foreach(dir ${BUILD_DIR} ${SOURCE_DIR})
      string(FIND "${content}" "${dir}/" at)
      if(NOT at EQUAL -1)
        message(FATAL_ERROR "${f} names ${dir}, a folder of the machine that built the package")
      endif()
    endforeach()
  endif()
endforeach()

# Markers: the unpacked copies, not the source tree's, must be read.
function(mark_js prefix)
  file(APPEND ${prefix}/share/posverify/js/vega/build/vega.min.js "\n/* package test: ${prefix} */\n")
endfunction()
function(expect_js_marker report prefix)
  file(READ ${report} html)
  string(FIND "${html}" "/* package test: ${prefix} */" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${report} does not inline ${prefix}/share/posverify/js/vega/build/vega.min.js: "
                        "the relocated posverify read other chart libraries")
  endif()
endfunction()
function(mark_python prefix)
  file(APPEND ${prefix}/lib/python3/dist-packages/posverify/__init__.py
       "\nimport os as _pv_os\nif _pv_os.environ.get('POSVERIFY_PACKAGE_TEST_MARK'):\n"
       "    open(_pv_os.environ['POSVERIFY_PACKAGE_TEST_MARK'], 'w').write(__file__)\n")
endfunction()

# The program, and a built-in plugin built from its packaged source against the packaged header.
set(PV ${ROOT}/usr/bin/posverify)
step(${RUN} ${PV} --version)
if(NOT STEP_OUT MATCHES "${VERSION}")
  message(FATAL_ERROR "${PV} --version does not say ${VERSION}:\n${STEP_OUT}")
endif()
set(EX ${ROOT}/usr/share/doc/posverify/examples)
set(PLUGIN ${W}/libplain_double.so)
step(${CC} -O2 -shared -fPIC -I${ROOT}/usr/include -I${EX}/plugins ${EX}/plugins/builtin/plain_double.c
     -o ${PLUGIN} -lm)
mark_js(${ROOT}/usr)
step(${RUN} ${PV} check --impl ${PLUGIN} --law attention.reference --cases 5 --out ${W}/deb-report)
file(GLOB html ${W}/deb-report/*.html)
if(NOT html)
  message(FATAL_ERROR "${PV} check wrote no HTML report in ${W}/deb-report")
endif()
expect_js_marker(${html} ${ROOT}/usr)
message(STATUS "dpkg -x: --version and a check of plain_double built against the packaged header pass")

# The Python package where Debian's python3 finds it: its version and entry points.
set(DIST ${ROOT}/usr/lib/python3/dist-packages)
if(EXISTS ${PYTHON})
  file(WRITE ${W}/import.py "import importlib.metadata\nimport posverify\n"
       "print(posverify.__file__)\nprint(importlib.metadata.version('posverify'))\n")
  step(${CMAKE_COMMAND} -E env PYTHONPATH=${DIST} ${PYTHON} ${W}/import.py)
  if(NOT STEP_OUT STREQUAL "${DIST}/posverify/__init__.py\n${VERSION}\n")
    message(FATAL_ERROR "import posverify from ${DIST}: expected its __init__.py and version ${VERSION}, got:\n${STEP_OUT}")
  endif()
endif()
set(EP ${DIST}/posverify-${VERSION}.dist-info/entry_points.txt)
set(pytest_plugins "")
if(EXISTS ${EP})
  file(STRINGS ${EP} eps)
  set(group "")
  foreach(l ${eps})
    if(l MATCHES "^\\[(.*)\\]$")
      set(group "${CMAKE_MATCH_1}")
    elseif(l MATCHES "^([^ =]+) *= *([A-Za-z0-9_.]+)")
      string(REPLACE "." "/" mod "${CMAKE_MATCH_2}")
      if(NOT EXISTS ${DIST}/${mod}.py AND NOT EXISTS ${DIST}/${mod}/__init__.py)
        message(FATAL_ERROR "${EP}: [${group}] ${CMAKE_MATCH_1} names ${CMAKE_MATCH_2}, which is not in the package "
                            "(${DIST}/${mod}.py): every pytest run would fail to load it")
      endif()
      if(group STREQUAL "pytest11")
        list(APPEND pytest_plugins ${DIST}/${mod}.py)
      endif()
    endif()
  endforeach()
endif()
if(pytest_plugins AND EXISTS ${PYTHON})
  execute_process(COMMAND ${PYTHON} -c "import pytest" RESULT_VARIABLE no_pytest OUTPUT_QUIET ERROR_QUIET)
  if(NOT no_pytest)
    file(MAKE_DIRECTORY ${W}/pytest-empty)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${DIST} ${PYTHON} -m pytest --trace-config -p no:cacheprovider
                            --co -q ${W}/pytest-empty
                    WORKING_DIRECTORY ${W}/pytest-empty OUTPUT_VARIABLE out ERROR_VARIABLE err)
    foreach(p ${pytest_plugins})
      string(FIND "${out}" "${p}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "pytest did not load the packaged plugin ${p} by its entry point:\n${out}\n${err}")
      endif()
    endforeach()
    message(STATUS "pytest loads the packaged plugin: ${pytest_plugins}")
  endif()
endif()

# A Python kernel through the packaged server package (Debian's python3-torch).
set(torch 1)
if(EXISTS ${PYTHON})
  execute_process(COMMAND ${PYTHON} -c "import torch" RESULT_VARIABLE torch OUTPUT_QUIET ERROR_QUIET)
endif()
if(torch EQUAL 0)
  mark_python(${ROOT}/usr)
  step(${RUN} POSVERIFY_PACKAGE_TEST_MARK=${W}/python-mark ${PV} check --impl python:llama_rope:LlamaRope
       --python-path ${EX}/python --python ${PYTHON} --law rope.reference --rope-config halves:500000:128
       --cases 3 --out ${W}/python-report)
  if(NOT EXISTS ${W}/python-mark)
    message(FATAL_ERROR "the Python server did not import the packaged posverify "
                        "(${ROOT}/usr/share/posverify/python/posverify/__init__.py wrote no mark)")
  endif()
  file(READ ${W}/python-mark imported)
  if(NOT imported STREQUAL "${ROOT}/usr/share/posverify/python/posverify/__init__.py")
    message(FATAL_ERROR "the Python server imported posverify from ${imported}, "
                        "not from the package (${ROOT}/usr/share/posverify/python)")
  endif()
  message(STATUS "dpkg -x: the Python kernel llama_rope passes through the packaged server package")
else()
  message(STATUS "${PYTHON} has no torch: the Python kernel check is left out")
endif()

# --- the tarball, unpacked elsewhere ---------------------------------------------
set(ELSEWHERE "${W}/else where")
file(MAKE_DIRECTORY "${ELSEWHERE}")
execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf ${TGZ} WORKING_DIRECTORY "${ELSEWHERE}" RESULT_VARIABLE rc)
file(GLOB top LIST_DIRECTORIES true "${ELSEWHERE}/*")
if(NOT rc EQUAL 0 OR NOT EXISTS "${top}/bin/posverify")
  message(FATAL_ERROR "${TGZ} (exit ${rc}): no bin/posverify under its top folder ${top}")
endif()
if(NOT IS_SYMLINK "${top}/share/posverify/python/posverify")
  message(FATAL_ERROR "${TGZ}: share/posverify/python/posverify is not the link to lib/python3/dist-packages/posverify")
endif()
step(${RUN} "${top}/bin/posverify" --version)
mark_js("${top}")
step(${RUN} "${top}/bin/posverify" check --impl ${PLUGIN} --law attention.reference --cases 5 --out ${W}/tgz-report)
file(GLOB html ${W}/tgz-report/*.html)
expect_js_marker(${html} "${top}")
message(STATUS "the tarball unpacked in ${top}: --version and a check pass")
