# SPDX-License-Identifier: MIT
# Cross-compile skn for 64-bit Arm Linux with Debian's cross toolchain
# (crossbuild-essential-arm64) against the :arm64 multiarch -dev packages
# (scripts/bootstrap --for test installs both), and run what the build produces under
# qemu-user:
#
#   cmake --preset arm64          (or -DCMAKE_TOOLCHAIN_FILE=this file)
#
# CMAKE_CROSSCOMPILING_EMULATOR is what ctest and gtest_discover_tests
# prefix to every test program. It names no -cpu: qemu then reads QEMU_CPU
# from the environment, so one build is tested on several emulated CPUs
# (scripts/test-arm64). binfmt_misc is not assumed: a script that runs a
# built program itself must prefix SKN_EMULATOR / the emulator too.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# The cross toolchain's sysroot (libc6-arm64-cross): what the compiler links against.
set(SKN_AARCH64_SYSROOT /usr/aarch64-linux-gnu)

# Where qemu finds the aarch64 loader (-L). The loader and the libc.so.6 it
# loads must come from the same glibc build: they share private structures,
# and a mismatched pair hangs in the first pthread_create. qemu -L only
# prefixes paths that exist under it and falls back to the host's, so with
# -L /usr/aarch64-linux-gnu the loader comes from libc6-arm64-cross
# (bookworm: 2.36-8cross1) but libc.so.6 from /lib/aarch64-linux-gnu, i.e.
# libc6:arm64, which the :arm64 -dev packages pull in and which follows the
# point releases (2.36-9+deb12u*). So when libc6:arm64 is installed, run
# everything from it (-L /); otherwise from the cross sysroot.
if(EXISTS /lib/aarch64-linux-gnu/libc.so.6 AND EXISTS /lib/ld-linux-aarch64.so.1)
  set(SKN_AARCH64_RUNTIME_ROOT /)
else()
  set(SKN_AARCH64_RUNTIME_ROOT ${SKN_AARCH64_SYSROOT})
endif()
find_program(SKN_QEMU_AARCH64 qemu-aarch64 REQUIRED)
# A cache entry, so scripts that run built programs themselves
# (scripts/test-arm64, scripts/package-arm64) read the same command from
# CMakeCache.txt.
set(CMAKE_CROSSCOMPILING_EMULATOR "${SKN_QEMU_AARCH64};-L;${SKN_AARCH64_RUNTIME_ROOT}"
  CACHE STRING "Runs aarch64 programs here (qemu-user; QEMU_CPU picks the CPU)")

# Multiarch: headers are shared in /usr/include, libraries and CMake/pkg-config
# packages live under /usr/lib/aarch64-linux-gnu. Look for programs on the
# host, for everything else in the target's places only.
set(CMAKE_FIND_ROOT_PATH ${SKN_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# pkg-config must answer for arm64 (pkgconf:arm64 installs this wrapper).
set(PKG_CONFIG_EXECUTABLE aarch64-linux-gnu-pkg-config CACHE FILEPATH "pkg-config for the target")
