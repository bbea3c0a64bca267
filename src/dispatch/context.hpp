// SPDX-License-Identifier: MIT
// A matmul context: threads (its own pool or a caller's parallel-for), the
// ISA cap, the trace sink, and the scratch memory activation quantization
// reuses from call to call (no kernel allocates per call).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "dispatch/registry.hpp"
#include "runtime/thread_pool.hpp"
#include "trace/trace.hpp"

namespace skn_core {

struct ParallelFor {
    skn_parallel_for_fn fn = nullptr;
    void* user = nullptr;
};

class Context {
public:
    // Reads SKN_ISA for the default cap; throws skn_core::Error naming the valid
    // values when it holds something else.
    Context();

    void set_threads(int n);
    int threads() const { return threads_; }
    void set_parallel_for(ParallelFor p) { parallel_for_ = p; }
    void set_trace(TraceSink sink) { trace_ = sink; }
    const TraceSink& trace() const { return trace_; }
    void set_isa_cap(skn_isa cap) { cap_ = cap; }
    skn_isa isa_cap() const { return cap_; }
    // Test seam: the registry lookups use (the default one otherwise).
    void set_registry(const Registry* r) { registry_ = r; }
    // Test seam: the tuning this context starts from, instead of the
    // process's (built-in table and tuning file).
    void set_tuning_table(Tuning t) { tuning_ = std::move(t); }
    const Registry& registry() const { return *registry_; }
    // The per-core choices this context makes: the process's tuning
    // (dispatch/tuning.hpp) plus what was set on this context.
    const Tuning& tuning() const { return tuning_; }
    // A choice for this context only (skn_context_set_tuning): beats every
    // row of the table and the tuning file. Throws on an unknown choice or a
    // value that names no variant / no format and order.
    void set_tuning(const std::string& choice, const std::string& subject, const std::string& value);

    // Run task(i) for i in [0, count) on the caller's parallel-for if one is
    // set, else on the pool.
    void run(int64_t count, const std::function<void(int64_t)>& task);

    // Scratch that grows to the largest call seen and is then reused.
    float* float_scratch(size_t count);
    uint8_t* byte_scratch(size_t bytes);
    // matmul_wt_id's: its routing tables and the outputs it gathers per
    // expert before scattering them to the caller's (row, slot) places.
    int64_t* index_scratch(size_t count);
    float* output_scratch(size_t count);

private:
    int threads_ = 1;
    std::unique_ptr<ThreadPool> pool_;
    ParallelFor parallel_for_;
    TraceSink trace_;
    skn_isa cap_;
    const Registry* registry_;
    Tuning tuning_;
    std::vector<float> floats_;
    std::vector<uint8_t> bytes_;
    std::vector<int64_t> indices_;
    std::vector<float> outputs_;
};

}  // namespace skn_core
