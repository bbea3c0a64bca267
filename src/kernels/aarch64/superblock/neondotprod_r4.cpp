// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision kernels for the K-quant twins Q4_K_R4,
// Q5_K_R4, Q6_K_R4, Q2_K_R4, Q3_K_R4 (body: superblock/r4_body.inc): one
// by-element SDOT per 16-byte weight vector and activation row gives four
// rows' exact partial sums. Also registered at neoni8mm
// (superblock/register.cpp).
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

template <int kBound>
struct RowDot4 {
    int32x4_t s;
    void clear() { s = vdupq_n_s32(0); }
    template <int L>
    [[gnu::always_inline]] void add(int8x16_t w, int8x16_t x) {
        s = vdotq_laneq_s32(s, w, x, L);
    }
    int32x4_t sum() const { return s; }
};

}  // namespace

#include "kernels/aarch64/superblock/r4_body.inc"

SKN_KQ_R4_DEFINE(neondotprod)

}  // namespace skn_core::kernels::aarch64
