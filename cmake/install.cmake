# `cmake --install`: public headers, the static libraries, the command-line
# tool, a CMake package (find_package(irithyll) -> irithyll::irithyll, which
# links every area library it needs through the areas' own dependencies) and
# a pkg-config file (irithyll.pc). Checked end to end by scripts/install-check.
include(CMakePackageConfigHelpers)

set(IRITHYLL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/irithyll)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/irithyll DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS irithyll ${IRITHYLL_AREAS} EXPORT irithyllTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS irithyll_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT irithyllTargets NAMESPACE irithyll:: DESTINATION ${IRITHYLL_CMAKE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/irithyllConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/irithyllConfig.cmake INSTALL_DESTINATION ${IRITHYLL_CMAKE_DIR})
# 0.x: a minor version may break the API, so only the same minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/irithyllConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/irithyllConfig.cmake ${PROJECT_BINARY_DIR}/irithyllConfigVersion.cmake
        DESTINATION ${IRITHYLL_CMAKE_DIR})

# pkg-config has no dependency graph between static libraries, so Libs lists
# them in link order: every library before the ones it depends on (a
# depth-first post-order over the irithyll_area() dependencies, reversed).
function(irithyll_link_order_visit target)
  get_property(seen GLOBAL PROPERTY IRITHYLL_VISITED_${target})
  if(seen)
    return()
  endif()
  set_property(GLOBAL PROPERTY IRITHYLL_VISITED_${target} TRUE)
  get_property(deps GLOBAL PROPERTY IRITHYLL_DEPS_${target})
  foreach(dep IN LISTS deps)
    irithyll_link_order_visit(${dep})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY IRITHYLL_POSTORDER ${target})
endfunction()
irithyll_link_order_visit(irithyll)
get_property(IRITHYLL_LINK_ORDER GLOBAL PROPERTY IRITHYLL_POSTORDER)
list(REVERSE IRITHYLL_LINK_ORDER)
set(IRITHYLL_PC_LIBS "")
foreach(lib IN LISTS IRITHYLL_LINK_ORDER)
  get_target_property(type ${lib} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    string(APPEND IRITHYLL_PC_LIBS " -l${lib}")
  endif()
endforeach()
# Relocatable: the prefix is found from the .pc file's own place, so an
# install with `cmake --install --prefix DIR` works wherever DIR is.
file(RELATIVE_PATH IRITHYLL_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" IRITHYLL_PC_TO_PREFIX "${IRITHYLL_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/irithyll.pc.in ${PROJECT_BINARY_DIR}/irithyll.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/irithyll.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
