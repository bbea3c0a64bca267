# SPDX-License-Identifier: MIT
# Install rules and Debian packages (docs/packaging.md).
#
# cmake --install <build> [--prefix P] installs, by component:
#   libskn1     lib/<multiarch>/libskn.so.1.x.y and the libskn.so.1 link
#   libskn-dev  include/skn/skn.h, include/skn/skn.hpp, the libskn.so link,
#               lib/<multiarch>/pkgconfig/skn.pc,
#               lib/<multiarch>/cmake/skn/{sknConfig,sknConfigVersion,sknTargets*}.cmake
#   skn-tools   bin/skn, share/man/man1/skn*.1.gz,
#               share/bash-completion/completions/skn (tools/skn/completion/skn.bash)
#   python3-skn lib/python3/dist-packages/skn/ (bindings/python, pure Python over
#               libskn.so.1) and skn-<version>.dist-info/METADATA
#   golang-skn-dev share/skn/goproxy/: the Go binding as a module proxy on
#               disk (cmake/SknGoModule.cmake)
#   libskn-doc  share/doc/libskn-doc/: README.md, CHANGELOG.md, docs/
#   each        share/doc/<package>/{copyright,changelog.gz}
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

# What a static link of libskn's objects would need (pkg-config --static):
# libxsmm only where the x86-64 provider links it (cmake/SknDependencies.cmake).
set(SKN_PC_LIBS_PRIVATE "-lcpu_features")
if(SKN_KERNEL_PROVIDER STREQUAL "x86_64")
  string(APPEND SKN_PC_LIBS_PRIVATE " -lxsmm -lxsmmnoblas")
endif()
string(APPEND SKN_PC_LIBS_PRIVATE " -lstdc++ -lm -lpthread -ldl -lrt")

