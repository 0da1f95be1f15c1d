// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Offload plans, weight residency and the dense transfer cursor, with the
//! exact derived values and the seed's error texts (docs/residency.md).

use eredu::{
    CacheEvictionPolicy, DenseDiskStreamLoadOptions, DenseTransferSchedule, Error, ErrorCode,
    ExecutionResidency, LayerWeightResidency, LayerwiseLoadOptions, MemoryTier, OffloadConfig,
    OffloadPlan, OffloadUnitSpec, ParameterBankLoadOptions, ResidencyPolicy, ResidencyRequest,
    WeightResidency, WeightResidencySummary,
};

const GIB: u64 = 1 << 30;

fn failure(error: Error, code: ErrorCode, message: &str) {
    assert_eq!(error.code(), code);
    assert_eq!(error.message(), message);
}

#[test]
fn offload_plans_sort_units_and_total_each_tier() {
    let config = OffloadConfig {
        device_budget_bytes: Some(9),
        ..OffloadConfig::default()
    };
    let plan = OffloadPlan::new(
        &config,
        &[
            OffloadUnitSpec::new("b", 10, ResidencyPolicy::Windowed, MemoryTier::Host),
            OffloadUnitSpec::new("a", 5, ResidencyPolicy::Pinned, MemoryTier::Device),
            OffloadUnitSpec::new("c", 7, ResidencyPolicy::Cacheable, MemoryTier::Disk),
        ],
    )
    .unwrap();
    assert_eq!(plan.config(), config);
    assert_eq!(plan.len(), 3);
    assert_eq!(
        plan.units()
            .iter()
            .map(|unit| unit.id.as_str())
            .collect::<Vec<_>>(),
        ["a", "b", "c"]
    );
    assert_eq!(
        plan.unit("b"),
        Some(OffloadUnitSpec::new(
            "b",
            10,
            ResidencyPolicy::Windowed,
            MemoryTier::Host
        ))
    );
    assert_eq!(plan.unit("z"), None);
    assert_eq!(plan.planned_bytes(MemoryTier::Device).unwrap(), 5);
    assert_eq!(plan.planned_bytes(MemoryTier::Host).unwrap(), 10);
    assert_eq!(plan.planned_bytes(MemoryTier::Disk).unwrap(), 7);
    assert_eq!(
        plan.planned_bytes(MemoryTier::Unknown(9))
            .unwrap_err()
            .code(),
        ErrorCode::InvalidArgument
    );
    assert!(OffloadPlan::new(&OffloadConfig::default(), &[])
        .unwrap()
        .is_empty());
}

#[test]
fn offload_plan_errors_follow_the_documented_order() {
    let unit = |id: &str, bytes, policy, tier| OffloadUnitSpec::new(id, bytes, policy, tier);
    let pinned = |id: &str, bytes| unit(id, bytes, ResidencyPolicy::Pinned, MemoryTier::Device);
    let default = OffloadConfig::default();
    failure(
        OffloadPlan::new(
            &OffloadConfig {
                prefetch_depth: 0,
                ..default
            },
            &[pinned("", 0)],
        )
        .unwrap_err(),
        ErrorCode::ZeroPrefetchDepth,
        "offload prefetch depth must be nonzero",
    );
    failure(
        OffloadPlan::new(&default, &[pinned(" ", 1)]).unwrap_err(),
        ErrorCode::EmptyUnitId,
        "offload unit identifiers must not be empty",
    );
    failure(
        OffloadPlan::new(&default, &[pinned("a", 0)]).unwrap_err(),
        ErrorCode::ZeroSizedUnit,
        "offload unit a must contain at least one byte",
    );
    failure(
        OffloadPlan::new(
            &default,
            &[unit("a", 1, ResidencyPolicy::Pinned, MemoryTier::Disk)],
        )
        .unwrap_err(),
        ErrorCode::ContradictoryAssignment,
        "offload unit a has contradictory Pinned/Disk assignment: pinned units must be \
         assigned to a resident memory tier",
    );
    failure(
        OffloadPlan::new(
            &default,
            &[
                pinned("b", 1),
                pinned("a", 1),
                pinned("b", 2),
                pinned("a", 3),
            ],
        )
        .unwrap_err(),
        ErrorCode::DuplicateUnitId,
        "duplicate offload unit identifier: a",
    );
    failure(
        OffloadPlan::new(
            &OffloadConfig {
                device_budget_bytes: Some(9),
                ..default
            },
            &[pinned("a", 5), pinned("b", 5)],
        )
        .unwrap_err(),
        ErrorCode::BudgetExceeded,
        "planned 10 bytes for the Device tier exceed its 9-byte budget",
    );
    failure(
        OffloadPlan::new(&default, &[pinned("a", u64::MAX), pinned("b", 1)]).unwrap_err(),
        ErrorCode::ByteTotalOverflow,
        "planned byte total overflowed for the Device tier",
    );
}

