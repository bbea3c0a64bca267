/* SPDX-License-Identifier: MIT */
/* Roofline probes. The int8/f32 loops use target attributes and run only
 * after a CPUID check, so the tool still runs on any x86-64 CPU. */
#define _GNU_SOURCE
#include "roofline.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

double roofline_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

size_t roofline_llc_bytes(void) {
    FILE* f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    size_t kb = 0;
    if (f != NULL) {
        if (fscanf(f, "%zuK", &kb) != 1) kb = 0;
        fclose(f);
    }
    return kb ? kb * 1024 : (size_t)32 << 20;
}

static int cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static double median(double* v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- threads: run fn(arg_i) on `threads` threads and return the wall time */

typedef void (*work_fn)(void* arg);
struct thread_job {
    work_fn fn;
    void* arg;
    pthread_barrier_t* start;
};

static void* thread_main(void* p) {
    struct thread_job* j = (struct thread_job*)p;
    pthread_barrier_wait(j->start);
    j->fn(j->arg);
    return NULL;
}

static double run_threads(int threads, work_fn fn, void** args) {
    pthread_t tid[64];
    struct thread_job jobs[64];
    pthread_barrier_t start;
    if (threads > 64) threads = 64;
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (int t = 1; t < threads; ++t) {
        jobs[t].fn = fn;
        jobs[t].arg = args[t];
        jobs[t].start = &start;
        pthread_create(&tid[t], NULL, thread_main, &jobs[t]);
    }
    pthread_barrier_wait(&start);
    const double t0 = roofline_now();
    fn(args[0]);
    for (int t = 1; t < threads; ++t) pthread_join(tid[t], NULL);
    const double t1 = roofline_now();
    pthread_barrier_destroy(&start);
    return t1 - t0;
}

/* ---- read bandwidth */

struct read_arg {
    const uint64_t* p;
    size_t n;
    uint64_t sink;
};

static void read_work(void* a) {
    struct read_arg* r = (struct read_arg*)a;
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    for (size_t i = 0; i + 8 <= r->n; i += 8) {
        s0 += r->p[i];
        s1 += r->p[i + 1];
        s2 += r->p[i + 2];
        s3 += r->p[i + 3];
        s4 += r->p[i + 4];
        s5 += r->p[i + 5];
        s6 += r->p[i + 6];
        s7 += r->p[i + 7];
    }
    r->sink = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

/* One core streams faster than a single sequential scan shows: the scan
 * leans on the hardware prefetcher for one stream, while a GEMV kernel reads
 * several rows or block columns at once and prefetches ahead. This variant
 * reads four streams per thread (the thread's quarters) with 16-byte loads
 * and software prefetch 2 KiB ahead, which keeps more misses in flight. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));
enum { kStreams = 4, kPrefetchAhead = 2048 };

static void read_streams_work(void* a) {
    struct read_arg* r = (struct read_arg*)a;
    const size_t quarter = r->n / kStreams / 8 * 8; /* words per stream, whole cache lines */
    u64x2 acc[kStreams] = {{0, 0}};
    for (size_t i = 0; i < quarter; i += 8)
        for (int s = 0; s < kStreams; ++s) {
            const uint64_t* line = r->p + (size_t)s * quarter + i;
            __builtin_prefetch((const char*)line + kPrefetchAhead);
            u64x2 v0, v1, v2, v3;
            memcpy(&v0, line, 16);
            memcpy(&v1, line + 2, 16);
            memcpy(&v2, line + 4, 16);
            memcpy(&v3, line + 6, 16);
            acc[s] += (v0 ^ v1) + (v2 ^ v3);
        }
    uint64_t sink = 0;
    for (int s = 0; s < kStreams; ++s) sink += acc[s][0] + acc[s][1];
    r->sink = sink;
}

/* The median GB/s of `fn` reading each thread's `per` words. */
static double read_median(work_fn fn, void** argp, size_t bytes_read, int threads, int reps) {
    double gbps[64];
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; ++r) gbps[r] = (double)bytes_read / run_threads(threads, fn, argp) / 1e9;
    return median(gbps, reps);
}