# skn.pc names the prefix it is installed to, which is only known at install
# time (cmake --install --prefix, or CPack's /usr): configure it then.
install(CODE "
  set(SKN_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(SKN_PC_LIBS_PRIVATE \"${SKN_PC_LIBS_PRIVATE}\")
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
  # Where bash-completion looks for a command's completion, loaded on first use.
  install(FILES ${PROJECT_SOURCE_DIR}/tools/skn/completion/skn.bash
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions RENAME skn COMPONENT skn-tools)
endif()

# ---- python3-skn: the Python package (bindings/python), as Debian's Python
# packages install it: /usr/lib/python3/dist-packages, one copy for every
# python3 version, with a dist-info so importlib.metadata and pip see it.
# Its version is the library's: checked here so that the two cannot drift.
foreach(_py_file pyproject.toml skn/__init__.py)
  file(STRINGS ${PROJECT_SOURCE_DIR}/bindings/python/${_py_file} _py_version_line REGEX "^(__)?version(__)? = ")
  if(NOT _py_version_line MATCHES "\"${PROJECT_VERSION}\"")
    message(FATAL_ERROR "bindings/python/${_py_file} says ${_py_version_line}; skn is ${PROJECT_VERSION}: update it")
  endif()
endforeach()
set(SKN_PYTHON_DIR lib/python3/dist-packages)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/python/skn DESTINATION ${SKN_PYTHON_DIR} COMPONENT python3-skn
  FILES_MATCHING PATTERN "*.py" PATTERN "py.typed" PATTERN "__pycache__" EXCLUDE)
file(WRITE ${PROJECT_BINARY_DIR}/python/METADATA "Metadata-Version: 2.1
Name: skn
Version: ${PROJECT_VERSION}
Summary: Block-quantized (GGUF) weight layouts and CPU matrix products: Python binding of libskn
License: MIT
Requires-Python: >=3.9
Requires-Dist: numpy
")
# The console scripts bindings/python/pyproject.toml declares, so that
# importlib.metadata lists them as it does for a pip install (the package
# itself runs them as `python3 -m skn dump|imatrix`).
file(WRITE ${PROJECT_BINARY_DIR}/python/entry_points.txt "[console_scripts]
skn-gguf-dump = skn.cli:gguf_dump_main
skn-imatrix-dump = skn.cli:imatrix_dump_main
")
install(FILES ${PROJECT_BINARY_DIR}/python/METADATA ${PROJECT_BINARY_DIR}/python/entry_points.txt
  DESTINATION ${SKN_PYTHON_DIR}/skn-${PROJECT_VERSION}.dist-info COMPONENT python3-skn)

include(${PROJECT_SOURCE_DIR}/cmake/SknGoModule.cmake)

# ---- libskn-doc: README and docs/ as in the repository (relative links work),
# uncompressed: they are read in a browser or an editor, and link each other.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/libskn-doc COMPONENT libskn-doc)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/libskn-doc
  COMPONENT libskn-doc FILES_MATCHING PATTERN "*.md" PATTERN "*.c")

# ---- what every Debian package carries in /usr/share/doc/<package> -----------
# The machine-readable copyright file (skn's licence and those of the code
# built into libskn.so.1), a compressed changelog, and for skn-tools the
# manual pages generated from the same files as `skn <cmd> --help`
# (tools/skn/help, cmake/SknHelp.cmake). Compressed with gzip -9n, as Debian
# requires (no name or time stamp in the header: reproducible).
set(SKN_DEB_MAINTAINER "skn maintainers <noreply@skn.invalid>" CACHE STRING
  "Maintainer of the Debian packages (name <address>); a distribution sets its own")
set(SKN_DEB_COMPONENTS libskn1 libskn-dev libskn-doc skn-tools python3-skn golang-skn-dev)
# The project has no public home yet: this is where it is meant to be
# published (the Go module path says the same, docs/bindings/go.md). A
# distribution or a release build sets the real one.
set(SKN_HOMEPAGE "https://github.com/skn-project/skn" CACHE STRING
  "Homepage of the Debian packages (and the project)")
set(SKN_DEB_DIR ${PROJECT_BINARY_DIR}/packaging)
file(MAKE_DIRECTORY ${SKN_DEB_DIR})
find_program(SKN_GZIP gzip)
# The changelog's date is the last commit's (so rebuilding gives the same
# file), or a fixed one outside git.
execute_process(COMMAND git log -1 --format=%cD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE SKN_DEB_DATE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _git_rc)
if(NOT _git_rc EQUAL 0 OR SKN_DEB_DATE STREQUAL "")
  set(SKN_DEB_DATE "Mon, 30 Nov 2026 00:00:00 +0000")
endif()
configure_file(${PROJECT_SOURCE_DIR}/packaging/deb/changelog.in ${SKN_DEB_DIR}/changelog @ONLY)
set(_skn_man_pages)
if(TARGET skn_tool)
  file(GLOB _skn_man_sources ${PROJECT_BINARY_DIR}/tools/generated/man/*.1)
  foreach(m IN LISTS _skn_man_sources)
    get_filename_component(n ${m} NAME)
    file(COPY_FILE ${m} ${SKN_DEB_DIR}/${n} ONLY_IF_DIFFERENT)
    list(APPEND _skn_man_pages ${SKN_DEB_DIR}/${n})
  endforeach()
endif()
if(SKN_GZIP)
  foreach(f ${SKN_DEB_DIR}/changelog ${_skn_man_pages})
    execute_process(COMMAND ${SKN_GZIP} -9nf ${f} RESULT_VARIABLE _gz_rc)
    if(NOT _gz_rc EQUAL 0)
      message(FATAL_ERROR "gzip -9n ${f} failed")
    endif()
  endforeach()
  list(TRANSFORM _skn_man_pages APPEND .gz)
  foreach(component ${SKN_DEB_COMPONENTS})
    install(FILES ${PROJECT_SOURCE_DIR}/packaging/deb/copyright ${SKN_DEB_DIR}/changelog.gz
      DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${component} COMPONENT ${component})
  endforeach()
  if(_skn_man_pages)
    install(FILES ${_skn_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT skn-tools)
  endif()
endif()

# ---- Debian packages: libskn1, libskn-dev, libskn-doc, skn-tools,
# python3-skn, golang-skn-dev -------------------------------------------------
set(CPACK_PACKAGE_NAME skn)
set(CPACK_PACKAGE_VENDOR "skn")
set(CPACK_PACKAGE_CONTACT "${SKN_DEB_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${SKN_DEB_COMPONENTS})
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${SKN_HOMEPAGE}")
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
# packages ship stripped binaries, as Debian's do. CPack's strip keeps the
# .comment and .note sections dh_strip removes; the post-build script
# (packaging/deb/post_build.cmake) removes them with this strip, reads
# libskn's exported symbols with this readelf (the target's, for a cross
# build) and writes the fields CPack has no variable for.
set(CPACK_STRIP_FILES ON)
set(CPACK_SKN_SOURCE_DIR "${PROJECT_SOURCE_DIR}")
set(CPACK_SKN_STRIP "${CMAKE_STRIP}")
set(CPACK_SKN_READELF "${CMAKE_READELF}")
set(CPACK_SKN_MULTIARCH_SAME libskn1 libskn-dev)
set(CPACK_SKN_MULTIARCH_FOREIGN libskn-doc)
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
# later 1.x satisfies them). DEBIAN/symbols (written by post_build.cmake from
# the packaged library's versioned symbols and capi/libskn.map's version
# nodes) lets dpkg-shlibdeps ask for the oldest version that has the
# symbols a program uses.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(CPACK_DEBIAN_LIBSKN1_PACKAGE_NAME libskn1)
set(CPACK_DEBIAN_LIBSKN1_PACKAGE_SECTION libs)
# The loader cache is refreshed by dpkg's ldconfig trigger, not by maintainer
# scripts; CPack's own ldconfig scripts are removed after packaging
# (packaging/deb/post_build.cmake).
set(CPACK_DEBIAN_LIBSKN1_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/deb/triggers)
set(CPACK_POST_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/packaging/deb/post_build.cmake)
# The synopsis line is the project DESCRIPTION; these are the long descriptions.
set(CPACK_COMPONENT_LIBSKN1_DESCRIPTION "The shared library libskn.so.1, the stable C ABI of skn: the GGUF block
formats, quantize and dequantize, packed-weight views and prepack,
fixtures, GGUF files, matmul_wt.")

set(CPACK_DEBIAN_LIBSKN-DEV_PACKAGE_NAME libskn-dev)
set(CPACK_DEBIAN_LIBSKN-DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_LIBSKN-DEV_PACKAGE_DEPENDS "libskn1 (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_LIBSKN-DEV_PACKAGE_SUGGESTS "libskn-doc")
set(CPACK_COMPONENT_LIBSKN-DEV_DESCRIPTION "Development files: skn.h (the C API), skn.hpp (a header-only C++17
wrapper), the libskn.so link, the pkg-config file skn.pc and the CMake
package skn (target skn::skn).")

set(CPACK_DEBIAN_LIBSKN-DOC_PACKAGE_NAME libskn-doc)
set(CPACK_DEBIAN_LIBSKN-DOC_PACKAGE_SECTION doc)
set(CPACK_DEBIAN_LIBSKN-DOC_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_LIBSKN-DOC_PACKAGE_SHLIBDEPS OFF)
set(CPACK_COMPONENT_LIBSKN-DOC_DESCRIPTION "skn's documentation, in /usr/share/doc/libskn-doc: README.md (the
quickstart), CHANGELOG.md, and docs/: the packed-weight layout contract,
every format's bytes, GGUF and importance-matrix files, the C API, the
kernels and their speed, the skn program, the Python, Rust and Go bindings,
and packaging. Markdown, linked as in the source repository.")

set(CPACK_DEBIAN_SKN-TOOLS_PACKAGE_NAME skn-tools)
set(CPACK_DEBIAN_SKN-TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_SKN-TOOLS_PACKAGE_DEPENDS "libskn1 (>= ${PROJECT_VERSION}), libc6 (>= 2.34)")
set(CPACK_COMPONENT_SKN-TOOLS_DESCRIPTION "The skn program, built on libskn's C API, with a manual page per
command: quantize (convert a GGUF model to a llama.cpp preset such as
Q4_K_M, or one format, streaming), edit (set, add, remove and rename
metadata keys), split and merge (as llama-gguf-split does), verify (every
tensor in range, aligned and finite; SHA-256 per tensor; a whole-model
hash), inspect (metadata and tensors), dump (a
tensor's values or statistics), imatrix (list an importance matrix), doctor
(the CPU, its ISA tier, the kernels it runs and the tuning in force), tune
(measure the per-core kernel choices and write a tuning file), bench
(matmul speed against the machine's roofline), demo (every format's
error on a sample, or a sample model to try the others on) and version.")

# Pure Python: one package for every architecture. It needs exactly the
# library it was released with (its prototypes are that version's header).
set(CPACK_DEBIAN_PYTHON3-SKN_PACKAGE_NAME python3-skn)
set(CPACK_DEBIAN_PYTHON3-SKN_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON3-SKN_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON3-SKN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PYTHON3-SKN_PACKAGE_DEPENDS "python3, python3-numpy, libskn1 (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_PYTHON3-SKN_PACKAGE_CONTROL_EXTRA
  ${PROJECT_SOURCE_DIR}/packaging/deb/python3-skn/postinst ${PROJECT_SOURCE_DIR}/packaging/deb/python3-skn/prerm)
set(CPACK_COMPONENT_PYTHON3-SKN_DESCRIPTION "import skn: the Python binding of libskn.so.1 (ctypes, NumPy arrays in
and out): quantize and dequantize, packed-weight views and prepack,
matmul_wt, GGUF reading (zero-copy tensors) and writing, fixtures.")

# The Go binding as a module proxy on disk: pure source, one package for every
# architecture; cgo builds it against libskn-dev through pkg-config.
set(CPACK_DEBIAN_GOLANG-SKN-DEV_PACKAGE_NAME golang-skn-dev)
set(CPACK_DEBIAN_GOLANG-SKN-DEV_PACKAGE_SECTION golang)
set(CPACK_DEBIAN_GOLANG-SKN-DEV_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_GOLANG-SKN-DEV_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_GOLANG-SKN-DEV_PACKAGE_DEPENDS "libskn-dev (>= ${PROJECT_VERSION}), pkgconf | pkg-config")
set(CPACK_COMPONENT_GOLANG-SKN-DEV_DESCRIPTION "The Go binding of libskn (cgo), the module
${SKN_GO_MODULE_PATH},
as a Go module proxy on disk in /usr/share/skn/goproxy: with
GOPROXY=file:///usr/share/skn/goproxy a program requires the module by
path and version, with no replace directive and nothing downloaded.")

include(CPack)
