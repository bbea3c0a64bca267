// SPDX-License-Identifier: MIT
// The tuning table (dispatch/tuning.hpp, docs/kernels.md "The tuning
// table"): how a row is matched to a core and a tier, which row wins, how a
// tuning file is read and refused, and which values a choice takes. The CPU
// is a made-up one here, so the tests mean the same on every machine; the
// process's own tuning (and any file its user has) is never consulted.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "dispatch/context.hpp"
#include "dispatch/tuning.hpp"
#include "runtime/cpu.hpp"
#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace skn_core {
namespace {

// A Zen 4 core: AuthenticAMD, family 0x19, model 0x11.
CpuFeatures zen4() {
    CpuFeatures c;
    c.vendor = "AuthenticAMD";
    c.family = 0x19;
    c.model = 0x11;
    return c;
}

TuningRow row(CoreMatch core, const char* tier, TuningChoice choice, const char* subject, const char* value,
              const char* source = "built-in") {
    TuningRow r;
    r.core = core;
    r.tier = tier;
    r.choice = choice;
    r.subject = subject;
    r.value = value;
    r.evidence = "test";
    r.source = source;
    return r;
}

// Sets (or unsets, with nullptr) an environment variable for one scope.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value != nullptr)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_)
            setenv(name_, old_->c_str(), 1);
        else
            unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

// A file in a fresh temporary directory, removed with it.
class TempDir {
public:
    TempDir() {
        char templ[] = "/tmp/skn-tuning-test-XXXXXX";
        const char* made = mkdtemp(templ);
        if (made == nullptr) throw std::runtime_error("mkdtemp failed");
        path_ = made;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name, const std::string& text) const {
        const std::string p = path_ + "/" + name;
        std::ofstream(p) << text;
        return p;
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// The process's tuning for `cpu` with only the file named and no SKN_STREAM.
Tuning tuning_with_file(const CpuFeatures& cpu, const char* file) {
    const ScopedEnv f("SKN_TUNING_FILE", file);
    const ScopedEnv s("SKN_STREAM", nullptr);
    return Tuning::for_process(cpu);
}

std::string value_or_none(const std::string* v) { return v == nullptr ? "(none)" : *v; }

TEST(TuningGlob, StarMatchesAnyRunAndEverythingElseItself) {
    EXPECT_TRUE(glob_match("", ""));
    EXPECT_FALSE(glob_match("", "a"));
    EXPECT_TRUE(glob_match("*", ""));
    EXPECT_TRUE(glob_match("*", "matmul_wt_q4_0_rm_q8_0_avx2"));
    EXPECT_TRUE(glob_match("a**b", "ab"));
    EXPECT_TRUE(glob_match("a*c", "abc"));
    EXPECT_FALSE(glob_match("a*c", "abcd"));
    EXPECT_FALSE(glob_match("abc", "ab"));
    EXPECT_FALSE(glob_match("ab", "abc"));
    EXPECT_TRUE(glob_match("a*b*c", "aXbYbZc"));
    EXPECT_TRUE(glob_match("*ab*ab", "xabyabab"));  // needs the backtrack to the later "ab"
    EXPECT_FALSE(glob_match("*ab*ab", "xabyab_"));
    EXPECT_TRUE(glob_match("matmul_wt_*_ibm_*_avx512vnni", "matmul_wt_q4_0_ibm_q8_0_avx512vnni"));
    EXPECT_FALSE(glob_match("matmul_wt_*_ibm_*_avx512vnni", "matmul_wt_q4_0_rm_q8_0_avx512vnni"));
    EXPECT_FALSE(glob_match("matmul_wt_*_ibm_*_avx512vnni", "matmul_wt_q4_0_ibm_q8_0_avx512"));
    EXPECT_TRUE(glob_match("matmul_wt_q8_0_rm_q8_0_avx512*", "matmul_wt_q8_0_rm_q8_0_avx512vnni"));
    EXPECT_TRUE(glob_match("matmul_wt_q8_0_rm_q8_0_avx512*", "matmul_wt_q8_0_rm_q8_0_avx512"));
    EXPECT_FALSE(glob_match("matmul_wt_q8_0_rm_q8_0_avx512*", "matmul_wt_q8_0_rm_q8_0_avx2"));
    // '?' and '[' are no wildcards here: a kernel name never holds them.
    EXPECT_FALSE(glob_match("q?_0", "q4_0"));
    EXPECT_TRUE(glob_match("q?_0", "q?_0"));
}

TEST(TuningCoreMatch, EachPinnedFieldScoresAndAMismatchRefuses) {
    const CpuFeatures cpu = zen4();
    EXPECT_EQ(core_match_score(CoreMatch{}, cpu), 0);
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD"}, cpu), 1);
    EXPECT_EQ(core_match_score(CoreMatch{nullptr, 0x19}, cpu), 2);
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD", 0x19}, cpu), 3);
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD", 0x19, 0x10, 0x1f}, cpu), 7);
    // The model range is inclusive at both ends.
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD", 0x19, 0x11, 0x11}, cpu), 7);
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD", 0x19, 0x00, 0x11}, cpu), 7);
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD", 0x19, 0x12, 0x2f}, cpu), -1);
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD", 0x19, 0x00, 0x10}, cpu), -1);
    EXPECT_EQ(core_match_score(CoreMatch{"GenuineIntel"}, cpu), -1);
    EXPECT_EQ(core_match_score(CoreMatch{"AuthenticAMD", 0x1a}, cpu), -1);
    EXPECT_EQ(core_match_score(CoreMatch{nullptr, 0x1a}, cpu), -1);
}

TEST(TuningPrecedence, RowsForOtherCoresAreDropped) {
    const Tuning t({row({"GenuineIntel"}, "*", TuningChoice::Variant, "k", "intel"),
                    row({"AuthenticAMD", 0x1a}, "*", TuningChoice::Variant, "k", "zen5"),
                    row({"AuthenticAMD"}, "*", TuningChoice::Variant, "k", "amd")},
                   zen4());
    ASSERT_EQ(t.rows().size(), 1u);
    EXPECT_EQ(t.rows()[0].value, "amd");
    EXPECT_STREQ(t.cores_text(0), "AuthenticAMD");
    EXPECT_EQ(value_or_none(t.variant("k", "avx2")), "amd");
}

TEST(TuningPrecedence, AMoreSpecificCoreBeatsALessSpecificOneInEitherOrder) {
    std::vector<TuningRow> rows = {row({}, "*", TuningChoice::Variant, "k", "any"),
                                   row({"AuthenticAMD"}, "*", TuningChoice::Variant, "k", "vendor"),
                                   row({"AuthenticAMD", 0x19}, "*", TuningChoice::Variant, "k", "family"),
                                   row({"AuthenticAMD", 0x19, 0x10, 0x1f}, "*", TuningChoice::Variant, "k", "model")};
    EXPECT_EQ(value_or_none(Tuning(rows, zen4()).variant("k", "avx2")), "model");
    std::reverse(rows.begin(), rows.end());
    EXPECT_EQ(value_or_none(Tuning(rows, zen4()).variant("k", "avx2")), "model");
    rows.erase(rows.begin());  // without the model row, the family row
    EXPECT_EQ(value_or_none(Tuning(rows, zen4()).variant("k", "avx2")), "family");
    EXPECT_STREQ(Tuning(rows, zen4()).cores_text(0), "AuthenticAMD family 0x19");
}

TEST(TuningPrecedence, ATierSpecificRowBeatsStarAndAppliesToItsTierOnly) {
    for (const bool star_first : {true, false}) {
        std::vector<TuningRow> rows = {row({"AuthenticAMD"}, "*", TuningChoice::Variant, "k", "star"),
                                       row({"AuthenticAMD"}, "avx512vnni", TuningChoice::Variant, "k", "tier")};
        if (!star_first) std::swap(rows[0], rows[1]);
        const Tuning t(rows, zen4());
        EXPECT_EQ(value_or_none(t.variant("k", "avx512vnni")), "tier") << star_first;
        EXPECT_EQ(value_or_none(t.variant("k", "avx2")), "star") << star_first;
    }
    // A more specific core still beats a tier-specific row of a vaguer core.
    const Tuning t({row({"AuthenticAMD", 0x19}, "*", TuningChoice::Variant, "k", "family"),
                    row({"AuthenticAMD"}, "avx512vnni", TuningChoice::Variant, "k", "vendor-tier")},
                   zen4());
    EXPECT_EQ(value_or_none(t.variant("k", "avx512vnni")), "family");
    // No row for the tier and none for "*": nothing (the plain kernel).
    const Tuning only_tier({row({}, "avx2", TuningChoice::Variant, "k", "x")}, zen4());
    EXPECT_EQ(only_tier.variant("k", "avx512"), nullptr);
}

TEST(TuningPrecedence, OfEqualRowsTheMoreLiteralSubjectThenTheLaterRowWins) {
    const char* name = "matmul_wt_q4_0_ibm_q8_0_avx2";
    for (const bool glob_first : {true, false}) {
        std::vector<TuningRow> rows = {row({}, "*", TuningChoice::Variant, "matmul_wt_*", "glob"),
                                       row({}, "*", TuningChoice::Variant, name, "literal")};
        if (!glob_first) std::swap(rows[0], rows[1]);
        EXPECT_EQ(value_or_none(Tuning(rows, zen4()).variant(name, "avx2")), "literal") << glob_first;
    }
    const Tuning same({row({}, "*", TuningChoice::Variant, "k", "first"),
                       row({}, "*", TuningChoice::Variant, "k", "second")},
                      zen4());
    EXPECT_EQ(value_or_none(same.variant("k", "avx2")), "second");
    // A glob that does not match is no candidate at all.
    const Tuning other({row({}, "*", TuningChoice::Variant, "matmul_wt_*_rm_*", "rm")}, zen4());
    EXPECT_EQ(other.variant(name, "avx2"), nullptr);
}

// A row from a tuning file was measured on this very core: it beats every
// built-in row, even one pinning the model and the tier while it names "*".
TEST(TuningPrecedence, AFileRowBeatsEveryBuiltInRow) {
    const CoreMatch exact{"AuthenticAMD", 0x19, 0x11, 0x11};
    const Tuning t({row(exact, "avx512vnni", TuningChoice::Variant, "k", "builtin"),
                    row(exact, "*", TuningChoice::Variant, "k", "", "/home/u/.config/skn/tuning")},
                   zen4());
    ASSERT_NE(t.variant("k", "avx512vnni"), nullptr);
    EXPECT_EQ(*t.variant("k", "avx512vnni"), "") << "the file's plain kernel, not the built-in variant";
}

// The same through the real built-in table and a real file: Zen 4's built-in
// row streams INPUT_BLOCK_MAJOR kernels "far" at avx512vnni; a file for this
// core sets one kernel back to the plain one and leaves the others.
TEST(TuningPrecedence, AFileOverridesTheBuiltInTableForItsKernelsOnly) {
    const char* q4 = "matmul_wt_q4_0_ibm_q8_0_avx512vnni";
    const char* iq4 = "matmul_wt_iq4_nl_ibm_q8_0_avx512vnni";
    TempDir dir;
    const Tuning builtin = tuning_with_file(zen4(), (dir.path() + "/absent").c_str());
    ASSERT_EQ(value_or_none(builtin.variant(q4, "avx512vnni")), "far") << "tuning_table.inc's Zen 4 row";
    const std::string path = dir.file("tuning",
                                      "# written by hand\n"
                                      "cpu AuthenticAMD 0x19 17\n"
                                      "variant avx512vnni matmul_wt_q4_0_ibm_q8_0_avx512vnni - # measured here\n");
    const Tuning t = tuning_with_file(zen4(), path.c_str());
    EXPECT_EQ(t.file(), path);
    EXPECT_EQ(t.file_note(), "");
    EXPECT_EQ(value_or_none(t.variant(q4, "avx512vnni")), "");
    EXPECT_EQ(value_or_none(t.variant(iq4, "avx512vnni")), "far");
    const TuningRow& from_file = t.rows().back();
    EXPECT_EQ(from_file.source, path);
    EXPECT_EQ(from_file.evidence, "measured here");
    EXPECT_STREQ(t.cores_text(t.rows().size() - 1), "AuthenticAMD family 0x19 model 0x11");
}

TEST(TuningPrecedence, AContextSettingBeatsTheFileAndTheTableAndReplacesItself) {
    const char* q4 = "matmul_wt_q4_0_ibm_q8_0_avx512vnni";
    TempDir dir;
    const std::string path = dir.file("tuning", "cpu AuthenticAMD 0x19 0x11\nvariant avx512vnni " + std::string(q4) +
                                                    " -\n");
    Tuning t = tuning_with_file(zen4(), path.c_str());
    const size_t before = t.rows().size();
    t.set(TuningChoice::Variant, "matmul_wt_*", "ahead", "context");
    EXPECT_EQ(value_or_none(t.variant(q4, "avx512vnni")), "ahead");
    EXPECT_EQ(t.rows().back().source, "context");
    EXPECT_STREQ(t.cores_text(t.rows().size() - 1), "this context");
    // Set again: the row is replaced, not added (skn tune toggles settings).
    t.set(TuningChoice::Variant, "matmul_wt_*", "", "context");
    EXPECT_EQ(t.rows().size(), before + 1);
    EXPECT_EQ(value_or_none(t.variant(q4, "avx512vnni")), "");
    t.set(TuningChoice::Variant, q4, "far", "context");
    EXPECT_EQ(t.rows().size(), before + 2);
    EXPECT_EQ(value_or_none(t.variant(q4, "avx512vnni")), "far") << "of two context rows, the more literal";
}

TEST(TuningPrecedence, SknStreamForcesTheIbmVariantsAsAProcessRow) {
    TempDir dir;
    const ScopedEnv f("SKN_TUNING_FILE", (dir.path() + "/absent").c_str());
    for (const char* mode : {"near", "far"}) {
        const ScopedEnv s("SKN_STREAM", mode);
        const Tuning t = Tuning::for_process(zen4());
        const std::string want = std::string(mode) == "far" ? "far" : "";
        EXPECT_EQ(value_or_none(t.variant("matmul_wt_q4_0_ibm_q8_0_avx512vnni", "avx512vnni")), want) << mode;
        EXPECT_EQ(t.variant("matmul_wt_q8_0_rm_q8_0_avx2", "avx2"), nullptr) << mode;
        EXPECT_EQ(t.rows().back().source, std::string("SKN_STREAM=") + mode);
    }
    const ScopedEnv s("SKN_STREAM", "auto");
    EXPECT_NE(Tuning::for_process(zen4()).rows().back().source.rfind("SKN_STREAM", 0), 0u);
}

TEST(TuningLookups, TasksAndPreferReadTheirRows) {
    const Tuning t({row({}, "avx2", TuningChoice::Tasks, "matmul_wt_q4_0_*", "512"),
                    row({}, "*", TuningChoice::Prefer, "Q4_0:gemv", "Q4_0_R8/rm"),
                    row({}, "*", TuningChoice::Prefer, "Q4_0:gemm", "Q4_0/ibm")},
                   zen4());
    EXPECT_EQ(t.few_rows_per_task("matmul_wt_q4_0_ibm_q8_0_avx2", "avx2"), 512);
    EXPECT_EQ(t.few_rows_per_task("matmul_wt_q4_0_ibm_q8_0_avx512", "avx512"), std::nullopt);
    EXPECT_EQ(value_or_none(t.prefer("Q4_0", "gemv", "avx2")), "Q4_0_R8/rm");
    EXPECT_EQ(value_or_none(t.prefer("Q4_0", "gemm", "avx2")), "Q4_0/ibm");
    EXPECT_EQ(t.prefer("Q8_0", "gemv", "avx2"), nullptr);
    // A prefer subject is literal, not a glob.
    const Tuning g({row({}, "*", TuningChoice::Prefer, "*", "Q4_0/rm")}, zen4());
    EXPECT_EQ(g.prefer("Q4_0", "gemv", "avx2"), nullptr);
}

const char* const kCpuLine = "cpu AuthenticAMD 0x19 0x11\n";

TEST(TuningFile, ReadsEveryKindOfLine) {
    std::string why;
    const std::vector<TuningRow> rows = parse_tuning_file(
        "# skn tune, 2026-12-05\n"
        "\n"
        "cpu AuthenticAMD 25 0x11   # decimal and hex both\n"
        "variant avx512vnni matmul_wt_q4_0_ibm_q8_0_avx512vnni far # n=1: 1.0 vs 0.9 ms\n"
        "variant * matmul_wt_*_rm_* -\n"
        "variant avx2 matmul_wt_q8_0_rm_q8_0_avx2\n"
        "tasks avx512 matmul_wt_q4_k_* 1024\n"
        "prefer avx512vnni q4_0:gemv q4_0_r8/rm #  evidence\n",
        "/f", zen4(), &why);
    EXPECT_EQ(why, "");
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].choice, TuningChoice::Variant);
    EXPECT_STREQ(rows[0].tier, "avx512vnni");
    EXPECT_EQ(rows[0].subject, "matmul_wt_q4_0_ibm_q8_0_avx512vnni");
    EXPECT_EQ(rows[0].value, "far");
    EXPECT_EQ(rows[0].evidence, "n=1: 1.0 vs 0.9 ms");
    EXPECT_EQ(rows[0].source, "/f");
    EXPECT_EQ(rows[1].value, "") << "\"-\" is the plain kernel";
    EXPECT_STREQ(rows[1].tier, "*");
    EXPECT_EQ(rows[2].value, "") << "a variant line without a value is the plain kernel";
    EXPECT_EQ(rows[3].choice, TuningChoice::Tasks);
    EXPECT_EQ(rows[3].value, "1024");
    EXPECT_EQ(rows[4].choice, TuningChoice::Prefer);
    EXPECT_EQ(rows[4].subject, "Q4_0:gemv") << "format names as skn spells them: the lookup compares literally";
    EXPECT_EQ(rows[4].value, "Q4_0_R8/rm");
    EXPECT_EQ(rows[4].evidence, "evidence");
}

struct BadFile {
    std::string text;
    const char* where;  // "/f:<line>:", or "/f:" for the whole file
    const char* says;
};

TEST(TuningFile, EveryMalformedLineIsRefusedWithItsLineNumber) {
    const std::string cpu = kCpuLine;
    const std::vector<BadFile> cases = {
        {"", "/f:", "no cpu line"},
        {"# only a comment\n\n", "/f:", "no cpu line"},
        {"variant * k far\n" + cpu, "/f:1:", "the cpu line must come first"},
        {"cpu AuthenticAMD 0x19\n", "/f:1:", "cpu VENDOR FAMILY MODEL"},
        {"cpu AuthenticAMD 0x19 0x11 0x12\n", "/f:1:", "cpu VENDOR FAMILY MODEL"},
        {"cpu AuthenticAMD zen 0x11\n", "/f:1:", "\"zen\" is not a number"},
        {"cpu AuthenticAMD 0x19 -3\n", "/f:1:", "\"-3\" is not a number"},
        {cpu + "cpu AuthenticAMD 0x19 0x11\n", "/f:2:", "a second cpu line"},
        {cpu + "\n# x\nspeed * k 1\n", "/f:4:", "\"speed\" is no tuning line"},
        {cpu + "variant\n", "/f:2:", "a variant line is \"variant TIER SUBJECT VALUE\""},
        {cpu + "variant *\n", "/f:2:", "TIER SUBJECT VALUE"},
        {cpu + "variant * k far more\n", "/f:2:", "TIER SUBJECT VALUE"},
        {cpu + "variant avx9000 k far\n", "/f:2:", "tier \"avx9000\" is not * or one of scalar"},
        {cpu + "variant * k Far\n", "/f:2:", "a lower-case word"},
        {cpu + "variant * k far-away\n", "/f:2:", "a lower-case word"},
        {cpu + "tasks * k\n", "/f:2:", "TIER SUBJECT VALUE"},
        {cpu + "tasks * k 0\n", "/f:2:", "a row count from 1"},
        {cpu + "tasks * k 12rows\n", "/f:2:", "a row count from 1"},
        {cpu + "tasks * k 99999999\n", "/f:2:", "a row count from 1"},
        {cpu + "prefer * Q4_0:gemv\n", "/f:2:", "TIER SUBJECT VALUE"},
        {cpu + "prefer * Q4_0:fast Q4_0/rm\n", "/f:2:", "FORMAT:gemv (n = 1) or FORMAT:gemm"},
        {cpu + "prefer * Q9_9:gemv Q4_0/rm\n", "/f:2:", "FORMAT:gemv (n = 1) or FORMAT:gemm"},
        {cpu + "prefer * Q4_0_R8:gemv Q4_0/rm\n", "/f:2:", "name the canonical format (Q4_0:gemv)"},
        {cpu + "prefer * Q4_0:gemv Q8_0/rm\n", "/f:2:", "FORMAT being Q4_0 or its row-interleaved twin"},
        {cpu + "prefer * Q4_0:gemv Q4_0_R8/cm\n", "/f:2:", "FORMAT/rm or FORMAT/ibm"},
        {cpu + "prefer * Q4_0:gemv Q4_0_R8\n", "/f:2:", "FORMAT/rm or FORMAT/ibm"},
    };
    for (const BadFile& bad : cases) {
        std::string why;
        try {
            parse_tuning_file(bad.text, "/f", zen4(), &why);
            ADD_FAILURE() << "accepted:\n" << bad.text;
        } catch (const Error& e) {
            const std::string msg = e.what();
            EXPECT_EQ(e.status(), SKN_E_FORMAT) << msg;
            EXPECT_EQ(msg.rfind(bad.where, 0), 0u) << "\"" << msg << "\" does not start with " << bad.where;
            EXPECT_NE(msg.find(bad.says), std::string::npos) << msg << "\n  lacks: " << bad.says;
        }
    }
}

TEST(TuningFile, AFileForAnotherCpuIsIgnoredWithTheReason) {
    for (const char* cpu : {"cpu GenuineIntel 0x6 0x8f", "cpu AuthenticAMD 0x1a 0x11", "cpu AuthenticAMD 0x19 0x61"}) {
        std::string why;
        // Lines after another CPU's cpu line are not even read: they may use
        // words of a later version.
        const auto rows = parse_tuning_file(std::string(cpu) + "\nvariant * k far\nnewchoice * k 1\n", "/f", zen4(), &why);
        EXPECT_TRUE(rows.empty()) << cpu;
        EXPECT_NE(why.find("/f describes CPU"), std::string::npos) << why;
        EXPECT_NE(why.find(std::string(cpu).substr(4)), std::string::npos) << why;
        EXPECT_NE(why.find("not this one (AuthenticAMD 0x19 0x11)"), std::string::npos) << why;
        EXPECT_NE(why.find("run skn tune"), std::string::npos) << why;
    }
}

// A CPU whose vendor cannot be read (aarch64 under qemu-user, whose
// /proc/cpuinfo is the host's): skn_cpu_id says "unknown 0x0 0x0", skn tune
// writes that cpu line, and the library reads the file back; a known CPU's
// file does not apply there, nor the unknown CPU's file on a known one.
TEST(TuningFile, AnUnreadableCpuReadsTheFileItsIdDescribes) {
    CpuFeatures unknown;
    unknown.vendor.clear();
    unknown.family = 0;
    unknown.model = 0;
    std::string why;
    const auto rows = parse_tuning_file("cpu unknown 0x0 0x0\nvariant * k far\n", "/f", unknown, &why);
    EXPECT_TRUE(why.empty()) << why;
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].value, "far");
    EXPECT_TRUE(parse_tuning_file("cpu AuthenticAMD 0x0 0x0\nvariant * k far\n", "/f", unknown, &why).empty());
    EXPECT_NE(why.find("not this one (unknown 0x0 0x0)"), std::string::npos) << why;
    why.clear();
    EXPECT_TRUE(parse_tuning_file("cpu unknown 0x19 0x11\nvariant * k far\n", "/f", zen4(), &why).empty());
    EXPECT_NE(why.find("describes CPU unknown"), std::string::npos) << why;
}

