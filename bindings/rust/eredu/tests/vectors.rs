// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The shared test vectors (tests/vectors/README.md): every case of
//! cases.txt runs through liberedu via the safe API, and the text the
//! library returns must equal expected/<name>.out byte for byte. Inputs are
//! handed over as bytes and outputs compared as bytes: no JSON is parsed.
//!
//! The folder is tests/vectors of this repository (located from
//! CARGO_MANIFEST_DIR), or EREDU_VECTORS_DIR when set. The test is skipped
//! with a message only while expected/ does not exist yet.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use eredu::{
    check_json, plan_world_json, CheckOptions, Error, ModelDescription, ParallelTopology,
    PlanOptions, ShardingPolicy,
};

fn vectors_dir() -> PathBuf {
    match std::env::var_os("EREDU_VECTORS_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/vectors"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Layout,
    World,
    Check,
}

/// One line of cases.txt.
#[derive(Debug)]
struct Case {
    line: usize,
    name: String,
    op: Op,
    groups: PathBuf,
    topology: ParallelTopology,
    rank: u64,
    /// `pp_layers=`: the decoder layers of each pipeline stage (empty:
    /// balanced stages).
    pipeline_layers: Vec<u64>,
    policy: ShardingPolicy,
    residency: Option<PathBuf>,
    device_budget: Option<u64>,
}

/// Parses cases.txt by hand; a malformed line is an error of the runner
/// (a panic naming the line), not of the case.
fn parse_cases(dir: &Path, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line_number = number + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |message: String| -> ! { panic!("cases.txt:{line_number}: {message}") };
        let mut fields = BTreeMap::new();
        for token in line.split_whitespace() {
            let Some((key, value)) = token.split_once('=') else {
                fail(format!("{token:?} is not key=value"));
            };
            if fields.insert(key, value).is_some() {
                fail(format!("key {key:?} given twice"));
            }
        }
        let number = |key: &str, default: u64| -> u64 {
            fields.get(key).map_or(default, |value| {
                value
                    .parse()
                    .unwrap_or_else(|_| fail(format!("{key}={value} is not a decimal u64")))
            })
        };
        for key in fields.keys() {
            if ![
                "name",
                "op",
                "groups",
                "tp",
                "pp",
                "ep",
                "dp",
                "rank",
                "pp_layers",
                "policy",
                "residency",
                "device_budget",
            ]
            .contains(key)
            {
                fail(format!("unknown key {key:?}"));
            }
        }
        // Comma-separated decimal counts, at least one, none empty.
        let pipeline_layers = fields.get("pp_layers").map_or_else(Vec::new, |value| {
            value
                .split(',')
                .map(|count| {
                    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
                        fail(format!(
                            "pp_layers={value} is not comma-separated decimal u64s"
                        ));
                    }
                    count.parse().unwrap_or_else(|_| {
                        fail(format!("pp_layers={value}: {count} overflows u64"))
                    })
                })
                .collect()
        });
        let required = |key: &str| -> &str {
            fields
                .get(key)
                .copied()
                .unwrap_or_else(|| fail(format!("missing {key}=")))
        };
        let name = required("name").to_owned();
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_.-".contains(&b))
        {
            fail(format!("name {name:?} is not [a-z0-9_.-]+"));
        }
        let op = match required("op") {
            "layout" => Op::Layout,
            "world" => Op::World,
            "check" => Op::Check,
            other => fail(format!("unknown op {other:?}")),
        };
        let policy = match fields.get("policy").copied() {
            None | Some("require") => ShardingPolicy::Require,
            Some("replicate-unsupported") => ShardingPolicy::ReplicateUnsupported,
            Some("require-even") => ShardingPolicy::RequireEven,
            Some(other) => fail(format!("unknown policy {other:?}")),
        };
        // As the generator: a key the op has no use for is a runner error.
        if op != Op::Layout && fields.contains_key("rank") {
            fail("rank= is for op=layout only".into());
        }
        if op != Op::Check
            && (fields.contains_key("residency") || fields.contains_key("device_budget"))
        {
            fail("residency= and device_budget= are for op=check only".into());
        }
        cases.push(Case {
            line: line_number,
            name,
            op,
            groups: dir.join(required("groups")),
            topology: ParallelTopology::new(
                number("tp", 1),
                number("pp", 1),
                number("ep", 1),
                number("dp", 1),
            ),
            rank: number("rank", 0),
            pipeline_layers,
            policy,
            residency: fields.get("residency").map(|path| dir.join(path)),
            device_budget: fields
                .contains_key("device_budget")
                .then(|| number("device_budget", 0)),
        });
    }
    cases
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// The output of one case planned on `threads` threads (0: the library's
/// choice): the returned text, or the error line.
fn run(case: &Case, threads: u32) -> Vec<u8> {
    let options = || {
        PlanOptions::new()
            .with_policy(case.policy)
            .with_threads(threads)
            .with_pipeline_layers(case.pipeline_layers.as_slice())
    };
    let result = ModelDescription::from_json(read(&case.groups)).and_then(|model| match case.op {
        Op::Layout => model
            .plan_rank(case.topology, case.rank, options())
            .and_then(|layout| layout.to_json()),
        Op::World => plan_world_json(&model, case.topology, options()),
        Op::Check => {
            let residency = case.residency.as_deref().map(read);
            let check = CheckOptions {
                residency_json: residency.as_deref(),
                device_budget_bytes: case.device_budget,
            };
            check_json(&model, case.topology, options(), &check)
        }
    });
    match result {
        Ok(text) => text.into_bytes(),
        Err(error) => error_lines(&error).into_bytes(),
    }
}

