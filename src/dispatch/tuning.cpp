// SPDX-License-Identifier: MIT
#include "dispatch/tuning.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

#include "runtime/cpu.hpp"
#include "runtime/error.hpp"
#include "runtime/isa.hpp"
#include "runtime/log.hpp"

namespace skn_core {

int core_match_score(const CoreMatch& m, const CpuFeatures& cpu) {
    int score = 0;
    if (m.vendor != nullptr) {
        if (cpu.vendor != m.vendor) return -1;
        score += 1;
    }
    if (m.family >= 0) {
        if (cpu.family != m.family) return -1;
        score += 2;
    }
    if (m.model_lo >= 0) {
        if (cpu.model < m.model_lo || cpu.model > m.model_hi) return -1;
        score += 4;
    }
    return score;
}

bool glob_match(const char* glob, const char* name) {
    // Iterative '*' matching with one backtrack point: linear enough for
    // kernel names.
    const char *star = nullptr, *resume = nullptr;
    while (*name != 0) {
        if (*glob == '*') {
            star = glob++;
            resume = name;
        } else if (*glob == *name) {
            ++glob;
            ++name;
        } else if (star != nullptr) {
            glob = star + 1;
            name = ++resume;
        } else {
            return false;
        }
    }
    while (*glob == '*') ++glob;
    return *glob == 0;
}

const char* tuning_choice_name(TuningChoice c) {
    switch (c) {
        case TuningChoice::Variant: return "variant";
        case TuningChoice::Tasks: return "tasks";
        case TuningChoice::Prefer: return "prefer";
    }
    return "?";
}

std::optional<TuningChoice> parse_tuning_choice(const std::string& s) {
    for (TuningChoice c : {TuningChoice::Variant, TuningChoice::Tasks, TuningChoice::Prefer})
        if (s == tuning_choice_name(c)) return c;
    return std::nullopt;
}

namespace {

std::string describe_cores(const CoreMatch& m) {
    if (m.vendor == nullptr && m.family < 0) return "any";
    std::string t = m.vendor != nullptr ? m.vendor : "any vendor";
    if (m.family >= 0) t += fmt::format(" family 0x{:x}", m.family);
    if (m.model_lo >= 0)
        t += m.model_lo == m.model_hi ? fmt::format(" model 0x{:x}", m.model_lo)
                                      : fmt::format(" models 0x{:x}-0x{:x}", m.model_lo, m.model_hi);
    return t;
}

}  // namespace

// A row from a tuning file was measured on this very core: it outranks every
// built-in row, however specific (core scores reach 1 + 2 + 4 = 7).
constexpr int kFileRank = 8;
// A context's own setting beats every row of the table and the file.
constexpr int kContextRank = 1 << 20;

Tuning::Tuning(std::vector<TuningRow> rows, const CpuFeatures& cpu) {
    for (TuningRow& r : rows) {
        const int s = core_match_score(r.core, cpu);
        if (s < 0) continue;
        score_.push_back(r.source == "built-in" ? s : s + kFileRank);
        cores_.push_back(describe_cores(r.core));
        rows_.push_back(std::move(r));
    }
}

void Tuning::set(TuningChoice choice, std::string subject, std::string value, std::string source) {
    // Setting the same choice again replaces it: a caller that toggles a
    // setting (skn tune does, per measurement) must not grow the list.
    for (size_t i = 0; i < rows_.size(); ++i)
        if (score_[i] == kContextRank && rows_[i].choice == choice && rows_[i].subject == subject &&
            rows_[i].source == source) {
            rows_[i].value = std::move(value);
            return;
        }
    TuningRow r;
    r.choice = choice;
    r.subject = std::move(subject);
    r.value = std::move(value);
    r.source = std::move(source);
    r.evidence = "set on this context";
    rows_.push_back(std::move(r));
    score_.push_back(kContextRank);
    cores_.push_back("this context");
}

// The winning row for (choice, subject, tier): the best core match, then the
// later row (a file after the built-in table, a context after both), then
// the more literal subject glob.
const TuningRow* Tuning::find(TuningChoice c, const char* subject, const char* tier, bool glob) const {
    const TuningRow* best = nullptr;
    int best_score = -1;
    size_t best_literal = 0;
    for (size_t i = 0; i < rows_.size(); ++i) {
        const TuningRow& r = rows_[i];
        if (r.choice != c) continue;
        if (std::strcmp(r.tier, "*") != 0 && std::strcmp(r.tier, tier) != 0) continue;
        if (glob ? !glob_match(r.subject.c_str(), subject) : r.subject != subject) continue;
        // A tier-specific row pins one more field than "*".
        const int score = score_[i] * 2 + (std::strcmp(r.tier, "*") != 0 ? 1 : 0);
        size_t literal = 0;
        for (char ch : r.subject) literal += ch != '*';
        // A context's or a file's row comes later and wins a tie of scores.
        if (score > best_score || (score == best_score && literal >= best_literal)) {
            best = &r;
            best_score = score;
            best_literal = literal;
        }
    }
    return best;
}

const std::string* Tuning::variant(const std::string& base_name, const char* tier) const {
    const TuningRow* r = find(TuningChoice::Variant, base_name.c_str(), tier, true);
    return r != nullptr ? &r->value : nullptr;
}

std::optional<int64_t> Tuning::few_rows_per_task(const std::string& base_name, const char* tier) const {
    const TuningRow* r = find(TuningChoice::Tasks, base_name.c_str(), tier, true);
    if (r == nullptr) return std::nullopt;
    return std::strtoll(r->value.c_str(), nullptr, 10);
}

const std::string* Tuning::prefer(const char* format, const char* regime, const char* tier) const {
    const std::string subject = std::string(format) + ":" + regime;
    const TuningRow* r = find(TuningChoice::Prefer, subject.c_str(), tier, false);
    return r != nullptr ? &r->value : nullptr;
}

const std::vector<TuningRow>& builtin_tuning_rows() {
    static const std::vector<TuningRow> rows = {
#include "dispatch/tuning_table.inc"
    };
    return rows;
}

std::string tuning_file_path() {
    if (const char* f = std::getenv("SKN_TUNING_FILE"); f != nullptr && *f != 0) return f;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x != nullptr && *x != 0) return std::string(x) + "/skn/tuning";
    if (const char* h = std::getenv("HOME"); h != nullptr && *h != 0) return std::string(h) + "/.config/skn/tuning";
    return "";
}

