#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate skn-sys's raw declarations from include/skn/skn.h.

bindgen needs libclang and crates.io, neither of which a packaging or CI
machine has offline, so this reads the header's regular declarations itself:

  #define NAME <integer expression>          -> pub const NAME: c_int
  typedef enum name { A = 1, ... } name;     -> pub type name = c_int + consts
  typedef struct name { fields } name;       -> #[repr(C)] struct
  typedef struct name name;                  -> opaque struct
  typedef ret (*name)(params);               -> Option<unsafe extern "C" fn>
  SKN_API ret name(params);                  -> extern "C" fn

Anything else at the top level is an error: a declaration the generator does
not understand must not be skipped silently, or skn-sys would lack it.

Outputs (both checked in, both regenerated and compared by the ctest
rust_sys_in_sync):
  src/lib.rs          the declarations
  layout_probe.c      a C program build.rs compiles against the INSTALLED
                      header; it prints every struct's size, alignment and
                      field offsets and every constant's value, and the
                      generated layout tests compare them with Rust's.

  gen_sys.py [--header skn.h] [--out-dir DIR]   write the two files
  gen_sys.py --check                            exit 1 if they differ
"""
import argparse
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_HEADER = os.path.join(HERE, "..", "..", "..", "include", "skn", "skn.h")

SCALARS = {
    "void": "c_void",
    "char": "c_char",
    "int": "c_int",
    "unsigned": "c_uint",
    "float": "f32",
    "double": "f64",
    "size_t": "usize",
    "int8_t": "i8",
    "uint8_t": "u8",
    "int16_t": "i16",
    "uint16_t": "u16",
    "int32_t": "i32",
    "uint32_t": "u32",
    "int64_t": "i64",
    "uint64_t": "u64",
}

RUST_KEYWORDS = {
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async",
    "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try",
}

IGNORED_DEFINES = {"SKN_H", "SKN_API"}


class HeaderError(Exception):
    pass


def ident(name):
    return "r#" + name if name in RUST_KEYWORDS else name


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def split_preprocessor(text):
    """The #define constants, and the text with every preprocessor line removed."""
    defines = []
    body = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#"):
            m = re.match(r"#\s*define\s+(\w+)(?:\s+(.*))?$", stripped)
            if m and m.group(1) not in IGNORED_DEFINES:
                value = (m.group(2) or "").strip()
                if not re.fullmatch(r"[\w\s()*+\-]+", value) or not value:
                    raise HeaderError("#define %s has a value the generator cannot translate: %r"
                                      % (m.group(1), value))
                defines.append((m.group(1), strip_outer_parens(value)))
            body.append("")
        else:
            body.append(line)
    return defines, "\n".join(body)


def strip_outer_parens(value):
    """'(-1)' -> '-1': Rust warns about parentheses around a whole constant."""
    while value.startswith("(") and value.endswith(")"):
        depth = 0
        for i, ch in enumerate(value):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0 and i < len(value) - 1:
                return value  # "(a) + (b)": the first parenthesis closes early
        value = value[1:-1].strip()
    return value


def statements(text):
    """Top-level statements, split at semicolons outside braces."""
    text = re.sub(r'extern\s+"C"\s*\{', "", text)
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:  # the closing brace of extern "C"
                depth = 0
                continue
        if ch == ";" and depth == 0:
            stmt = " ".join("".join(cur).split())
            if stmt:
                out.append(stmt)
            cur = []
        else:
            cur.append(ch)
    rest = " ".join("".join(cur).split())
    if rest:
        raise HeaderError("text after the last declaration: %r" % rest)
    return out


