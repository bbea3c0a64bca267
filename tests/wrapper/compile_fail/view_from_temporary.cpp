// SPDX-License-Identifier: MIT
// Must not compile (wrapper_view_from_temporary test): a view over a
// temporary byte vector would read freed memory once the statement ends.
#include "skn/skn.hpp"
int main() {
    const std::vector<float> x(64, 1.0f);
    skn::View v = skn::View::from_bytes(skn::quantize(SKN_FORMAT_Q4_0, x, 1, 64), SKN_FORMAT_Q4_0, {1, 64},
                                        SKN_ORDER_ROW_MAJOR);
    return v ? 0 : 1;
}