namespace {

// "0x1a" or "26"; -1 for "*".
int parse_number(const std::string& s, const std::string& path, int line) {
    if (s == "*") return -1;
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 0);
    if (end == s.c_str() || *end != 0 || v < 0)
        fail(SKN_E_FORMAT, "{}:{}: \"{}\" is not a number (decimal, 0x hex, or * for any)", path, line, s);
    return int(v);
}

// Interned strings for the rows' const char* fields (vendor, tier): a file
// is read once per process, so they live as long as the process.
const char* intern(const std::string& s) {
    static std::vector<std::unique_ptr<std::string>> pool;
    for (const auto& p : pool)
        if (*p == s) return p->c_str();
    pool.push_back(std::make_unique<std::string>(s));
    return pool.back()->c_str();
}

}  // namespace

std::vector<TuningRow> parse_tuning_file(const std::string& text, const std::string& path, const CpuFeatures& cpu,
                                         std::string* why) {
    std::vector<TuningRow> rows;
    std::istringstream in(text);
    std::string line;
    int n = 0;
    bool have_cpu = false;
    while (std::getline(in, line)) {
        ++n;
        const size_t hash = line.find('#');
        std::string evidence;
        if (hash != std::string::npos) {
            evidence = line.substr(hash + 1);
            while (!evidence.empty() && evidence.front() == ' ') evidence.erase(evidence.begin());
            line.resize(hash);
        }
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string word; words >> word;) w.push_back(word);
        if (w.empty()) continue;
        if (w[0] == "cpu") {
            if (have_cpu) fail(SKN_E_FORMAT, "{}:{}: a second cpu line: a file describes one CPU", path, n);
            if (w.size() != 4)
                fail(SKN_E_FORMAT,
                     "{}:{}: a cpu line is \"cpu VENDOR FAMILY MODEL\" (e.g. cpu AuthenticAMD 0x1a 0x2, what "
                     "skn_cpu_id says)",
                     path, n);
            have_cpu = true;
            const int family = parse_number(w[2], path, n), model = parse_number(w[3], path, n);
            // skn_cpu_id (and so skn tune's cpu line) spells a vendor it cannot read "unknown".
            const std::string vendor = cpu.vendor.empty() ? "unknown" : cpu.vendor;
            if (w[1] != vendor || family != cpu.family || model != cpu.model) {
                *why = fmt::format("{} describes CPU {} {} {}, not this one ({} 0x{:x} 0x{:x}); "
                                   "run skn tune on this machine to write one for it",
                                   path, w[1], w[2], w[3], cpu.vendor.empty() ? "unknown" : cpu.vendor, cpu.family,
                                   cpu.model);
                return {};
            }
            continue;
        }
        const auto choice = parse_tuning_choice(w[0]);
        if (!choice)
            fail(SKN_E_FORMAT, "{}:{}: \"{}\" is no tuning line: expected cpu, variant, tasks or prefer", path, n,
                 w[0]);
        if (!have_cpu)
            fail(SKN_E_FORMAT, "{}:{}: the cpu line must come first, so the file says which CPU it was measured on",
                 path, n);
        // A variant's value may be left out: "-" or nothing is the plain kernel.
        const size_t least = *choice == TuningChoice::Variant ? 3 : 4;
        if (w.size() < least || w.size() > 4)
            fail(SKN_E_FORMAT, "{}:{}: a {} line is \"{} TIER SUBJECT VALUE\", then \"# evidence\" if any", path, n,
                 w[0], w[0]);
        skn_isa isa;
        if (w[1] != "*" && !parse_isa(w[1].c_str(), &isa))
            fail(SKN_E_FORMAT, "{}:{}: tier \"{}\" is not * or one of {}", path, n, w[1], isa_name_list());
        std::string value = w.size() == 4 ? w[3] : "";
        if (*choice == TuningChoice::Variant && value == "-") value.clear();
        try {
            check_tuning_value(*choice, &w[2], &value);
        } catch (const Error& e) {
            fail(SKN_E_FORMAT, "{}:{}: {}", path, n, e.what());
        }
        TuningRow r;
        r.tier = intern(w[1]);
        r.choice = *choice;
        r.subject = w[2];
        r.value = value;
        r.evidence = evidence;
        r.source = path;
        rows.push_back(std::move(r));
    }
    if (!have_cpu)
        fail(SKN_E_FORMAT, "{}: no cpu line: the file must say which CPU it was measured on (cpu VENDOR FAMILY MODEL)",
             path);
    return rows;
}

