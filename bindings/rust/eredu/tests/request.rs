// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The normalized cold-load request (seed `NormalizedLoadRequest`;
//! docs/residency.md, "Load requests"): the default, parallel
//! execution, completion slots, drafting, quantization lowering and the
//! preparation policy, with the seed's error texts.

use eredu::{
    CacheResidencyPolicy, CommunicationCompletionPolicy, CompletionCancellationMode,
    DenseDiskStreamLoadOptions, DraftingLoadRequest, DraftingPlan, Error, ErrorCode,
    NormalizedLoadRequest, ParallelLoadRequest, ParallelTopology, PipelineActivationDtype,
    PreparationPolicy, QuantizationRequest, ResidencyRequest, WeightResidency,
};

fn failure(error: Error, code: ErrorCode, message: &str) {
    assert_eq!(error.code(), code);
    assert_eq!(error.message(), message);
}

fn parallel(topology: ParallelTopology, rank: u64, batch: i32) -> ParallelLoadRequest {
    ParallelLoadRequest {
        topology,
        rank,
        activation_dtype: PipelineActivationDtype::BFloat16,
        maximum_batch_size: batch,
        maximum_sequence_length: 4096,
        completion: CommunicationCompletionPolicy {
            timeout_millis: 5000,
            cancellation: CompletionCancellationMode::NativeCancel,
        },
    }
}

#[test]
fn the_default_request_prepares_a_fully_resident_model() {
    let request = NormalizedLoadRequest::new().unwrap();
    assert_eq!(request.quantization(), None);
    assert_eq!(request.parallel_execution(), None);
    assert_eq!(request.max_cached_shards(), 4);
    assert_eq!(request.drafting(), DraftingLoadRequest::ArchitectureDefault);
    assert_eq!(request.state_residency(), CacheResidencyPolicy::Device);
    assert!(!request.prompt_cache_persistence());
    assert_eq!(request.required_session_capabilities(), 0);
    assert_eq!(request.communication_completion_policy(), Ok(None));
    assert_eq!(
        request.realtime_completion_policy(),
        CommunicationCompletionPolicy::default()
    );
    assert_eq!(request.weight_residency(7).device_depth, 7);
    assert_eq!(
        request.validate_model_preparation(),
        Ok(PreparationPolicy {
            quantization: None,
            residency: ResidencyRequest::FullyResident,
            topology: None,
            required_session_capabilities: 0,
        })
    );
}

#[test]
fn a_parallel_request_carries_its_topology_and_completion() {
    let request = NormalizedLoadRequest::with_quantization(QuantizationRequest::Affine {
        group_size: 64,
        bits: 4,
    })
    .unwrap()
    .with_parallel_execution(parallel(ParallelTopology::tensor_parallel(2), 1, 8))
    .unwrap()
    .with_weight_residency(WeightResidency::dense_disk_stream(
        DenseDiskStreamLoadOptions::default(),
    ))
    .unwrap()
    .with_required_session_capabilities(5)
    .unwrap()
    .with_state_residency(CacheResidencyPolicy::Paged)
    .unwrap()
    .with_prompt_cache_persistence(true)
    .unwrap()
    .with_max_cached_shards(16)
    .unwrap();
    assert_eq!(
        request.parallel_execution(),
        Some(parallel(ParallelTopology::tensor_parallel(2), 1, 8))
    );
    assert_eq!(request.max_cached_shards(), 16);
    assert_eq!(request.weight_residency(10).device_depth, 2);
    assert_eq!(request.state_residency(), CacheResidencyPolicy::Paged);
    assert!(request.prompt_cache_persistence());
    assert_eq!(
        request.communication_completion_policy(),
        Ok(Some(CommunicationCompletionPolicy {
            timeout_millis: 5000,
            cancellation: CompletionCancellationMode::NativeCancel,
        }))
    );
    assert_eq!(
        request.validate_model_preparation(),
        Ok(PreparationPolicy {
            quantization: Some(QuantizationRequest::Affine {
                group_size: 64,
                bits: 4
            }),
            residency: ResidencyRequest::DenseDiskStream,
            topology: Some(ParallelTopology::tensor_parallel(2)),
            required_session_capabilities: 5,
        })
    );

    // A policy set after parallel execution goes into the parallel request.
    let mut request = request;
    let local = CommunicationCompletionPolicy {
        timeout_millis: 100,
        cancellation: CompletionCancellationMode::QuarantineUntilComplete,
    };
    request.set_communication_completion_policy(local).unwrap();
    assert_eq!(request.parallel_execution().unwrap().completion, local);
}

