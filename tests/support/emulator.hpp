// SPDX-License-Identifier: MIT
// Whether the test runs under an emulator (qemu-user for the aarch64 cross
// build), and the one rule for what a test may leave out there.
//
// tests/CMakeLists.txt sets SKN_EMULATOR (CMAKE_CROSSCOMPILING_EMULATOR, the
// command ctest prefixes) for every registration of the unit tests, and
// scripts/test-arm64 sets it for the shards it starts itself; a native build
// leaves it empty.
//
// The rule (docs/kernels/neon.md, "Proof under emulation"): under emulation
// a test may drop the inputs that repeat, on that architecture's kernels, a
// code path another input of the same test already runs, e.g. activation
// row counts that select the same row tiles and remainders, or output row
// counts past every row tile and task boundary. It keeps every format,
// order, ISA tier, precision and odd-shape class (one row, one block, ragged
// tails, out a multiple of no tile), and every comparison a native run
// makes (bit for bit stays bit for bit). A native run, x86-64 or a real
// arm64 machine, keeps the full lists. A test that cuts says what it keeps
// and why the cut inputs were redundant, next to its lists.
#pragma once

#include <cstdlib>

namespace skn_core::test {

// The emulator's command (e.g. "/usr/bin/qemu-aarch64 -L /"), or null natively.
inline const char* emulator() {
    const char* e = std::getenv("SKN_EMULATOR");
    return e != nullptr && *e != '\0' ? e : nullptr;
}

inline bool under_emulator() { return emulator() != nullptr; }

}  // namespace skn_core::test
