// SPDX-License-Identifier: MIT
#include "runtime/stream_tuning.hpp"

#include <cstdlib>
#include <cstring>

#include "runtime/cpu.hpp"

namespace skn_core {
namespace {

// Zen 4 (family 0x19 with AVX-512; Zen 3, the same family, has none): the
// few-row INPUT_BLOCK_MAJOR walk from DRAM ran 0.65-0.90x the time with L2
// prefetch eight tiles ahead and 2048-row tasks (Q4_0, Q8_0, IQ4_NL at
// n = 1; docs/kernels/q32.md, "Streaming by core"). Zen 5 (family 0x1a)
// and the Intel cores measured L1 prefetch two tiles ahead faster, so they
// stay Near.
StreamMode for_cpu(const CpuFeatures& f) {
    return f.x86_amd && f.x86_family == 0x19 && f.avx512f ? StreamMode::Far : StreamMode::Near;
}

const char* stream_env() {
    const char* v = std::getenv("SKN_STREAM");
    return v != nullptr && *v != 0 ? v : nullptr;
}

StreamMode chosen() {
    const char* env = stream_env();
    if (env != nullptr && std::strcmp(env, "near") == 0) return StreamMode::Near;
    if (env != nullptr && std::strcmp(env, "far") == 0) return StreamMode::Far;
    return for_cpu(cpu_features());
}

}  // namespace

StreamMode stream_mode() {
    static const StreamMode m = chosen();
    return m;
}

bool q8_0_row_major_ahead() {
    static const bool ahead = cpu_features().x86_amd;
    return ahead;
}


}  // namespace skn_core
