// SPDX-License-Identifier: MIT
// The C ABI boundary: no C++ exception crosses it. Every exported function runs
// its body through guarded(), which maps exceptions to a status plus message.
#pragma once

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "runtime/error.hpp"

namespace skn_core::capi {

template <typename Body>
skn_status guarded(Body&& body) noexcept {
    try {
        clear_last_error();
        body();
        // A callback the body ran (trace sink, log callback, parallel-for) may
        // have made a failing skn call on this thread; a successful call
        // still ends with an empty message.
        clear_last_error();
        return SKN_OK;
    } catch (const Error& e) {
        return set_last_error(e.status(), e.what());
    } catch (const std::bad_alloc&) {
        return set_last_error(SKN_E_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return set_last_error(SKN_E_INTERNAL, std::string("internal error: ") + e.what());
    } catch (...) {
        return set_last_error(SKN_E_INTERNAL, "internal error: unknown exception");
    }
}

// The integer a caller passed for an enum parameter. C lets any int travel in
// an enum; reading it as a C++ enum outside the enumerators' range is
// undefined, so entry points copy the bits out instead of loading the value.
template <typename E>
int64_t raw_enum(const E& e) {
    static_assert(sizeof(E) == sizeof(int32_t), "C enums are int-sized");
    int32_t v;  // as the C caller wrote it, sign included
    std::memcpy(&v, &e, sizeof v);
    return v;
}

template <typename T>
void require_non_null(const T* p, const char* name) {
    if (p == nullptr) fail(SKN_E_INVALID_ARGUMENT, "{} must not be NULL", name);
}

}  // namespace skn_core::capi
