// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Errors: codes, stable names and the seed's messages; the code enum is
//! current with the library and with every status constant of eredu-sys.

use std::collections::BTreeMap;
use std::ffi::CStr;

use eredu::{
    Dtype, Error, ErrorCode, MemberSharding, ModelDescription, ModelInfo, ParameterGroupSpec,
    ParameterMemberSpec, ParameterRole,
};

fn member(target: &str) -> ParameterMemberSpec {
    ParameterMemberSpec::new(target, [8, 8], MemberSharding::Replicated)
}

fn invalid_group(error: Error, message: &str) {
    assert_eq!(error.code(), ErrorCode::InvalidGroup);
    assert_eq!(error.status(), 100);
    assert_eq!(error.name(), "EREDU_E_INVALID_GROUP");
    assert_eq!(error.message(), message);
    assert_eq!(
        error.to_string(),
        format!("error[EREDU_E_INVALID_GROUP] 100: {message}")
    );
}

#[test]
fn groups_reject_duplicate_physical_targets() {
    let error = ParameterGroupSpec::new(
        "attention",
        ParameterRole::AttentionHeads,
        [member("q.weight"), member("q.weight")],
    )
    .unwrap_err();
    invalid_group(
        error,
        "parallel parameter group \"attention\" repeats tensor target \"q.weight\"",
    );
}

#[test]
fn group_partition_contract_is_explicit() {
    let partitioned = || {
        [ParameterMemberSpec::new(
            "q.weight",
            [8, 8],
            MemberSharding::Partitioned { axis: 0 },
        )]
    };
    invalid_group(
        ParameterGroupSpec::new("query", ParameterRole::AttentionHeads, partitioned()).unwrap_err(),
        "parallel parameter group \"query\" must declare exactly one group-level logical \
         partition for its partitioned members",
    );
    assert!(ParameterGroupSpec::partitioned(
        "query",
        ParameterRole::AttentionHeads,
        4,
        partitioned()
    )
    .is_ok());
    invalid_group(
        ParameterGroupSpec::partitioned("query", ParameterRole::AttentionHeads, 0, partitioned())
            .unwrap_err(),
        "parallel logical partition must contain at least one unit",
    );
}

#[test]
fn group_construction_errors_follow_the_seed_order() {
    invalid_group(
        ParameterGroupSpec::new("  ", ParameterRole::Replicated, [member("a")]).unwrap_err(),
        "parallel parameter logical name must not be empty",
    );
    invalid_group(
        ParameterGroupSpec::new("empty", ParameterRole::Replicated, []).unwrap_err(),
        "parallel parameter group \"empty\" must contain at least one tensor",
    );
    invalid_group(
        ParameterGroupSpec::new("blank", ParameterRole::Replicated, [member(" ")]).unwrap_err(),
        "parallel parameter group \"blank\" contains an empty tensor target",
    );
}

#[test]
fn arguments_the_library_refuses_are_invalid_arguments() {
    let error =
        ParameterGroupSpec::new("norm", ParameterRole::Unknown(99), [member("a")]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(error.status(), 2);
    assert_eq!(error.name(), "EREDU_E_INVALID_ARGUMENT");
    assert!(!error.message().is_empty());

    let error = ParameterGroupSpec::new(
        "norm",
        ParameterRole::Replicated,
        [member("a").with_dtype(Dtype::Unknown(1000))],
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);

    // A NUL byte cannot cross the C ABI: refused before the call.
    let error =
        ParameterGroupSpec::new("norm", ParameterRole::Replicated, [member("a\0b")]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(
        error.message(),
        "member target \"a\\0b\" contains a NUL byte at offset 1"
    );

    let info = ModelInfo {
        layers: Some(0),
        ..ModelInfo::default()
    };
    let error = ModelDescription::from_groups_with_info(&info, &[]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn load_errors_carry_the_json_pointer() {
    let error = ModelDescription::from_json("{").unwrap_err();
    assert_eq!(error.code(), ErrorCode::Parse);
    assert_eq!(error.name(), "EREDU_E_PARSE");

    let error =
        ModelDescription::from_json(r#"{"schema":"eredu.groups.v2","groups":[]}"#).unwrap_err();
    assert_eq!(error.code(), ErrorCode::UnsupportedVersion);

    let error = ModelDescription::from_json(
        r#"{"schema":"eredu.groups.v1","groups":[{"name":"g","role":"sideways","members":[]}]}"#,
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::Parse);
    assert!(
        error.message().contains("/groups/0/role"),
        "{}",
        error.message()
    );

    let error = ModelDescription::from_json([0xff, 0xfe]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Parse);
}

#[test]
fn unknown_codes_keep_their_number() {
    let code = ErrorCode::from_status(12345);
    assert_eq!(code, ErrorCode::Unknown(12345));
    assert_eq!(code.status(), 12345);
    assert_eq!(code.name(), "EREDU_E_UNKNOWN");
    assert_eq!(library_name(12345), "EREDU_E_UNKNOWN");
    assert_eq!(ErrorCode::from_status(101), ErrorCode::InvalidTensor);
    assert_eq!(ErrorCode::InvalidTensor.status(), 101);
}

fn library_name(status: i32) -> String {
    // SAFETY: eredu_status_name accepts any value and returns a static
    // NUL-terminated string.
    unsafe { CStr::from_ptr(eredu::sys::eredu_status_name(status)) }
        .to_str()
        .unwrap()
        .to_owned()
}

/// The `EREDU_E_*` constants of eredu-sys's committed bindings.
fn sys_status_constants() -> BTreeMap<i32, String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../eredu-sys/src/bindings.rs");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|line| line.strip_prefix("pub const EREDU_E_"))
        .filter_map(|rest| rest.split_once(": i32 = "))
        .map(|(name, value)| {
            (
                value.trim_end_matches(';').parse().unwrap(),
                format!("EREDU_E_{name}"),
            )
        })
        .collect()
}

#[test]
fn every_status_constant_has_a_code_with_the_library_name() {
    let constants = sys_status_constants();
    assert!(constants.len() > 50);
    assert_eq!(
        ErrorCode::ALL.len(),
        constants.len(),
        "one ErrorCode per constant"
    );
    for (status, name) in &constants {
        let code = ErrorCode::from_status(*status);
        assert!(
            !matches!(code, ErrorCode::Unknown(_)),
            "{name} has no ErrorCode variant"
        );
        assert_eq!(code.status(), *status);
        assert_eq!(code.name(), name);
        assert_eq!(&library_name(*status), name);
    }
    for code in ErrorCode::ALL {
        assert_eq!(ErrorCode::from_status(code.status()), *code);
    }
}
