// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/runtime/layerwise_metadata.h: LayerwiseModelMetadata, the
 * inspectable, backend-neutral parameter-residency snapshot of a layered
 * model, which a runtime owns and updates once the checkpoint is resolved
 * (docs/residency.md, "Layerwise model metadata").
 *
 * A snapshot holds the effective model type, the checkpoint-native weight
 * quantization (none, or an EREDU_LINEAR_FORMAT_AFFINE, _MXFP4 or _GGUF
 * eredu_linear_format), the execution-unit count, the pinned static device
 * bytes, the execution residency, the unit byte sizes and the device unit
 * window. The model type and the quantization can be replaced later. The
 * optional materialization telemetry a runtime may keep with the snapshot
 * (WeightMaterializationReport) is opaque to the planner and not exposed.
 *
 * Units: every byte figure is bytes; layer counts and capacities count
 * execution units.
 *
 * Thread-safety: the setters change the snapshot and must not overlap with
 * any other call on the same handle; getters may run concurrently with each
 * other. A handle may move between threads.
 */
#ifndef EREDU_LAYERWISE_METADATA_H
#define EREDU_LAYERWISE_METADATA_H

#include <eredu/format.h>
#include <eredu/runtime/residency_policy.h>
#include <eredu/types.h>

/** Every plain field of a layerwise snapshot
 * (eredu_layerwise_model_metadata_get_info). */

/**
 * Every field of a snapshot but the quantization's own fields, which
 * eredu_layerwise_model_metadata_quantization reads as an
 * eredu_linear_format (the struct the setters take). An output struct
 * (docs/abi.md): set struct_size (EREDU_LAYERWISE_MODEL_METADATA_INFO_INIT
 * or eredu_layerwise_model_metadata_info_init) and
 * eredu_layerwise_model_metadata_get_info fills the fields it covers.
 */
struct eredu_layerwise_model_metadata_info {
  /** The caller's sizeof(eredu_layerwise_model_metadata_info). */
  uint32_t struct_size;
  /** The execution residency: an EREDU_EXECUTION_RESIDENCY_* value. */
  eredu_execution_residency residency;
  /** The effective model type, NUL-terminated UTF-8 (may be empty), and
   * its length in bytes; borrowed from the handle, valid until the next
   * eredu_layerwise_model_metadata_set_effective_model_type or
   * eredu_layerwise_model_metadata_free. */
  const char *effective_model_type;
  size_t effective_model_type_length;
  /** The ordered execution-unit (layer) count. */
  uint64_t layer_count;
  /** The pinned static parameter bytes on the execution device. */
  uint64_t static_device_bytes;
  /** The complete rank-local execution-unit parameter bytes. */
  uint64_t layer_parameter_bytes;
  /** The largest possible device-resident execution-unit byte total. */
  uint64_t maximum_device_layer_bytes;
  /** The charged host-transfer bytes of the largest execution unit. */
  uint64_t maximum_host_layer_bytes;
  /** The most execution units retained on the device. */
  uint64_t device_layer_capacity;
  /** 1 when the snapshot has a weight quantization, 0 when it has none
   * (eredu_layerwise_model_metadata_quantization then reports none). */
  uint8_t has_quantization;
};

