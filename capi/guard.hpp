// The C ABI boundary: no C++ exception crosses it. Every exported function runs
// its body through guarded(), which maps exceptions to a status plus message.
#pragma once

#include <new>

#include "runtime/error.hpp"

namespace skn::capi {

template <typename Body>
skn_status guarded(Body&& body) noexcept {
    try {
        clear_last_error();
        body();
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

template <typename T>
void require_non_null(const T* p, const char* name) {
    if (p == nullptr) fail(SKN_E_INVALID_ARGUMENT, "{} must not be NULL", name);
}

}  // namespace skn::capi