def rust_type(decl_tokens, what, in_params):
    """Translate a C type (tokens without the declared name) to Rust."""
    toks = [t for t in decl_tokens if t != "struct"]
    base_const = False
    base = []
    i = 0
    while i < len(toks) and toks[i] != "*":
        if toks[i] == "const":
            base_const = True
        else:
            base.append(toks[i])
        i += 1
    if len(base) != 1:
        raise HeaderError("%s: cannot translate type %r" % (what, " ".join(decl_tokens)))
    name = base[0]
    rust = SCALARS.get(name, name)
    if name not in SCALARS and not name.startswith("skn_"):
        raise HeaderError("%s: unknown type %r" % (what, name))
    pointee_const = base_const
    while i < len(toks):
        if toks[i] != "*":
            raise HeaderError("%s: cannot translate type %r" % (what, " ".join(decl_tokens)))
        rust = ("*const " if pointee_const else "*mut ") + rust
        i += 1
        pointee_const = False
        if i < len(toks) and toks[i] == "const":
            pointee_const = True  # the pointer itself is const: the next level points to const
            i += 1
    if rust == "c_void" and not in_params:
        return None  # a void return
    if rust == "c_void":
        raise HeaderError("%s: a void parameter that is not a pointer" % what)
    return rust


def tokenize(decl):
    return re.findall(r"\w+|\*|\[|\]|,|\(|\)", decl)


def declarator(decl, what, in_params):
    """'const int64_t* shape' or 'int64_t shape[4]' -> (name, rust type, array length or None)."""
    toks = tokenize(decl)
    array = None
    if len(toks) >= 4 and toks[-1] == "]" and toks[-3] == "[":
        array = toks[-2]
        toks = toks[:-3]
    if not toks or not re.fullmatch(r"[A-Za-z_]\w*", toks[-1]) or len(toks) < 2:
        raise HeaderError("%s: cannot read declarator %r" % (what, decl))
    name = toks[-1]
    rust = rust_type(toks[:-1], "%s %s" % (what, name), in_params=True)
    if array is not None:
        if in_params:  # an array parameter is a pointer
            rust = "*mut " + rust
            array = None
        else:
            rust = "[%s; %s]" % (rust, array)
    return name, rust


def params(text, what):
    text = text.strip()
    if text == "void":
        return []
    return [declarator(p, what, in_params=True) for p in text.split(",")]


def fn_signature(ps, ret):
    args = ", ".join("%s: %s" % (ident(n), t) for n, t in ps)
    return "(%s)%s" % (args, " -> " + ret if ret else "")


def parse(header_text):
    defines, body = split_preprocessor(strip_comments(header_text))
    items = []  # (kind, data) in header order
    for stmt in statements(body):
        m = re.fullmatch(r"typedef enum (\w+) \{(.*)\} (\w+)", stmt)
        if m:
            if m.group(1) != m.group(3):
                raise HeaderError("enum %s is typedef'd as %s" % (m.group(1), m.group(3)))
            values = []
            for entry in m.group(2).split(","):
                entry = entry.strip()
                if not entry:
                    continue
                em = re.fullmatch(r"(\w+) = (-?\d+)", entry)
                if not em:
                    raise HeaderError("enum %s: constant without an integer value: %r" % (m.group(1), entry))
                values.append((em.group(1), int(em.group(2))))
            items.append(("enum", (m.group(1), values)))
            continue
        m = re.fullmatch(r"typedef struct (\w+) \{(.*)\} (\w+)", stmt)
        if m:
            name = m.group(1)
            fields = []
            for field in m.group(2).split(";"):
                field = field.strip()
                if not field:
                    continue
                # "int64_t n, out, in": one type, several names
                parts = [p.strip() for p in field.split(",")]
                first = tokenize(parts[0])
                fname, ftype = declarator(parts[0], "struct " + name, in_params=False)
                fields.append((fname, ftype))
                for extra in parts[1:]:
                    if not re.fullmatch(r"\w+", extra) or "*" in first:
                        raise HeaderError("struct %s: cannot read field list %r" % (name, field))
                    fields.append((extra, ftype))
            items.append(("struct", (name, fields)))
            continue
        m = re.fullmatch(r"typedef struct (\w+) (\w+)", stmt)
        if m and m.group(1) == m.group(2):
            items.append(("opaque", m.group(1)))
            continue
        m = re.fullmatch(r"typedef (.+?) ?\( ?\* ?(\w+) ?\) ?\((.*)\)", stmt)
        if m:
            ret = rust_type(tokenize(m.group(1)), m.group(2), in_params=False)
            items.append(("fnptr", (m.group(2), params(m.group(3), m.group(2)), ret)))
            continue
        m = re.fullmatch(r"SKN_API (.+?) ?\b(skn_\w+) ?\((.*)\)", stmt)
        if m:
            ret = rust_type(tokenize(m.group(1)), m.group(2), in_params=False)
            items.append(("fn", (m.group(2), params(m.group(3), m.group(2)), ret)))
            continue
        raise HeaderError("a declaration the generator does not understand: %r" % stmt)
    return defines, items


