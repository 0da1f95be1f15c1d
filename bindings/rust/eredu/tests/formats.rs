// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Checkpoint formats: expansion into physical companions with exact shapes
//! and dtypes, the seed's block-FP8 test, validation messages, GGML rows.

use eredu::{
    expand_linear_format_member, expand_linear_format_parameter_groups, BlockFp8ScaleEncoding,
    Dtype, ErrorCode, GgmlTypeInfo, LinearFormat, LinearFormatSpec, MemberSharding,
    ParameterGroupSpec, ParameterMemberSpec, ParameterRole,
};

fn summary(members: &[ParameterMemberSpec]) -> Vec<(&str, Vec<u64>, Option<Dtype>)> {
    members
        .iter()
        .map(|member| {
            (
                member.target(),
                member.global_shape().to_vec(),
                member.dtype(),
            )
        })
        .collect()
}

#[test]
fn affine_members_expand_into_packed_words_scales_and_biases() {
    let member = ParameterMemberSpec::new("w", [8, 64], MemberSharding::Equal { axis: 0 })
        .with_dtype(Dtype::BF16);
    let spec = LinearFormatSpec::affine(
        LinearFormat::Affine {
            group_size: 32,
            bits: 4,
        },
        "w.scales",
        "w.biases",
    );
    assert_eq!(spec.scale(), Some("w.scales"));
    assert_eq!(spec.affine_bias(), Some("w.biases"));
    let expanded = expand_linear_format_member(&member, &spec).unwrap();
    assert_eq!(
        summary(&expanded),
        [
            ("w", vec![8, 8], Some(Dtype::U32)),
            ("w.scales", vec![8, 2], Some(Dtype::BF16)),
            ("w.biases", vec![8, 2], Some(Dtype::BF16)),
        ]
    );
    assert!(expanded
        .iter()
        .all(|member| member.sharding() == &MemberSharding::Equal { axis: 0 }));

    let f16 = expand_linear_format_member(&member, &spec.clone().with_companion_dtype(Dtype::F16))
        .unwrap();
    assert_eq!(f16[1].dtype(), Some(Dtype::F16));
    assert_eq!(f16[2].dtype(), Some(Dtype::F16));
}

#[test]
fn mxfp4_and_gguf_members_expand_to_their_packed_shapes() {
    let member = ParameterMemberSpec::new("e", [4, 64], MemberSharding::Replicated);
    let mxfp4 = expand_linear_format_member(
        &member,
        &LinearFormatSpec::scaled(LinearFormat::Mxfp4, "e.scales"),
    )
    .unwrap();
    assert_eq!(
        summary(&mxfp4),
        [
            ("e", vec![4, 8], Some(Dtype::U32)),
            ("e.scales", vec![4, 2], Some(Dtype::F8E8M0)),
        ]
    );

    let q4_k = GgmlTypeInfo::by_name("Q4_K").unwrap();
    assert_eq!(
        q4_k,
        GgmlTypeInfo {
            code: 12,
            name: "Q4_K",
            block_values: 256,
            block_bytes: 144
        }
    );
    assert_eq!(GgmlTypeInfo::by_code(12).unwrap(), q4_k);
    let member = ParameterMemberSpec::new("g", [16, 512], MemberSharding::Equal { axis: 0 });
    let gguf = expand_linear_format_member(
        &member,
        &LinearFormatSpec::unscaled(LinearFormat::Gguf { ggml_type: 12 }),
    )
    .unwrap();
    assert_eq!(summary(&gguf), [("g", vec![16, 288], Some(Dtype::U8))]);

    assert_eq!(
        GgmlTypeInfo::by_name("Q9_Z").unwrap_err().code(),
        ErrorCode::NotFound
    );
    assert_eq!(
        GgmlTypeInfo::by_code(4).unwrap_err().message(),
        "unsupported GGML tensor type 4"
    );
}