double roofline_read_gbps(size_t bytes, int threads, int reps) {
    uint64_t* buf = aligned_alloc(64, bytes);
    if (buf == NULL) return 0.0;
    memset(buf, 1, bytes);
    struct read_arg args[64];
    void* argp[64];
    if (threads > 64) threads = 64;
    const size_t words = bytes / 8, per = words / (size_t)threads / (8 * kStreams) * (8 * kStreams);
    for (int t = 0; t < threads; ++t) {
        args[t].p = buf + (size_t)t * per;
        args[t].n = per;
        argp[t] = &args[t];
    }
    /* The bound is what the better of the two access patterns reaches. */
    const double scan = read_median(read_work, argp, per * (size_t)threads * 8, threads, reps);
    const double streams = read_median(read_streams_work, argp, per * (size_t)threads * 8, threads, reps);
    free(buf);
    return scan > streams ? scan : streams;
}

/* ---- compute peaks */

enum { kPeakIters = 20000000 };

#if defined(__x86_64__)
/* Runs STEP on ten chains of accumulators of vector type V, each started
 * by INIT(k), then folds them with ADD into a vector named `t`. Ten chains
 * in named variables cover the instruction's latency at full throughput
 * (arrays make GCC shuffle copies). Each chain starts from a different
 * value: identical chains would be merged into one by the compiler, and the
 * probe would time one dependent chain while counting ten. */
#define SKN_TEN_CHAINS(V, INIT, STEP, ADD, ZERO)                                                              \
    V c0 = INIT(0), c1 = INIT(1), c2 = INIT(2), c3 = INIT(3), c4 = INIT(4), c5 = INIT(5), c6 = INIT(6),      \
      c7 = INIT(7), c8 = INIT(8), c9 = INIT(9);                                                                \
    for (int i = 0; i < kPeakIters / 10; ++i) {                                                               \
        c0 = STEP(c0); c1 = STEP(c1); c2 = STEP(c2); c3 = STEP(c3); c4 = STEP(c4);                             \
        c5 = STEP(c5); c6 = STEP(c6); c7 = STEP(c7); c8 = STEP(c8); c9 = STEP(c9);                             \
        __asm__ volatile("" ::: "memory");                                                                    \
    }                                                                                                         \
    V t = ZERO;                                                                                               \
    t = ADD(t, c0); t = ADD(t, c1); t = ADD(t, c2); t = ADD(t, c3); t = ADD(t, c4);                           \
    t = ADD(t, c5); t = ADD(t, c6); t = ADD(t, c7); t = ADD(t, c8); t = ADD(t, c9);

#define SKN_INIT_I32(k) _mm512_set1_epi32(k)
#define SKN_INIT_F32(k) _mm512_set1_ps((float)(k))

__attribute__((target("avx512f,avx512bw,avx512vnni"))) static void vnni512_work(void* a) {
    const __m512i u = _mm512_set1_epi8(3), s = _mm512_set1_epi8(-2);
#define STEP(acc) _mm512_dpbusd_epi32(acc, u, s)
    SKN_TEN_CHAINS(__m512i, SKN_INIT_I32, STEP, _mm512_add_epi32, _mm512_setzero_si512())
#undef STEP
    /* The lanes' sums wrap by design (the probe only needs a live result);
     * _mm512_reduce_add_epi32 adds them as signed int, which UBSan rejects. */
    unsigned lanes[16], sum = 0;
    _mm512_storeu_si512((void*)lanes, t);
    for (int i = 0; i < 16; ++i) sum += lanes[i];
    *(unsigned*)a = sum;
}

/* vdpbf16ps: 16 lanes, each two bf16 products added to an f32 (64 flops). */
__attribute__((target("avx512f,avx512bf16"))) static void bf16_512_work(void* a) {
    const __m512bh x = (__m512bh)_mm512_set1_epi16(0x3f80), y = (__m512bh)_mm512_set1_epi16(0x3f00);
#define STEP(acc) _mm512_dpbf16_ps(acc, x, y)
    SKN_TEN_CHAINS(__m512, SKN_INIT_F32, STEP, _mm512_add_ps, _mm512_setzero_ps())
#undef STEP
    *(float*)a = _mm512_reduce_add_ps(t);
}