struct CapturedLog {
    std::vector<std::string> lines;
    static void fn(skn_log_level, const char* msg, void* user) { static_cast<CapturedLog*>(user)->lines.push_back(msg); }
};

// for_process: which file is in force, and why none is, said in file_note()
// and (where the user asked for a file, or one is there but unusable) in a
// log line.
TEST(TuningFile, ForProcessSaysWhyNoFileIsInForce) {
    TempDir dir;
    CapturedLog log;
    ASSERT_TRUE(set_log_callback(SKN_LOG_WARN, &CapturedLog::fn, &log));
    struct Case {
        std::string file;
        const char* note;  // what file_note() and the one log line say
    };
    mkdir((dir.path() + "/a-directory").c_str(), 0700);
    const std::string fifo = dir.path() + "/fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const std::vector<Case> cases = {
        {dir.file("other", "cpu GenuineIntel 0x6 0x8f\nvariant * k far\n"), "describes CPU GenuineIntel"},
        {dir.file("broken", std::string(kCpuLine) + "variant * k FAR\n"), "broken ignored: "},
        {dir.path() + "/absent", "SKN_TUNING_FILE: cannot open"},
        {dir.path() + "/a-directory", "is not a regular file"},
        {fifo, "is not a regular file"},  // never blocks on a FIFO without a writer
        {"/dev/zero", "is not a regular file"},
        {dir.file("big", std::string(kCpuLine) + std::string(2 << 20, '#')), "more than a tuning file's"},
    };
    for (const Case& c : cases) {
        log.lines.clear();
        const Tuning t = tuning_with_file(zen4(), c.file.c_str());
        EXPECT_EQ(t.file(), "") << c.file;
        EXPECT_NE(t.file_note().find(c.note), std::string::npos) << c.file << ": " << t.file_note();
        EXPECT_NE(t.file_note().find("the built-in table decides"), std::string::npos) << t.file_note();
        ASSERT_EQ(log.lines.size(), 1u) << c.file;
        EXPECT_NE(log.lines[0].find(c.note), std::string::npos) << log.lines[0];
        // The built-in rows still apply.
        EXPECT_EQ(value_or_none(t.variant("matmul_wt_q4_0_ibm_q8_0_avx512vnni", "avx512vnni")), "far");
    }
    // No file at the per-user path is the usual case: a note, no log line.
    {
        log.lines.clear();
        const ScopedEnv f("SKN_TUNING_FILE", nullptr);
        const ScopedEnv x("XDG_CONFIG_HOME", dir.path().c_str());
        const ScopedEnv s("SKN_STREAM", nullptr);
        const Tuning t = Tuning::for_process(zen4());
        EXPECT_EQ(t.file(), "");
        EXPECT_EQ(t.file_note(), "no tuning file at " + dir.path() + "/skn/tuning (skn tune writes one); the built-in "
                                 "table decides");
        EXPECT_TRUE(log.lines.empty());
    }
    set_log_callback(SKN_LOG_WARN, nullptr, nullptr);
}

