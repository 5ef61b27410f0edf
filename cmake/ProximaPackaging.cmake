# SPDX-License-Identifier: MIT
# Install and package files: `cmake --install` puts in place
#   include/proxima/...                      the public headers (+ the generated version.hpp)
#   lib/libproxima_<layer>.a or .so          one library per layer (core ... batch)
#   lib/cmake/proxima/                       proximaConfig.cmake, proximaConfigVersion.cmake and the
#                                            exported targets: find_package(proxima) -> proxima::proxima
#   lib/pkgconfig/proxima.pc                 for build systems without CMake
# Included from the top-level CMakeLists.txt after the layer targets exist (PROXIMA_LAYER_TARGETS).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# ---- version header: proxima::kVersionString is the project() version, never a literal ---------
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.hpp.in ${PROJECT_BINARY_DIR}/include/proxima/version.hpp @ONLY)
# On the aggregate target only, not proxima_headers: the layers do not include it, and a new include
# directory on every layer would recompile the whole library.
target_include_directories(proxima INTERFACE $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>)
install(FILES ${PROJECT_BINARY_DIR}/include/proxima/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/proxima)

# ---- libraries, headers, CMake package ---------------------------------------------------------
install(TARGETS ${PROXIMA_LAYER_TARGETS} EXPORT proximaTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/proxima DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT proximaTargets NAMESPACE proxima:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proxima)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/proximaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/proximaConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proxima)
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/proximaConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/proximaConfig.cmake ${PROJECT_BINARY_DIR}/proximaConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/proxima)

# ---- pkg-config --------------------------------------------------------------------------------
# Libs lists every layer library, top layer first (static archives resolve left to right; the
# layer list is bottom-up). qhull is linked privately: a shared proxima carries it in its own
# DT_NEEDED, so consumers need it only when linking statically (Requires.private); a static proxima
# needs it on every link line (Requires).
set(PROXIMA_PC_LIBS "")
foreach(target IN LISTS PROXIMA_LAYER_TARGETS)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(name ${target} OUTPUT_NAME)
    if(NOT name)
      set(name ${target})
    endif()
    set(PROXIMA_PC_LIBS "-l${name} ${PROXIMA_PC_LIBS}")
  endif()
endforeach()
string(STRIP "${PROXIMA_PC_LIBS}" PROXIMA_PC_LIBS)
if(BUILD_SHARED_LIBS)
  set(PROXIMA_PC_KIND shared)
  set(PROXIMA_PC_REQUIRES "eigen3 >= 3.4")
  set(PROXIMA_PC_REQUIRES_PRIVATE "qhull_r")
else()
  set(PROXIMA_PC_KIND static)
  set(PROXIMA_PC_REQUIRES "eigen3 >= 3.4, qhull_r")
  set(PROXIMA_PC_REQUIRES_PRIVATE "")
endif()
# Relocatable: paths relative to the .pc file's own folder when the install dirs are relative.
set(PROXIMA_PC_PREFIX "\${pcfiledir}/../..")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PROXIMA_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(PROXIMA_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  # lib/pkgconfig -> ../.. ; lib/x86_64-linux-gnu/pkgconfig -> ../../..
  file(RELATIVE_PATH up "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
  string(REGEX REPLACE "/$" "" up "${up}")
  set(PROXIMA_PC_PREFIX "\${pcfiledir}/${up}")
  set(PROXIMA_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(PROXIMA_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(PROXIMA_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/proxima.pc.in ${PROJECT_BINARY_DIR}/proxima.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/proxima.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
