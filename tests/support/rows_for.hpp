// SPDX-License-Identifier: MIT
// rows_for(format, rows): the row count a test uses for `format` where it
// would use `rows` for a canonical format (support/rows_for.h has the rule).
#pragma once

#include <cstdint>

#include "formats/format.hpp"
#include "support/rows_for.h"

namespace skn_core::test {

inline int64_t rows_for(const FormatTraits& f, int64_t rows) { return skn_test_rows_for(f.block_rows, rows); }

// The canonical format `f` re-encodes (itself unless row-interleaved): the
// twin whose bytes, quantizer and products an interleaved format's must equal.
inline const FormatTraits& canonical_of(const FormatTraits& f) {
    return f.interleaved() ? *find_format(f.interleaves) : f;
}

}  // namespace skn_core::test