#[test]
fn fully_resident_keeps_every_unit_on_the_device() {
    let summary = WeightResidency::fully_resident().validate(32).unwrap();
    assert_eq!(
        summary,
        WeightResidencySummary {
            execution_residency: ExecutionResidency::FullyResident,
            offload: OffloadConfig::default(),
            device_depth: 32,
            max_cached_shards: 4,
            preparation_residency: ResidencyRequest::FullyResident,
            is_fully_resident: true,
            ordinary_is_fully_resident: true,
            sample_backend_memory: false,
            sample_process_memory: false,
            dense_host_lookahead: 0,
            dense_background_queue_capacity: 0,
            parameter_bank_cache: None,
        }
    );
    assert_eq!(
        WeightResidency::default(),
        WeightResidency::fully_resident()
    );
}

#[test]
fn dense_streaming_derives_its_offload_window() {
    let summary = WeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions::default())
        .validate(10)
        .unwrap();
    assert_eq!(
        summary.execution_residency,
        ExecutionResidency::DenseDiskStream
    );
    assert_eq!(
        summary.offload,
        OffloadConfig {
            device_budget_bytes: Some(4 * GIB),
            host_budget_bytes: Some(16 * GIB),
            prefetch_depth: 2,
            eviction_policy: CacheEvictionPolicy::LeastRecentlyUsed,
        }
    );
    assert_eq!(summary.device_depth, 2);
    assert_eq!(
        summary.preparation_residency,
        ResidencyRequest::DenseDiskStream
    );
    assert!(!summary.is_fully_resident);
    assert_eq!(summary.dense_host_lookahead, 2);
    assert_eq!(summary.dense_background_queue_capacity, 2);

    let deep = DenseDiskStreamLoadOptions {
        host_lookahead: 5,
        eviction_policy: CacheEvictionPolicy::LeastFrequentlyUsed,
        max_cached_shards: 9,
        sample_process_memory: true,
        ..DenseDiskStreamLoadOptions::default()
    };
    let summary = WeightResidency::dense_disk_stream(deep)
        .validate(1)
        .unwrap();
    assert_eq!(summary.offload.prefetch_depth, 5);
    assert_eq!(
        summary.offload.eviction_policy,
        CacheEvictionPolicy::LeastFrequentlyUsed
    );
    assert_eq!(summary.device_depth, 1);
    assert_eq!(summary.max_cached_shards, 9);
    assert!(summary.sample_process_memory);
    assert!(!summary.sample_backend_memory);
}

#[test]
fn layerwise_host_and_parameter_banks_echo_their_options() {
    let layerwise = LayerwiseLoadOptions {
        offload: OffloadConfig {
            device_budget_bytes: Some(GIB),
            host_budget_bytes: None,
            prefetch_depth: 3,
            eviction_policy: CacheEvictionPolicy::LeastRecentlyUsed,
        },
        max_cached_shards: 2,
        sample_backend_memory: true,
        sample_process_memory: false,
    };
    let summary = WeightResidency::layerwise_host(layerwise)
        .validate(2)
        .unwrap();
    assert_eq!(summary.offload, layerwise.offload);
    assert_eq!(summary.device_depth, 3);
    assert_eq!(summary.max_cached_shards, 2);
    assert!(summary.sample_backend_memory);

    let cache = ParameterBankLoadOptions {
        compact_bank_scratch_bytes: 2 * GIB,
        ..ParameterBankLoadOptions::default()
    };
    let summary = WeightResidency::with_independent_parameter_banks(
        LayerWeightResidency::FullyResident,
        cache,
    )
    .validate(4)
    .unwrap();
    assert_eq!(
        summary.preparation_residency,
        ResidencyRequest::AddressableParameterBanks
    );
    assert!(!summary.is_fully_resident);
    assert!(summary.ordinary_is_fully_resident);
    assert_eq!(summary.parameter_bank_cache, Some(cache));
}

