// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Struct layout: every transparent struct of the C API has the same size,
//! alignment and field offsets in src/bindings.rs as the C compiler gives it.
//!
//! tests/layout.c is compiled at test time with `cc` (or $CC) and the
//! include flags of `pkg-config --cflags eredu` (or EREDU_INCLUDE_DIR, one or
//! more colon-separated folders) and prints one line per struct and field;
//! the Rust side prints the same lines from std::mem. Both lists must also
//! name exactly the structs and fields the public headers define, so a new
//! field fails here until layout.c and the table below list it.

mod common;

use std::collections::BTreeSet;
use std::mem::{align_of, offset_of, size_of};
use std::path::PathBuf;
use std::process::Command;

use eredu_sys as sys;

/// The Rust side: one line per struct and per field, as layout.c prints them.
macro_rules! rust_layout {
    ($($struct:ident { $($field:ident),* $(,)? })*) => {{
        let mut lines = Vec::new();
        $(
            lines.push(format!(
                "{} size {} align {}",
                stringify!($struct),
                size_of::<sys::$struct>(),
                align_of::<sys::$struct>()
            ));
            $(
                lines.push(format!(
                    "{}.{} offset {}",
                    stringify!($struct),
                    stringify!($field),
                    offset_of!(sys::$struct, $field)
                ));
            )*
        )*
        lines
    }};
}

fn rust_lines() -> Vec<String> {
    rust_layout! {
        eredu_linear_format { struct_size, kind, affine_group_size, affine_bits, ggml_type, block_rows, block_columns, scale_encoding }
        eredu_linear_format_spec { struct_size, companion_dtype, format, scale, affine_bias, has_companion_dtype, raw }
        eredu_ggml_type_info { struct_size, code, name, block_values, block_bytes }
        eredu_member_desc { struct_size, target, shape, ndim, has_dtype, dtype, sharding, axis, segments, segment_count, per_kv_head, has_expert_axis, expert_axis }
        eredu_group_scope { struct_size, kind, has_layer, layer, has_expert, expert }
        eredu_group_desc { struct_size, role, name, has_partition_units, partition_units, scope, has_query_units, query_units, has_vocab_pad_multiple, vocab_pad_multiple }
        eredu_group_info { struct_size, role, name, name_length, member_count, has_partition_units, partition_units, scope_kind, has_layer, has_expert, layer, expert, has_query_units, query_units, has_vocab_pad_multiple, vocab_pad_multiple }
        eredu_launch_env { struct_size, source, rank, world_size, has_local_rank, local_rank }
        eredu_layerwise_model_metadata_info { struct_size, residency, effective_model_type, effective_model_type_length, layer_count, static_device_bytes, layer_parameter_bytes, maximum_device_layer_bytes, maximum_host_layer_bytes, device_layer_capacity, has_quantization }
        eredu_layout_info { struct_size, policy, rank, tensor_rank, pipeline_rank, expert_rank, data_rank, tensor_count, local_bytes, global_bytes, materialized_tensors, omitted_tensors, unknown_bytes_tensors }
        eredu_layout_tensor_info { struct_size, role, target, target_length, logical_name, logical_name_length, global_shape, global_ndim, local_shape, local_ndim, placement, has_dtype, has_logical_units, has_logical_range, fell_back_to_replication, dtype, has_local_bytes, axis, owner_rank, shard_index, shard_parts, start, end, runs, run_count, index_count, logical_units, logical_start, logical_end, local_bytes, kv_head_copies, padding_rows, has_expert_range, expert_axis, expert_start, expert_end }
        eredu_model_info { struct_size, name, has_layers, layers, has_experts, experts }
        eredu_plan_options { struct_size, policy, threads, progress, progress_data, pipeline_layers, pipeline_layer_count }
        eredu_module_parameter { struct_size, id, shape, ndim, has_dtype, dtype }
        eredu_projection { struct_size, placement, parameters, parameter_count }
        eredu_parallel_model_summary { struct_size, effective_model_type, effective_model_type_length, owned_tensor_count, local_parameter_bytes, global_parameter_bytes, pinned_device_parameter_bytes, maximum_device_parameter_bytes }
        eredu_parallel_load_desc { struct_size, activation_dtype, topology, rank, maximum_batch_size, maximum_sequence_length, completion_timeout_millis, completion_cancellation }
        eredu_quantization_request { struct_size, kind, group_size, bits }
        eredu_drafting_plan { struct_size, kind, max_draft_tokens }
        eredu_preparation_policy { struct_size, residency, quantization_kind, quantization_group_size, topology, required_session_capabilities, has_quantization, quantization_bits }
        eredu_load_request_info { struct_size, state_residency, required_session_capabilities, drafting, realtime_completion_cancellation, prompt_cache_persistence, has_quantization, has_parallel_execution, max_cached_shards, realtime_completion_timeout_millis, max_draft_tokens }
        eredu_offload_config { struct_size, eviction_policy, device_budget_bytes, host_budget_bytes, prefetch_depth, has_device_budget, has_host_budget }
        eredu_offload_unit_desc { struct_size, id, bytes, policy, tier }
        eredu_offload_plan_info { struct_size, eviction_policy, has_device_budget, has_host_budget, device_budget_bytes, host_budget_bytes, prefetch_depth, unit_count, planned_device_bytes, planned_host_bytes, planned_disk_bytes }
        eredu_tensor_selection { struct_size, kind, axis, start, end, indices, index_count, offset_elements, shape, ndim }
        eredu_weight_binding_desc { struct_size, name, checkpoint_key, selection, expected_bytes, logical_target }
        eredu_layerwise_options { struct_size, offload, max_cached_shards, sample_backend_memory, sample_process_memory }
        eredu_dense_stream_options { struct_size, eviction_policy, device_budget_bytes, host_budget_bytes, host_lookahead, background_queue_capacity, max_cached_shards, sample_backend_memory, sample_process_memory }
        eredu_parameter_bank_options { struct_size, members, compact_bank_scratch_bytes, prefill_compact_bank_target_bytes }
        eredu_plan_file_info { struct_size, format_version, world_size, tensor, pipeline, expert, data, pipeline_layers, pipeline_layer_count, policy, coverage_ok, library_version, library_version_length, fingerprint_high, fingerprint_low, file_bytes }
        eredu_weight_residency_desc { struct_size, layers, layerwise, dense, parameter_bank_cache }
        eredu_residency_summary { struct_size, execution_residency, preparation_residency, offload_eviction_policy, parameter_bank_eviction_policy, offload_has_device_budget, offload_has_host_budget, is_fully_resident, ordinary_is_fully_resident, sample_backend_memory, sample_process_memory, has_parameter_bank_cache, parameter_bank_has_device_budget, parameter_bank_has_host_budget, offload_device_budget_bytes, offload_host_budget_bytes, offload_prefetch_depth, device_depth, max_cached_shards, dense_host_lookahead, dense_background_queue_capacity, parameter_bank_device_budget_bytes, parameter_bank_host_budget_bytes, parameter_bank_prefetch_depth, parameter_bank_compact_scratch_bytes, parameter_bank_prefill_target_bytes }
        eredu_error_entry { struct_size, code, group, group_length, tensor, tensor_length, message, message_length }
        eredu_topology { struct_size, tensor, pipeline, expert, data }
        eredu_check_options { struct_size, has_device_budget, residency_json, residency_json_length, device_budget_bytes }
        eredu_fit_options { struct_size, max_world }
        eredu_describe_options { struct_size, config_only, pad_vocab_multiple }
        eredu_read_extent { file, offset, length, count, stride, dest, dest_stride }
        eredu_read_tensor_info { struct_size, target, dtype, local_shape, ndim, local_bytes, read_bytes, padding_rows, extents, extent_count }
        eredu_read_options { struct_size, threads, request_bytes, max_gap_bytes, direct, progress, progress_data }
        eredu_read_stats { struct_size, threads, bytes_read, bytes_kept, tensors, requests, direct }
        eredu_tensor_buffer { data, capacity }
    }
}