__attribute__((target("avx512f"))) static void fma512_work(void* a) {
    const __m512 x = _mm512_set1_ps(1.0000001f), y = _mm512_set1_ps(0.9999999f);
#define STEP(acc) _mm512_fmadd_ps(acc, x, y)
    SKN_TEN_CHAINS(__m512, SKN_INIT_F32, STEP, _mm512_add_ps, _mm512_setzero_ps())
#undef STEP
    *(float*)a = _mm512_reduce_add_ps(t);
}

/* Six chains, each with its own byte operand made opaque every iteration:
 * otherwise the loop-invariant vpmaddubsw/vpmaddwd would be hoisted and the
 * probe would time vpaddd alone. */
__attribute__((target("avx2"))) static void avx2_int8_work(void* a) {
    const __m256i s = _mm256_set1_epi8(-2), ones = _mm256_set1_epi16(1);
#define SKN_SIX(X) X(0) X(1) X(2) X(3) X(4) X(5)
#define DECL(k) __m256i u##k = _mm256_set1_epi8(3 + k), acc##k = _mm256_setzero_si256();
#define STEP(k) __asm__("" : "+x"(u##k)); acc##k = _mm256_add_epi32(acc##k, _mm256_madd_epi16(_mm256_maddubs_epi16(u##k, s), ones));
#define SUM(k) t = _mm256_add_epi32(t, acc##k);
    SKN_SIX(DECL)
    for (int i = 0; i < kPeakIters / 6; ++i) {
        SKN_SIX(STEP)
    }
    __m256i t = _mm256_setzero_si256();
    SKN_SIX(SUM)
#undef DECL
#undef STEP
#undef SUM
    *(int*)a = _mm256_extract_epi32(t, 0);
}

__attribute__((target("avx2,fma"))) static void fma256_work(void* a) {
    __m256 acc[12];
    const __m256 x = _mm256_set1_ps(1.0000001f), y = _mm256_set1_ps(0.9999999f);
    for (int k = 0; k < 12; ++k) acc[k] = _mm256_set1_ps((float)k);
    for (int i = 0; i < kPeakIters / 12; ++i)
        for (int k = 0; k < 12; ++k) acc[k] = _mm256_fmadd_ps(acc[k], x, y);
    __m256 t = acc[0];
    for (int k = 1; k < 12; ++k) t = _mm256_add_ps(t, acc[k]);
    float out[8];
    _mm256_storeu_ps(out, t);
    *(float*)a = out[0];
}

static double peak(int threads, int reps, work_fn fn, double ops_per_thread) {
    int sinks[64];
    void* argp[64];
    for (int t = 0; t < threads && t < 64; ++t) argp[t] = &sinks[t];
    double v[64];
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; ++r) v[r] = ops_per_thread * threads / run_threads(threads, fn, argp) / 1e9;
    return median(v, reps);
}
#endif /* x86-64: the compute probes; other targets report no peak */

double roofline_int8_gops(int threads, int reps, const char** how) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw")) {
        *how = "vpdpbusd zmm";
        return peak(threads, reps, vnni512_work, (double)kPeakIters * 64 * 2);
    }
    if (__builtin_cpu_supports("avx2")) {
        *how = "vpmaddubsw+vpmaddwd ymm";
        return peak(threads, reps, avx2_int8_work, (double)(kPeakIters / 6 * 6) * 32 * 2);
    }
#else
    (void)threads;
    (void)reps;
#endif
    *how = "none";
    return 0.0;
}

double roofline_bf16_gflops(int threads, int reps, const char** how) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512bf16")) {
        *how = "vdpbf16ps zmm";
        return peak(threads, reps, bf16_512_work, (double)kPeakIters * 32 * 2);
    }
#else
    (void)threads;
    (void)reps;
#endif
    *how = "none";
    return 0.0;
}

double roofline_f32_gflops(int threads, int reps, const char** how) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *how = "vfmadd zmm";
        return peak(threads, reps, fma512_work, (double)kPeakIters * 16 * 2);
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        *how = "vfmadd ymm";
        return peak(threads, reps, fma256_work, (double)kPeakIters * 8 * 2);
    }
#else
    (void)threads;
    (void)reps;
#endif
    *how = "none";
    return 0.0;
}
