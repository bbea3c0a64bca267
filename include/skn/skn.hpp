// SPDX-License-Identifier: MIT
/*
 * skn.hpp — a header-only C++17 wrapper over the C API in skn.h.
 *
 * It uses nothing but the functions skn.h declares (so it works with any
 * libskn.so.1 >= the version it came with) and adds:
 *  - skn::Error, thrown for every status other than SKN_OK, carrying the
 *    status and skn_last_error()'s message;
 *  - RAII handles: skn::Scope (move-only), skn::View (copy = retain,
 *    destroy = release), skn::Context (move-only), skn::Gguf and
 *    skn::GgufWriter, skn::GgufStream (move-only);
 *  - skn::span<T>, a pointer + size pair built from any contiguous container
 *    (std::vector, std::array, C arrays) for buffer parameters;
 *  - functions returning std::vector / std::string / std::optional instead of
 *    out-parameters.
 * Callbacks passed as C++ callables (trace sinks) are called through a
 * trampoline that swallows exceptions: nothing throws through libskn's C
 * frames. Thread-safety is the C API's (see docs/c-api.md).
 */
#ifndef SKN_HPP
#define SKN_HPP

/* The wrapper uses std::void_t, std::optional and std::string_view: say so
 * plainly instead of failing deep inside a template under an older standard.
 * (MSVC keeps __cplusplus at 199711L unless /Zc:__cplusplus; _MSVC_LANG is
 * its real value.) */
#if defined(_MSVC_LANG) && _MSVC_LANG > __cplusplus
#define SKN_HPP_CPLUSPLUS _MSVC_LANG
#else
#define SKN_HPP_CPLUSPLUS __cplusplus
#endif
#if SKN_HPP_CPLUSPLUS < 201703L
#error "skn.hpp needs C++17 or later (compile with -std=c++17 or newer); from C++14 or C use skn/skn.h"
#else /* the rest of the header, skipped after the #error so it is the only diagnostic */
#undef SKN_HPP_CPLUSPLUS

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "skn/skn.h"

namespace skn {

// ---- errors ---------------------------------------------------------------

/* The exception every wrapper function throws when the C call fails. */
class Error : public std::runtime_error {
public:
    Error(skn_status status, const std::string& message)
        : std::runtime_error(std::string(skn_status_name(status)) + ": " + message), status_(status),
          message_(message) {}
    /* The C status (never SKN_OK). */
    skn_status status() const noexcept { return status_; }
    /* skn_last_error() at the time of the failure, without the status prefix. */
    const std::string& message() const noexcept { return message_; }

private:
    skn_status status_;
    std::string message_;
};

/* Throw skn::Error for any status other than SKN_OK. */
inline void check(skn_status status) {
    if (status != SKN_OK) throw Error(status, skn_last_error());
}

// ---- span -----------------------------------------------------------------

namespace detail {
template <class C, class T, class = void>
struct is_container_of : std::false_type {};
template <class C, class T>
struct is_container_of<C, T,
                       std::void_t<decltype(std::declval<C&>().data()), decltype(std::declval<C&>().size())>>
    : std::is_convertible<std::remove_pointer_t<decltype(std::declval<C&>().data())> (*)[], T (*)[]> {};
}  // namespace detail

/* A non-owning view of `size()` contiguous T (C++17 stand-in for std::span). */
template <class T>
class span {
public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    constexpr span() noexcept = default;
    constexpr span(T* data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <std::size_t N>
    constexpr span(T (&array)[N]) noexcept : data_(array), size_(N) {}
    template <class C, class = std::enable_if_t<detail::is_container_of<C, T>::value>>
    constexpr span(C& container) noexcept : data_(container.data()), size_(container.size()) {}
    template <class C, class = std::enable_if_t<std::is_const<T>::value && detail::is_container_of<const C, T>::value>>
    constexpr span(const C& container) noexcept : data_(container.data()), size_(container.size()) {}

    constexpr T* data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T* begin() const noexcept { return data_; }
    constexpr T* end() const noexcept { return data_ + size_; }
    constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

using bytes = std::vector<std::uint8_t>;
using const_byte_span = span<const std::uint8_t>;

namespace detail {
template <class T>
struct is_span : std::false_type {};
template <class T>
struct is_span<span<T>> : std::true_type {};

/* The skn_gguf_type of each C++ element type array_values<T> accepts. */
template <class T>
struct gguf_element_type;
template <> struct gguf_element_type<std::uint8_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_U8; };
template <> struct gguf_element_type<std::int8_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_I8; };
template <> struct gguf_element_type<std::uint16_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_U16; };
template <> struct gguf_element_type<std::int16_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_I16; };
template <> struct gguf_element_type<std::uint32_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_U32; };
template <> struct gguf_element_type<std::int32_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_I32; };
template <> struct gguf_element_type<std::uint64_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_U64; };
template <> struct gguf_element_type<std::int64_t> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_I64; };
template <> struct gguf_element_type<float> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_F32; };
template <> struct gguf_element_type<double> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_F64; };
template <> struct gguf_element_type<bool> { static constexpr skn_gguf_type value = SKN_GGUF_TYPE_BOOL; };
template <class T, class = void>
struct has_gguf_element_type : std::false_type {};
template <class T>
struct has_gguf_element_type<T, std::void_t<decltype(gguf_element_type<T>::value)>> : std::true_type {};
}  // namespace detail

// ---- version --------------------------------------------------------------

inline unsigned version() noexcept { return skn_version(); }
inline std::string version_string() { return skn_version_string(); }
inline std::string status_name(skn_status status) { return skn_status_name(status); }

// ---- formats --------------------------------------------------------------

struct FormatInfo {
    skn_format format;
    std::string name;
    std::int32_t block_elems;
    std::int32_t block_bytes;
    std::int32_t tensor_trailer_bytes;
    bool is_block_quantized;
    skn_format activation_format;
    double bits_per_weight;
};

inline FormatInfo format_info(skn_format format) {
    skn_format_props p;
    std::memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    check(skn_format_info(format, &p));
    return FormatInfo{format,        p.name,        p.block_elems, p.block_bytes, p.tensor_trailer_bytes,
                      p.is_block_quantized != 0, p.activation_format, p.bits_per_weight};
}