#[test]
fn parallel_requests_fail_in_the_seed_order() {
    let attach = |parallel| {
        NormalizedLoadRequest::new()
            .unwrap()
            .with_parallel_execution(parallel)
            .unwrap_err()
    };
    assert_eq!(
        attach(parallel(ParallelTopology::new(2, 0, 1, 1), 0, 1)).code(),
        ErrorCode::ZeroAxis
    );
    assert_eq!(
        attach(parallel(ParallelTopology::tensor_parallel(2), 2, 1)).code(),
        ErrorCode::RankOutOfRange
    );
    failure(
        attach(parallel(ParallelTopology::default(), 0, 1)),
        ErrorCode::ReplicatedParallelTopology,
        "explicit parallel execution requires a non-replicated topology",
    );
    failure(
        attach(parallel(ParallelTopology::tensor_parallel(2), 0, 0)),
        ErrorCode::InvalidInvocationLimits,
        "partitioned invocation limits must be positive, got batch 0 and sequence 4096",
    );
    let mut zero = parallel(ParallelTopology::tensor_parallel(2), 0, 1);
    zero.completion.timeout_millis = 0;
    assert_eq!(attach(zero).code(), ErrorCode::InvalidCompletionPolicy);

    let local = NormalizedLoadRequest::new()
        .unwrap()
        .with_communication_completion_policy(CommunicationCompletionPolicy::default())
        .unwrap();
    failure(
        local.validate_model_preparation().unwrap_err(),
        ErrorCode::OrphanedModelCompletion,
        "a communication completion policy requires a parallel topology",
    );
    failure(
        local.communication_completion_policy().unwrap_err(),
        ErrorCode::OrphanedModelCompletion,
        "a communication completion policy requires a parallel topology",
    );
    failure(
        local
            .with_parallel_execution(parallel(ParallelTopology::tensor_parallel(2), 0, 1))
            .unwrap_err(),
        ErrorCode::ConflictingCompletionPolicy,
        "parallel execution cannot replace an existing local completion policy",
    );
}

#[test]
fn drafting_plans_lower_to_drafting_intent() {
    let request = NormalizedLoadRequest::new()
        .unwrap()
        .with_drafting_plan(&DraftingPlan::Embedded {
            max_draft_tokens: 3,
        })
        .unwrap();
    assert_eq!(
        request.drafting(),
        DraftingLoadRequest::Embedded {
            max_draft_tokens: 3
        }
    );
    let request = request.with_drafting_plan(&DraftingPlan::External).unwrap();
    assert_eq!(request.drafting(), DraftingLoadRequest::ExternalTarget);
    let request = request
        .with_drafting(DraftingLoadRequest::Disabled)
        .unwrap();
    assert_eq!(request.drafting(), DraftingLoadRequest::Disabled);

    let fresh = || NormalizedLoadRequest::new().unwrap();
    failure(
        fresh()
            .with_drafting_plan(&DraftingPlan::Embedded {
                max_draft_tokens: 0,
            })
            .unwrap_err(),
        ErrorCode::ZeroEmbeddedDraftCapacity,
        "embedded draft capacity must be positive",
    );
    failure(
        fresh()
            .with_drafting_plan(&DraftingPlan::Unknown(7))
            .unwrap_err(),
        ErrorCode::UnsupportedDraftingPlan,
        "unsupported speculative drafting plan",
    );
    failure(
        fresh().with_max_cached_shards(0).unwrap_err(),
        ErrorCode::ZeroCachedShards,
        "source reader-cache limit must be positive",
    );
    assert_eq!(
        fresh()
            .with_required_session_capabilities(8)
            .unwrap_err()
            .code(),
        ErrorCode::InvalidArgument
    );
}

#[test]
fn quantization_is_lowered_on_validation() {
    let validate = |quantization| {
        NormalizedLoadRequest::with_quantization(quantization)
            .unwrap()
            .validate_model_preparation()
    };
    failure(
        validate(QuantizationRequest::Affine {
            group_size: 48,
            bits: 4,
        })
        .unwrap_err(),
        ErrorCode::Quantization,
        "group_size must be 16 or a positive multiple of 32, got 48",
    );
    failure(
        validate(QuantizationRequest::Affine {
            group_size: 64,
            bits: 7,
        })
        .unwrap_err(),
        ErrorCode::Quantization,
        "bits must be one of 2, 3, 4, 5, 6, or 8, got 7",
    );
    failure(
        validate(QuantizationRequest::Unknown(9)).unwrap_err(),
        ErrorCode::Quantization,
        "unknown load-time transformation request",
    );
    let policy = validate(QuantizationRequest::Mxfp4).unwrap();
    assert_eq!(policy.quantization, Some(QuantizationRequest::Mxfp4));
    let request =
        NormalizedLoadRequest::with_quantization(QuantizationRequest::Unknown(9)).unwrap();
    assert_eq!(
        request.quantization(),
        Some(QuantizationRequest::Unknown(9))
    );
}