#[test]
fn fp8_expansion_uses_architecture_declared_companion_identity() {
    let groups = vec![ParameterGroupSpec::partitioned(
        "query",
        ParameterRole::AttentionHeads,
        8,
        [ParameterMemberSpec::new(
            "opaque_matrix",
            [256, 256],
            MemberSharding::Partitioned { axis: 0 },
        )],
    )
    .unwrap()];
    let format = LinearFormat::BlockFp8 {
        block_rows: 128,
        block_columns: 128,
        scale_encoding: BlockFp8ScaleEncoding::Ue8m0,
    };
    format.validate().unwrap();

    let expanded = expand_linear_format_parameter_groups(groups, |_| {
        Ok(Some(LinearFormatSpec::scaled(format, "opaque_scale")))
    })
    .unwrap();
    assert_eq!(expanded.len(), 1);
    assert_eq!(expanded[0].partition_units(), Some(2));
    let members = expanded[0].members().unwrap();
    assert_eq!(members.len(), 2);
    assert_eq!(
        members
            .iter()
            .map(ParameterMemberSpec::target)
            .collect::<Vec<_>>(),
        ["opaque_matrix", "opaque_scale"]
    );
    assert_eq!(members[1].global_shape(), [2, 2]);
    assert_eq!(
        members[1].sharding(),
        &MemberSharding::Partitioned { axis: 0 }
    );
    assert_eq!(members[1].dtype(), Some(Dtype::F8E8M0));
}

#[test]
fn groups_without_a_declaration_are_kept() {
    let group = ParameterGroupSpec::partitioned(
        "mlp",
        ParameterRole::FeedForwardIntermediate,
        6,
        [ParameterMemberSpec::new(
            "up",
            [12, 4],
            MemberSharding::Partitioned { axis: 0 },
        )],
    )
    .unwrap();
    let kept = expand_linear_format_parameter_groups([group], |_| Ok(None)).unwrap();
    assert_eq!(kept[0].partition_units(), Some(6));
    assert_eq!(kept[0].member_count(), 1);
}

#[test]
fn invalid_formats_have_the_seed_messages() {
    let invalid = |format: LinearFormat, message: &str| {
        let error = format.validate().unwrap_err();
        assert_eq!(error.code(), ErrorCode::InvalidFormat);
        assert_eq!(error.status(), 700);
        assert_eq!(error.message(), message);
    };
    invalid(
        LinearFormat::Affine {
            group_size: 48,
            bits: 4,
        },
        "group_size must be 16 or a positive multiple of 32, got 48",
    );
    invalid(
        LinearFormat::Affine {
            group_size: 64,
            bits: 7,
        },
        "bits must be one of 2, 3, 4, 5, 6, or 8, got 7",
    );
    invalid(
        LinearFormat::Gguf { ggml_type: 4 },
        "unsupported GGML tensor type 4",
    );
    invalid(
        LinearFormat::BlockFp8 {
            block_rows: 0,
            block_columns: 128,
            scale_encoding: BlockFp8ScaleEncoding::Float,
        },
        "block-FP8 geometry must be positive, got [0, 128]",
    );
    LinearFormat::Dense.validate().unwrap();

    let spec = LinearFormatSpec::affine(LinearFormat::Mxfp4, "s", "s");
    assert_eq!(
        spec.validate().unwrap_err().code(),
        ErrorCode::InvalidFormat
    );
    let error = LinearFormatSpec::scaled(LinearFormat::Dense, "s")
        .validate()
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidFormat);

    // An unvalidated spec fails as the seed's expansion does.
    let member = ParameterMemberSpec::new("d", [4, 4], MemberSharding::Replicated);
    let error = expand_linear_format_member(
        &member,
        &LinearFormatSpec::scaled(LinearFormat::Dense, "d.scale").unvalidated(),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidGroup);
    assert_eq!(
        error.message(),
        "dense linear parameter d declares physical companions"
    );
}
