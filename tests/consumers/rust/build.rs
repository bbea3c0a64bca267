// SPDX-License-Identifier: MIT
// Link libskn: ask pkg-config (the program, not a crate) where it lives.
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let out = Command::new("pkg-config")
        .args(["--libs-only-L", "skn"])
        .output()
        .expect("pkg-config must be installed");
    if !out.status.success() {
        panic!(
            "pkg-config --libs skn failed (is libskn-dev installed?): {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for flag in String::from_utf8_lossy(&out.stdout).split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
        }
    }
    println!("cargo:rustc-link-lib=dylib=skn");
}