def render_rust(defines, items):
    out = [
        "// SPDX-License-Identifier: MIT",
        "// @generated by bindings/rust/skn-sys/gen_sys.py from include/skn/skn.h: do not edit.",
        "// Regenerate with `python3 bindings/rust/skn-sys/gen_sys.py`; the ctest",
        "// rust_sys_in_sync fails while this file and the header disagree.",
        "",
        "//! Raw declarations of libskn's C API (`skn/skn.h`), one for one.",
        "//!",
        "//! Every item has the name it has in the header, and the header is its",
        "//! documentation: ownership, errors and the threads contract are stated",
        "//! there. C enums are `c_int` type aliases with one constant per value, so",
        "//! a value this crate does not know (from a newer library) is still a valid",
        "//! Rust value. The safe interface is the `skn` crate.",
        "#![allow(non_camel_case_types, non_upper_case_globals, clippy::upper_case_acronyms)]",
        "",
        "pub use std::os::raw::{c_char, c_int, c_uint, c_void};",
        "",
    ]
    for name, value in defines:
        out.append("pub const %s: c_int = %s;" % (name, value))
    out.append("")
    for kind, data in items:
        if kind == "enum":
            name, values = data
            out.append("pub type %s = c_int;" % name)
            for cname, v in values:
                out.append("pub const %s: %s = %d;" % (cname, name, v))
            out.append("")
        elif kind == "struct":
            name, fields = data
            out.append("#[repr(C)]")
            out.append("#[derive(Debug, Copy, Clone)]")
            out.append("pub struct %s {" % name)
            for fname, ftype in fields:
                out.append("    pub %s: %s," % (ident(fname), ftype))
            out.append("}")
            out.append("")
        elif kind == "opaque":
            out.append("/// An opaque handle: only pointers to it exist.")
            out.append("#[repr(C)]")
            out.append("pub struct %s {" % data)
            out.append("    _private: [u8; 0],")
            out.append("    _not_send_sync_or_unpin: core::marker::PhantomData<(*mut u8, core::marker::PhantomPinned)>,")
            out.append("}")
            out.append("")
        elif kind == "fnptr":
            name, ps, ret = data
            out.append('pub type %s = Option<unsafe extern "C" fn%s>;' % (name, fn_signature(ps, ret)))
            out.append("")
    out.append('extern "C" {')
    for kind, data in items:
        if kind == "fn":
            name, ps, ret = data
            out.append("    pub fn %s%s;" % (name, fn_signature(ps, ret)))
    out.append("}")
    out.append("")
    out.append("/// Layout checks against the C compiler's view of the installed header")
    out.append("/// (build.rs compiles and runs layout_probe.c).")
    out.append("#[cfg(test)]")
    out.append("mod layout {")
    out.append("    use super::*;")
    out.append('    include!(concat!(env!("OUT_DIR"), "/c_layout.rs"));')
    out.append("")
    out.append("    #[test]")
    out.append("    fn constants_match_c() {")
    for name, _ in defines:
        out.append("        assert_eq!(%s as i64, C_%s, \"%s\");" % (name, name, name))
    for kind, data in items:
        if kind == "enum":
            for cname, _ in data[1]:
                out.append("        assert_eq!(%s as i64, C_%s, \"%s\");" % (cname, cname, cname))
    out.append("    }")
    for kind, data in items:
        if kind != "struct":
            continue
        name, fields = data
        out.append("")
        out.append("    #[test]")
        out.append("    fn %s_layout_matches_c() {" % name)
        out.append("        assert_eq!(core::mem::size_of::<%s>(), C_SIZEOF_%s, \"sizeof\");" % (name, name))
        out.append("        assert_eq!(core::mem::align_of::<%s>(), C_ALIGNOF_%s, \"alignof\");" % (name, name))
        out.append("        let v = core::mem::MaybeUninit::<%s>::uninit();" % name)
        out.append("        let base = v.as_ptr() as usize;")
        for fname, _ in fields:
            out.append("        assert_eq!(unsafe { core::ptr::addr_of!((*v.as_ptr()).%s) } as usize - base, "
                       "C_OFFSETOF_%s_%s, \"%s\");" % (ident(fname), name, fname, fname))
        out.append("    }")
    out.append("}")
    out.append("")
    return "\n".join(out)


