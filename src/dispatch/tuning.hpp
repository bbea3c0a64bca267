// SPDX-License-Identifier: MIT
// The tuning table: every choice the library makes per core that no ISA bit
// implies, in one place, keyed by the CPU (vendor, family, model range) with
// the ISA tier as fallback, each row naming the run that measured it.
//
//   variant   which of a kernel's bit-identical variants runs (a kernel name
//             glob; "far", "ahead", ... or "" for the plain kernel)
//   tasks     how many output rows a few-activation-row task takes (a kernel
//             name glob; overrides the kernel's few_rows_per_task)
//   prefer    the format and block order skn_prepack_for_matmul gives a
//             weight of a format, per batch regime ("Q4_0:gemv" -> "Q4_0_R8/rm")
//
// Variants of one kernel are bit-identical by contract (a test runs each
// against the others), so no choice here changes a result. The rows are the
// built-in table (tuning_table.inc), then a tuning file `skn tune` wrote for
// this CPU (SKN_TUNING_FILE, else $XDG_CONFIG_HOME/skn/tuning, else
// ~/.config/skn/tuning), then a context's own settings
// (skn_context_set_tuning); a later source wins. runtime/ knows no kernel
// family: everything family-specific is a row here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "layout/block_order.hpp"
#include "skn/skn.h"

namespace skn_core {

struct CpuFeatures;

enum class TuningChoice : int32_t { Variant = 0, Tasks = 1, Prefer = 2 };

// Which cores a row is for: nullptr / -1 match any. model_lo..model_hi is
// inclusive.
struct CoreMatch {
    const char* vendor = nullptr;  // "AuthenticAMD", "GenuineIntel", "arm:0x41" (CpuFeatures::vendor)
    int family = -1;
    int model_lo = -1, model_hi = -1;
};

struct TuningRow {
    CoreMatch core;
    const char* tier = "*";  // isa_tag ("avx512vnni"), or "*"
    TuningChoice choice = TuningChoice::Variant;
    std::string subject;     // a kernel name glob ('*' = any run), or "<FORMAT>:<gemv|gemm>"
    std::string value;
    std::string evidence;    // machine, date, results file or docs section
    std::string source;      // "built-in", the tuning file's path, or "context"
};

// How well a row's CoreMatch fits a core: -1 when it does not, else more
// for each field it pins (vendor 1, family 2, model range 4).
int core_match_score(const CoreMatch& m, const CpuFeatures& cpu);

// '*' matches any run of characters; everything else itself.
bool glob_match(const char* glob, const char* name);

class Tuning {
public:
    // The rows for `cpu`: the built-in table, then the tuning file (if one
    // is configured and describes this CPU). Log lines say which file was
    // read, or why one was ignored.
    static Tuning for_process(const CpuFeatures& cpu);
    // The process's tuning, built once.
    static const Tuning& process();

    Tuning() = default;
    Tuning(std::vector<TuningRow> rows, const CpuFeatures& cpu);

    // Adds a row that beats every row before it (a context's setting).
    void set(TuningChoice choice, std::string subject, std::string value, std::string source);

    // The variant named for kernel `base_name` on tier `tier`, or nullptr
    // (the plain kernel).
    const std::string* variant(const std::string& base_name, const char* tier) const;
    std::optional<int64_t> few_rows_per_task(const std::string& base_name, const char* tier) const;
    // The preferred encoding of `format` in `regime` ("gemv", "gemm") on
    // `tier`: "<FORMAT>/<rm|ibm>", or nullptr.
    const std::string* prefer(const char* format, const char* regime, const char* tier) const;

    // The rows that apply on this core, best first within each subject, for
    // skn doctor and skn_tuning_row.
    const std::vector<TuningRow>& rows() const { return rows_; }
    // Row i's cores in words: "AuthenticAMD family 0x19", "any", ...
    const char* cores_text(size_t i) const { return cores_[i].c_str(); }
    // The tuning file that was read, or "" (file_note() says why not).
    const std::string& file() const { return file_; }
    const std::string& file_note() const { return file_note_; }

private:
    const TuningRow* find(TuningChoice c, const char* subject, const char* tier, bool glob) const;

    std::vector<TuningRow> rows_;  // matching rows only, in precedence order (later beats earlier)
    std::vector<int> score_;       // their core_match_score
    std::vector<std::string> cores_;
    std::string file_, file_note_;
};

// The built-in rows (tuning_table.inc).
const std::vector<TuningRow>& builtin_tuning_rows();

// The tuning file's path this process would read: SKN_TUNING_FILE, else
// $XDG_CONFIG_HOME/skn/tuning, else $HOME/.config/skn/tuning; "" if none.
std::string tuning_file_path();

// Parses a tuning file's text (the format docs/kernels.md, "The tuning
// table", gives and `skn tune` writes). Rows for another CPU make the whole
// file not apply: *why says so. Throws skn_core::Error (SKN_E_FORMAT) naming
// the line on a malformed one.
std::vector<TuningRow> parse_tuning_file(const std::string& text, const std::string& path, const CpuFeatures& cpu,
                                         std::string* why);

// Refuses (SKN_E_INVALID_ARGUMENT, naming what is accepted) a value that
// cannot be one of `c`'s: a variant is a word of [a-z0-9] or empty (the
// plain kernel); tasks a positive row count; prefer "<FORMAT>/<rm|ibm>" for
// a subject "<FORMAT>:<gemv|gemm>", FORMAT in the subject a canonical format,
// the value's format it or its row-interleaved twin. A prefer row's format
// names are rewritten as skn spells them ("q4_0:gemv" -> "Q4_0:gemv"): the
// lookup compares the subject literally.
void check_tuning_value(TuningChoice c, std::string* subject, std::string* value);

// SKN_STREAM (auto, near, far; a benchmark knob): near and far force the
// plain or the "far" variant of every INPUT_BLOCK_MAJOR kernel that has one.
// False, with the value in *bad, for anything else; contexts refuse to be
// created then.
bool stream_env_valid(const char** bad);

// "variant" / "tasks" / "prefer" and back.
const char* tuning_choice_name(TuningChoice c);
std::optional<TuningChoice> parse_tuning_choice(const std::string& s);

}  // namespace skn_core
