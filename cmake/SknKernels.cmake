# SPDX-License-Identifier: MIT
# Which architecture provider the library is built with, the ISA table as
# CMake sees it, and how a kernel tier is compiled.
#
# The ISA table is src/runtime/isa_table.def, the same file the C++ core
# includes: each SKN_ISA_ROW(enumerator, name, arch, rank, "flags", predicate)
# gives SKN_ISA_NAMES (in table order), SKN_ISA_ARCH_<name> and
# SKN_ISA_FLAGS_<name> here. Nothing else in CMake lists ISAs.

file(STRINGS ${PROJECT_SOURCE_DIR}/src/runtime/isa_table.def _skn_isa_rows REGEX "^SKN_ISA_ROW\\(")
# A changed row (flags) must re-run the configuration.
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/runtime/isa_table.def)
set(SKN_ISA_NAMES)
foreach(row IN LISTS _skn_isa_rows)
  if(NOT row MATCHES "^SKN_ISA_ROW\\(([A-Z0-9_]+), *([a-z0-9]+), *([a-z0-9_]+), *([0-9]+), *\"([^\"]*)\"")
    message(FATAL_ERROR "src/runtime/isa_table.def: cannot read row: ${row}")
  endif()
  list(APPEND SKN_ISA_NAMES ${CMAKE_MATCH_2})
  set(SKN_ISA_ARCH_${CMAKE_MATCH_2} ${CMAKE_MATCH_3})
  separate_arguments(SKN_ISA_FLAGS_${CMAKE_MATCH_2} UNIX_COMMAND "${CMAKE_MATCH_5}")
endforeach()

# The provider: x86_64, aarch64, or portable (reference kernels only, for any
# other Linux target). Chosen from the target processor unless forced.
set(SKN_KERNELS "" CACHE STRING "Kernel provider: x86_64, aarch64 or portable (empty: from CMAKE_SYSTEM_PROCESSOR)")
set_property(CACHE SKN_KERNELS PROPERTY STRINGS "" x86_64 aarch64 portable)
if(SKN_KERNELS STREQUAL "")
  string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _skn_cpu)
  if(_skn_cpu MATCHES "^(x86_64|amd64)$")
    set(SKN_KERNEL_PROVIDER x86_64)
  elseif(_skn_cpu MATCHES "^(aarch64|arm64)$")
    set(SKN_KERNEL_PROVIDER aarch64)
  else()
    set(SKN_KERNEL_PROVIDER portable)
  endif()
elseif(SKN_KERNELS MATCHES "^(x86_64|aarch64|portable)$")
  set(SKN_KERNEL_PROVIDER ${SKN_KERNELS})
else()
  message(FATAL_ERROR "SKN_KERNELS=${SKN_KERNELS}: use x86_64, aarch64 or portable")
endif()
message(STATUS "skn kernel provider: ${SKN_KERNEL_PROVIDER}")
# Whether the provider registers SIMD kernels for (nearly) every format.
# Tests that re-run the matmul suite on the reference kernels alone only add
# something where it does. aarch64's NEON families cover the 32-element
# formats so far (docs/kernels/neon.md): its main run still exercises the
# reference kernel for every other format, and a re-run took over ten
# minutes under qemu on the shared 2-core CI machine, so aarch64 turns this
# on when most formats have NEON kernels.
if(SKN_KERNEL_PROVIDER STREQUAL "x86_64")
  set(SKN_PROVIDER_HAS_SIMD_KERNELS ON)
else()
  set(SKN_PROVIDER_HAS_SIMD_KERNELS OFF)
endif()

# skn_add_kernel_tier(<target> <family> <isa> <source>... [OPTIONS <flag>...])
# Adds the sources of one tier of one kernel family to <target>, compiled with
# that ISA's flags from the table (never -march=native, never from a file
# name). Records each source in the global property SKN_KERNEL_TIER_SOURCES
# (<isa>:<path>) for the weak-symbol check. The sources define kernel
# functions only: registration is compiled without ISA flags.
function(skn_add_kernel_tier target family isa)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "OPTIONS")
  if(NOT isa IN_LIST SKN_ISA_NAMES)
    message(FATAL_ERROR "skn_add_kernel_tier(${family} ${isa}): ${isa} is not in src/runtime/isa_table.def")
  endif()
  if(NOT SKN_ISA_ARCH_${isa} STREQUAL SKN_KERNEL_PROVIDER)
    message(FATAL_ERROR "skn_add_kernel_tier(${family} ${isa}): a ${SKN_ISA_ARCH_${isa}} tier in the ${SKN_KERNEL_PROVIDER} provider")
  endif()
  set(_options ${SKN_ISA_FLAGS_${isa}} ${arg_OPTIONS})
  if(isa MATCHES "^avx512" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12's AVX-512 headers trip -Wuninitialized on _mm512_undefined_*().
    list(APPEND _options -Wno-uninitialized -Wno-maybe-uninitialized)
  endif()
  foreach(src IN LISTS arg_UNPARSED_ARGUMENTS)
    get_filename_component(path ${src} ABSOLUTE)
    set_source_files_properties(${path} PROPERTIES COMPILE_OPTIONS "${_options}")
    target_sources(${target} PRIVATE ${path})
    set_property(GLOBAL APPEND PROPERTY SKN_KERNEL_TIER_SOURCES "${isa}:${path}")
  endforeach()
endfunction()
