# SPDX-License-Identifier: MIT
# Install rules and Debian packages (docs/packaging.md).
#
# cmake --install <build> [--prefix P] installs, by component:
#   libskn1     lib/<multiarch>/libskn.so.1.x.y and the libskn.so.1 link
#   libskn-dev  include/skn/skn.h, include/skn/skn.hpp, the libskn.so link,
#               lib/<multiarch>/pkgconfig/skn.pc,
#               lib/<multiarch>/cmake/skn/{sknConfig,sknConfigVersion,sknTargets*}.cmake
#   skn-tools   bin/skn
# and cpack -G DEB makes one package of each (scripts/package-and-install).
include(CMakePackageConfigHelpers)

set(SKN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/skn)

install(TARGETS skn EXPORT sknTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libskn1 NAMELINK_COMPONENT libskn-dev)
install(FILES ${PROJECT_SOURCE_DIR}/include/skn/skn.h ${PROJECT_SOURCE_DIR}/include/skn/skn.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/skn COMPONENT libskn-dev)
install(EXPORT sknTargets NAMESPACE skn:: DESTINATION ${SKN_INSTALL_CMAKEDIR} COMPONENT libskn-dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sknConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sknConfig.cmake INSTALL_DESTINATION ${SKN_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sknConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sknConfig.cmake ${PROJECT_BINARY_DIR}/sknConfigVersion.cmake
  DESTINATION ${SKN_INSTALL_CMAKEDIR} COMPONENT libskn-dev)

# skn.pc names the prefix it is installed to, which is only known at install
# time (cmake --install --prefix, or CPack's /usr): configure it then.
install(CODE "
  set(SKN_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PROJECT_DESCRIPTION \"${PROJECT_DESCRIPTION}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/pkgconfig/skn.pc.in\" \"${PROJECT_BINARY_DIR}/pkgconfig/skn.pc\" @ONLY)
" COMPONENT libskn-dev)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/skn.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT libskn-dev)

if(TARGET skn_tool)
  install(TARGETS skn_tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT skn-tools)
endif()

# ---- Debian packages: libskn1, libskn-dev, skn-tools -------------------------
set(CPACK_PACKAGE_NAME skn)
set(CPACK_PACKAGE_VENDOR "skn")
set(CPACK_PACKAGE_CONTACT "skn maintainers <skn@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL libskn1 libskn-dev skn-tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# CPack takes the package architecture from the build machine's dpkg; a
# cross build (cmake --preset arm64) names its target's instead.
if(CMAKE_CROSSCOMPILING)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
  else()
    message(FATAL_ERROR "no Debian architecture name known for CMAKE_SYSTEM_PROCESSOR ${CMAKE_SYSTEM_PROCESSOR}")
  endif()
endif()
# The build tree's libskn keeps the API units' DWARF for the ABI gate; the
# packages ship stripped binaries, as Debian's do.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# libskn1's dependencies (libc6, libstdc++6, libgcc-s1) come from
# dpkg-shlibdeps. skn-tools states its own: dpkg-shlibdeps would add
# libskn1 only when some libskn1 is already installed (its shlibs file is
# then known), which would make the package depend on the machine it was
# built on.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_SKN-TOOLS_PACKAGE_SHLIBDEPS OFF)
# DEBIAN/shlibs for libskn1: "libskn 1 libskn1 (>= x.y.z)", so packages built
# against this version depend on at least it (symbols are versioned, so a
# later 1.x satisfies them).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(CPACK_DEBIAN_LIBSKN1_PACKAGE_NAME libskn1)
set(CPACK_DEBIAN_LIBSKN1_PACKAGE_SECTION libs)
# The synopsis line is the project DESCRIPTION; these are the long descriptions.
set(CPACK_COMPONENT_LIBSKN1_DESCRIPTION "The shared library libskn.so.1, the stable C ABI of skn: the GGUF block
formats, quantize and dequantize, packed-weight views and prepack,
fixtures, GGUF files, matmul_wt.")

set(CPACK_DEBIAN_LIBSKN-DEV_PACKAGE_NAME libskn-dev)
set(CPACK_DEBIAN_LIBSKN-DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_LIBSKN-DEV_PACKAGE_DEPENDS "libskn1 (= ${PROJECT_VERSION})")
set(CPACK_COMPONENT_LIBSKN-DEV_DESCRIPTION "Development files: skn.h (the C API), skn.hpp (a header-only C++17
wrapper), the libskn.so link, the pkg-config file skn.pc and the CMake
package skn (target skn::skn).")

set(CPACK_DEBIAN_SKN-TOOLS_PACKAGE_NAME skn-tools)
set(CPACK_DEBIAN_SKN-TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_SKN-TOOLS_PACKAGE_DEPENDS "libskn1 (>= ${PROJECT_VERSION}), libc6 (>= 2.34)")
set(CPACK_COMPONENT_SKN-TOOLS_DESCRIPTION "The skn program (demo, inspect, bench, version) built on libskn's C API.")

include(CPack)