#[test]
fn invalid_residencies_fail_in_the_seed_order() {
    let dense = |host_budget_bytes, host_lookahead, background_queue_capacity| {
        WeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions {
            host_budget_bytes,
            host_lookahead,
            background_queue_capacity,
            ..DenseDiskStreamLoadOptions::default()
        })
        .validate(1)
        .unwrap_err()
        .code()
    };
    assert_eq!(dense(0, 1, 0), ErrorCode::HostDisabledControls);
    assert_eq!(dense(1, 0, 0), ErrorCode::ZeroHostLookahead);
    assert_eq!(dense(1, 1, 0), ErrorCode::ZeroQueueCapacity);
    // A zero host budget with both controls 0 loads disk-to-device directly.
    let direct = DenseDiskStreamLoadOptions {
        host_budget_bytes: 0,
        host_lookahead: 0,
        background_queue_capacity: 0,
        ..DenseDiskStreamLoadOptions::default()
    };
    let summary = WeightResidency::dense_disk_stream(direct)
        .validate(3)
        .unwrap();
    assert_eq!(summary.offload.host_budget_bytes, Some(0));

    let bank = |scratch, target| {
        WeightResidency::with_independent_parameter_banks(
            LayerWeightResidency::FullyResident,
            ParameterBankLoadOptions {
                compact_bank_scratch_bytes: scratch,
                prefill_compact_bank_target_bytes: target,
                ..ParameterBankLoadOptions::default()
            },
        )
        .validate(1)
        .unwrap_err()
        .code()
    };
    assert_eq!(bank(0, 0), ErrorCode::ZeroParameterBankScratchLimit);
    assert_eq!(bank(1, 0), ErrorCode::ZeroParameterBankPrefillTarget);
    assert_eq!(
        bank(1, 2),
        ErrorCode::ParameterBankPrefillTargetExceedsScratch
    );

    let zero_window = LayerwiseLoadOptions {
        offload: OffloadConfig {
            prefetch_depth: 0,
            ..OffloadConfig::default()
        },
        ..LayerwiseLoadOptions::default()
    };
    assert_eq!(
        WeightResidency::layerwise_host(zero_window)
            .validate(1)
            .unwrap_err()
            .code(),
        ErrorCode::ZeroPrefetchDepth
    );
}

#[test]
fn rust_defaults_equal_the_c_init_functions() {
    use eredu::sys;
    use std::mem::{size_of, MaybeUninit};
    // SAFETY: each _init fills the whole struct; the pointers are valid.
    let (layerwise, dense, bank, offload) = unsafe {
        let mut layerwise = MaybeUninit::<sys::eredu_layerwise_options>::zeroed().assume_init();
        let mut dense = MaybeUninit::<sys::eredu_dense_stream_options>::zeroed().assume_init();
        let mut bank = MaybeUninit::<sys::eredu_parameter_bank_options>::zeroed().assume_init();
        let mut offload = MaybeUninit::<sys::eredu_offload_config>::zeroed().assume_init();
        let null = std::ptr::null_mut();
        // Each with the size of the Rust struct, as the crate fills them.
        assert_eq!(
            sys::eredu_layerwise_options_init(
                &mut layerwise,
                size_of::<sys::eredu_layerwise_options>(),
                null
            ),
            0
        );
        assert_eq!(
            sys::eredu_dense_stream_options_init(
                &mut dense,
                size_of::<sys::eredu_dense_stream_options>(),
                null
            ),
            0
        );
        assert_eq!(
            sys::eredu_parameter_bank_options_init(
                &mut bank,
                size_of::<sys::eredu_parameter_bank_options>(),
                null
            ),
            0
        );
        assert_eq!(
            sys::eredu_offload_config_init(
                &mut offload,
                size_of::<sys::eredu_offload_config>(),
                null
            ),
            0
        );
        (layerwise, dense, bank, offload)
    };
    let rust_offload = OffloadConfig::default();
    assert_eq!(offload.has_device_budget, 0);
    assert_eq!(offload.has_host_budget, 0);
    assert_eq!(offload.prefetch_depth, rust_offload.prefetch_depth);
    assert_eq!(
        offload.eviction_policy,
        rust_offload.eviction_policy.to_raw()
    );

    let rust = LayerwiseLoadOptions::default();
    assert!(layerwise.offload.is_null());
    assert_eq!(layerwise.max_cached_shards, rust.max_cached_shards);
    assert_eq!(layerwise.sample_backend_memory, 0);
    assert_eq!(layerwise.sample_process_memory, 0);

    let rust = DenseDiskStreamLoadOptions::default();
    assert_eq!(dense.device_budget_bytes, rust.device_budget_bytes);
    assert_eq!(dense.host_budget_bytes, rust.host_budget_bytes);
    assert_eq!(dense.host_lookahead, rust.host_lookahead);
    assert_eq!(
        dense.background_queue_capacity,
        rust.background_queue_capacity
    );
    assert_eq!(dense.eviction_policy, rust.eviction_policy.to_raw());
    assert_eq!(dense.max_cached_shards, rust.max_cached_shards);

    let rust = ParameterBankLoadOptions::default();
    assert!(bank.members.is_null());
    assert_eq!(
        bank.compact_bank_scratch_bytes,
        rust.compact_bank_scratch_bytes
    );
    assert_eq!(
        bank.prefill_compact_bank_target_bytes,
        rust.prefill_compact_bank_target_bytes
    );
}

