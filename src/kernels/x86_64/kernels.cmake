# SPDX-License-Identifier: MIT
# The x86-64 provider's sources. Included from src/CMakeLists.txt (source
# properties are per directory, so the tiers are declared in skn_core's).
# One line per family and tier: skn_add_kernel_tier gives it its ISA's flags.
set(_x86 ${CMAKE_CURRENT_LIST_DIR})

# Built without ISA flags: the provider, each family's registration table,
# the grid tables, and the libxsmm adapter (libxsmm picks its
# own code at run time).
target_sources(skn_core PRIVATE
  ${_x86}/register.cpp ${_x86}/common/grid_tables.cpp ${_x86}/dense/xsmm.cpp ${_x86}/dense/libxsmm_backend.cpp
  ${_x86}/activation/register.cpp ${_x86}/dense/register.cpp ${_x86}/exact/register.cpp
  ${_x86}/superblock/register.cpp ${_x86}/grid/register.cpp ${_x86}/nvfp4/register.cpp ${_x86}/q32/register.cpp ${_x86}/low_bit/register.cpp)

skn_add_kernel_tier(skn_core activation avx2 ${_x86}/activation/avx2.cpp)
skn_add_kernel_tier(skn_core activation avx512 ${_x86}/activation/avx512.cpp)

skn_add_kernel_tier(skn_core dense avx2 ${_x86}/dense/avx2.cpp)
skn_add_kernel_tier(skn_core dense avx512 ${_x86}/dense/avx512.cpp)
skn_add_kernel_tier(skn_core dense avx512vnni ${_x86}/dense/avx512vnni.cpp)
# The row-interleaved BF16_R16 kernels (dense/r16_body.inc).
foreach(tier avx2 avx512 avx512vnni)
  skn_add_kernel_tier(skn_core dense ${tier} ${_x86}/dense/${tier}_r16.cpp)
endforeach()

# The exact kernels' block decoders must round like the scalar decoders, so
# no multiply-add may be fused there.
skn_add_kernel_tier(skn_core exact avx2 ${_x86}/exact/avx2.cpp OPTIONS -ffp-contract=off)
skn_add_kernel_tier(skn_core exact avx512 ${_x86}/exact/avx512.cpp OPTIONS -ffp-contract=off)

foreach(family grid low_bit nvfp4 q32 superblock)
  skn_add_kernel_tier(skn_core ${family} avx2 ${_x86}/${family}/avx2.cpp)
  skn_add_kernel_tier(skn_core ${family} avx512 ${_x86}/${family}/avx512.cpp)
  skn_add_kernel_tier(skn_core ${family} avx512vnni ${_x86}/${family}/avx512vnni.cpp)
endforeach()
# The q32 kernels' "far" variants (q32/avx512vnni_far.cpp; dispatch/tuning.hpp).
skn_add_kernel_tier(skn_core q32 avx512vnni ${_x86}/q32/avx512vnni_far.cpp)
# The row-interleaved Q4_0_R8 / Q8_0_R8 kernels (q32/r8_body.inc).
foreach(tier avx2 avx512 avx512vnni)
  skn_add_kernel_tier(skn_core q32 ${tier} ${_x86}/q32/${tier}_r8.cpp)
endforeach()
# The row-interleaved grid twins IQ2_XXS_R4 ... IQ3_S_R4 (grid/r4_blocks.inc).
foreach(tier avx2 avx512 avx512vnni)
  skn_add_kernel_tier(skn_core grid ${tier} ${_x86}/grid/${tier}_r4.cpp)
endforeach()
# The row-interleaved Q4_K_R4 / Q6_K_R4 kernels (superblock/r4_body.inc).
foreach(tier avx2 avx512 avx512vnni)
  skn_add_kernel_tier(skn_core superblock ${tier} ${_x86}/superblock/${tier}_r4.cpp)
endforeach()
# The row-interleaved IQ4_XS_R8 kernels (superblock/xs_r8_body.inc).
foreach(tier avx2 avx512 avx512vnni)
  skn_add_kernel_tier(skn_core superblock ${tier} ${_x86}/superblock/${tier}_xs_r8.cpp)
endforeach()