def render_probe(defines, items):
    out = [
        "/* SPDX-License-Identifier: MIT */",
        "/* @generated by bindings/rust/skn-sys/gen_sys.py from include/skn/skn.h: do not edit.",
        " * Prints, as Rust constants, what the C compiler makes of the installed",
        " * header: every constant's value and every struct's size, alignment and",
        " * field offsets. skn-sys's build.rs compiles and runs it; the generated",
        " * layout tests compare the numbers with the Rust declarations. */",
        "#include <skn/skn.h>",
        "",
        "#include <stddef.h>",
        "#include <stdio.h>",
        "",
        "int main(void) {",
    ]
    for name, _ in defines:
        out.append('    printf("pub const C_%s: i64 = %%lld;\\n", (long long)(%s));' % (name, name))
    for kind, data in items:
        if kind == "enum":
            for cname, _ in data[1]:
                out.append('    printf("pub const C_%s: i64 = %%lld;\\n", (long long)(%s));' % (cname, cname))
        elif kind == "struct":
            name, fields = data
            out.append('    printf("pub const C_SIZEOF_%s: usize = %%zu;\\n", sizeof(%s));' % (name, name))
            out.append('    printf("pub const C_ALIGNOF_%s: usize = %%zu;\\n", _Alignof(%s));' % (name, name))
            for fname, _ in fields:
                out.append('    printf("pub const C_OFFSETOF_%s_%s: usize = %%zu;\\n", offsetof(%s, %s));'
                           % (name, fname, name, fname))
    out.append("    return 0;")
    out.append("}")
    out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--header", default=DEFAULT_HEADER)
    ap.add_argument("--out-dir", default=HERE, help="where src/lib.rs and layout_probe.c go")
    ap.add_argument("--check", action="store_true",
                    help="compare with the files in --out-dir instead of writing them")
    args = ap.parse_args()
    with open(args.header, encoding="utf-8") as f:
        try:
            defines, items = parse(f.read())
        except HeaderError as e:
            print("gen_sys.py: %s: %s" % (args.header, e), file=sys.stderr)
            return 2
    outputs = {
        os.path.join("src", "lib.rs"): render_rust(defines, items),
        "layout_probe.c": render_probe(defines, items),
    }
    stale = 0
    for rel, text in outputs.items():
        path = os.path.join(args.out_dir, rel)
        if args.check:
            try:
                with open(path, encoding="utf-8") as f:
                    current = f.read()
            except FileNotFoundError:
                current = ""
            if current != text:
                stale += 1
                sys.stdout.writelines(difflib.unified_diff(
                    current.splitlines(True), text.splitlines(True), path + " (checked in)",
                    path + " (from the header)", n=2))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("gen_sys.py: %d generated file(s) disagree with %s; run python3 "
              "bindings/rust/skn-sys/gen_sys.py and commit the result" % (stale, args.header), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