/// The error output of a failed case: the `error[...]` line, then one
/// `problem <i>: ...` line per problem when the error lists more than one.
fn error_lines(error: &Error) -> String {
    let mut text = format!("{error}\n");
    if error.problems().len() > 1 {
        for (index, problem) in error.problems().iter().enumerate() {
            text += &format!(
                "problem {index}: error[{}] {} group {} tensor {}: {}\n",
                problem.name(),
                problem.status(),
                problem.group().unwrap_or("-"),
                problem.tensor().unwrap_or("-"),
                problem.message()
            );
        }
    }
    text
}

/// Where two outputs first differ, for the failure message.
fn difference(actual: &[u8], expected: &[u8]) -> String {
    let at = actual
        .iter()
        .zip(expected)
        .position(|(a, e)| a != e)
        .unwrap_or(actual.len().min(expected.len()));
    let around = |text: &[u8]| {
        let start = at.saturating_sub(60);
        let end = (at + 60).min(text.len());
        String::from_utf8_lossy(&text[start.min(end)..end]).into_owned()
    };
    format!(
        "first difference at byte {at} (lengths {} and {}):\n  got      …{}…\n  expected …{}…",
        actual.len(),
        expected.len(),
        around(actual),
        around(expected)
    )
}

/// Runs every case of cases.txt on `threads` threads and compares it with
/// its expected output.
fn check_every_case(threads: u32) {
    let dir = vectors_dir();
    let expected_dir = dir.join("expected");
    if !expected_dir.is_dir() {
        eprintln!(
            "SKIPPED: {} does not exist yet (generate it with scripts/regenerate-vectors)",
            expected_dir.display()
        );
        return;
    }
    let cases = parse_cases(
        &dir,
        &String::from_utf8(read(&dir.join("cases.txt"))).unwrap(),
    );
    assert!(!cases.is_empty(), "cases.txt holds no case");

    let mut failures = Vec::new();
    for case in &cases {
        let expected = read(&expected_dir.join(format!("{}.out", case.name)));
        let actual = run(case, threads);
        if actual != expected {
            failures.push(format!(
                "cases.txt:{} {}: {}",
                case.line,
                case.name,
                difference(&actual, &expected)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors differ on {threads} threads (0: the library's choice):\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("{} vectors match byte for byte", cases.len());
}

#[test]
fn every_case_matches_its_expected_output_byte_for_byte() {
    check_every_case(0);
}

/// The output never depends on the thread count: the same bytes when the
/// library plans on the calling thread only.
#[test]
fn every_case_matches_on_the_calling_thread_only() {
    check_every_case(1);
}

#[test]
fn case_names_are_unique() {
    let dir = vectors_dir();
    let Ok(text) = fs::read_to_string(dir.join("cases.txt")) else {
        eprintln!("SKIPPED: no cases.txt in {}", dir.display());
        return;
    };
    let mut seen = BTreeMap::new();
    for case in parse_cases(&dir, &text) {
        if let Some(line) = seen.insert(case.name.clone(), case.line) {
            panic!("case {} on lines {line} and {}", case.name, case.line);
        }
    }
}
