# One library per stage of the pipeline (src/<stage>/, docs/architecture.md),
# declared in dependency order: a stage may use only the stages it names
# (and what they use in turn).
#
# The build enforces it. Every stage's headers are staged under
# ${CMAKE_BINARY_DIR}/stages/<stage>/<stage> (a link to src/<stage>), and a
# stage's targets see only their own folder and those of the stages they
# link: `#include "cli/options.h"` in src/laws/ does not compile, because no
# include path of pv_laws leads to cli/. tests/layering/ proves it for every
# pair of stages (and that the includes written in src/ follow the same
# order, with no `../`).
#
# The stages with sources are OBJECT libraries: the claims and properties
# register themselves from static initialisers, which a static archive would
# drop; every program links the stages it runs (posverify_link_stages).

set(POSVERIFY_STAGES "")
set(POSVERIFY_STAGE_ROOT ${CMAKE_BINARY_DIR}/stages)

# posverify_stage(NAME [DEPS stage...] [LIBS target...] [EXCLUDE file...]
#                  [PCH kind])   kind of precompiled headers (cmake/pch.cmake):
#                                product unless said
function(posverify_stage name)
  cmake_parse_arguments(S "" "PCH" "DEPS;LIBS;EXCLUDE" ${ARGN})
  if(NOT S_PCH)
    set(S_PCH product)
  endif()
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/src/${name})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${dir}/*.cpp)
  foreach(x ${S_EXCLUDE})
    list(REMOVE_ITEM srcs ${dir}/${x})
  endforeach()
  file(MAKE_DIRECTORY ${POSVERIFY_STAGE_ROOT}/${name})
  file(CREATE_LINK ${dir} ${POSVERIFY_STAGE_ROOT}/${name}/${name} SYMBOLIC)
  set(deps "")
  foreach(d ${S_DEPS})
    list(APPEND deps pv_${d})
  endforeach()
  if(srcs)
    add_library(pv_${name} OBJECT ${srcs})
    target_include_directories(pv_${name} PUBLIC ${POSVERIFY_STAGE_ROOT}/${name})
    target_link_libraries(pv_${name} PUBLIC ${deps} ${S_LIBS})
    target_compile_options(pv_${name} PRIVATE ${POSVERIFY_WARNINGS})
    posverify_use_pch(pv_${name} ${S_PCH})
  else()
    add_library(pv_${name} INTERFACE)
    target_include_directories(pv_${name} INTERFACE ${POSVERIFY_STAGE_ROOT}/${name})
    target_link_libraries(pv_${name} INTERFACE ${deps} ${S_LIBS})
  endif()
  set_property(GLOBAL APPEND PROPERTY POSVERIFY_STAGES ${name})
  set_property(GLOBAL PROPERTY POSVERIFY_STAGE_DEPS_${name} ${S_DEPS})
endfunction()

# Links `target` with the objects of each stage named and of every stage
# those use (an OBJECT library passes on its usage requirements, not its
# objects).
function(posverify_link_stages target)
  set(todo ${ARGN})
  set(seen "")
  while(todo)
    list(POP_FRONT todo s)
    if(s IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${s})
    get_property(d GLOBAL PROPERTY POSVERIFY_STAGE_DEPS_${s})
    list(APPEND todo ${d})
  endwhile()
  foreach(s ${seen})
    target_link_libraries(${target} PRIVATE pv_${s})
  endforeach()
endfunction()

# The C interface a plugin implements (include/posverify/impl.h): a
# header-only target, also installed (cmake/install.cmake).
add_library(posverify_impl INTERFACE)
add_library(posverify::impl ALIAS posverify_impl)
set_target_properties(posverify_impl PROPERTIES EXPORT_NAME impl)
target_include_directories(posverify_impl INTERFACE
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

find_package(Threads REQUIRED)

# core: scalars-free basics every stage uses: JSON, verdicts, result records,
# text from outside, atomic files, shards, progress, the seeded generator.
# Boost::boost only for its usage requirements (BOOST_ALL_NO_LIB): every
# target then compiles with the same definitions, as one precompiled header
# for all of them needs (cmake/pch.cmake); core itself includes no Boost.
posverify_stage(core LIBS Boost::boost)
target_compile_definitions(pv_core PUBLIC POSVERIFY_VERSION="${PROJECT_VERSION}")

# reference: pv::hp (MPFR) and pv::interval (MPFI), and the fast tier
# (double-word, certified bound per output; docs/fast_reference.md).
posverify_stage(reference LIBS Boost::boost ${MPFI_LIB} ${MPFR_LIB} ${GMP_LIB} Threads::Threads)
# The fast tier: no value-changing optimisation (-ffp-contract=off keeps the
# compiler from fusing a*b+c where the error-free transformations need two
# roundings; -fopenmp-simd only honours `#pragma omp simd`, no OpenMP
# runtime). The results do not depend on the instruction set (every
# operation is IEEE and exactly specified, FMA included); only the speed
# does. Empty POSVERIFY_FAST_MARCH: portable.
set(POSVERIFY_FAST_MARCH "native" CACHE STRING "-march for src/reference/fast (empty: none)")
set(_fast_flags -O3 -ffp-contract=off -fno-fast-math -fopenmp-simd)
if(POSVERIFY_FAST_MARCH)
  list(APPEND _fast_flags -march=${POSVERIFY_FAST_MARCH})
endif()
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/reference/fast/fast.cpp PROPERTIES
  COMPILE_OPTIONS "${_fast_flags}" SKIP_PRECOMPILE_HEADERS ON)

# numerics: the formulas, generic over float, double and pv::hp, with their
# a-priori error bounds.
posverify_stage(numerics DEPS core reference)
# laws: each law once (statement, case shape, compare/evaluate, tolerance rule).
posverify_stage(laws DEPS numerics)
# sandbox: a user's implementation run in a child process (the operation
# table, loading, isolation, framing, the process adapter).
posverify_stage(sandbox DEPS core LIBS posverify_impl ${CMAKE_DL_LIBS})
# The process adapter finds the Python package of the source tree unless
# POSVERIFY_PYTHON_DIR says otherwise (python/posverify/, docs/python.md), or
# an installed binary finds its own beside it (src/core/install_dirs.h).
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/sandbox/process_adapter.cpp PROPERTIES
  COMPILE_DEFINITIONS POSVERIFY_PYTHON_DIR="${CMAKE_CURRENT_SOURCE_DIR}/python")
# The judges: each runs the laws its own way.
posverify_stage(properties DEPS laws LIBS rapidcheck PCH rapidcheck)
posverify_stage(blackbox DEPS laws sandbox)
# The heaviest files of the build compile alone, outside the unity batches
# (CMakeLists.txt): their cost is their own code (the attend and RoPE laws
# instantiated for every dtype: 32 s and 19 s at -O3, GCC 12, 80% of it
# optimisation), not headers a batch would share. Alone, they run beside the
# other batches on the second core instead of lengthening one batch to 54 s,
# and touching a RoPE law recompiles its file, not the eight of its batch.
# The attend laws are in three files (blackbox/attend_law_kit.h), the RoPE
# laws in four (blackbox/rope_law_kit.h), so that a rebuild after touching one
# law compiles a part of them.
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/blackbox/attend_laws.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/blackbox/attend_call_laws.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/blackbox/attend_twin_laws.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/blackbox/rope_laws.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/blackbox/rope_relation_laws.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/blackbox/rope_translation_law.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/blackbox/rope_rows_law.cpp PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
posverify_stage(claims DEPS laws)
posverify_stage(budgets DEPS laws)
posverify_stage(mutation DEPS blackbox claims properties)
# reports: JSON, Markdown, HTML and JUnit of every judge.
posverify_stage(reports DEPS blackbox budgets claims mutation)
# Where the HTML pages read the chart libraries at generation time
# ($POSVERIFY_JS_DIR overrides, an installed binary reads its own:
# src/core/install_dirs.h; js/package-lock.json, docs/reports.md).
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/reports/html.cpp PROPERTIES
  COMPILE_DEFINITIONS POSVERIFY_JS_DIR="${CMAKE_CURRENT_SOURCE_DIR}/js/node_modules")
# cli: option tables and one file per subcommand (main.cpp is the program's).
posverify_stage(cli DEPS reports EXCLUDE main.cpp)
# The commit of the source tree for `posverify --version` and the line at the
# top of every report (src/reports/build_line.h): written at build time
# (cmake/git_commit.cmake), recompiled only when it changes.
set(_git_commit_cpp ${CMAKE_BINARY_DIR}/generated/git_commit.cpp)
add_custom_target(pv_git_commit
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_CURRENT_SOURCE_DIR} -DOUT=${_git_commit_cpp}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/git_commit.cmake
  BYPRODUCTS ${_git_commit_cpp}
  COMMENT "commit of the source tree")
target_sources(pv_reports PRIVATE ${_git_commit_cpp})
add_dependencies(pv_reports pv_git_commit)

# The stages and their direct dependencies, and each stage's include folders
# as its users see them (transitively), for tests/layering/.
get_property(_stages GLOBAL PROPERTY POSVERIFY_STAGES)
set(_stages_txt "")
foreach(s ${_stages})
  get_property(d GLOBAL PROPERTY POSVERIFY_STAGE_DEPS_${s})
  string(REPLACE ";" " " d "${d}")
  string(APPEND _stages_txt "${s}: ${d}\n")
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/layering/${s}.dirs
       CONTENT "$<JOIN:$<TARGET_PROPERTY:pv_${s},INTERFACE_INCLUDE_DIRECTORIES>,\n>\n")
endforeach()
file(WRITE ${CMAKE_BINARY_DIR}/layering/stages.txt "${_stages_txt}")
