# ctest package.build: cpack makes the Debian package and the tarball of the
# build tree into a scratch folder; the other package tests use them.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/out)
step(${CPACK} --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR}/out)
find_packages()
file(REMOVE_RECURSE ${WORK_DIR}/out/_CPack_Packages)
message(STATUS "made ${DEB} and ${TGZ}")
