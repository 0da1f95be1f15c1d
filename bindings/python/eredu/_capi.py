"""The C API as ctypes sees it: every transparent struct of include/eredu/*.h,
an opaque type per handle, and one table giving `restype` and `argtypes` of
every `EREDU_API` function.

The table is written by hand from the headers and checked against them by
tests/test_capi.py (names, arity, C types, struct fields and sizes). Names
are the C names, so a reader can grep the header for each.

Type conventions: `const char *` in is `c_char_p` (bytes); `char **out`
buffers the caller frees are `P(c_void_p)` (read with ctypes.string_at,
released with eredu_buffer_free); every enum typedef is `u32`; handles are
pointers to distinct opaque types, so ctypes refuses a model where a layout
is expected.
"""
import ctypes
from ctypes import POINTER as P
from ctypes import c_bool, c_char, c_char_p, c_void_p

u8 = ctypes.c_uint8
u32 = ctypes.c_uint32
i32 = ctypes.c_int32
u64 = ctypes.c_uint64
size = ctypes.c_size_t
status = ctypes.c_int32  # eredu_status


# ---- Opaque handle types ------------------------------------------------

class eredu_error(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_group(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_model(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_layout(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_member_list(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_parallel_model_info(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_offload_plan(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_static_unit_bindings(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_dense_transfer_schedule(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_load_request(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


class eredu_layerwise_model_metadata(ctypes.Structure):
    """Opaque handle target (eredu/types.h)."""


error_slot = P(P(eredu_error))  # the trailing `eredu_error **error`


# ---- Transparent structs (struct_size first; fill with their _init) ------

class eredu_linear_format(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("kind", u32),
        ("affine_group_size", i32),
        ("affine_bits", i32),
        ("ggml_type", u32),
        ("block_rows", i32),
        ("block_columns", i32),
        ("scale_encoding", u32),
    ]


class eredu_linear_format_spec(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("format", P(eredu_linear_format)),
        ("scale", c_char_p),
        ("affine_bias", c_char_p),
        ("has_companion_dtype", u8),
        ("companion_dtype", u32),
        ("raw", u8),
    ]


class eredu_ggml_type_info(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("code", u32),
        ("name", c_char_p),
        ("block_values", u64),
        ("block_bytes", u64),
    ]


class eredu_member_desc(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("target", c_char_p),
        ("shape", P(u64)),
        ("ndim", size),
        ("has_dtype", u8),
        ("dtype", u32),
        ("sharding", u32),
        ("axis", u64),
        ("segments", P(u64)),
        ("segment_count", size),
    ]


class eredu_group_scope(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("kind", u32),
        ("has_layer", u8),
        ("layer", u64),
        ("has_expert", u8),
        ("expert", u64),
    ]


class eredu_placement(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("kind", u32),
        ("axis", u64),
        ("rank", u64),
        ("index", u64),
        ("parts", u64),
        ("start", u64),
        ("end", u64),
        ("runs", P(u64)),
        ("run_count", size),
        ("index_count", u64),
    ]


class eredu_layout_totals(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("local_bytes", u64),
        ("global_bytes", u64),
        ("materialized_tensors", u64),
        ("omitted_tensors", u64),
        ("unknown_bytes_tensors", u64),
    ]


class eredu_model_info(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("name", c_char_p),
        ("has_layers", u8),
        ("layers", u64),
        ("has_experts", u8),
        ("experts", u64),
    ]


class eredu_module_parameter(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("id", c_char_p),
        ("shape", P(u64)),
        ("ndim", size),
        ("has_dtype", u8),
        ("dtype", u32),
    ]


class eredu_projection(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("parameters", P(P(eredu_module_parameter))),
        ("parameter_count", size),
        ("placement", u32),
    ]


class eredu_parallel_load_desc(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("tensor", u64),
        ("pipeline", u64),
        ("expert", u64),
        ("data", u64),
        ("rank", u64),
        ("activation_dtype", u32),
        ("maximum_batch_size", i32),
        ("maximum_sequence_length", i32),
        ("completion_timeout_millis", u64),
        ("completion_cancellation", u32),
    ]


class eredu_quantization_request(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("kind", u32),
        ("group_size", u32),
        ("bits", u8),
    ]


class eredu_drafting_plan(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("kind", u32),
        ("max_draft_tokens", u64),
    ]


class eredu_preparation_policy(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("has_quantization", u8),
        ("quantization_kind", u32),
        ("quantization_group_size", u32),
        ("quantization_bits", u8),
        ("residency", u32),
        ("has_topology", u8),
        ("tensor", u64),
        ("pipeline", u64),
        ("expert", u64),
        ("data", u64),
        ("required_session_capabilities", u32),
    ]


class eredu_offload_config(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("has_device_budget", u8),
        ("device_budget_bytes", u64),
        ("has_host_budget", u8),
        ("host_budget_bytes", u64),
        ("prefetch_depth", u64),
        ("eviction_policy", u32),
    ]


class eredu_offload_unit_desc(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("id", c_char_p),
        ("bytes", u64),
        ("policy", u32),
        ("tier", u32),
    ]


class eredu_tensor_selection(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("kind", u32),
        ("axis", u64),
        ("start", u64),
        ("end", u64),
        ("indices", P(u64)),
        ("index_count", size),
        ("offset_elements", u64),
        ("shape", P(u64)),
        ("ndim", size),
    ]


class eredu_weight_binding_desc(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("name", c_char_p),
        ("checkpoint_key", c_char_p),
        ("selection", P(eredu_tensor_selection)),
        ("expected_bytes", u64),
        ("logical_target", c_char_p),
    ]


class eredu_layerwise_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("offload", P(eredu_offload_config)),
        ("max_cached_shards", u64),
        ("sample_backend_memory", u8),
        ("sample_process_memory", u8),
    ]


class eredu_dense_stream_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("device_budget_bytes", u64),
        ("host_budget_bytes", u64),
        ("host_lookahead", u64),
        ("background_queue_capacity", u64),
        ("eviction_policy", u32),
        ("max_cached_shards", u64),
        ("sample_backend_memory", u8),
        ("sample_process_memory", u8),
    ]


class eredu_parameter_bank_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("members", P(eredu_offload_config)),
        ("compact_bank_scratch_bytes", u64),
        ("prefill_compact_bank_target_bytes", u64),
    ]


class eredu_weight_residency_desc(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("layers", u32),
        ("layerwise", P(eredu_layerwise_options)),
        ("dense", P(eredu_dense_stream_options)),
        ("parameter_bank_cache", P(eredu_parameter_bank_options)),
    ]


class eredu_residency_summary(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("execution_residency", u32),
        ("offload_has_device_budget", u8),
        ("offload_device_budget_bytes", u64),
        ("offload_has_host_budget", u8),
        ("offload_host_budget_bytes", u64),
        ("offload_prefetch_depth", u64),
        ("offload_eviction_policy", u32),
        ("device_depth", u64),
        ("max_cached_shards", u64),
        ("preparation_residency", u32),
        ("is_fully_resident", u8),
        ("ordinary_is_fully_resident", u8),
        ("sample_backend_memory", u8),
        ("sample_process_memory", u8),
        ("dense_host_lookahead", u64),
        ("dense_background_queue_capacity", u64),
        ("has_parameter_bank_cache", u8),
        ("parameter_bank_has_device_budget", u8),
        ("parameter_bank_device_budget_bytes", u64),
        ("parameter_bank_has_host_budget", u8),
        ("parameter_bank_host_budget_bytes", u64),
        ("parameter_bank_prefetch_depth", u64),
        ("parameter_bank_eviction_policy", u32),
        ("parameter_bank_compact_scratch_bytes", u64),
        ("parameter_bank_prefill_target_bytes", u64),
    ]


class eredu_check_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("residency_json", c_char_p),
        ("residency_json_length", size),
        ("has_device_budget", u8),
        ("device_budget_bytes", u64),
        ("threads", u32),
    ]


# ---- Every exported function: name -> (restype, argtypes) ----------------

FUNCTIONS = {
    # eredu/common.h
    "eredu_version_number": (u32, []),
    "eredu_version_string": (c_char_p, []),
    "eredu_buffer_free": (None, [c_void_p]),
    # eredu/format.h
    "eredu_linear_format_init": (status, [P(eredu_linear_format), error_slot]),
    "eredu_linear_format_spec_init": (status, [P(eredu_linear_format_spec), error_slot]),
    "eredu_ggml_type_info_init": (status, [P(eredu_ggml_type_info), error_slot]),
    "eredu_linear_format_validate": (status, [P(eredu_linear_format), error_slot]),
    "eredu_linear_format_spec_validate": (status, [P(eredu_linear_format_spec), error_slot]),
    "eredu_ggml_type_by_code": (status, [u32, P(eredu_ggml_type_info), error_slot]),
    "eredu_ggml_type_by_name": (status, [c_char_p, P(eredu_ggml_type_info), error_slot]),
    "eredu_expand_linear_format_member": (
        status,
        [P(eredu_member_desc), P(eredu_linear_format_spec), P(P(eredu_member_list)), error_slot],
    ),
    "eredu_expand_linear_format_group": (
        status,
        [P(eredu_group), P(P(eredu_linear_format_spec)), size, P(P(eredu_group)), error_slot],
    ),
    "eredu_expand_linear_format_model": (
        status,
        [P(eredu_model), P(P(eredu_linear_format_spec)), size, P(P(eredu_model)), error_slot],
    ),
    "eredu_group_members": (status, [P(eredu_group), P(P(eredu_member_list)), error_slot]),
    "eredu_member_list_free": (None, [P(eredu_member_list)]),
    "eredu_member_list_count": (status, [P(eredu_member_list), P(size), error_slot]),
    "eredu_member_list_get": (
        status,
        [P(eredu_member_list), size, P(eredu_member_desc), error_slot],
    ),
    # eredu/group.h
    "eredu_member_desc_init": (status, [P(eredu_member_desc), error_slot]),
    "eredu_group_scope_init": (status, [P(eredu_group_scope), error_slot]),
    "eredu_group_new": (
        status,
        [c_char_p, u32, u8, u64, P(eredu_group_scope), P(P(eredu_member_desc)), size,
         P(P(eredu_group)), error_slot],
    ),
    "eredu_group_free": (None, [P(eredu_group)]),
    "eredu_group_name": (status, [P(eredu_group), P(c_char_p), P(size), error_slot]),
    "eredu_group_role": (status, [P(eredu_group), P(u32), error_slot]),
    "eredu_group_partition_units": (status, [P(eredu_group), P(u64), P(c_bool), error_slot]),
    "eredu_group_member_count": (status, [P(eredu_group), P(size), error_slot]),
    "eredu_group_member_target": (status, [P(eredu_group), size, P(c_char_p), P(size), error_slot]),
    # eredu/layerwise_metadata.h
    "eredu_layerwise_model_metadata_new": (
        status,
        [c_char_p, P(eredu_linear_format), u64, u64, u32, u64, u64, u64, u64,
         P(P(eredu_layerwise_model_metadata)), error_slot],
    ),
    "eredu_layerwise_model_metadata_free": (None, [P(eredu_layerwise_model_metadata)]),
    "eredu_layerwise_model_metadata_set_effective_model_type": (
        status,
        [P(eredu_layerwise_model_metadata), c_char_p, error_slot],
    ),
    "eredu_layerwise_model_metadata_set_quantization": (
        status,
        [P(eredu_layerwise_model_metadata), P(eredu_linear_format), error_slot],
    ),
    "eredu_layerwise_model_metadata_effective_model_type": (
        status,
        [P(eredu_layerwise_model_metadata), P(c_char_p), P(size), error_slot],
    ),
    "eredu_layerwise_model_metadata_quantization": (
        status,
        [P(eredu_layerwise_model_metadata), P(eredu_linear_format), P(c_bool), error_slot],
    ),
    "eredu_layerwise_model_metadata_layer_count": (
        status,
        [P(eredu_layerwise_model_metadata), P(u64), error_slot],
    ),
    "eredu_layerwise_model_metadata_static_device_bytes": (
        status,
        [P(eredu_layerwise_model_metadata), P(u64), error_slot],
    ),
    "eredu_layerwise_model_metadata_residency": (
        status,
        [P(eredu_layerwise_model_metadata), P(u32), error_slot],
    ),
    "eredu_layerwise_model_metadata_layer_parameter_bytes": (
        status,
        [P(eredu_layerwise_model_metadata), P(u64), error_slot],
    ),
    "eredu_layerwise_model_metadata_maximum_device_layer_bytes": (
        status,
        [P(eredu_layerwise_model_metadata), P(u64), error_slot],
    ),
    "eredu_layerwise_model_metadata_maximum_host_layer_bytes": (
        status,
        [P(eredu_layerwise_model_metadata), P(u64), error_slot],
    ),
    "eredu_layerwise_model_metadata_device_layer_capacity": (
        status,
        [P(eredu_layerwise_model_metadata), P(u64), error_slot],
    ),
    # eredu/layout.h
    "eredu_placement_init": (status, [P(eredu_placement), error_slot]),
    "eredu_layout_totals_init": (status, [P(eredu_layout_totals), error_slot]),
    "eredu_layout_free": (None, [P(eredu_layout)]),
    "eredu_layout_topology": (
        status,
        [P(eredu_layout), P(u64), P(u64), P(u64), P(u64), error_slot],
    ),
    "eredu_layout_rank": (status, [P(eredu_layout), P(u64), error_slot]),
    "eredu_layout_coordinates": (
        status,
        [P(eredu_layout), P(u64), P(u64), P(u64), P(u64), error_slot],
    ),
    "eredu_layout_policy": (status, [P(eredu_layout), P(u32), error_slot]),
    "eredu_layout_get_totals": (status, [P(eredu_layout), P(eredu_layout_totals), error_slot]),
    "eredu_layout_tensor_count": (status, [P(eredu_layout), P(size), error_slot]),
    "eredu_layout_find_tensor": (status, [P(eredu_layout), c_char_p, P(size), error_slot]),
    "eredu_layout_tensor_target": (
        status,
        [P(eredu_layout), size, P(c_char_p), P(size), error_slot],
    ),
    "eredu_layout_tensor_logical_name": (
        status,
        [P(eredu_layout), size, P(c_char_p), P(size), error_slot],
    ),
    "eredu_layout_tensor_role": (status, [P(eredu_layout), size, P(u32), error_slot]),
    "eredu_layout_tensor_dtype": (status, [P(eredu_layout), size, P(u32), P(c_bool), error_slot]),
    "eredu_layout_tensor_global_shape": (
        status,
        [P(eredu_layout), size, P(P(u64)), P(size), error_slot],
    ),
    "eredu_layout_tensor_local_shape": (
        status,
        [P(eredu_layout), size, P(P(u64)), P(size), error_slot],
    ),
    "eredu_layout_tensor_placement": (
        status,
        [P(eredu_layout), size, P(eredu_placement), error_slot],
    ),
    "eredu_layout_tensor_logical_units": (
        status,
        [P(eredu_layout), size, P(u64), P(c_bool), error_slot],
    ),
    "eredu_layout_tensor_logical_range": (
        status,
        [P(eredu_layout), size, P(u64), P(u64), P(c_bool), error_slot],
    ),
    "eredu_layout_tensor_fell_back": (status, [P(eredu_layout), size, P(c_bool), error_slot]),
    "eredu_layout_tensor_local_bytes": (
        status,
        [P(eredu_layout), size, P(u64), P(c_bool), error_slot],
    ),
    "eredu_layout_to_json": (status, [P(eredu_layout), P(c_void_p), P(size), error_slot]),
    "eredu_layout_write_json": (status, [P(eredu_layout), P(c_char), size, P(size), error_slot]),
    # eredu/model.h
    "eredu_model_info_init": (status, [P(eredu_model_info), error_slot]),
    "eredu_model_new": (
        status,
        [P(eredu_model_info), P(P(eredu_group)), size, P(P(eredu_model)), error_slot],
    ),
    "eredu_model_from_json": (status, [c_char_p, size, P(P(eredu_model)), error_slot]),
    "eredu_model_free": (None, [P(eredu_model)]),
    "eredu_model_tensor_count": (status, [P(eredu_model), P(size), error_slot]),
    "eredu_model_group_count": (status, [P(eredu_model), P(size), error_slot]),
    "eredu_model_global_bytes": (status, [P(eredu_model), P(u64), error_slot]),
    # eredu/plan.h
    "eredu_plan_rank": (
        status,
        [P(eredu_model), u64, u64, u64, u64, u64, u32, P(P(eredu_layout)), error_slot],
    ),
    # eredu/projection.h
    "eredu_module_parameter_init": (status, [P(eredu_module_parameter), error_slot]),
    "eredu_projection_init": (status, [P(eredu_projection), error_slot]),
    "eredu_aligned_partition_units": (status, [c_char_p, u64, u64, u64, P(u64), error_slot]),
    "eredu_partitioned_group_with_preferred_units": (
        status,
        [c_char_p, u32, u64, P(eredu_group_scope), P(P(eredu_member_desc)), size, P(P(eredu_group)),
         error_slot],
    ),
    "eredu_projection_parameter_group": (
        status,
        [c_char_p, u32, P(eredu_group_scope), P(P(eredu_module_parameter)), size, u32,
         P(P(eredu_group)), error_slot],
    ),
    "eredu_partitioned_projection_group": (
        status,
        [c_char_p, u32, P(eredu_group_scope), P(P(eredu_projection)), size, u64, P(P(eredu_group)),
         error_slot],
    ),
    "eredu_segmented_projection_group": (
        status,
        [c_char_p, u32, P(eredu_group_scope), P(P(eredu_module_parameter)), size,
         P(P(eredu_module_parameter)), size, P(u64), size, u64, P(P(eredu_group)), error_slot],
    ),
    "eredu_parallel_model_info_new": (
        status,
        [u64, u64, u64, u64, c_char_p, P(c_char_p), size, u64, u64, u64, u64,
         P(P(eredu_parallel_model_info)), error_slot],
    ),
    "eredu_parallel_model_info_free": (None, [P(eredu_parallel_model_info)]),
    "eredu_parallel_model_info_topology": (
        status,
        [P(eredu_parallel_model_info), P(u64), P(u64), P(u64), P(u64), error_slot],
    ),
    "eredu_parallel_model_info_effective_model_type": (
        status,
        [P(eredu_parallel_model_info), P(c_char_p), P(size), error_slot],
    ),
    "eredu_parallel_model_info_owned_tensor_count": (
        status,
        [P(eredu_parallel_model_info), P(size), error_slot],
    ),
    "eredu_parallel_model_info_owned_tensor": (
        status,
        [P(eredu_parallel_model_info), size, P(c_char_p), P(size), error_slot],
    ),
    "eredu_parallel_model_info_bytes": (
        status,
        [P(eredu_parallel_model_info), P(u64), P(u64), P(u64), P(u64), error_slot],
    ),
    # eredu/request.h
    "eredu_parallel_load_desc_init": (status, [P(eredu_parallel_load_desc), error_slot]),
    "eredu_quantization_request_init": (status, [P(eredu_quantization_request), error_slot]),
    "eredu_drafting_plan_init": (status, [P(eredu_drafting_plan), error_slot]),
    "eredu_preparation_policy_init": (status, [P(eredu_preparation_policy), error_slot]),
    "eredu_completion_policy_validate": (status, [u64, u32, error_slot]),
    "eredu_load_request_new": (
        status,
        [P(eredu_quantization_request), P(P(eredu_load_request)), error_slot],
    ),
    "eredu_load_request_free": (None, [P(eredu_load_request)]),
    "eredu_load_request_set_parallel_execution": (
        status,
        [P(eredu_load_request), P(eredu_parallel_load_desc), error_slot],
    ),
    "eredu_load_request_set_communication_completion_policy": (
        status,
        [P(eredu_load_request), u64, u32, error_slot],
    ),
    "eredu_load_request_set_drafting_plan": (
        status,
        [P(eredu_load_request), P(eredu_drafting_plan), error_slot],
    ),
    "eredu_load_request_set_drafting": (status, [P(eredu_load_request), u32, u64, error_slot]),
    "eredu_load_request_set_max_cached_shards": (status, [P(eredu_load_request), u64, error_slot]),
    "eredu_load_request_set_weight_residency": (
        status,
        [P(eredu_load_request), P(eredu_weight_residency_desc), error_slot],
    ),
    "eredu_load_request_set_required_session_capabilities": (
        status,
        [P(eredu_load_request), u32, error_slot],
    ),
    "eredu_load_request_set_state_residency": (status, [P(eredu_load_request), u32, error_slot]),
    "eredu_load_request_set_prompt_cache_persistence": (
        status,
        [P(eredu_load_request), u8, error_slot],
    ),
    "eredu_load_request_max_cached_shards": (status, [P(eredu_load_request), P(u64), error_slot]),
    "eredu_load_request_quantization": (
        status,
        [P(eredu_load_request), P(eredu_quantization_request), P(c_bool), error_slot],
    ),
    "eredu_load_request_parallel_execution": (
        status,
        [P(eredu_load_request), P(eredu_parallel_load_desc), P(c_bool), error_slot],
    ),
    "eredu_load_request_communication_completion_policy": (
        status,
        [P(eredu_load_request), P(u64), P(u32), P(c_bool), error_slot],
    ),
    "eredu_load_request_realtime_completion_policy": (
        status,
        [P(eredu_load_request), P(u64), P(u32), error_slot],
    ),
    "eredu_load_request_drafting": (status, [P(eredu_load_request), P(u32), P(u64), error_slot]),
    "eredu_load_request_weight_residency": (
        status,
        [P(eredu_load_request), u64, P(eredu_residency_summary), error_slot],
    ),
    "eredu_load_request_required_session_capabilities": (
        status,
        [P(eredu_load_request), P(u32), error_slot],
    ),
    "eredu_load_request_state_residency": (status, [P(eredu_load_request), P(u32), error_slot]),
    "eredu_load_request_prompt_cache_persistence": (
        status,
        [P(eredu_load_request), P(c_bool), error_slot],
    ),
    "eredu_load_request_validate_model_preparation": (
        status,
        [P(eredu_load_request), P(eredu_preparation_policy), error_slot],
    ),
    # eredu/residency.h
    "eredu_offload_config_init": (status, [P(eredu_offload_config), error_slot]),
    "eredu_offload_unit_desc_init": (status, [P(eredu_offload_unit_desc), error_slot]),
    "eredu_offload_plan_new": (
        status,
        [P(eredu_offload_config), P(P(eredu_offload_unit_desc)), size, P(P(eredu_offload_plan)),
         error_slot],
    ),
    "eredu_offload_plan_free": (None, [P(eredu_offload_plan)]),
    "eredu_offload_plan_validate": (status, [P(eredu_offload_plan), error_slot]),
    "eredu_offload_plan_config": (
        status,
        [P(eredu_offload_plan), P(eredu_offload_config), error_slot],
    ),
    "eredu_offload_plan_unit_count": (status, [P(eredu_offload_plan), P(size), error_slot]),
    "eredu_offload_plan_unit": (
        status,
        [P(eredu_offload_plan), size, P(eredu_offload_unit_desc), error_slot],
    ),
    "eredu_offload_plan_find_unit": (
        status,
        [P(eredu_offload_plan), c_char_p, P(size), error_slot],
    ),
    "eredu_offload_plan_planned_bytes": (status, [P(eredu_offload_plan), u32, P(u64), error_slot]),
    "eredu_tensor_selection_init": (status, [P(eredu_tensor_selection), error_slot]),
    "eredu_weight_binding_desc_init": (status, [P(eredu_weight_binding_desc), error_slot]),
    "eredu_weight_binding_validate": (status, [P(eredu_weight_binding_desc), error_slot]),
    "eredu_static_unit_bindings_new": (
        status,
        [c_char_p, P(P(eredu_weight_binding_desc)), size, P(P(eredu_static_unit_bindings)),
         error_slot],
    ),
    "eredu_static_unit_bindings_free": (None, [P(eredu_static_unit_bindings)]),
    "eredu_static_unit_bindings_id": (
        status,
        [P(eredu_static_unit_bindings), P(c_char_p), P(size), error_slot],
    ),
    "eredu_static_unit_bindings_count": (
        status,
        [P(eredu_static_unit_bindings), P(size), error_slot],
    ),
    "eredu_static_unit_bindings_binding": (
        status,
        [P(eredu_static_unit_bindings), size, P(eredu_weight_binding_desc), error_slot],
    ),
    "eredu_dense_transfer_schedule_new": (
        status,
        [P(u64), size, size, P(P(eredu_dense_transfer_schedule)), error_slot],
    ),
    "eredu_dense_transfer_schedule_new_range": (
        status,
        [u64, u64, size, P(P(eredu_dense_transfer_schedule)), error_slot],
    ),
    "eredu_dense_transfer_schedule_free": (None, [P(eredu_dense_transfer_schedule)]),
    "eredu_dense_transfer_schedule_admit": (
        status,
        [P(eredu_dense_transfer_schedule), u64, u64, error_slot],
    ),
    "eredu_dense_transfer_schedule_pop_ready": (
        status,
        [P(eredu_dense_transfer_schedule), P(u64), P(u64), P(c_bool), error_slot],
    ),
    "eredu_dense_transfer_schedule_desired_indices": (
        status,
        [P(eredu_dense_transfer_schedule), size, P(u64), size, P(size), error_slot],
    ),
    "eredu_dense_transfer_schedule_can_admit": (
        status,
        [P(eredu_dense_transfer_schedule), P(c_bool), error_slot],
    ),
    "eredu_dense_transfer_schedule_has_ready": (
        status,
        [P(eredu_dense_transfer_schedule), P(c_bool), error_slot],
    ),
    "eredu_dense_transfer_schedule_is_exhausted": (
        status,
        [P(eredu_dense_transfer_schedule), P(c_bool), error_slot],
    ),
    "eredu_dense_transfer_schedule_next_pending": (
        status,
        [P(eredu_dense_transfer_schedule), P(u64), P(c_bool), error_slot],
    ),
    "eredu_parameter_bank_key_unit_id": (status, [u64, u64, P(c_char), size, P(size), error_slot]),
    "eredu_expert_pass_parameter_bank_access": (status, [u32, P(u32), error_slot]),
    # eredu/residency_policy.h
    "eredu_layerwise_options_init": (status, [P(eredu_layerwise_options), error_slot]),
    "eredu_dense_stream_options_init": (status, [P(eredu_dense_stream_options), error_slot]),
    "eredu_parameter_bank_options_init": (status, [P(eredu_parameter_bank_options), error_slot]),
    "eredu_weight_residency_desc_init": (status, [P(eredu_weight_residency_desc), error_slot]),
    "eredu_residency_summary_init": (status, [P(eredu_residency_summary), error_slot]),
    "eredu_residency_validate": (
        status,
        [P(eredu_weight_residency_desc), u64, P(eredu_residency_summary), error_slot],
    ),
    # eredu/status.h
    "eredu_status_name": (c_char_p, [status]),
    "eredu_error_code": (status, [P(eredu_error)]),
    "eredu_error_message": (c_char_p, [P(eredu_error)]),
    "eredu_error_free": (None, [P(eredu_error)]),
    # eredu/world.h
    "eredu_check_options_init": (status, [P(eredu_check_options), error_slot]),
    "eredu_plan_world_json": (
        status,
        [P(eredu_model), u64, u64, u64, u64, u32, u32, P(c_void_p), P(size), error_slot],
    ),
    "eredu_check_json": (
        status,
        [P(eredu_model), u64, u64, u64, u64, u32, P(eredu_check_options), P(c_void_p), P(size),
         error_slot],
    ),
}