#[test]
fn dense_transfers_are_admitted_in_order_into_a_bounded_window() {
    let mut schedule = DenseTransferSchedule::new([3, 5, 7], 2).unwrap();
    assert!(schedule.can_admit());
    assert!(!schedule.has_ready());
    assert_eq!(schedule.next_pending(), Some(3));
    assert_eq!(schedule.desired_indices(2), [3, 5]);

    failure(
        schedule.admit(5, "early").unwrap_err(),
        ErrorCode::OutOfOrder,
        "dense transfer schedule expected unit 3, received 5",
    );
    schedule.admit(3, "three").unwrap();
    schedule.admit(5, "five").unwrap();
    assert!(!schedule.can_admit());
    failure(
        schedule.admit(7, "seven").unwrap_err(),
        ErrorCode::CapacityExceeded,
        "dense transfer window exceeds its capacity of 2",
    );
    assert_eq!(schedule.desired_indices(10), [3, 5, 7]);
    assert_eq!(schedule.pop_ready(), Some((3, "three")));
    schedule.admit(7, "seven").unwrap();
    assert_eq!(schedule.next_pending(), None);
    failure(
        schedule.admit(9, "nine").unwrap_err(),
        ErrorCode::CapacityExceeded,
        "dense transfer window exceeds its capacity of 2",
    );
    assert_eq!(schedule.pop_ready(), Some((5, "five")));
    failure(
        schedule.admit(9, "nine").unwrap_err(),
        ErrorCode::NoPendingUnit,
        "dense transfer schedule has no pending unit",
    );
    assert_eq!(schedule.pop_ready(), Some((7, "seven")));
    assert_eq!(schedule.pop_ready(), None);
    assert!(schedule.is_exhausted());
    assert_eq!(schedule.desired_indices(4), Vec::<u64>::new());

    let range = DenseTransferSchedule::<()>::from_range(10..1_000_000_000, 1).unwrap();
    assert_eq!(range.desired_indices(3), [10, 11, 12]);

    failure(
        DenseTransferSchedule::<()>::new([], 0).unwrap_err(),
        ErrorCode::ZeroCapacity,
        "dense transfer window capacity must be nonzero",
    );
    failure(
        DenseTransferSchedule::<()>::new([5, 3], 1).unwrap_err(),
        ErrorCode::UnorderedPending,
        "dense transfer pending unit 3 does not follow 5",
    );
}

#[test]
fn debug_of_a_schedule_is_bounded_by_its_window() {
    // Regression: Debug printed desired_indices(usize::MAX), which for a
    // range of 2^64 - 1 pending units asked for a Vec of that many u64 and
    // panicked with "capacity overflow".
    let mut schedule = DenseTransferSchedule::from_range(0..u64::MAX, 2).unwrap();
    assert_eq!(
        format!("{schedule:?}"),
        "DenseTransferSchedule { ready: [], next_pending: Some(0) }"
    );
    schedule.admit(0, "zero").unwrap();
    schedule.admit(1, "one").unwrap();
    assert_eq!(
        format!("{schedule:?}"),
        "DenseTransferSchedule { ready: [(0, \"zero\"), (1, \"one\")], next_pending: Some(2) }"
    );
    assert_eq!(schedule.pop_ready(), Some((0, "zero")));
    assert_eq!(
        format!("{schedule:?}"),
        "DenseTransferSchedule { ready: [(1, \"one\")], next_pending: Some(2) }"
    );
}
