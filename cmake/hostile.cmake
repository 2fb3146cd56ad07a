# Hostile plugins (tests/plugins/hostile/): each reproduces one way a plugin
# attacked posverify's sandbox (stray writes, forks, stderr spam, huge
# allocations, ...); tests/check/hostile_test.cpp runs posverify on them.
# Included after check.cmake (alphabetical), whose posverify_add_plugin and
# posverify_check_test it uses.

if(POSVERIFY_BUILD_TESTS)
  file(GLOB POSVERIFY_HOSTILE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/plugins/hostile/*.c)
  set(_hostile "")
  foreach(src ${POSVERIFY_HOSTILE_SOURCES})
    get_filename_component(h ${src} NAME_WE)
    posverify_add_plugin(pv_hostile_${h} ${src})
    add_dependencies(posverify_check_test pv_hostile_${h})
    list(APPEND _hostile "${h}=$<TARGET_FILE:pv_hostile_${h}>")
  endforeach()
  string(REPLACE ";" "," _hostile "${_hostile}")
  target_compile_definitions(posverify_check_test PRIVATE POSVERIFY_HOSTILE_PLUGINS="${_hostile}")
endif()