#define EREDU_LAYERWISE_MODEL_METADATA_INFO_INIT \
  { (uint32_t)sizeof(eredu_layerwise_model_metadata_info), 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `info` (pass sizeof *info): zeroes,
 * struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info); EREDU_E_INVALID_ARGUMENT
 *         (size below 4 or above 4096, or ending inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_info_init(
    eredu_layerwise_model_metadata_info *info, size_t size, eredu_error **error);

/**
 * Creates a snapshot. The values are stored as given: only the arguments
 * below are checked.
 *
 * Order of checks: effective_model_type, quantization (struct_size, kind),
 * residency, out; then the quantization's own rules.
 *
 * @param effective_model_type the parsed implementation or nested
 *        text-model type: NUL-terminated UTF-8, copied (may be blank).
 * @param quantization the checkpoint-native packed weight quantization,
 *        read only during the call: NULL or kind EREDU_LINEAR_FORMAT_DENSE
 *        for none (no quantization, spelled Dense as a LinearFormat);
 *        AFFINE (affine_group_size, affine_bits), MXFP4 or GGUF (ggml_type).
 *        Fields past its struct_size take the defaults of
 *        EREDU_LINEAR_FORMAT_INIT.
 * @param layer_count ordered execution units.
 * @param static_device_bytes pinned static parameter bytes on the device.
 * @param residency an EREDU_EXECUTION_RESIDENCY_* value.
 * @param layer_parameter_bytes complete rank-local execution-unit
 *        parameter bytes.
 * @param maximum_device_layer_bytes the largest possible device-resident
 *        execution-unit byte total.
 * @param maximum_host_layer_bytes the charged host-transfer bytes of the
 *        largest execution unit.
 * @param device_layer_capacity the most execution units kept on the device.
 * @param out receives the new handle (owned; free it with
 *        eredu_layerwise_model_metadata_free), NULL on failure.
 * @param error optional error slot.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (effective_model_type, out);
 *   EREDU_E_INVALID_ARGUMENT (invalid UTF-8; quantization->struct_size
 *   (docs/abi.md); an unknown quantization->kind; kind
 *   EREDU_LINEAR_FORMAT_BLOCK_FP8, which is not a weight quantization; an
 *   unknown residency);
 *   EREDU_E_INVALID_FORMAT (the quantization's rules, as
 *   eredu_linear_format_validate: "group_size must be 16 or a positive
 *   multiple of 32, got G", then "bits must be one of 2, 3, 4, 5, 6, or 8,
 *   got B"; an unsupported GGUF type: "unsupported GGML tensor type N");
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_new(
    const char *effective_model_type, const eredu_linear_format *quantization, uint64_t layer_count,
    uint64_t static_device_bytes, eredu_execution_residency residency,
    uint64_t layer_parameter_bytes, uint64_t maximum_device_layer_bytes,
    uint64_t maximum_host_layer_bytes, uint64_t device_layer_capacity,
    eredu_layerwise_model_metadata **out, eredu_error **error);

/**
 * Releases a snapshot. NULL is a no-op. Needs exclusive access.
 */
EREDU_API void eredu_layerwise_model_metadata_free(eredu_layerwise_model_metadata *metadata);

/**
 * Replaces the effective model type after checkpoint resolution. A failure
 * changes nothing. The model type an earlier get_info returned is no longer
 * valid after a successful call.
 *
 * @param effective_model_type NUL-terminated UTF-8, copied (may be blank).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, effective_model_type);
 *         EREDU_E_INVALID_ARGUMENT (invalid UTF-8); EREDU_E_OUT_OF_MEMORY.
 * Not thread-safe (changes the snapshot).
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_set_effective_model_type(
    eredu_layerwise_model_metadata *metadata, const char *effective_model_type,
    eredu_error **error);

/**
 * Replaces the checkpoint-native weight quantization. A failure changes
 * nothing.
 *
 * @param quantization as for eredu_layerwise_model_metadata_new: NULL or
 *        DENSE for none, else AFFINE, MXFP4 or GGUF; read only during the
 *        call.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata);
 *   EREDU_E_INVALID_ARGUMENT (quantization->struct_size, an unknown kind,
 *   BLOCK_FP8); EREDU_E_INVALID_FORMAT (the quantization's rules, as for
 *   eredu_layerwise_model_metadata_new).
 * Not thread-safe (changes the snapshot).
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_set_quantization(
    eredu_layerwise_model_metadata *metadata, const eredu_linear_format *quantization,
    eredu_error **error);

/**
 * Every plain field of the snapshot (eredu_layerwise_model_metadata_info),
 * written into the caller's struct up to its struct_size.
 *
 * @param out an output struct with struct_size set; its covered fields are
 *            zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe with other getters.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_get_info(
    const eredu_layerwise_model_metadata *metadata, eredu_layerwise_model_metadata_info *out,
    eredu_error **error);

/**
 * The checkpoint-native weight quantization, as an eredu_linear_format that
 * eredu_layerwise_model_metadata_set_quantization takes back.
 *
 * @param out     an eredu_linear_format with struct_size set, written up to
 *                it: when present the kind (AFFINE, MXFP4 or GGUF) and that
 *                kind's fields (affine_group_size and affine_bits, or
 *                ggml_type), every other field 0; when absent, and on
 *                failure, its covered fields are zeroed (so its kind is
 *                EREDU_LINEAR_FORMAT_DENSE).
 * @param present receives true when the snapshot has a quantization (false
 *                on failure).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out, present);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe with other getters.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_quantization(
    const eredu_layerwise_model_metadata *metadata, eredu_linear_format *out, bool *present,
    eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_LAYERWISE_METADATA_H */
