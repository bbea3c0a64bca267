// SPDX-License-Identifier: MIT
// Link libskn where pkg-config (the program, not the crate: this builds
// offline) says it is installed, and run the layout probe: a C program,
// generated with src/lib.rs, that prints what the C compiler makes of the
// installed skn.h, for the layout tests to compare with the Rust structs.
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn pkg_config(args: &[&str]) -> String {
    let out = Command::new("pkg-config")
        .args(args)
        .arg("skn")
        .output()
        .unwrap_or_else(|e| panic!("skn-sys: cannot run pkg-config ({}): install pkg-config and libskn-dev", e));
    if !out.status.success() {
        panic!(
            "skn-sys: `pkg-config {} skn` failed: {}is libskn-dev installed, or PKG_CONFIG_PATH set to its prefix?",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn main() {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-changed=layout_probe.c");
    for flag in pkg_config(&["--libs-only-L"]).split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
        }
    }
    println!("cargo:rustc-link-lib=dylib=skn");
    let includedir = pkg_config(&["--variable=includedir"]);
    println!("cargo:include={}", includedir);

    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let layout = out_dir.join("c_layout.rs");
    // The probe only feeds the tests; a machine without a C compiler still
    // builds the crate, and its layout tests fail saying why.
    match run_probe(&out_dir) {
        Ok(text) => fs::write(&layout, text).expect("write c_layout.rs"),
        Err(why) => {
            println!("cargo:warning=skn-sys: layout probe not run: {}", why);
            let msg = format!("compile_error!(\"skn-sys layout probe not run: {}\");\n", why.replace('"', "'"));
            fs::write(&layout, msg).expect("write c_layout.rs");
        }
    }
}

fn run_probe(out_dir: &Path) -> Result<String, String> {
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let exe = out_dir.join("layout_probe");
    let mut cmd = Command::new(&cc);
    cmd.arg("-std=c11").arg("-o").arg(&exe).arg("layout_probe.c");
    cmd.args(pkg_config(&["--cflags"]).split_whitespace());
    let built = cmd.output().map_err(|e| format!("cannot run the C compiler {} ({}); set CC", cc, e))?;
    if !built.status.success() {
        return Err(format!("{} failed: {}", cc, String::from_utf8_lossy(&built.stderr)));
    }
    let ran = Command::new(&exe).output().map_err(|e| format!("cannot run {} ({})", exe.display(), e))?;
    if !ran.status.success() {
        return Err(format!("{} failed", exe.display()));
    }
    Ok(String::from_utf8_lossy(&ran.stdout).into_owned())
}
