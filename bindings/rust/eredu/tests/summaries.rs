// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The one-call records read back from the library: a group's info, a
//! parallel model's summary and a layerwise snapshot
//! (docs/planning.md, "Parallel model info"; docs/residency.md, "Layerwise
//! model metadata").

use eredu::{
    Dtype, ErrorCode, ExecutionResidency, GroupScope, LayerwiseModelMetadata,
    LayerwiseModelMetadataInfo, LinearFormat, MemberSharding, ParallelModelInfo, ParallelTopology,
    ParameterGroupSpec, ParameterMemberSpec, ParameterRole,
};

#[test]
fn a_group_reports_its_scope_with_its_name_role_and_units() {
    let member = ParameterMemberSpec::new(
        "experts.3.up",
        [64, 16],
        MemberSharding::Partitioned { axis: 0 },
    )
    .with_dtype(Dtype::BF16);
    let group = ParameterGroupSpec::scoped(
        "layers.1.experts.3",
        ParameterRole::ExpertIntermediate,
        Some(4),
        GroupScope::Indexed {
            layer: Some(1),
            expert: Some(3),
        },
        [member.clone()],
    )
    .unwrap();
    assert_eq!(group.logical_name(), "layers.1.experts.3");
    assert_eq!(group.role(), ParameterRole::ExpertIntermediate);
    assert_eq!(group.partition_units(), Some(4));
    assert_eq!(group.member_count(), 1);
    assert_eq!(
        group.scope(),
        GroupScope::Indexed {
            layer: Some(1),
            expert: Some(3)
        }
    );
    assert_eq!(group.members().unwrap(), std::slice::from_ref(&member));
    assert_eq!(
        format!("{group:?}"),
        "ParameterGroupSpec { logical_name: \"layers.1.experts.3\", role: ExpertIntermediate, \
         partition_units: Some(4), query_units: None, vocab_pad_multiple: None, member_count: 1 }"
    );

    for scope in [
        GroupScope::All,
        GroupScope::Embedding,
        GroupScope::OutputHead,
        GroupScope::TiedEmbedding,
        GroupScope::Indexed {
            layer: None,
            expert: Some(0),
        },
    ] {
        let group = ParameterGroupSpec::scoped(
            "g",
            ParameterRole::Replicated,
            None,
            scope,
            [ParameterMemberSpec::new(
                "t",
                [2],
                MemberSharding::Replicated,
            )],
        )
        .unwrap();
        assert_eq!(group.scope(), scope);
        assert_eq!(group.partition_units(), None);
    }
    let error = ParameterGroupSpec::scoped(
        "g",
        ParameterRole::Replicated,
        None,
        GroupScope::Unknown(99),
        [ParameterMemberSpec::new(
            "t",
            [2],
            MemberSharding::Replicated,
        )],
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn a_parallel_model_info_echoes_its_inputs() {
    let info = ParallelModelInfo::new(
        ParallelTopology::new(2, 4, 1, 1),
        "llama",
        ["model.embed_tokens.weight", "lm_head.weight"],
        1_000,
        8_000,
        200,
        1_200,
    )
    .unwrap();
    assert_eq!(info.topology(), ParallelTopology::new(2, 4, 1, 1));
    assert_eq!(info.effective_model_type(), "llama");
    assert_eq!(
        info.owned_tensors(),
        ["model.embed_tokens.weight", "lm_head.weight"]
    );
    assert_eq!(info.local_parameter_bytes(), 1_000);
    assert_eq!(info.global_parameter_bytes(), 8_000);
    assert_eq!(info.pinned_device_parameter_bytes(), 200);
    assert_eq!(info.maximum_device_parameter_bytes(), 1_200);

    let empty =
        ParallelModelInfo::new(ParallelTopology::default(), "", [""; 0], 0, 0, 0, 0).unwrap();
    assert_eq!(empty.effective_model_type(), "");
    assert!(empty.owned_tensors().is_empty());

    let error = ParallelModelInfo::new(ParallelTopology::new(2, 0, 1, 1), "x", ["a"], 0, 0, 0, 0)
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::ZeroAxis);
    assert_eq!(
        error.message(),
        "parallel topology axis sizes must be positive"
    );
    let error = ParallelModelInfo::new(
        ParallelTopology::new(1 << 32, 1 << 32, 1, 1),
        "x",
        ["a"],
        0,
        0,
        0,
        0,
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::WorldSizeOverflow);
    let error =
        ParallelModelInfo::new(ParallelTopology::default(), "x", ["a\0b"], 0, 0, 0, 0).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

fn snapshot() -> LayerwiseModelMetadataInfo {
    LayerwiseModelMetadataInfo {
        effective_model_type: "qwen3".into(),
        quantization: Some(LinearFormat::Affine {
            group_size: 64,
            bits: 4,
        }),
        layer_count: 28,
        static_device_bytes: 1 << 20,
        residency: ExecutionResidency::LayerwiseHost,
        layer_parameter_bytes: 28 << 20,
        maximum_device_layer_bytes: 3 << 20,
        maximum_host_layer_bytes: 2 << 20,
        device_layer_capacity: 2,
    }
}

#[test]
fn layerwise_metadata_is_read_back_in_one_record() {
    let mut metadata = LayerwiseModelMetadata::new(&snapshot()).unwrap();
    assert_eq!(metadata.info(), snapshot());
    assert_eq!(metadata.effective_model_type(), "qwen3");

    metadata.set_effective_model_type("qwen3_moe").unwrap();
    metadata
        .set_quantization(Some(LinearFormat::Gguf { ggml_type: 12 }))
        .unwrap();
    let info = metadata.info();
    assert_eq!(info.effective_model_type, "qwen3_moe");
    assert_eq!(
        info.quantization,
        Some(LinearFormat::Gguf { ggml_type: 12 })
    );
    assert_eq!(info.layer_count, 28);

    // Dense is the seed's None.
    metadata
        .set_quantization(Some(LinearFormat::Dense))
        .unwrap();
    assert_eq!(metadata.quantization(), None);
    metadata
        .set_quantization(Some(LinearFormat::Mxfp4))
        .unwrap();
    assert_eq!(metadata.quantization(), Some(LinearFormat::Mxfp4));
    metadata.set_quantization(None).unwrap();
    assert_eq!(metadata.info().quantization, None);

    // A failed setter changes nothing.
    let error = metadata
        .set_quantization(Some(LinearFormat::Affine {
            group_size: 48,
            bits: 4,
        }))
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidFormat);
    assert_eq!(
        error.message(),
        "group_size must be 16 or a positive multiple of 32, got 48"
    );
    let error = metadata
        .set_quantization(Some(LinearFormat::BlockFp8 {
            block_rows: 128,
            block_columns: 128,
            scale_encoding: eredu::BlockFp8ScaleEncoding::Float,
        }))
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(
        metadata
            .set_effective_model_type("a\0b")
            .unwrap_err()
            .code(),
        ErrorCode::InvalidArgument
    );
    assert_eq!(metadata.quantization(), None);
    assert_eq!(metadata.effective_model_type(), "qwen3_moe");

    let error = LayerwiseModelMetadata::new(&LayerwiseModelMetadataInfo {
        residency: ExecutionResidency::Unknown(9),
        ..snapshot()
    })
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn layerwise_metadata_is_shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<LayerwiseModelMetadata>();
    let metadata = LayerwiseModelMetadata::new(&snapshot()).unwrap();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| assert_eq!(metadata.info(), snapshot()));
        }
    });
}
