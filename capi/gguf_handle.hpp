// SPDX-License-Identifier: MIT
// The opaque handles behind skn.h's skn_gguf and skn_gguf_writer.
#pragma once

#include <memory>

#include "gguf/reader.hpp"
#include "gguf/writer.hpp"

struct skn_gguf {
    // Shared so that views over its tensors keep the mapping alive after
    // skn_gguf_close.
    std::shared_ptr<skn_core::gguf::File> file;
};

struct skn_gguf_writer {
    skn_core::gguf::Writer writer;
};
