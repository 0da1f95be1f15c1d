// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The sized structs whose defaults are not all zeros (docs/abi.md): what
// their _init function and the library give fields a caller's struct_size
// does not cover.
#pragma once

#include <eredu/eredu.h>

#include "sized.hpp"

namespace eredu::capi {

/// Every axis size 1: a single rank.
template <>
struct SizedDefaults<eredu_topology> {
  static eredu_topology value() { return EREDU_TOPOLOGY_INIT; }
};

/// A thread per hardware thread, 1 MiB requests, gaps up to 64 KiB coalesced.
template <>
struct SizedDefaults<eredu_read_options> {
  static eredu_read_options value() { return EREDU_READ_OPTIONS_INIT; }
};

/// Worlds up to 64 ranks.
template <>
struct SizedDefaults<eredu_fit_options> {
  static eredu_fit_options value() { return EREDU_FIT_OPTIONS_INIT; }
};

}  // namespace eredu::capi

// The structs of eredu/format.h, eredu/runtime/residency.h,
// eredu/runtime/residency_policy.h and eredu/runtime/request.h with non-zero
// defaults: their _INIT macros, so that the macro, _init and the fields a
// caller's struct_size does not cover always agree.

namespace eredu::capi {

/// DENSE, affine 64/4, ggml_type 0, blocks 128 x 128, FLOAT scales.
template <>
struct SizedDefaults<eredu_linear_format> {
  static eredu_linear_format value() { return EREDU_LINEAR_FORMAT_INIT; }
};

/// No budgets, prefetch depth 1, least-recently-used eviction.
template <>
struct SizedDefaults<eredu_offload_config> {
  static eredu_offload_config value() { return EREDU_OFFLOAD_CONFIG_INIT; }
};

/// Default offload config, 4 cached shards, no sampling.
template <>
struct SizedDefaults<eredu_layerwise_options> {
  static eredu_layerwise_options value() { return EREDU_LAYERWISE_OPTIONS_INIT; }
};

/// The seed's dense-stream default budgets, lookahead and queue.
template <>
struct SizedDefaults<eredu_dense_stream_options> {
  static eredu_dense_stream_options value() { return EREDU_DENSE_STREAM_OPTIONS_INIT; }
};

/// Unbounded compact-bank scratch, a 1 GiB prefill target.
template <>
struct SizedDefaults<eredu_parameter_bank_options> {
  static eredu_parameter_bank_options value() { return EREDU_PARAMETER_BANK_OPTIONS_INIT; }
};

/// FLOAT32 wire, 30000 ms quarantined completion.
template <>
struct SizedDefaults<eredu_parallel_load_desc> {
  static eredu_parallel_load_desc value() { return EREDU_PARALLEL_LOAD_DESC_INIT; }
};

/// Affine, group 64, 4 bits.
template <>
struct SizedDefaults<eredu_quantization_request> {
  static eredu_quantization_request value() { return EREDU_QUANTIZATION_REQUEST_INIT; }
};

}  // namespace eredu::capi
