// SPDX-License-Identifier: MIT
// A downstream C++17 program using skn.hpp from the installed package: the
// consumer contract check, written with the wrapper, plus one matmul_wt.
#include <skn/skn.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
    int checks = 0, failures = 0;
    auto check = [&](bool ok, const char* what) {
        ++checks;
        if (!ok) {
            ++failures;
            std::fprintf(stderr, "CHECK failed: %s\n", what);
        }
    };
    try {
        check(skn::version() / 10000 == SKN_VERSION_MAJOR, "major version");

        const skn::bytes kernel = skn::fixture_bytes(SKN_FORMAT_Q4_K, SKN_ORDER_INPUT_BLOCK_MAJOR, 4, 3);
        const skn::bytes canonical = skn::fixture_bytes(SKN_FORMAT_Q4_K, SKN_ORDER_ROW_MAJOR, 4, 3);
        check(!skn::fixture_disagreement(kernel, SKN_FORMAT_Q4_K, SKN_ORDER_INPUT_BLOCK_MAJOR, 4, 3),
              "kernel-order fixture passes");
        check(skn::fixture_disagreement(canonical, SKN_FORMAT_Q4_K, SKN_ORDER_INPUT_BLOCK_MAJOR, 4, 3).has_value(),
              "canonical bytes read as kernel order are named");

        const skn::GoldenInfo gi = skn::golden_info(SKN_FORMAT_Q4_K);
        const skn::bytes packed = skn::golden_bytes(SKN_FORMAT_Q4_K, SKN_GOLDEN_PACKED);
        const std::vector<float> decoded = skn::golden_floats(SKN_FORMAT_Q4_K, SKN_GOLDEN_DECODED);
        check(skn::dequantize(SKN_FORMAT_Q4_K, packed, gi.rows, gi.cols) == decoded, "golden DECODED == dequantize");

        // y = x * W^T over the prepacked golden weight, against golden Y.
        skn::Context ctx;
        skn::Scope scope;
        const skn::View w = skn::View::from_bytes(packed, SKN_FORMAT_Q4_K, {gi.rows, gi.cols}, SKN_ORDER_ROW_MAJOR);
        const skn::View ready = ctx.prepack_for_matmul(w, scope);
        skn::MatmulOptions exact;
        exact.precision = SKN_PRECISION_EXACT;
        const std::vector<float> x = skn::golden_floats(SKN_FORMAT_Q4_K, SKN_GOLDEN_X);
        const std::vector<float> y_golden = skn::golden_floats(SKN_FORMAT_Q4_K, SKN_GOLDEN_Y);
        const std::vector<float> y = ctx.matmul_wt(x, gi.x_rows, ready, {}, exact);
        bool close = y.size() == y_golden.size();
        for (std::size_t i = 0; close && i < y.size(); ++i)
            close = std::fabs(y[i] - y_golden[i]) <= 1e-3f * (1.0f + std::fabs(y_golden[i]));
        check(close, "matmul_wt matches golden Y");

        // Errors arrive as skn::Error with the C status.
        try {
            skn::format_info(static_cast<skn_format>(4));
            check(false, "unknown format throws");
        } catch (const skn::Error& e) {
            check(e.status() == SKN_E_UNKNOWN_FORMAT, "Error carries the status");
        }
    } catch (const skn::Error& e) {
        std::fprintf(stderr, "unexpected skn::Error: %s\n", e.what());
        return 1;
    }
    std::printf("consumer_cpp against libskn %s: %d passed, %d failed\n", skn::version_string().c_str(),
                checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