void check_tuning_value(TuningChoice c, std::string* subject_text, std::string* value_text) {
    const std::string& subject = *subject_text;
    const std::string& value = *value_text;
    switch (c) {
        case TuningChoice::Variant:
            for (char ch : value)
                if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')))
                    fail(SKN_E_INVALID_ARGUMENT,
                         "variant \"{}\" for {}: a variant is a lower-case word (\"far\", \"ahead\") or empty for "
                         "the plain kernel",
                         value, subject);
            return;
        case TuningChoice::Tasks: {
            char* end = nullptr;
            const long long v = std::strtoll(value.c_str(), &end, 10);
            if (value.empty() || *end != 0 || v < 1 || v > (1 << 20))
                fail(SKN_E_INVALID_ARGUMENT, "tasks {} for {}: a task size is a row count from 1 to {}", value, subject,
                     1 << 20);
            return;
        }
        case TuningChoice::Prefer: {
            const size_t colon = subject.find(':'), slash = value.find('/');
            const FormatTraits* f = colon == std::string::npos ? nullptr : find_format_by_name(subject.substr(0, colon).c_str());
            const std::string regime = colon == std::string::npos ? "" : subject.substr(colon + 1);
            if (f == nullptr || (regime != "gemv" && regime != "gemm"))
                fail(SKN_E_INVALID_ARGUMENT,
                     "prefer {}: the subject is FORMAT:gemv (n = 1) or FORMAT:gemm (n >= 32), e.g. Q4_0:gemv", subject);
            // The lookup asks for the canonical format: a row for its twin would never be read.
            if (f->interleaved())
                fail(SKN_E_INVALID_ARGUMENT,
                     "prefer {}: name the canonical format ({}:{}); the value may name its row-interleaved twin",
                     subject, find_format(f->interleaves)->name, regime);
            const FormatTraits* to = slash == std::string::npos ? nullptr : find_format_by_name(value.substr(0, slash).c_str());
            const std::string order = slash == std::string::npos ? "" : value.substr(slash + 1);
            if (to == nullptr || (order != "rm" && order != "ibm") ||
                canonical_format(to->id) != canonical_format(f->id))
                fail(SKN_E_INVALID_ARGUMENT,
                     "prefer {} {}: the value is FORMAT/rm or FORMAT/ibm, FORMAT being {} or its row-interleaved "
                     "twin",
                     subject, value, f->name);
            // Spelled as skn names the formats, which is what the lookup compares.
            *subject_text = std::string(f->name) + ":" + regime;
            *value_text = std::string(to->name) + "/" + order;
            return;
        }
    }
}