/// Compiles and runs tests/layout.c; returns its lines.
fn c_lines(include_flags: &[String]) -> Vec<String> {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/layout.c");
    let program = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("eredu-layout");
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    let status = Command::new(&compiler)
        .args(["-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror"])
        .args(include_flags)
        .arg(&source)
        .arg("-o")
        .arg(&program)
        .status()
        .unwrap_or_else(|error| panic!("could not run the C compiler {compiler:?}: {error}"));
    assert!(
        status.success(),
        "{compiler} failed to compile {}",
        source.display()
    );
    let output = Command::new(&program)
        .output()
        .unwrap_or_else(|error| panic!("could not run {}: {error}", program.display()));
    assert!(output.status.success(), "{} failed", program.display());
    String::from_utf8(output.stdout)
        .expect("layout.c prints ASCII")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The "<struct>" and "<struct>.<field>" names the public headers define.
fn header_names(include_flags: &[String]) -> BTreeSet<String> {
    let folder = include_flags
        .iter()
        .filter_map(|flag| flag.strip_prefix("-I"))
        .map(|dir| PathBuf::from(dir).join("eredu"))
        .find(|dir| dir.join("types.h").is_file())
        .expect("no include folder holds eredu/types.h");
    let mut names = BTreeSet::new();
    // The planner's headers (eredu/*.h) and the runtime helpers'
    // (eredu/runtime/*.h).
    let mut headers: Vec<_> = [folder.clone(), folder.join("runtime")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).expect("the header folder is readable"))
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "h"))
        .collect();
    headers.sort();
    for header in headers {
        let text = common::strip_c_comments(&std::fs::read_to_string(&header).unwrap());
        for (name, fields) in common::struct_definitions(&text) {
            for field in fields {
                names.insert(format!("{name}.{field}"));
            }
            names.insert(name);
        }
    }
    names
}

fn names_of(lines: &[String]) -> BTreeSet<String> {
    lines
        .iter()
        .map(|line| line.split(' ').next().unwrap().to_owned())
        .collect()
}

#[test]
fn transparent_structs_have_the_c_layout() {
    let include_flags = common::include_flags();
    let c = c_lines(&include_flags);
    let rust = rust_lines();

    let from_headers = header_names(&include_flags);
    assert_eq!(
        names_of(&c),
        from_headers,
        "tests/layout.c must list exactly the structs and fields of the headers"
    );
    assert_eq!(
        names_of(&rust),
        from_headers,
        "the table in tests/layout.rs must list exactly the structs and fields of the headers"
    );
    assert!(
        from_headers.len() > 24,
        "the headers define the transparent structs"
    );

    let c: BTreeSet<_> = c.into_iter().collect();
    let rust: BTreeSet<_> = rust.into_iter().collect();
    let only_c: Vec<_> = c.difference(&rust).collect();
    let only_rust: Vec<_> = rust.difference(&c).collect();
    assert!(
        only_c.is_empty() && only_rust.is_empty(),
        "layouts differ; C says {only_c:#?}, Rust says {only_rust:#?}"
    );
}
