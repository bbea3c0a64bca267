// SPDX-License-Identifier: MIT
// The opaque handle behind skn.h's skn_gguf.
#pragma once

#include <memory>

#include "gguf/reader.hpp"

struct skn_gguf {
    // Shared so that views over its tensors keep the mapping alive after
    // skn_gguf_close.
    std::shared_ptr<skn_core::gguf::File> file;
};