/* Every format skn implements, in increasing id order. */
inline std::vector<skn_format> formats() {
    std::vector<skn_format> out;
    const std::int32_t n = skn_format_count();
    for (std::int32_t i = 0; i < n; ++i) out.push_back(static_cast<skn_format>(skn_format_at(i)));
    return out;
}

inline skn_format format_from_name(const std::string& name) {
    skn_format f;
    check(skn_format_from_name(name.c_str(), &f));
    return f;
}

// ---- quantize and dequantize ------------------------------------------------

inline std::size_t quantized_size(skn_format format, std::int64_t rows, std::int64_t cols) {
    std::size_t n = 0;
    check(skn_quantized_size(format, rows, cols, &n));
    return n;
}

/* Quantize row-major [rows, cols] floats into `dst` (at least quantized_size bytes). */
inline void quantize(skn_format format, span<const float> src, std::int64_t rows, std::int64_t cols,
                     span<std::uint8_t> dst) {
    if (rows < 0 || cols < 0 || src.size() < static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        throw Error(SKN_E_INVALID_ARGUMENT, "skn::quantize: src holds " + std::to_string(src.size()) +
                                                " floats, fewer than rows * cols");
    check(skn_quantize(format, src.data(), rows, cols, dst.data(), dst.size()));
}

/* Quantize row-major [rows, cols] floats; returns the ROW_MAJOR bytes. */
inline bytes quantize(skn_format format, span<const float> src, std::int64_t rows, std::int64_t cols) {
    bytes out(quantized_size(format, rows, cols));
    quantize(format, src, rows, cols, span<std::uint8_t>(out));
    return out;
}

/* What skn_quantize_with_options takes: importance weights (one per column,
 * shared by every row; empty for none) and a thread count (0: the default,
 * one). The bytes never depend on the thread count. */
struct QuantizeOptions {
    span<const float> importance{};
    int threads = 0;
};

/* Quantize with importance weights and/or threads (skn_quantize_with_options). */
inline void quantize(skn_format format, span<const float> src, std::int64_t rows, std::int64_t cols,
                     span<std::uint8_t> dst, const QuantizeOptions& options) {
    if (rows < 0 || cols < 0 || src.size() < static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        throw Error(SKN_E_INVALID_ARGUMENT, "skn::quantize: src holds " + std::to_string(src.size()) +
                                                " floats, fewer than rows * cols");
    skn_quantize_options o;
    std::memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.importance = options.importance.size() != 0 ? options.importance.data() : nullptr;
    o.importance_count = static_cast<std::int64_t>(options.importance.size());
    o.threads = options.threads;
    check(skn_quantize_with_options(format, src.data(), rows, cols, dst.data(), dst.size(), &o));
}

/* Quantize with options; returns the ROW_MAJOR bytes. */
inline bytes quantize(skn_format format, span<const float> src, std::int64_t rows, std::int64_t cols,
                      const QuantizeOptions& options) {
    bytes out(quantized_size(format, rows, cols));
    quantize(format, src, rows, cols, span<std::uint8_t>(out), options);
    return out;
}

inline void dequantize(skn_format format, const_byte_span src, std::int64_t rows, std::int64_t cols,
                       span<float> dst) {
    check(skn_dequantize(format, src.data(), src.size(), rows, cols, dst.data(), dst.size()));
}

/* Decode ROW_MAJOR bytes of a [rows, cols] tensor to row-major floats. */
inline std::vector<float> dequantize(skn_format format, const_byte_span src, std::int64_t rows, std::int64_t cols) {
    if (rows < 0 || cols < 0) check(skn_dequantize(format, src.data(), src.size(), rows, cols, nullptr, 0));
    std::vector<float> out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    dequantize(format, src, rows, cols, span<float>(out));
    return out;
}

// ---- CPU --------------------------------------------------------------------

inline skn_isa cpu_isa() noexcept { return skn_cpu_isa(); }
inline std::string isa_name(skn_isa isa) { return skn_isa_name(isa); }

// ---- trace callbacks ------------------------------------------------------------

using TraceFn = std::function<void(const skn_trace_event&)>;

namespace detail {
inline void trace_trampoline(const skn_trace_event* event, void* user) {
    if (event == nullptr || user == nullptr) return;
    try {
        (*static_cast<const TraceFn*>(user))(*event);
    } catch (...) {
        // Never let an exception unwind through libskn's C frames.
    }
}
}  // namespace detail

// ---- scopes and views --------------------------------------------------------

/* An arena for prepacked copies (skn_scope). Move-only. */
class Scope {
public:
    Scope() { check(skn_scope_create(&scope_)); }
    Scope(Scope&& other) noexcept : scope_(std::exchange(other.scope_, nullptr)) {}
    Scope& operator=(Scope&& other) noexcept {
        if (this != &other) {
            skn_scope_destroy(scope_);
            scope_ = std::exchange(other.scope_, nullptr);
        }
        return *this;
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { skn_scope_destroy(scope_); }

    skn_scope* get() const noexcept { return scope_; }
    std::uint64_t allocated() const {
        std::uint64_t n = 0;
        check(skn_scope_allocated(scope_, &n));
        return n;
    }

private:
    skn_scope* scope_ = nullptr;
};

/* A reference-counted handle to an skn_view: copying retains, destroying
 * releases. A default-constructed View is empty (get() == nullptr). */
class View {
public:
    View() noexcept = default;
    /* Take ownership of one reference (as every skn_* function returning a
     * view hands out). */
    static View adopt(skn_view* view) noexcept { return View(view); }
    /* Take an additional reference to a view someone else owns. */
    static View retain(skn_view* view) noexcept { return View(skn_view_retain(view)); }

    /* Wrap borrowed bytes: keep them alive and unchanged while any view over
     * them exists. */
    static View from_bytes(const void* data, std::size_t nbytes, skn_format format,
                           const std::vector<std::int64_t>& shape, skn_block_order order) {
        skn_view* v = nullptr;
        check(skn_view_from_bytes(data, nbytes, format, shape.data(), static_cast<int>(shape.size()), order, &v));
        return View(v);
    }
    static View from_bytes(const_byte_span data, skn_format format, const std::vector<std::int64_t>& shape,
                           skn_block_order order) {
        return from_bytes(data.data(), data.size(), format, shape, order);
    }
    /* A view borrows its bytes, so a temporary container (for example
     * `View::from_bytes(skn::quantize(...), ...)`) would leave it reading
     * freed memory: refused at compile time. Keep the bytes in a named
     * variable that outlives every view over them. (A span passed by value
     * is fine: it is itself a borrow of storage someone else keeps.) */
    template <class C, class = std::enable_if_t<!std::is_lvalue_reference<C>::value &&
                                                !detail::is_span<std::remove_cv_t<C>>::value>>
    static View from_bytes(C&& temporary_bytes, skn_format format, const std::vector<std::int64_t>& shape,
                           skn_block_order order) = delete;

    View(const View& other) noexcept : view_(other.view_ ? skn_view_retain(other.view_) : nullptr) {}
    View(View&& other) noexcept : view_(std::exchange(other.view_, nullptr)) {}
    View& operator=(const View& other) noexcept {
        if (this != &other) {
            skn_view* v = other.view_ ? skn_view_retain(other.view_) : nullptr;
            skn_view_release(view_);
            view_ = v;
        }
        return *this;
    }
    View& operator=(View&& other) noexcept {
        if (this != &other) {
            skn_view_release(view_);
            view_ = std::exchange(other.view_, nullptr);
        }
        return *this;
    }
    ~View() { skn_view_release(view_); }

    skn_view* get() const noexcept { return view_; }
    explicit operator bool() const noexcept { return view_ != nullptr; }
    /* Give up ownership of the reference without releasing it. */
    skn_view* release() noexcept { return std::exchange(view_, nullptr); }

    std::string describe() const { return skn_view_describe(view_); }
    skn_block_order order() const noexcept { return skn_view_order(view_); }
    skn_layout_class layout_class() const noexcept { return skn_view_layout_class(view_); }
    skn_format format() const noexcept { return skn_view_format(view_); }
    int rank() const noexcept { return skn_view_rank(view_); }
    std::vector<std::int64_t> shape() const {
        std::int64_t s[4] = {0, 0, 0, 0};
        check(skn_view_shape(view_, s));
        return std::vector<std::int64_t>(s, s + rank());
    }
    std::int64_t element_count() const {
        std::int64_t n = 1;
        for (std::int64_t d : shape()) n *= d;
        return n;
    }

    View narrow(int dim, std::int64_t start, std::int64_t length) const {
        skn_view* v = nullptr;
        check(skn_view_narrow(view_, dim, start, length, &v));
        return View(v);
    }
    /* Index `index` of `dim`, that dimension dropped (skn_view_select): expert e
     * of a stacked [E, out, in] weight is select(0, e). */
    View select(int dim, std::int64_t index) const {
        skn_view* v = nullptr;
        check(skn_view_select(view_, dim, index, &v));
        return View(v);
    }
    View transpose(int dim0, int dim1) const {
        skn_view* v = nullptr;
        check(skn_view_transpose(view_, dim0, dim1, &v));
        return View(v);
    }
    View unsqueeze(int dim) const {
        skn_view* v = nullptr;
        check(skn_view_unsqueeze(view_, dim, &v));
        return View(v);
    }
    float get(const std::vector<std::int64_t>& indices) const {
        float f = 0;
        check(skn_view_get(view_, indices.data(), static_cast<int>(indices.size()), &f));
        return f;
    }
    void to_float(span<float> dst) const { check(skn_view_to_float(view_, dst.data(), dst.size())); }
    std::vector<float> to_float() const {
        std::vector<float> out(static_cast<std::size_t>(element_count()));
        to_float(span<float>(out));
        return out;
    }
    /* This view in `order`: the same handle when it already is, else a copy
     * in `scope` (one ADAPTER event to `trace`, if given). */
    View prepack(skn_block_order order, Scope& scope, const TraceFn& trace = TraceFn()) const {
        skn_view* v = nullptr;
        if (trace)
            check(skn_view_prepack(view_, order, scope.get(), &detail::trace_trampoline,
                                   const_cast<TraceFn*>(&trace), &v));
        else
            check(skn_view_prepack(view_, order, scope.get(), nullptr, nullptr, &v));
        return View(v);
    }
    /* This view in `format` (its own, or its row-interleaved twin / the
     * canonical format it interleaves) and `order`: the same handle when
     * nothing changes, else a copy in `scope` (one ADAPTER event "convert"
     * to `trace`, if given). See skn_view_convert. */
    View convert(skn_format format, skn_block_order order, Scope& scope, const TraceFn& trace = TraceFn()) const {
        skn_view* v = nullptr;
        if (trace)
            check(skn_view_convert(view_, format, order, scope.get(), &detail::trace_trampoline,
                                   const_cast<TraceFn*>(&trace), &v));
        else
            check(skn_view_convert(view_, format, order, scope.get(), nullptr, nullptr, &v));
        return View(v);
    }

private:
    explicit View(skn_view* view) noexcept : view_(view) {}
    skn_view* view_ = nullptr;
};

// ---- byte relayout ------------------------------------------------------------

inline bytes packed_to_kernel_order(skn_format format, const_byte_span src, std::int64_t rows,
                                    std::int64_t blocks_per_row) {
    bytes out(src.size());
    check(skn_packed_to_kernel_order(format, src.data(), src.size(), out.data(), out.size(), rows, blocks_per_row));
    return out;
}
inline bytes packed_to_canonical_order(skn_format format, const_byte_span src, std::int64_t rows,
                                       std::int64_t blocks_per_row) {
    bytes out(src.size());
    check(skn_packed_to_canonical_order(format, src.data(), src.size(), out.data(), out.size(), rows,
                                        blocks_per_row));
    return out;
}
inline void require_out_in(std::int64_t rows, std::int64_t in, skn_format format) {
    check(skn_require_out_in(rows, in, format));
}

// ---- fixtures ---------------------------------------------------------------------

/* The tagged fixture grid [rows, blocks_per_row] of `format` in `order`. */
inline bytes fixture_bytes(skn_format format, skn_block_order order,
                           std::int64_t rows = SKN_FIXTURE_DEFAULT_ROWS,
                           std::int64_t blocks_per_row = SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW) {
    std::size_t n = 0;
    const int kernel_order = order == SKN_ORDER_INPUT_BLOCK_MAJOR ? 1 : 0;
    check(skn_fixture_bytes(format, kernel_order, rows, blocks_per_row, nullptr, 0, &n));
    bytes out(n);
    check(skn_fixture_bytes(format, kernel_order, rows, blocks_per_row, out.data(), out.size(), &n));
    return out;
}

/* std::nullopt when `data` is exactly the tagged fixture, else skn's message
 * naming the first misplaced block. */
inline std::optional<std::string> fixture_disagreement(const_byte_span data, skn_format format,
                                                       skn_block_order order,
                                                       std::int64_t rows = SKN_FIXTURE_DEFAULT_ROWS,
                                                       std::int64_t blocks_per_row = SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW) {
    const char* msg = skn_fixture_disagreement(data.data(), data.size(), format,
                                               order == SKN_ORDER_INPUT_BLOCK_MAJOR ? 1 : 0, rows, blocks_per_row);
    if (msg == nullptr) return std::nullopt;
    return std::string(msg);
}

struct GoldenInfo {
    std::int64_t rows;
    std::int64_t cols;
    std::int64_t x_rows;
};

inline GoldenInfo golden_info(skn_format format) {
    skn_golden_info info;
    std::memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    check(skn_fixture_golden_info(format, &info));
    return GoldenInfo{info.rows, info.cols, info.x_rows};
}

/* One part of the golden fixture as raw bytes (PACKED, PACKED_KERNEL_ORDER). */
inline bytes golden_bytes(skn_format format, skn_golden_part part) {
    std::size_t n = 0;
    check(skn_fixture_golden(format, part, nullptr, 0, &n));
    bytes out(n);
    check(skn_fixture_golden(format, part, out.data(), out.size(), &n));
    return out;
}

/* One float part of the golden fixture (SOURCE, DECODED, X, Y). */
inline std::vector<float> golden_floats(skn_format format, skn_golden_part part) {
    std::size_t n = 0;
    check(skn_fixture_golden(format, part, nullptr, 0, &n));
    std::vector<float> out(n / sizeof(float));
    check(skn_fixture_golden(format, part, out.data(), out.size() * sizeof(float), &n));
    return out;
}

// ---- context and matmul_wt -----------------------------------------------------------

struct MatmulOptions {
    skn_precision precision = SKN_PRECISION_FAST;
    bool prepack_weights = false;
    bool strict = false;
    Scope* scope = nullptr;

    skn_matmul_options to_c() const noexcept {
        skn_matmul_options o;
        std::memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.precision = precision;
        o.prepack_weights = prepack_weights ? 1 : 0;
        o.strict = strict ? 1 : 0;
        o.scope = scope ? scope->get() : nullptr;
        return o;
    }
};

/* An skn_context. Move-only; use one per calling thread. */
class Context {
public:
    Context() : trace_(std::make_unique<TraceFn>()) { check(skn_context_create(&ctx_)); }
    Context(Context&& other) noexcept
        : ctx_(std::exchange(other.ctx_, nullptr)), trace_(std::move(other.trace_)) {}
    Context& operator=(Context&& other) noexcept {
        if (this != &other) {
            skn_context_destroy(ctx_);
            ctx_ = std::exchange(other.ctx_, nullptr);
            trace_ = std::move(other.trace_);
        }
        return *this;
    }
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context() { skn_context_destroy(ctx_); }

    skn_context* get() const noexcept { return ctx_; }

    void set_threads(int threads) { check(skn_context_set_threads(ctx_, threads)); }
    void set_isa(skn_isa cap) { check(skn_context_set_isa(ctx_, cap)); }
    void set_parallel_for(skn_parallel_for_fn fn, void* user) {
        check(skn_context_set_parallel_for(ctx_, fn, user));
    }
    /* Send this context's trace events to `fn` (an empty function: none). */
    void set_trace(TraceFn fn) {
        if (!trace_) trace_ = std::make_unique<TraceFn>();
        if (fn) {
            check(skn_context_set_trace(ctx_, nullptr, nullptr));
            *trace_ = std::move(fn);
            check(skn_context_set_trace(ctx_, &detail::trace_trampoline, trace_.get()));
        } else {
            check(skn_context_set_trace(ctx_, nullptr, nullptr));
            *trace_ = TraceFn();
        }
    }

    /* y = x * W^T (+ bias), all strides given (the C call, checked). */
    void matmul_wt(const float* x, std::int64_t x_rows, std::int64_t x_row_stride, const View& w, const float* bias,
                   float* y, std::int64_t y_row_stride, const MatmulOptions& options = MatmulOptions()) {
        const skn_matmul_options o = options.to_c();
        check(skn_matmul_wt(ctx_, x, x_rows, x_row_stride, w.get(), bias, y, y_row_stride, &o));
    }

    /* y[x_rows, out] = x[x_rows, in] * W[out, in]^T (+ bias[out]), dense rows. */
    std::vector<float> matmul_wt(span<const float> x, std::int64_t x_rows, const View& w,
                                 span<const float> bias = span<const float>(),
                                 const MatmulOptions& options = MatmulOptions()) {
        const std::vector<std::int64_t> s = w.shape();
        if (s.size() != 2) throw Error(SKN_E_INVALID_ARGUMENT, "skn::Context::matmul_wt: the weight must be [out, in]");
        const std::int64_t out = s[0], in = s[1];
        if (x_rows < 1 || x.size() < static_cast<std::size_t>(x_rows) * static_cast<std::size_t>(in))
            throw Error(SKN_E_INVALID_ARGUMENT, "skn::Context::matmul_wt: x holds " + std::to_string(x.size()) +
                                                    " floats, fewer than x_rows * in = " +
                                                    std::to_string(x_rows * in));
        if (!bias.empty() && bias.size() < static_cast<std::size_t>(out))
            throw Error(SKN_E_INVALID_ARGUMENT, "skn::Context::matmul_wt: bias holds fewer than out floats");
        std::vector<float> y(static_cast<std::size_t>(x_rows) * static_cast<std::size_t>(out));
        matmul_wt(x.data(), x_rows, in, w, bias.empty() ? nullptr : bias.data(), y.data(), out, options);
        return y;
    }

    /* Expert-routed y = x * W[e]^T (+ bias[e]) (* gate) per (row, slot), all
     * strides given (the C call, skn_matmul_wt_id, checked). */
    void matmul_wt_id(const float* x, std::int64_t x_rows, std::int64_t x_row_stride, std::int64_t x_slot_stride,
                      const std::int32_t* ids, std::int64_t k, std::int64_t ids_row_stride, const float* gates,
                      std::int64_t gates_row_stride, const View& w, const float* bias, float* y,
                      std::int64_t y_row_stride, std::int64_t y_slot_stride,
                      const MatmulOptions& options = MatmulOptions()) {
        const skn_matmul_options o = options.to_c();
        check(skn_matmul_wt_id(ctx_, x, x_rows, x_row_stride, x_slot_stride, ids, k, ids_row_stride, gates,
                               gates_row_stride, w.get(), bias, y, y_row_stride, y_slot_stride, &o));
    }

    /* y[x_rows, k, out]: row i of x[x_rows, in] through experts ids[i * k + s]
     * of w [E, out, in], each slot's output times gates[i * k + s] if gates
     * is not empty (llama.cpp's mul_mat_id layout, dense rows). */
    std::vector<float> matmul_wt_id(span<const float> x, std::int64_t x_rows, span<const std::int32_t> ids,
                                    std::int64_t k, const View& w, span<const float> gates = span<const float>(),
                                    const MatmulOptions& options = MatmulOptions()) {
        const std::vector<std::int64_t> s = w.shape();
        if (s.size() != 3)
            throw Error(SKN_E_INVALID_ARGUMENT, "skn::Context::matmul_wt_id: the weight must be [E, out, in]");
        const std::int64_t out = s[1], in = s[2];
        if (x_rows < 1 || k < 1 || x.size() < static_cast<std::size_t>(x_rows) * static_cast<std::size_t>(in))
            throw Error(SKN_E_INVALID_ARGUMENT, "skn::Context::matmul_wt_id: x holds " + std::to_string(x.size()) +
                                                    " floats, fewer than x_rows * in, or x_rows or k is below 1");
        const std::size_t slots = static_cast<std::size_t>(x_rows) * static_cast<std::size_t>(k);
        if (ids.size() < slots || (!gates.empty() && gates.size() < slots))
            throw Error(SKN_E_INVALID_ARGUMENT, "skn::Context::matmul_wt_id: ids (or gates) hold fewer than x_rows * k values");
        std::vector<float> y(slots * static_cast<std::size_t>(out));
        matmul_wt_id(x.data(), x_rows, in, 0, ids.data(), k, k, gates.empty() ? nullptr : gates.data(), k, w, nullptr,
                     y.data(), k * out, out, options);
        return y;
    }

    /* The weight in the order this context's best kernel reads (see skn.h). */
    View prepack_for_matmul(const View& w, Scope& scope) {
        skn_view* v = nullptr;
        check(skn_prepack_for_matmul(ctx_, w.get(), scope.get(), &v));
        return View::adopt(v);
    }

private:
    skn_context* ctx_ = nullptr;
    std::unique_ptr<TraceFn> trace_;  // stable address handed to the C side
};

inline std::vector<std::string> kernel_names() {
    std::vector<std::string> out;
    const std::int32_t n = skn_kernel_count();
    for (std::int32_t i = 0; i < n; ++i) {
        const char* name = skn_kernel_name(i);
        if (name) out.emplace_back(name);
    }
    return out;
}

// ---- logging -------------------------------------------------------------------

inline void set_log_callback(skn_log_level level, skn_log_fn fn, void* user) {
    check(skn_set_log_callback(level, fn, user));
}

// ---- GGUF files --------------------------------------------------------------------

struct GgufTensorInfo {
    std::string name;
    std::int32_t type_id;
    std::string type_name;
    bool supported;
    skn_format format;
    std::vector<std::int64_t> shape;  // labelled per the orientation
    std::vector<std::int64_t> ne;     // the file's order
    std::uint64_t offset;
    std::uint64_t size;
};

struct GgufOptions {
    skn_gguf_orientation orientation = SKN_GGUF_OUT_IN;
    bool allow_unsupported = false;

    skn_gguf_options to_c() const noexcept {
        skn_gguf_options o;
        std::memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.orientation = orientation;
        o.allow_unsupported = allow_unsupported ? 1 : 0;
        return o;
    }
};

/* An open GGUF file (skn_gguf). Move-only; pointers and string_views it hands
 * out are valid while it is alive. */
class Gguf {
public:
    static Gguf open(const std::string& path, const GgufOptions& options = GgufOptions()) {
        const skn_gguf_options o = options.to_c();
        skn_gguf* g = nullptr;
        check(skn_gguf_open(path.c_str(), &o, &g));
        return Gguf(g);
    }
    /* The bytes are borrowed: keep them alive and unchanged while the Gguf lives. */
    static Gguf open_memory(const_byte_span data, const GgufOptions& options = GgufOptions()) {
        const skn_gguf_options o = options.to_c();
        skn_gguf* g = nullptr;
        check(skn_gguf_open_memory(data.data(), data.size(), &o, &g));
        return Gguf(g);
    }
    /* Borrowed bytes again: a temporary container would be freed while the
     * Gguf (and every tensor view from it) still reads it, so it is refused
     * at compile time, as View::from_bytes refuses it. */
    template <class C, class = std::enable_if_t<!std::is_lvalue_reference<C>::value &&
                                                !detail::is_span<std::remove_cv_t<C>>::value>>
    static Gguf open_memory(C&& temporary_bytes, const GgufOptions& options = GgufOptions()) = delete;

    Gguf(Gguf&& other) noexcept : gguf_(std::exchange(other.gguf_, nullptr)) {}
    Gguf& operator=(Gguf&& other) noexcept {
        if (this != &other) {
            skn_gguf_close(gguf_);
            gguf_ = std::exchange(other.gguf_, nullptr);
        }
        return *this;
    }
    Gguf(const Gguf&) = delete;
    Gguf& operator=(const Gguf&) = delete;
    ~Gguf() { skn_gguf_close(gguf_); }

    const skn_gguf* get() const noexcept { return gguf_; }

    std::uint32_t version() const noexcept { return skn_gguf_version(gguf_); }
    std::uint32_t alignment() const noexcept { return skn_gguf_alignment(gguf_); }
    std::uint64_t data_offset() const noexcept { return skn_gguf_data_offset(gguf_); }
    std::uint64_t file_size() const noexcept { return skn_gguf_file_size(gguf_); }
    std::int64_t tensor_count() const noexcept { return skn_gguf_tensor_count(gguf_); }
    std::int64_t unsupported_count() const noexcept { return skn_gguf_unsupported_count(gguf_); }

    GgufTensorInfo tensor_info(std::int64_t index) const {
        skn_gguf_tensor_props p;
        std::memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        check(skn_gguf_tensor_info(gguf_, index, &p));
        GgufTensorInfo t;
        t.name.assign(p.name, p.name_len);
        t.type_id = p.type_id;
        t.type_name = p.type_name ? p.type_name : "";
        t.supported = p.supported != 0;
        t.format = p.format;
        t.shape.assign(p.shape, p.shape + p.rank);
        t.ne.assign(p.ne, p.ne + p.rank);
        t.offset = p.offset;
        t.size = p.size;
        return t;
    }
    std::optional<std::int64_t> find_tensor(const std::string& name) const {
        std::int64_t i = -1;
        check(skn_gguf_find_tensor(gguf_, name.c_str(), &i));
        if (i < 0) return std::nullopt;
        return i;
    }
    const_byte_span tensor_data(std::int64_t index) const {
        const void* data = nullptr;
        std::size_t size = 0;
        check(skn_gguf_tensor_data(gguf_, index, &data, &size));
        return const_byte_span(static_cast<const std::uint8_t*>(data), size);
    }

    /* Tensor `index` as a ROW_MAJOR view over the file's bytes (labelled per
     * the orientation); it keeps the mapping alive after this Gguf closes. */
    View tensor_view(std::int64_t index) const {
        skn_view* v = nullptr;
        check(skn_gguf_tensor_view(gguf_, index, &v));
        return View::adopt(v);
    }

    std::int64_t kv_count() const noexcept { return skn_gguf_kv_count(gguf_); }
    std::string_view kv_key(std::int64_t key) const {
        const char* name = nullptr;
        std::size_t len = 0;
        check(skn_gguf_kv_key(gguf_, key, &name, &len));
        return std::string_view(name, len);
    }
    std::optional<std::int64_t> find_key(const std::string& name) const {
        std::int64_t i = -1;
        check(skn_gguf_find_key(gguf_, name.c_str(), &i));
        if (i < 0) return std::nullopt;
        return i;
    }
    skn_gguf_type kv_type(std::int64_t key) const {
        skn_gguf_type t;
        check(skn_gguf_kv_type(gguf_, key, &t));
        return t;
    }

    std::uint8_t get_u8(std::int64_t key) const { return get_(skn_gguf_get_u8, key); }
    std::int8_t get_i8(std::int64_t key) const { return get_(skn_gguf_get_i8, key); }
    std::uint16_t get_u16(std::int64_t key) const { return get_(skn_gguf_get_u16, key); }
    std::int16_t get_i16(std::int64_t key) const { return get_(skn_gguf_get_i16, key); }
    std::uint32_t get_u32(std::int64_t key) const { return get_(skn_gguf_get_u32, key); }
    std::int32_t get_i32(std::int64_t key) const { return get_(skn_gguf_get_i32, key); }
    std::uint64_t get_u64(std::int64_t key) const { return get_(skn_gguf_get_u64, key); }
    std::int64_t get_i64(std::int64_t key) const { return get_(skn_gguf_get_i64, key); }
    float get_f32(std::int64_t key) const { return get_(skn_gguf_get_f32, key); }
    double get_f64(std::int64_t key) const { return get_(skn_gguf_get_f64, key); }
    bool get_bool(std::int64_t key) const { return get_(skn_gguf_get_bool, key) != 0; }
    /* Points into the file: valid while this Gguf lives. */
    std::string_view get_string(std::int64_t key) const {
        const char* s = nullptr;
        std::size_t len = 0;
        check(skn_gguf_get_string(gguf_, key, &s, &len));
        return std::string_view(s, len);
    }

    /* Arrays: a key's index is its array id. */
    std::pair<skn_gguf_type, std::uint64_t> array_info(std::uint64_t array) const {
        skn_gguf_type t;
        std::uint64_t n = 0;
        check(skn_gguf_array_info(gguf_, array, &t, &n));
        return {t, n};
    }
    /* The elements of a numeric array, copied out (the file's bytes may be
     * unaligned). T must be the array's element type exactly (std::uint32_t
     * for U32, float for F32, bool for BOOL, ...): another T would read the
     * wrong number of bytes, so it throws skn::Error (SKN_E_INVALID_ARGUMENT). */
    template <class T>
    std::vector<T> array_values(std::uint64_t array) const {
        static_assert(detail::has_gguf_element_type<T>::value,
                      "array_values<T>: T must be a fixed-width GGUF element type "
                      "(std::uint8_t ... std::int64_t, float, double, bool)");
        static_assert(sizeof(bool) == 1 || !std::is_same<T, bool>::value, "GGUF BOOL is one byte");
        const skn_gguf_type want = detail::gguf_element_type<T>::value;
        const skn_gguf_type have = array_info(array).first;
        if (have != want)
            throw Error(SKN_E_INVALID_ARGUMENT, "skn::Gguf::array_values: array " + std::to_string(array) +
                                                 " holds elements of GGUF type " + std::to_string(int(have)) +
                                                 ", not of the requested type " + std::to_string(int(want)));
        const void* data = nullptr;
        std::uint64_t n = 0;
        check(skn_gguf_array_data(gguf_, array, &data, &n));
        std::vector<T> out(static_cast<std::size_t>(n));
        if (n) std::memcpy(out.data(), data, static_cast<std::size_t>(n) * sizeof(T));
        return out;
    }
    std::string_view array_string(std::uint64_t array, std::uint64_t i) const {
        const char* s = nullptr;
        std::size_t len = 0;
        check(skn_gguf_array_string(gguf_, array, i, &s, &len));
        return std::string_view(s, len);
    }
    std::uint64_t array_nested(std::uint64_t array, std::uint64_t i) const {
        std::uint64_t id = 0;
        check(skn_gguf_array_nested(gguf_, array, i, &id));
        return id;
    }

private:
    explicit Gguf(skn_gguf* g) noexcept : gguf_(g) {}
    template <class T>
    T get_(skn_status (*fn)(const skn_gguf*, std::int64_t, T*), std::int64_t key) const {
        T v{};
        check(fn(gguf_, key, &v));
        return v;
    }
    skn_gguf* gguf_ = nullptr;
};

/* A GGUF v3 writer (skn_gguf_writer). Move-only. */
class GgufWriter {
public:
    GgufWriter() { check(skn_gguf_writer_create(&w_)); }
    GgufWriter(GgufWriter&& other) noexcept : w_(std::exchange(other.w_, nullptr)) {}
    GgufWriter& operator=(GgufWriter&& other) noexcept {
        if (this != &other) {
            skn_gguf_writer_destroy(w_);
            w_ = std::exchange(other.w_, nullptr);
        }
        return *this;
    }
    GgufWriter(const GgufWriter&) = delete;
    GgufWriter& operator=(const GgufWriter&) = delete;
    ~GgufWriter() { skn_gguf_writer_destroy(w_); }

    skn_gguf_writer* get() const noexcept { return w_; }

    void set_alignment(std::uint32_t alignment) { check(skn_gguf_writer_set_alignment(w_, alignment)); }
    void add_u8(const std::string& key, std::uint8_t v) { check(skn_gguf_writer_add_u8(w_, key.c_str(), v)); }
    void add_i8(const std::string& key, std::int8_t v) { check(skn_gguf_writer_add_i8(w_, key.c_str(), v)); }
    void add_u16(const std::string& key, std::uint16_t v) { check(skn_gguf_writer_add_u16(w_, key.c_str(), v)); }
    void add_i16(const std::string& key, std::int16_t v) { check(skn_gguf_writer_add_i16(w_, key.c_str(), v)); }
    void add_u32(const std::string& key, std::uint32_t v) { check(skn_gguf_writer_add_u32(w_, key.c_str(), v)); }
    void add_i32(const std::string& key, std::int32_t v) { check(skn_gguf_writer_add_i32(w_, key.c_str(), v)); }
    void add_u64(const std::string& key, std::uint64_t v) { check(skn_gguf_writer_add_u64(w_, key.c_str(), v)); }
    void add_i64(const std::string& key, std::int64_t v) { check(skn_gguf_writer_add_i64(w_, key.c_str(), v)); }
    void add_f32(const std::string& key, float v) { check(skn_gguf_writer_add_f32(w_, key.c_str(), v)); }
    void add_f64(const std::string& key, double v) { check(skn_gguf_writer_add_f64(w_, key.c_str(), v)); }
    void add_bool(const std::string& key, bool v) { check(skn_gguf_writer_add_bool(w_, key.c_str(), v ? 1 : 0)); }
    void add_string(const std::string& key, std::string_view v) {
        check(skn_gguf_writer_add_string(w_, key.c_str(), v.data(), v.size()));
    }
    /* A numeric array of `count` little-endian elements of `element_type`. */
    void add_array(const std::string& key, skn_gguf_type element_type, const void* data, std::uint64_t count) {
        check(skn_gguf_writer_add_array(w_, key.c_str(), element_type, data, count));
    }
    void add_string_array(const std::string& key, const std::vector<std::string>& strings) {
        std::vector<const char*> ptrs;
        std::vector<std::size_t> lens;
        ptrs.reserve(strings.size());
        lens.reserve(strings.size());
        for (const std::string& s : strings) {
            ptrs.push_back(s.data());
            lens.push_back(s.size());
        }
        check(skn_gguf_writer_add_string_array(w_, key.c_str(), ptrs.data(), lens.data(), strings.size()));
    }
    /* `ne` in FILE order (ne[0] the contiguous row length). */
    void add_tensor(const std::string& name, skn_format format, const std::vector<std::int64_t>& ne,
                    const_byte_span data) {
        check(skn_gguf_writer_add_tensor(w_, name.c_str(), format, static_cast<std::int32_t>(ne.size()), ne.data(),
                                         data.data(), data.size()));
    }
    std::uint64_t size() const {
        std::uint64_t n = 0;
        check(skn_gguf_writer_size(w_, &n));
        return n;
    }
    bytes write_memory() const {
        bytes out(static_cast<std::size_t>(size()));
        check(skn_gguf_writer_write_memory(w_, out.data(), out.size()));
        return out;
    }
    void write_file(const std::string& path) const { check(skn_gguf_writer_write_file(w_, path.c_str())); }

    /* Declare a tensor whose bytes a GgufStream will write (for files larger
     * than memory); `ne` in FILE order. */
    void declare_tensor(const std::string& name, skn_format format, const std::vector<std::int64_t>& ne) {
        check(skn_gguf_writer_declare_tensor(w_, name.c_str(), format, static_cast<std::int32_t>(ne.size()), ne.data()));
    }

private:
    skn_gguf_writer* w_ = nullptr;
};

/* A GGUF file being written tensor by tensor (skn_gguf_stream): the header
 * from a GgufWriter whose tensors are all declared, then each tensor's bytes
 * in declaration order, in chunks of any size. The file appears at `path`
 * only when finish() succeeds; destroying an unfinished stream (an exception
 * on the way, say) removes its temporary file, so `path` is never left
 * half-written. Move-only. Errors throw skn::Error. */
class GgufStream {
public:
    /* Where the next bytes go: the tensor's index in declaration order (the
     * tensor count when all are written) and how many of its bytes are written. */
    struct Position {
        std::int64_t tensor = 0;
        std::uint64_t written = 0;
    };

    /* Start writing `writer`'s file to `path`. The stream copies what it
     * needs: the writer may be changed or destroyed afterwards. */
    GgufStream(const GgufWriter& writer, const std::string& path) {
        check(skn_gguf_stream_begin(writer.get(), path.c_str(), &s_));
    }
    GgufStream(GgufStream&& other) noexcept : s_(std::exchange(other.s_, nullptr)) {}
    GgufStream& operator=(GgufStream&& other) noexcept {
        if (this != &other) {
            skn_gguf_stream_destroy(s_);
            s_ = std::exchange(other.s_, nullptr);
        }
        return *this;
    }
    GgufStream(const GgufStream&) = delete;
    GgufStream& operator=(const GgufStream&) = delete;
    ~GgufStream() { skn_gguf_stream_destroy(s_); }

    skn_gguf_stream* get() const noexcept { return s_; }

    /* Append bytes to tensor `name`, the first one not yet written in full. */
    void write(const std::string& name, const_byte_span data) {
        check(skn_gguf_stream_write(s_, name.c_str(), data.data(), data.size()));
    }
    Position position() const {
        Position p;
        check(skn_gguf_stream_position(s_, &p.tensor, &p.written));
        return p;
    }
    /* Check every tensor is complete, sync, and rename the file into place.
     * A tensor not written in full throws and leaves the stream usable. */
    void finish() { check(skn_gguf_stream_finish(s_)); }

private:
    skn_gguf_stream* s_ = nullptr;
};

// ---- importance matrices (llama.cpp imatrix files) ------------------------------------

struct ImatrixInfo {
    skn_imatrix_form form = SKN_IMATRIX_GGUF;
    std::int64_t entry_count = 0;
    std::int64_t dataset_count = 0;
    std::int64_t chunk_count = -1; /* -1: the file does not say */
    std::int64_t chunk_size = -1;  /* -1: the file does not say (always for the legacy form) */
};

struct ImatrixEntry {
    std::string name;
    std::int64_t values_per_row = 0;
    std::int64_t matrices = 0;
    std::int64_t count = 0;
    std::int64_t unused_matrices = 0;
};

/* An open imatrix file (skn_imatrix). Move-only; everything was copied at
 * open, and the spans it hands out are valid while it is alive. */
class Imatrix {
public:
    static Imatrix open(const std::string& path) {
        skn_imatrix* m = nullptr;
        check(skn_imatrix_open(path.c_str(), &m));
        return Imatrix(m);
    }
    /* The bytes are read during the call only (a temporary is fine). */
    static Imatrix open_memory(const_byte_span data) {
        skn_imatrix* m = nullptr;
        check(skn_imatrix_open_memory(data.data(), data.size(), &m));
        return Imatrix(m);
    }

    Imatrix(Imatrix&& other) noexcept : m_(std::exchange(other.m_, nullptr)) {}
    Imatrix& operator=(Imatrix&& other) noexcept {
        if (this != &other) {
            skn_imatrix_close(m_);
            m_ = std::exchange(other.m_, nullptr);
        }
        return *this;
    }
    Imatrix(const Imatrix&) = delete;
    Imatrix& operator=(const Imatrix&) = delete;
    ~Imatrix() { skn_imatrix_close(m_); }

    const skn_imatrix* get() const noexcept { return m_; }

    ImatrixInfo info() const {
        skn_imatrix_props p;
        std::memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        check(skn_imatrix_info(m_, &p));
        ImatrixInfo i;
        i.form = p.form;
        i.entry_count = p.entry_count;
        i.dataset_count = p.dataset_count;
        i.chunk_count = p.chunk_count;
        i.chunk_size = p.chunk_size;
        return i;
    }
    std::int64_t count() const noexcept { return skn_imatrix_count(m_); }
    ImatrixEntry entry(std::int64_t index) const {
        skn_imatrix_entry_props p;
        std::memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        check(skn_imatrix_entry_info(m_, index, &p));
        ImatrixEntry e;
        e.name.assign(p.name, p.name_len);
        e.values_per_row = p.values_per_row;
        e.matrices = p.matrices;
        e.count = p.count;
        e.unused_matrices = p.unused_matrices;
        return e;
    }
    std::optional<std::int64_t> find(const std::string& name) const {
        std::int64_t i = -1;
        check(skn_imatrix_find(m_, name.c_str(), &i));
        if (i < 0) return std::nullopt;
        return i;
    }
    /* Matrix `matrix`'s importance values, or every matrix's
     * (SKN_IMATRIX_ALL_MATRICES). */
    span<const float> values(std::int64_t index, std::int64_t matrix = SKN_IMATRIX_ALL_MATRICES) const {
        const float* v = nullptr;
        std::size_t n = 0;
        check(skn_imatrix_values(m_, index, matrix, &v, &n));
        return span<const float>(v, n);
    }
    std::int64_t matrix_count(std::int64_t index, std::int64_t matrix) const {
        std::int64_t n = 0;
        check(skn_imatrix_matrix_count(m_, index, matrix, &n));
        return n;
    }
    std::string dataset(std::int64_t i) const {
        const char* s = nullptr;
        std::size_t n = 0;
        check(skn_imatrix_dataset(m_, i, &s, &n));
        return std::string(s, n);
    }

private:
    explicit Imatrix(skn_imatrix* m) noexcept : m_(m) {}
    skn_imatrix* m_ = nullptr;
};

}  // namespace skn

#endif /* C++17 */
#endif /* SKN_HPP */
