// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Helpers shared by the -sys integration tests.

use std::process::Command;

/// The C include flags of liberedu: `-I` for each folder of EREDU_INCLUDE_DIR
/// (colon-separated) when set, else `pkg-config --cflags eredu`.
pub fn include_flags() -> Vec<String> {
    if let Some(dirs) = std::env::var_os("EREDU_INCLUDE_DIR").filter(|dirs| !dirs.is_empty()) {
        return std::env::split_paths(&dirs)
            .map(|dir| format!("-I{}", dir.display()))
            .collect();
    }
    let program = std::env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_owned());
    let output = Command::new(&program)
        .args(["--cflags", "eredu"])
        .output()
        .unwrap_or_else(|error| panic!("could not run {program}: {error}"));
    assert!(
        output.status.success(),
        "`{program} --cflags eredu` failed; set PKG_CONFIG_PATH or EREDU_INCLUDE_DIR: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("pkg-config prints UTF-8")
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// C text without its `/* */` and `//` comments (the headers have no
/// comment markers inside string literals).
pub fn strip_c_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
            out.push(' ');
        } else if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |end| &after[end..]);
        } else {
            let next = rest.chars().next().unwrap();
            out.push(next);
            rest = &rest[next.len_utf8()..];
        }
    }
    out
}

/// Every `struct NAME { ... };` definition of comment-free C text, with the
/// names of its fields in order (the last identifier of each declaration).
pub fn struct_definitions(text: &str) -> Vec<(String, Vec<String>)> {
    let mut definitions = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("struct ") {
        rest = &rest[start + "struct ".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after_name = rest[name.len()..].trim_start();
        let Some(body) = after_name.strip_prefix('{') else {
            continue;
        };
        let end = body.find('}').expect("a struct body ends with }");
        let fields = body[..end]
            .split(';')
            .filter(|declaration| !declaration.trim().is_empty())
            .map(|declaration| {
                declaration
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .rfind(|word| !word.is_empty())
                    .expect("a declaration names its field")
                    .to_owned()
            })
            .collect();
        definitions.push((name, fields));
        rest = &body[end..];
    }
    definitions
}