TEST(TuningFile, PathIsTheVariableThenXdgThenHome) {
    const ScopedEnv f("SKN_TUNING_FILE", "/x/tuning");
    const ScopedEnv x("XDG_CONFIG_HOME", "/xdg");
    const ScopedEnv h("HOME", "/home/u");
    EXPECT_EQ(tuning_file_path(), "/x/tuning");
    {
        const ScopedEnv empty("SKN_TUNING_FILE", "");
        EXPECT_EQ(tuning_file_path(), "/xdg/skn/tuning");
        const ScopedEnv no_xdg("XDG_CONFIG_HOME", nullptr);
        EXPECT_EQ(tuning_file_path(), "/home/u/.config/skn/tuning");
        const ScopedEnv no_home("HOME", nullptr);
        EXPECT_EQ(tuning_file_path(), "");
    }
}

// What skn_context_set_tuning refuses: an unknown choice, an empty subject,
// a value that cannot be one of the choice's (the message says the form).
TEST(TuningValues, ContextSetTuningRefusesWithTheForm) {
    Context ctx;
    const size_t before = ctx.tuning().rows().size();
    struct Bad {
        const char *choice, *subject, *value, *says;
    };
    const Bad cases[] = {
        {"speed", "k", "1", "is not variant, tasks or prefer"},
        {"variant", "", "far", "needs a subject"},
        {"variant", "k", "FAR", "a lower-case word"},
        {"variant", "k", "far away", "a lower-case word"},
        {"tasks", "k", "", "a row count from 1"},
        {"tasks", "k", "-4", "a row count from 1"},
        {"tasks", "k", "1048577", "a row count from 1 to 1048576"},
        {"prefer", "Q4_0", "Q4_0/rm", "FORMAT:gemv"},
        {"prefer", "F99:gemv", "Q4_0/rm", "FORMAT:gemv"},
        {"prefer", "Q8_0_R8:gemm", "Q8_0/rm", "name the canonical format (Q8_0:gemm)"},
        {"prefer", "Q4_0:gemv", "Q4_K_R4/rm", "FORMAT being Q4_0 or its row-interleaved twin"},
        {"prefer", "Q4_0:gemv", "Q4_0_R8/", "FORMAT/rm or FORMAT/ibm"},
        {"prefer", "Q4_0:gemv", "/rm", "FORMAT/rm or FORMAT/ibm"},
    };
    for (const Bad& b : cases) {
        try {
            ctx.set_tuning(b.choice, b.subject, b.value);
            ADD_FAILURE() << "accepted " << b.choice << " " << b.subject << " " << b.value;
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT) << e.what();
            EXPECT_NE(std::string(e.what()).find(b.says), std::string::npos) << e.what() << "\n  lacks: " << b.says;
        }
    }
    EXPECT_EQ(ctx.tuning().rows().size(), before) << "a refused setting adds no row";
    ctx.set_tuning("variant", "matmul_wt_*", "");
    ctx.set_tuning("tasks", "matmul_wt_q4_0_*", "1024");
    ctx.set_tuning("prefer", "q4_0:gemv", "q4_0_r8/ibm");
    ASSERT_EQ(ctx.tuning().rows().size(), before + 3);
    EXPECT_EQ(ctx.tuning().rows().back().subject, "Q4_0:gemv");
    EXPECT_EQ(ctx.tuning().rows().back().value, "Q4_0_R8/ibm");
    EXPECT_EQ(value_or_none(ctx.tuning().prefer("Q4_0", "gemv", "avx2")), "Q4_0_R8/ibm");
}

