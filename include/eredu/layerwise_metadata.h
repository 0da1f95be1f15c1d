/*
 * eredu/layerwise_metadata.h: seed 003's LayerwiseModelMetadata, the
 * inspectable, backend-neutral parameter-residency snapshot of a layered
 * model, which a runtime owns and updates once the checkpoint is resolved.
 *
 * A snapshot holds the effective model type, the checkpoint-native weight
 * quantization (none, or an EREDU_LINEAR_FORMAT_AFFINE, _MXFP4 or _GGUF
 * eredu_linear_format), the execution-unit count, the pinned static device
 * bytes, the execution residency, the unit byte sizes and the device unit
 * window. The model type and the quantization can be replaced later. The
 * seed's optional materialization telemetry (WeightMaterializationReport)
 * is opaque to the planner (semantics 4.10) and not exposed.
 *
 * Thread-safety: the setters change the snapshot and must not overlap with
 * any other call on the same handle; getters may run concurrently with each
 * other. A handle may move between threads.
 */
#ifndef EREDU_LAYERWISE_METADATA_H
#define EREDU_LAYERWISE_METADATA_H

#include <eredu/format.h>
#include <eredu/residency_policy.h>
#include <eredu/types.h>

EREDU_BEGIN_DECLS

/**
 * Creates a snapshot (seed LayerwiseModelMetadata::new). The values are
 * stored as given: only the arguments below are checked.
 *
 * Order of checks: effective_model_type, quantization (struct_size, kind),
 * residency, out; then the quantization's own rules.
 *
 * @param effective_model_type the parsed implementation or nested
 *        text-model type: NUL-terminated UTF-8, copied (may be blank).
 * @param quantization the checkpoint-native packed weight quantization,
 *        read only during the call: NULL or kind EREDU_LINEAR_FORMAT_DENSE
 *        for none (the seed's None, which LinearFormat spells Dense);
 *        AFFINE (affine_group_size, affine_bits), MXFP4 or GGUF (ggml_type).
 * @param layer_count ordered execution units.
 * @param static_device_bytes pinned static parameter bytes on the device.
 * @param residency an EREDU_EXECUTION_RESIDENCY_* value (seed
 *        ExecutionResidency).
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
 *   EREDU_E_INVALID_ARGUMENT (invalid UTF-8; quantization->struct_size; an
 *   unknown quantization->kind; kind EREDU_LINEAR_FORMAT_BLOCK_FP8, which
 *   is not a weight quantization; an unknown residency);
 *   EREDU_E_INVALID_FORMAT (the quantization's rules, as
 *   eredu_linear_format_validate: "group_size must be 16 or a positive
 *   multiple of 32, got G", then "bits must be one of 2, 3, 4, 5, 6, or 8,
 *   got B"; an unsupported GGUF type: "unsupported GGML tensor type N");
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Seed 003 LayerwiseModelMetadata::new.
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
 * changes nothing.
 *
 * @param effective_model_type NUL-terminated UTF-8, copied (may be blank).
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, effective_model_type);
 *         EREDU_E_INVALID_ARGUMENT (invalid UTF-8); EREDU_E_OUT_OF_MEMORY.
 * Not thread-safe (changes the snapshot). Seed 003
 * LayerwiseModelMetadata::set_effective_model_type.
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
 * Not thread-safe (changes the snapshot). Seed 003
 * LayerwiseModelMetadata::set_quantization.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_set_quantization(
    eredu_layerwise_model_metadata *metadata, const eredu_linear_format *quantization,
    eredu_error **error);

/**
 * The effective model type.
 *
 * @param out    receives a borrowed NUL-terminated UTF-8 string, valid until
 *               the next set_effective_model_type or
 *               eredu_layerwise_model_metadata_free.
 * @param length optional (may be NULL): its length in bytes.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::effective_model_type.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_effective_model_type(
    const eredu_layerwise_model_metadata *metadata, const char **out, size_t *length,
    eredu_error **error);

/**
 * The checkpoint-native weight quantization.
 *
 * @param out     caller struct with struct_size set by
 *                eredu_linear_format_init; when present it receives the kind
 *                (AFFINE, MXFP4 or GGUF) and that kind's fields
 *                (affine_group_size and affine_bits, or ggml_type), every
 *                other field 0; when absent it is zeroed except struct_size
 *                (so its kind is EREDU_LINEAR_FORMAT_DENSE).
 * @param present receives true when the snapshot has a quantization.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out, present);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Seed 003 LayerwiseModelMetadata::quantization.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_quantization(
    const eredu_layerwise_model_metadata *metadata, eredu_linear_format *out, bool *present,
    eredu_error **error);

/**
 * The ordered execution-unit count.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::layer_count.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_layer_count(
    const eredu_layerwise_model_metadata *metadata, uint64_t *out, eredu_error **error);

/**
 * The pinned static parameter bytes on the execution device.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::static_device_bytes.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_static_device_bytes(
    const eredu_layerwise_model_metadata *metadata, uint64_t *out, eredu_error **error);

/**
 * The execution residency: an EREDU_EXECUTION_RESIDENCY_* value.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::residency.
 */
EREDU_API eredu_status
eredu_layerwise_model_metadata_residency(const eredu_layerwise_model_metadata *metadata,
                                         eredu_execution_residency *out, eredu_error **error);

/**
 * The complete rank-local execution-unit parameter bytes.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::layer_parameter_bytes.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_layer_parameter_bytes(
    const eredu_layerwise_model_metadata *metadata, uint64_t *out, eredu_error **error);

/**
 * The largest possible device-resident execution-unit byte total.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::maximum_device_layer_bytes.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_maximum_device_layer_bytes(
    const eredu_layerwise_model_metadata *metadata, uint64_t *out, eredu_error **error);

/**
 * The charged host-transfer bytes of the largest execution unit.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::maximum_host_layer_bytes.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_maximum_host_layer_bytes(
    const eredu_layerwise_model_metadata *metadata, uint64_t *out, eredu_error **error);

/**
 * The most execution units retained on the device.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (metadata, out).
 * Seed 003 LayerwiseModelMetadata::device_layer_capacity.
 */
EREDU_API eredu_status eredu_layerwise_model_metadata_device_layer_capacity(
    const eredu_layerwise_model_metadata *metadata, uint64_t *out, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_LAYERWISE_METADATA_H */
