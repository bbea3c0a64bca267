// SPDX-License-Identifier: MIT
// Errors, version, CPU features and logging.
#include "capi/guard.hpp"

#include <fmt/format.h>
#include <string>
#include "dispatch/kernel.hpp"
#include "runtime/cpu.hpp"
#include "runtime/isa.hpp"
#include "runtime/log.hpp"

using skn_core::capi::guarded;

#define SKN_STR2(x) #x
#define SKN_STR(x) SKN_STR2(x)

extern "C" {

SKN_API const char* skn_last_error(void) { return skn_core::last_error_message(); }

SKN_API const char* skn_status_name(skn_status status) {
    const int64_t raw = skn_core::capi::raw_enum(status);
    for (skn_status s : {SKN_OK, SKN_E_INVALID_ARGUMENT, SKN_E_UNKNOWN_FORMAT, SKN_E_UNSUPPORTED, SKN_E_BUFFER_TOO_SMALL,
                         SKN_E_OUT_OF_MEMORY, SKN_E_FORMAT, SKN_E_IO, SKN_E_NOT_FOUND, SKN_E_INTERNAL})
        if (raw == s) return skn_core::status_name(s);
    return "unknown status";
}

SKN_API unsigned skn_version(void) { return SKN_VERSION_NUMBER; }

SKN_API const char* skn_version_string(void) {
    return SKN_STR(SKN_VERSION_MAJOR) "." SKN_STR(SKN_VERSION_MINOR) "." SKN_STR(SKN_VERSION_PATCH);
}

SKN_API skn_isa skn_cpu_isa(void) { return skn_core::detected_isa(); }

SKN_API const char* skn_cpu_features(void) { return skn_core::cpu_features_text(); }

SKN_API const char* skn_cpu_id(void) {
    static const std::string id = [] {
        const skn_core::CpuFeatures& f = skn_core::cpu_features();
        return fmt::format("{} 0x{:x} 0x{:x}", f.vendor.empty() ? "unknown" : f.vendor, f.family, f.model);
    }();
    return id.c_str();
}

SKN_API const char* skn_isa_name(skn_isa isa) {
    // Validate the caller's integer before it becomes an enum (see raw_enum).
    const int64_t raw = skn_core::capi::raw_enum(isa);
    return skn_core::isa_name(raw);
}

SKN_API int32_t skn_isa_count(void) { return static_cast<int32_t>(skn_core::isa_table().size()); }

SKN_API int32_t skn_isa_at(int32_t index) {
    const auto table = skn_core::isa_table();
    if (index < 0 || size_t(index) >= table.size()) return -1;
    return static_cast<int32_t>(table[size_t(index)].isa);
}

SKN_API int skn_cpu_runs_isa(skn_isa isa) {
    const skn_core::IsaInfo* i = skn_core::find_isa(skn_core::capi::raw_enum(isa));
    return i != nullptr && skn_core::cpu_runs(i->isa) ? 1 : 0;
}

SKN_API skn_status skn_set_log_callback(skn_log_level level, skn_log_fn fn, void* user) {
    return guarded([&] {
        const int64_t raw = skn_core::capi::raw_enum(level);
        if (raw < SKN_LOG_TRACE || raw > SKN_LOG_OFF || raw == 5 ||
            !skn_core::set_log_callback(static_cast<skn_log_level>(raw), fn, user))
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "log level {} is not an skn_log_level (use SKN_LOG_TRACE .. SKN_LOG_OFF)",
                      raw);
    });
}

}  // extern "C"
