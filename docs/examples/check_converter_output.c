/* A downstream converter's test, as docs/packed-weight-layout.md describes it:
 * run the converter's own permutation on skn's tagged fixture and ask skn
 * whether every block landed where INPUT_BLOCK_MAJOR puts it. Compiled and
 * run by the test suite (tests/CMakeLists.txt: doc_example_check_converter). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skn/skn.h"

/* Stand-in for the converter under test: its own block permutation. */
static void my_converter_to_kernel_order(const unsigned char* src, unsigned char* dst, int64_t rows,
                                         int64_t blocks_per_row, size_t block_bytes) {
    for (int64_t o = 0; o < rows; ++o)
        for (int64_t b = 0; b < blocks_per_row; ++b)
            memcpy(dst + (size_t)(b * rows + o) * block_bytes, src + (size_t)(o * blocks_per_row + b) * block_bytes,
                   block_bytes);
}

int main(void) {
    const skn_format format = SKN_FORMAT_Q4_K;
    const int64_t rows = 4, blocks = 3;
    skn_format_props props;
    memset(&props, 0, sizeof props);
    props.struct_size = sizeof props;
    size_t n = 0;
    if (skn_format_info(format, &props) != SKN_OK || skn_fixture_bytes(format, 0, rows, blocks, NULL, 0, &n) != SKN_OK) {
        fprintf(stderr, "skn: %s\n", skn_last_error());
        return 1;
    }
    unsigned char* canonical = malloc(n);
    unsigned char* converted = malloc(n);
    if (!canonical || !converted) return 1;
    skn_fixture_bytes(format, 0, rows, blocks, canonical, n, &n); /* ROW_MAJOR, as a file holds it */
    my_converter_to_kernel_order(canonical, converted, rows, blocks, (size_t)props.block_bytes);

    const char* problem = skn_fixture_disagreement(converted, n, format, 1, rows, blocks);
    if (problem != NULL) {
        fprintf(stderr, "converter output is wrong: %s\n", problem);
        return 1;
    }
    /* The converter's bytes, read without conversion, are NOT canonical order:
     * skn names the first misplaced block. */
    problem = skn_fixture_disagreement(converted, n, format, 0, rows, blocks);
    printf("as expected, read as ROW_MAJOR: %s\n", problem ? problem : "(no disagreement?!)");
    free(canonical);
    free(converted);
    return problem != NULL ? 0 : 1;
}
