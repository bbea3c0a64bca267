# SPDX-License-Identifier: MIT
# Every dependency comes from a Debian package (scripts/bootstrap installs them:
# --for build the libraries, --for test the test tools too).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# fmt and spdlog are compiled into libskn so it gains no run-time dependency
# on Debian's versioned shared libraries of either: spdlog header-only (only
# src/runtime/log.cpp includes it), fmt's implementation once, in
# src/runtime/fmt_compiled_once.cpp. Every other translation unit includes
# <fmt/format.h> without FMT_HEADER_ONLY: defining it everywhere made each of
# ~250 objects compile fmt's whole implementation again (4 s apiece at -O3).
find_package(fmt 9 REQUIRED CONFIG)
find_package(spdlog 1.10 REQUIRED CONFIG)
add_library(skn_logging_deps INTERFACE)
target_compile_definitions(skn_logging_deps INTERFACE SPDLOG_HEADER_ONLY SPDLOG_FMT_EXTERNAL)
target_include_directories(skn_logging_deps SYSTEM INTERFACE
  $<TARGET_PROPERTY:fmt::fmt-header-only,INTERFACE_INCLUDE_DIRECTORIES>
  $<TARGET_PROPERTY:spdlog::spdlog_header_only,INTERFACE_INCLUDE_DIRECTORIES>)

# cpu_features: a static archive; linked privately into libskn. Debian ships it
# for every architecture (libcpu-features-dev:arm64 when cross-compiling).
find_package(CpuFeatures 0.7 REQUIRED CONFIG)

# skn_xsmm is always a target so link lines need not know the architecture;
# on targets other than x86-64 it is empty.
add_library(skn_xsmm INTERFACE)
if(SKN_KERNEL_PROVIDER STREQUAL "x86_64")  # cmake/SknKernels.cmake chose the provider
  # libxsmm: static archives without a CMake package. libxsmm needs BLAS symbols
  # (dgemm_/sgemm_); libxsmmnoblas provides stubs so no BLAS is pulled in. Its
  # libxsmm_* symbols stay inside libskn (the version script exports only skn_*).
  pkg_check_modules(XSMM REQUIRED IMPORTED_TARGET libxsmmnoblas)
  find_library(SKN_XSMM_LIB NAMES libxsmm.a xsmm PATHS /usr/lib REQUIRED)
  find_library(SKN_XSMM_NOBLAS_LIB NAMES libxsmmnoblas.a xsmmnoblas PATHS /usr/lib REQUIRED)
  target_include_directories(skn_xsmm SYSTEM INTERFACE ${XSMM_INCLUDE_DIRS})
  target_link_libraries(skn_xsmm INTERFACE ${SKN_XSMM_LIB} ${SKN_XSMM_NOBLAS_LIB} Threads::Threads ${CMAKE_DL_LIBS} rt m)
else()
  # Debian's libxsmm-dev is x86-64 only and not multiarch (its archives sit in
  # /usr/lib): looked for anywhere else, a cross configure would find the
  # x86-64 archives. Dense matmuls run on skn's own kernels there.
endif()

if(SKN_BUILD_TESTS)
  find_package(GTest REQUIRED CONFIG)
endif()
if(SKN_BUILD_BENCH)
  find_package(benchmark REQUIRED CONFIG)
endif()
