// SPDX-License-Identifier: MIT
// Quantization throughput through the public API: weights per second of
// skn_quantize_with_options for every block format, at 1 and 2 threads, with
// importance weights where the format reads them (and without for the
// others). With --reference PROGRAM it also runs a reference timing program
// on the same input and prints its numbers in the same table, so the two are
// measured in one run on one machine state (a ratio is what to read).
//
//   skn_bench_quantize [--rows N] [--cols N] [--reps N] [--reference PROGRAM]
//
// PROGRAM is called as `PROGRAM INPUT.f32 ROWS COLS IMPORTANCE.f32 FORMAT...`
// and prints one line `FORMAT WEIGHTS_PER_SECOND` per format it times
// (single-threaded, with the importance weights for the formats that read
// them). Nothing of the reference is built here: it is the caller's program.
#include <skn/skn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

// Bell-shaped values (sum of four uniforms) from a fixed-seed LCG: realistic
// weight statistics, the same on every run.
std::vector<float> make_input(int64_t rows, int64_t cols) {
    std::vector<float> w(size_t(rows * cols));
    uint64_t s = 0x9E3779B97F4A7C15ull;
    auto uniform = [&s] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return float(s >> 40) / float(1u << 24) * 2.0f - 1.0f;
    };
    for (auto& v : w) v = (uniform() + uniform() + uniform() + uniform()) * 0.02f;
    return w;
}

std::vector<float> make_importance(int64_t cols) {
    std::vector<float> imp(static_cast<size_t>(cols));
    for (int64_t c = 0; c < cols; ++c) imp[size_t(c)] = 0.25f + float((c * 37) % 101) / 25.0f;
    return imp;
}

bool write_floats(const std::string& path, const std::vector<float>& v) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return false;
    const bool ok = std::fwrite(v.data(), sizeof(float), v.size(), f) == v.size();
    return std::fclose(f) == 0 && ok;
}

// The reference's numbers, by lower-case format name.
std::map<std::string, double> run_reference(const std::string& program, const std::string& input,
                                            const std::string& importance, int64_t rows, int64_t cols,
                                            const std::vector<std::string>& names) {
    std::string cmd = program + " " + input + " " + std::to_string(rows) + " " + std::to_string(cols) + " " + importance;
    for (const auto& n : names) cmd += " " + n;
    std::map<std::string, double> out;
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return out;
    char name[64];
    double rate = 0.0;
    while (std::fscanf(p, "%63s %lf", name, &rate) == 2) {
        std::string n = name;
        std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        out[n] = rate;
    }
    pclose(p);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    int64_t rows = 256, cols = 4096;
    int reps = 5;
    std::string reference;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--rows") rows = std::atoll(argv[i + 1]);
        else if (a == "--cols") cols = std::atoll(argv[i + 1]);
        else if (a == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--reference") reference = argv[i + 1];
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    const std::vector<float> w = make_input(rows, cols);
    const std::vector<float> importance = make_importance(cols);

    struct Row {
        std::string name;
        bool weighted;
        double rate[2];
    };
    std::vector<Row> table;
    for (int32_t i = 0; i < skn_format_count(); ++i) {
        const auto format = static_cast<skn_format>(skn_format_at(i));
        skn_format_props props;
        std::memset(&props, 0, sizeof props);
        props.struct_size = sizeof props;
        if (skn_format_info(format, &props) != SKN_OK || !props.is_block_quantized) continue;
        size_t bytes = 0;
        if (skn_quantized_size(format, rows, cols, &bytes) != SKN_OK) continue;
        std::vector<uint8_t> dst(bytes);
        std::string name = props.name;
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        Row row{name, false, {0.0, 0.0}};
        for (int t = 0; t < 2; ++t) {
            skn_quantize_options o;
            std::memset(&o, 0, sizeof o);
            o.struct_size = sizeof o;
            o.importance = importance.data();
            o.importance_count = cols;
            o.threads = t + 1;
            if (skn_quantize_with_options(format, w.data(), rows, cols, dst.data(), dst.size(), &o) != SKN_OK) {
                std::fprintf(stderr, "%s: %s\n", props.name, skn_last_error());
                return 1;
            }
            std::vector<double> seconds;
            for (int r = 0; r < reps; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                skn_quantize_with_options(format, w.data(), rows, cols, dst.data(), dst.size(), &o);
                seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            std::sort(seconds.begin(), seconds.end());
            row.rate[t] = double(rows * cols) / seconds[seconds.size() / 2];
        }
        table.push_back(row);
    }

    std::map<std::string, double> ref;
    if (!reference.empty()) {
        const std::string in = "/tmp/skn_bench_quantize_input.f32", imp = "/tmp/skn_bench_quantize_importance.f32";
        if (!write_floats(in, w) || !write_floats(imp, importance)) {
            std::fprintf(stderr, "cannot write the input for the reference program under /tmp\n");
            return 1;
        }
        std::vector<std::string> names;
        for (const auto& r : table) names.push_back(r.name);
        ref = run_reference(reference, in, imp, rows, cols, names);
        std::remove(in.c_str());
        std::remove(imp.c_str());
    }

    std::printf("[%lld, %lld] weights, median of %d calls, importance weights given to every format\n",
                (long long)rows, (long long)cols, reps);
    std::printf("| format | skn 1 thread (Mweights/s) | skn 2 threads | 2 / 1 |%s\n",
                ref.empty() ? "" : " reference 1 thread | skn / reference |");
    std::printf("|---|---|---|---|%s\n", ref.empty() ? "" : "---|---|");
    for (const auto& r : table) {
        std::printf("| %s | %.1f | %.1f | %.2f |", r.name.c_str(), r.rate[0] / 1e6, r.rate[1] / 1e6, r.rate[1] / r.rate[0]);
        if (!ref.empty()) {
            const auto it = ref.find(r.name);
            if (it != ref.end() && it->second > 0.0)
                std::printf(" %.1f | %.2f |", it->second / 1e6, r.rate[0] / it->second);
            else
                std::printf(" - | - |");
        }
        std::printf("\n");
    }
    return 0;
}