namespace {

const char* stream_env() {
    const char* v = std::getenv("SKN_STREAM");
    return v != nullptr && *v != 0 ? v : nullptr;
}

}  // namespace

bool stream_env_valid(const char** bad) {
    const char* env = stream_env();
    if (env == nullptr || std::strcmp(env, "auto") == 0 || std::strcmp(env, "near") == 0 ||
        std::strcmp(env, "far") == 0)
        return true;
    *bad = env;
    return false;
}

namespace {

// A tuning file is a few hundred bytes; anything past this is no tuning file.
constexpr off_t kMaxTuningFileBytes = 1 << 20;

// The text of the tuning file at `path`, or false with the reason in *why
// (*missing when there is no such file). Only a regular file is read:
// opened non-blocking and checked on the open descriptor, since a FIFO would
// block the first skn_context_create for ever and /dev/zero fill the memory.
bool read_tuning_text(const std::string& path, std::string* text, std::string* why, bool* missing) {
    *missing = false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        *missing = errno == ENOENT || errno == ENOTDIR;
        *why = fmt::format("cannot open {}: {}", path, std::strerror(errno));
        return false;
    }
    struct stat st {};
    bool ok = false;
    if (::fstat(fd, &st) != 0) {
        *why = fmt::format("cannot stat {}: {}", path, std::strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        *why = fmt::format("{} is not a regular file (a directory, FIFO or device)", path);
    } else if (st.st_size > kMaxTuningFileBytes) {
        *why = fmt::format("{} is {} bytes, more than a tuning file's {} (skn tune writes a few hundred)", path,
                           int64_t(st.st_size), int64_t(kMaxTuningFileBytes));
    } else {
        text->resize(size_t(st.st_size));
        size_t done = 0;
        ok = true;
        while (done < text->size()) {
            const ssize_t n = ::read(fd, text->data() + done, text->size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;  // it shrank while being read: parse what was there
            done += size_t(n);
        }
        text->resize(done);
    }
    ::close(fd);
    return ok;
}

}  // namespace

Tuning Tuning::for_process(const CpuFeatures& cpu) {
    std::vector<TuningRow> rows = builtin_tuning_rows();
    std::string file, note;
    const std::string path = tuning_file_path();
    const bool named = std::getenv("SKN_TUNING_FILE") != nullptr && *std::getenv("SKN_TUNING_FILE") != 0;
    std::string text, why;
    bool missing = false;
    if (path.empty()) {
        note = "no tuning file: neither SKN_TUNING_FILE, XDG_CONFIG_HOME nor HOME is set; the built-in table decides";
    } else if (!read_tuning_text(path, &text, &why, &missing)) {
        if (missing && !named) {
            note = fmt::format("no tuning file at {} (skn tune writes one); the built-in table decides", path);
        } else {
            note = fmt::format("{}{}; the built-in table decides", named ? "SKN_TUNING_FILE: " : "", why);
            log_warn("tuning: {}", note);
        }
    } else {
        try {
            std::vector<TuningRow> from_file = parse_tuning_file(text, path, cpu, &why);
            if (!why.empty()) {
                note = why + "; the built-in table decides";
                log_warn("tuning: {}", note);
            } else {
                // Pinned to this exact core (the cpu line said it is this one).
                for (TuningRow& r : from_file) {
                    r.core = CoreMatch{intern(cpu.vendor), cpu.family, cpu.model, cpu.model};
                    rows.push_back(std::move(r));
                }
                file = path;
                log_info("tuning: read {} ({} rows)", path, from_file.size());
            }
        } catch (const Error& e) {
            note = fmt::format("{} ignored: {}; the built-in table decides", path, e.what());
            log_warn("tuning: {}", note);
        }
    }
    Tuning t(std::move(rows), cpu);
    t.file_ = file;
    t.file_note_ = note;
    if (const char* env = stream_env(); env != nullptr && (std::strcmp(env, "near") == 0 || std::strcmp(env, "far") == 0)) {
        t.set(TuningChoice::Variant, "matmul_wt_*_ibm_*", std::strcmp(env, "far") == 0 ? "far" : "",
              fmt::format("SKN_STREAM={}", env));
        t.rows_.back().evidence = "the SKN_STREAM environment variable (a benchmark knob)";
        t.cores_.back() = "this process";
    }
    return t;
}

const Tuning& Tuning::process() {
    static const Tuning t = for_process(cpu_features());
    return t;
}

}  // namespace skn_core