TEST(TuningValues, ChoiceNamesRoundTrip) {
    for (TuningChoice c : {TuningChoice::Variant, TuningChoice::Tasks, TuningChoice::Prefer})
        EXPECT_EQ(parse_tuning_choice(tuning_choice_name(c)), c);
    EXPECT_EQ(parse_tuning_choice("Variant"), std::nullopt);
    EXPECT_EQ(parse_tuning_choice(""), std::nullopt);
}

// Every built-in row is well-formed: a known tier, a value its choice takes,
// and the run that measured it.
TEST(TuningTable, EveryBuiltInRowIsWellFormedAndNamesItsEvidence) {
    ASSERT_FALSE(builtin_tuning_rows().empty());
    for (const TuningRow& r : builtin_tuning_rows()) {
        skn_isa isa;
        EXPECT_TRUE(std::string(r.tier) == "*" || parse_isa(r.tier, &isa)) << r.subject << ": tier " << r.tier;
        std::string subject = r.subject, value = r.value;
        EXPECT_NO_THROW(check_tuning_value(r.choice, &subject, &value)) << r.subject << " " << r.value;
        EXPECT_EQ(subject, r.subject) << "spell format names as skn does";
        EXPECT_EQ(value, r.value);
        EXPECT_GT(r.evidence.size(), 20u) << r.subject << ": a row names the run that measured it";
        EXPECT_EQ(r.source, "built-in");
        if (r.core.model_lo >= 0) {
            EXPECT_LE(r.core.model_lo, r.core.model_hi) << r.subject;
        }
    }
}

}  // namespace
}  // namespace skn_core
