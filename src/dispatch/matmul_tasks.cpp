// SPDX-License-Identifier: MIT
#include "dispatch/matmul_tasks.hpp"

#include <algorithm>
#include <cstring>

namespace skn_core {
namespace {

// Everything a task reads, behind one pointer: the lambda handed to
// Context::run then fits std::function's inline storage (no allocation).
struct TaskList {
    std::span<const ExpertBatch> batches;
    const PreparedActivations* xa;
    const BatchRows* rows;
    int64_t out, in;
    float* gathered;

    const ExpertBatch& batch_of(int64_t t) const {
        if (batches.size() == 1) return batches.front();
        const auto it = std::upper_bound(batches.begin(), batches.end(), t,
                                         [](int64_t task, const ExpertBatch& b) { return task < b.first_task; });
        return *(it - 1);
    }

    void run(int64_t t) const {
        const ExpertBatch& b = batch_of(t);
        const int64_t o0 = b.split.begin(t - b.first_task);
        const int64_t o1 = b.split.end(t - b.first_task, out);
        MatmulArgs a;
        a.w = &b.w;
        a.out = out;
        a.in = in;
        a.n = b.rows;
        if (xa->xf != nullptr) {
            a.xf = xa->xf + b.first * xa->xf_stride;
            a.xf_stride = xa->xf_stride;
        }
        if (xa->xq != nullptr) {
            a.xq = xa->xq + size_t(b.first) * xa->xq_stride;
            a.xq_stride = xa->xq_stride;
        }
        a.bias = b.bias;
        if (rows->slot_at == nullptr) {  // dense: the rows are y's
            a.y = rows->y_row(b.first);
            a.y_stride = rows->call->y_row_stride;
            b.kernel->fn(a, o0, o1);
            return;
        }
        if (b.rows == 1) {
            float* dst = rows->y_row(b.first);
            a.y = dst;
            a.y_stride = out;
            b.kernel->fn(a, o0, o1);
            if (const float* g = rows->gate(b.first))
                for (int64_t o = o0; o < o1; ++o) dst[o] *= *g;
            return;
        }
        a.y = gathered + b.first * out;
        a.y_stride = out;
        b.kernel->fn(a, o0, o1);
        for (int64_t p = b.first; p < b.first + b.rows; ++p) {
            const float* src = gathered + p * out;
            float* dst = rows->y_row(p);
            if (const float* g = rows->gate(p)) {
                for (int64_t o = o0; o < o1; ++o) dst[o] = src[o] * *g;
            } else {
                std::memcpy(dst + o0, src + o0, size_t(o1 - o0) * sizeof(float));
            }
        }
    }
};

}  // namespace

int64_t plan_tasks(std::span<ExpertBatch> batches, int64_t out) {
    int64_t tasks = 0;
    for (ExpertBatch& b : batches) {
        b.split = task_rows(*b.kernel, b.rows, out);
        b.first_task = tasks;
        tasks += b.split.count;
    }
    return tasks;
}

void run_batches(Context& ctx, std::span<const ExpertBatch> batches, int64_t tasks, const PreparedActivations& xa,
                 const BatchRows& rows, int64_t out, int64_t in, float* gathered) {
    const TaskList list{batches, &xa, &rows, out, in, gathered};
    ctx.run(tasks, [&list](int64_t t) { list.run(t); });
}

}  // namespace skn_core
