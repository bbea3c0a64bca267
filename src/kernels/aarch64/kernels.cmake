# SPDX-License-Identifier: MIT
# The aarch64 provider's sources. Included from src/CMakeLists.txt (source
# properties are per directory, so the tiers are declared in skn_core's).
# One line per family and tier: skn_add_kernel_tier gives it its ISA's flags
# (src/runtime/isa_table.def: neon = Armv8.0, neondotprod = Armv8.2+dotprod,
# neoni8mm = that plus i8mm; the registry runs a tier only where cpu_features has it).
set(_a64 ${CMAKE_CURRENT_LIST_DIR})

# Built without ISA flags: the provider, each family's registration table and
# the grid tables.
target_sources(skn_core PRIVATE
  ${_a64}/register.cpp
  ${_a64}/activation/register.cpp ${_a64}/q32/register.cpp
  ${_a64}/superblock/register.cpp ${_a64}/low_bit/register.cpp ${_a64}/nvfp4/register.cpp
  ${_a64}/common/grid_tables.cpp ${_a64}/grid/register.cpp ${_a64}/dense/register.cpp
  ${_a64}/exact/register.cpp)

# The Q8_K quantizer's multiply and magic-number add must stay two roundings,
# as in the codec (formats/ are built with -ffp-contract=off too).
skn_add_kernel_tier(skn_core activation neon ${_a64}/activation/neon.cpp OPTIONS -ffp-contract=off)

# The float steps of the accumulation contract (q32/kernels.hpp) are written
# out as separate multiplies and FMAs; nothing else may be fused.
skn_add_kernel_tier(skn_core q32 neon ${_a64}/q32/neon.cpp OPTIONS -ffp-contract=off)
skn_add_kernel_tier(skn_core q32 neondotprod ${_a64}/q32/neondotprod.cpp OPTIONS -ffp-contract=off)
skn_add_kernel_tier(skn_core q32 neoni8mm ${_a64}/q32/neoni8mm.cpp OPTIONS -ffp-contract=off)
# The row-interleaved twins' kernels (q32/r8_body.inc). -fno-schedule-insns:
# the pre-allocation scheduler spilled the 4-row activation tiles (Q8_0_R8
# neon n = 8: 144.2 -> 108.0 instructions per block, docs/kernels/neon.md).
skn_add_kernel_tier(skn_core q32 neon ${_a64}/q32/neon_r8.cpp OPTIONS -ffp-contract=off -fno-schedule-insns)
skn_add_kernel_tier(skn_core q32 neondotprod ${_a64}/q32/neondotprod_r8.cpp OPTIONS -ffp-contract=off -fno-schedule-insns)

# The K-quant accumulation contract (superblock/kernels.hpp) likewise.
skn_add_kernel_tier(skn_core superblock neon ${_a64}/superblock/neon.cpp OPTIONS -ffp-contract=off)
skn_add_kernel_tier(skn_core superblock neondotprod ${_a64}/superblock/neondotprod.cpp OPTIONS -ffp-contract=off)
# The K-quant twins (superblock/r4_body.inc).
skn_add_kernel_tier(skn_core superblock neon ${_a64}/superblock/neon_r4.cpp OPTIONS -ffp-contract=off -fno-schedule-insns)
skn_add_kernel_tier(skn_core superblock neondotprod ${_a64}/superblock/neondotprod_r4.cpp OPTIONS -ffp-contract=off -fno-schedule-insns)
# -fno-schedule-insns: GCC's pre-allocation scheduler spilled the SMMLA tiles'
# activation loads (superblock/neoni8mm.cpp, docs/kernels/neon.md).
skn_add_kernel_tier(skn_core superblock neoni8mm ${_a64}/superblock/neoni8mm.cpp
  OPTIONS -ffp-contract=off -fno-schedule-insns)
# The K-quant twins' SMMLA kernels (superblock/neoni8mm_r4.cpp), flags as the canonical ones'.
skn_add_kernel_tier(skn_core superblock neoni8mm ${_a64}/superblock/neoni8mm_r4.cpp
  OPTIONS -ffp-contract=off -fno-schedule-insns)
# IQ4_XS_R8 (superblock/xs_r8_body.inc), flags as the q32 twins'.
skn_add_kernel_tier(skn_core superblock neon ${_a64}/superblock/neon_xs_r8.cpp
  OPTIONS -ffp-contract=off -fno-schedule-insns)
skn_add_kernel_tier(skn_core superblock neondotprod ${_a64}/superblock/neondotprod_xs_r8.cpp
  OPTIONS -ffp-contract=off -fno-schedule-insns)

# The grid accumulation contract (grid/kernels.hpp, docs/kernels/grid.md) likewise;
# -fno-schedule-insns: the pre-allocation scheduler hoisted the lattice loads
# and spilled the decoded weights (IQ2_XS at n = 1: 358.1 instructions per
# block with it, docs/kernels/neon.md).
skn_add_kernel_tier(skn_core grid neon ${_a64}/grid/neon.cpp OPTIONS -ffp-contract=off -fno-schedule-insns)
skn_add_kernel_tier(skn_core grid neondotprod ${_a64}/grid/neondotprod.cpp
  OPTIONS -ffp-contract=off -fno-schedule-insns)
# The grid twins (grid/r4_body.inc), units of their own, flags as the canonical ones'.
skn_add_kernel_tier(skn_core grid neon ${_a64}/grid/neon_r4.cpp OPTIONS -ffp-contract=off -fno-schedule-insns)
skn_add_kernel_tier(skn_core grid neondotprod ${_a64}/grid/neondotprod_r4.cpp
  OPTIONS -ffp-contract=off -fno-schedule-insns)

# The ternary accumulation contract (low_bit/kernels.hpp) likewise.
skn_add_kernel_tier(skn_core low_bit neon ${_a64}/low_bit/neon.cpp OPTIONS -ffp-contract=off)
skn_add_kernel_tier(skn_core low_bit neondotprod ${_a64}/low_bit/neondotprod.cpp OPTIONS -ffp-contract=off)

# The NVFP4 accumulation contract (nvfp4/kernels.hpp) likewise.
skn_add_kernel_tier(skn_core nvfp4 neon ${_a64}/nvfp4/neon.cpp OPTIONS -ffp-contract=off)
skn_add_kernel_tier(skn_core nvfp4 neondotprod ${_a64}/nvfp4/neondotprod.cpp OPTIONS -ffp-contract=off)

# Dense weights: the order of dense/kernels.hpp is written out as FMLAs.
skn_add_kernel_tier(skn_core dense neon ${_a64}/dense/neon.cpp OPTIONS -ffp-contract=off)
# BFDOT needs +bf16, which no tier implies (registered only when the CPU has it).
skn_add_kernel_tier(skn_core dense neoni8mm ${_a64}/dense/neoni8mm.cpp
  OPTIONS -march=armv8.2-a+dotprod+i8mm+bf16 -ffp-contract=off)
# BF16_R16 (dense/r16_body.inc), flags as BF16's kernels.
skn_add_kernel_tier(skn_core dense neon ${_a64}/dense/neon_r16.cpp OPTIONS -ffp-contract=off)
skn_add_kernel_tier(skn_core dense neoni8mm ${_a64}/dense/neoni8mm_r16.cpp
  OPTIONS -march=armv8.2-a+dotprod+i8mm+bf16 -ffp-contract=off)

# Exact precision: the decoders repeat the scalar decoders' roundings and the
# driver's order (exact/kernels.hpp) is written out as FMLAs.
skn_add_kernel_tier(skn_core exact neon ${_a64}/exact/neon.cpp OPTIONS -ffp-contract=off)
