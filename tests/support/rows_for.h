/* SPDX-License-Identifier: MIT */
/* The row counts the test suites use, for any format. A row-interleaved
 * format (SKN_FORMAT_Q4_0_R8 ...) holds its rows in groups of block_rows (R):
 * it takes only multiples of R, so where a test uses an odd count of rows
 * (1, 3, 5, 7, 33, 37 ...: counts no kernel tile divides) such a format gets
 * R times that count (R, 3R, 5R ...: still an odd number of its blocks).
 * Every other format (block_rows 1) keeps the count itself, so the tests of
 * the canonical formats are exactly what they were. The one rule, shared by
 * the C++ suites (support/rows_for.hpp) and the C tests (tests/c). */
#ifndef SKN_TEST_ROWS_FOR_H
#define SKN_TEST_ROWS_FOR_H

#include <stdint.h>

static inline int64_t skn_test_rows_for(int32_t block_rows, int64_t rows) {
    return block_rows > 1 ? rows * block_rows : rows;
}

#endif
