// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Finds liberedu for the linker: `EREDU_LIB_DIR` when set (a directory
//! holding liberedu.so), else the `pkg-config` program (`pkg-config
//! --libs-only-L --libs-only-l eredu`, honouring `PKG_CONFIG_PATH` and the
//! `PKG_CONFIG` program override). No crates are used, so it builds offline.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    for variable in [
        "EREDU_LIB_DIR",
        "PKG_CONFIG",
        "PKG_CONFIG_PATH",
        "PKG_CONFIG_LIBDIR",
        "PKG_CONFIG_SYSROOT_DIR",
    ] {
        println!("cargo:rerun-if-env-changed={variable}");
    }
    println!("cargo:rerun-if-changed=build.rs");

    if let Some(dir) = env::var_os("EREDU_LIB_DIR").filter(|dir| !dir.is_empty()) {
        let dir = Path::new(&dir);
        if !dir.join("liberedu.so").is_file() {
            panic!(
                "EREDU_LIB_DIR={} holds no liberedu.so; point it at the folder holding the \
                 library's link name liberedu.so (for a meson build tree: BUILD/capi)",
                dir.display()
            );
        }
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=dylib=eredu");
        println!("cargo:lib_dir={}", dir.display());
        return;
    }

    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_owned());
    let command = format!("{program} --libs-only-L --libs-only-l eredu");
    let output = Command::new(&program)
        .args(["--libs-only-L", "--libs-only-l", "eredu"])
        .output();
    let flags = match output {
        Ok(output) if output.status.success() => String::from_utf8(output.stdout)
            .unwrap_or_else(|_| panic!("`{command}` printed non-UTF-8 text")),
        Ok(output) => panic!(
            "liberedu not found: `{command}` failed ({}): {}\n\
             Set PKG_CONFIG_PATH to the folder of eredu.pc (for a meson build tree: \
             BUILD/capi, holding eredu-uninstalled.pc) or EREDU_LIB_DIR to the \
             folder holding liberedu.so.",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ),
        Err(error) => panic!(
            "liberedu not found: could not run `{program}` ({error}).\n\
             Install pkg-config and set PKG_CONFIG_PATH to the folder of eredu.pc, or set \
             EREDU_LIB_DIR to the folder holding liberedu.so."
        ),
    };

    let mut linked = false;
    for flag in flags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
            println!("cargo:lib_dir={dir}");
        } else if let Some(name) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={name}");
            linked |= name == "eredu";
        }
    }
    if !linked {
        panic!("`{command}` printed no -leredu: {}", flags.trim());
    }
}
