// SPDX-License-Identifier: MIT
#include "kernels/x86_64/dense/libxsmm_backend.hpp"

#include <libxsmm.h>

#include <atomic>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace skn_core {

std::string dense_backend_description() {
    const char* arch = libxsmm_get_target_arch();
    return fmt::format("libxsmm {} (target: {})", LIBXSMM_VERSION, arch != nullptr ? arch : "unknown");
}

namespace {

std::atomic<bool> g_refuse_new{false};

// For skx / clx / cpx, libxsmm 1.17's AVX-512 GEMM code gives each element of
// C one register lane and adds its k products in order, provided m needs more
// than one vector (m > 16; at m <= 16 it splits k over several accumulators
// whose number depends on n). Other targets (AVX2, KNL, SPR) were not checked.
bool order_checked_target() {
    const int id = libxsmm_get_target_archid();
    return id >= LIBXSMM_X86_AVX512_CORE && id <= LIBXSMM_X86_AVX512_CPX;
}

std::unique_ptr<XsmmGemm> dispatch(int64_t m, int64_t n, int64_t k, int64_t ldb) {
    if (m <= 16 || !order_checked_target()) return nullptr;
    const libxsmm_blasint lm = m, ln = n, lk = k, lda = m, lb = ldb, ldc = m;
    const float one = 1.0f, zero = 0.0f;
    const int flags = LIBXSMM_GEMM_FLAG_NONE, prefetch = LIBXSMM_PREFETCH_NONE;
    auto g = std::make_unique<XsmmGemm>();
    g->first = libxsmm_smmdispatch(lm, ln, lk, &lda, &lb, &ldc, &one, &zero, &flags, &prefetch);
    g->next = libxsmm_smmdispatch(lm, ln, lk, &lda, &lb, &ldc, &one, &one, &flags, &prefetch);
    if (g->first == nullptr || g->next == nullptr) return nullptr;
    return g;
}

}  // namespace

const XsmmGemm* xsmm_sgemm(int64_t m, int64_t n, int64_t k, int64_t ldb) {
    using Key = std::tuple<int64_t, int64_t, int64_t, int64_t>;
    static std::mutex mu;
    static std::map<Key, std::unique_ptr<XsmmGemm>> decided;  // null: refused for good
    const Key key{m, n, k, ldb};
    std::lock_guard<std::mutex> lock(mu);
    auto it = decided.find(key);
    if (it != decided.end()) return it->second.get();
    if (g_refuse_new.load()) return nullptr;
    return decided.emplace(key, dispatch(m, n, k, ldb)).first->second.get();
}

void xsmm_refuse_new_shapes_for_testing(bool refuse) { g_refuse_new.store(refuse); }

}  // namespace skn_core
