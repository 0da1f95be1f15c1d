// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/format.h: checkpoint encodings of linear matrices and their
 * expansion into physical members (expand_linear_format_member and
 * expand_linear_format_parameter_groups; docs/planning.md, "Linear formats"
 * and "Expansion"; eredu.groups.v1 `format` in docs/interchange.md).
 *
 * A member declared with a format describes the *logical dense* matrix
 * (shape [..., rows, input columns] in elements); expansion replaces it by
 * the packed weight and every companion tensor, in the same group:
 *
 *   format       packed weight (last axis)      companions
 *   DENSE        unchanged, member's dtype      none
 *   AFFINE g,b   cols*b/32 words, U32           scale and bias [.., rows, cols/g],
 *                                               dtype companion_dtype, else the member's
 *   MXFP4        cols*4/32 words, U32           scale [.., rows, cols/32], F8_E8M0
 *   GGUF t       cols/values*bytes bytes, U8    none
 *   BLOCK_FP8    unchanged, member's dtype      scale [.., ceil(rows/r), ceil(cols/c)],
 *                                               dtype companion_dtype, else F32 (FLOAT)
 *                                               or F8_E8M0 (UE8M0)
 *
 * Units: shapes, axes and segment bounds are in elements of the logical
 * dense matrix on input, and in physical indices (words, bytes, blocks) on
 * the expanded members; block sizes are in elements.
 *
 * Formats and specs are sized caller structs (docs/abi.md), only read
 * during a call and validated when they are used (EREDU_E_INVALID_FORMAT,
 * before any expansion). Results are immutable handles that any number of
 * threads may read at once; every pointer a handle hands out is borrowed
 * from it and valid until it is freed.
 */
#ifndef EREDU_FORMAT_H
#define EREDU_FORMAT_H

#include <eredu/types.h>

/* ---- eredu_linear_format_kind: LinearFormat variants ------------------ */

/** Ordinary floating-point storage; no companions. */
#define EREDU_LINEAR_FORMAT_DENSE 0
/** Per-group affine integers (affine_group_size, affine_bits); scale and
 * bias companions. */
#define EREDU_LINEAR_FORMAT_AFFINE 1
/** Microscaling FP4 (group 32, 4 bits); one scale companion. */
#define EREDU_LINEAR_FORMAT_MXFP4 2
/** Checkpoint-native GGML blocks (ggml_type); no companions. */
#define EREDU_LINEAR_FORMAT_GGUF 3
/** E4M3 values with one inverse scale per block_rows x block_columns block;
 * one scale companion. */
#define EREDU_LINEAR_FORMAT_BLOCK_FP8 4

/* ---- eredu_block_fp8_scale_encoding: BlockFp8ScaleEncoding ------------ */

/** Floating-point inverse scales (F16, BF16 or F32). */
#define EREDU_BLOCK_FP8_SCALE_FLOAT 0
/** Unsigned exponent-only E8M0 inverse scales. */
#define EREDU_BLOCK_FP8_SCALE_UE8M0 1

/**
 * One linear-matrix encoding (a LinearFormat with AffineQuantization,
 * GgufIQuant and BlockFp8Format; docs/planning.md, "Linear formats"): set
 * `kind` and the fields of that kind; the fields of other kinds are
 * ignored. A sized struct (docs/abi.md): initialize with
 * EREDU_LINEAR_FORMAT_INIT or eredu_linear_format_init, whose defaults are
 * DENSE, affine 64/4, ggml_type 0, blocks 128 x 128 and FLOAT scales.
 * eredu_layerwise_model_metadata_quantization also fills one as an output.
 */
struct eredu_linear_format {
  /** The caller's sizeof(eredu_linear_format). */
  uint32_t struct_size;
  /** An EREDU_LINEAR_FORMAT_* value. Default DENSE. */
  eredu_linear_format_kind kind;
  /** AFFINE: input values per scale/bias group: 16 or a positive multiple
   * of 32. Default 64. */
  int32_t affine_group_size;
  /** AFFINE: bits per value: 2, 3, 4, 5, 6 or 8. Default 4. */
  int32_t affine_bits;
  /** GGUF: the ggml_type code (see eredu_ggml_type_by_code). Default 0. */
  uint32_t ggml_type;
  /** BLOCK_FP8: output rows per scale, positive. Default 128. */
  int32_t block_rows;
  /** BLOCK_FP8: input columns per scale, positive. Default 128. */
  int32_t block_columns;
  /** BLOCK_FP8: an EREDU_BLOCK_FP8_SCALE_* value. Default FLOAT. */
  eredu_block_fp8_scale_encoding scale_encoding;
};

/** DENSE, affine 64/4, ggml_type 0, blocks 128 x 128, FLOAT scales. */
#define EREDU_LINEAR_FORMAT_INIT                                                          \
  {                                                                                       \
    (uint32_t)sizeof(eredu_linear_format), EREDU_LINEAR_FORMAT_DENSE, 64, 4, 0, 128, 128, \
        EREDU_BLOCK_FP8_SCALE_FLOAT                                                       \
  }

/**
 * A format with the exact checkpoint targets of its companions (a
 * LinearFormatSpec; docs/planning.md, "Format declarations") and an optional
 * companion dtype. A sized struct (docs/abi.md): initialize with
 * EREDU_LINEAR_FORMAT_SPEC_INIT or eredu_linear_format_spec_init (every
 * field 0 / NULL), then set `format` and the companions.
 */
struct eredu_linear_format_spec {
  /** The caller's sizeof(eredu_linear_format_spec). */
  uint32_t struct_size;
  /** An EREDU_DTYPE_* value for the affine scale and bias or the block-FP8
   * scale; ignored when has_companion_dtype is 0. */
  eredu_dtype companion_dtype;
  /** The encoding (required): a sized eredu_linear_format, borrowed for the
   * duration of a call. */
  const eredu_linear_format *format;
  /** The scale companion's target (NUL-terminated UTF-8), or NULL for none.
   * Required by AFFINE, MXFP4 and BLOCK_FP8; refused by DENSE and GGUF. */
  const char *scale;
  /** The affine-bias companion's target, or NULL for none. Required by
   * AFFINE; refused by every other kind; must differ from `scale`. */
  const char *affine_bias;
  /** 1 when `companion_dtype` is set (AFFINE and BLOCK_FP8 only), else 0. */
  uint8_t has_companion_dtype;
  /** 0 (default): the spec is validated (EREDU_E_INVALID_FORMAT). 1: the
   * spec is taken as is, unvalidated, and checked only during expansion:
   * companion mistakes are then EREDU_E_INVALID_GROUP and
   * format mistakes EREDU_E_INVALID_TENSOR, in the order of
   * docs/planning.md, "Expansion errors, in order". Argument checks (NULL,
   * struct sizes, UTF-8, enums, flags) still apply. */
  uint8_t raw;
};

/** No format, no companions, no companion dtype, raw 0. */
#define EREDU_LINEAR_FORMAT_SPEC_INIT \
  { (uint32_t)sizeof(eredu_linear_format_spec), 0, NULL, NULL, NULL, 0, 0 }

/**
 * One row of the GGML block table (docs/planning.md, "GGML block table"):
 * `block_values` values are stored in `block_bytes` bytes. An output struct
 * (docs/abi.md): set struct_size (EREDU_GGML_TYPE_INFO_INIT or
 * eredu_ggml_type_info_init) and a lookup fills the fields it covers.
 */
struct eredu_ggml_type_info {
  /** The caller's sizeof(eredu_ggml_type_info). */
  uint32_t struct_size;
  /** The ggml_type code. */
  uint32_t code;
  /** ggml's exact name ("Q4_K"), NUL-terminated ASCII in static storage
   * (valid for the life of the process, never freed). */
  const char *name;
  /** Logical values per block. */
  uint64_t block_values;
  /** Bytes per block. */
  uint64_t block_bytes;
};

#define EREDU_GGML_TYPE_INFO_INIT \
  { (uint32_t)sizeof(eredu_ggml_type_info), 0, NULL, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `format` (pass sizeof *format):
 * zeroes, the defaults of EREDU_LINEAR_FORMAT_INIT for the fields they
 * hold, struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (format);
 *         EREDU_E_INVALID_ARGUMENT (size below 4 or above 4096, or ending
 *         inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_linear_format_init(eredu_linear_format *format, size_t size,
                                                eredu_error **error);

/** As eredu_linear_format_init, for eredu_linear_format_spec (zeroes). */
EREDU_API eredu_status eredu_linear_format_spec_init(eredu_linear_format_spec *spec, size_t size,
                                                     eredu_error **error);

/** As eredu_linear_format_init, for eredu_ggml_type_info (zeroes). */
EREDU_API eredu_status eredu_ggml_type_info_init(eredu_ggml_type_info *info, size_t size,
                                                 eredu_error **error);

/**
 * Validates a format (LinearFormat::validate). The fields past
 * format->struct_size take the defaults of EREDU_LINEAR_FORMAT_INIT.
 *
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (format);
 *   EREDU_E_INVALID_ARGUMENT (format->struct_size (docs/abi.md), unknown
 *   kind or, for BLOCK_FP8, scale encoding);
 *   EREDU_E_INVALID_FORMAT: `group_size must be 16 or a positive multiple of
 *   32, got G`, then `bits must be one of 2, 3, 4, 5, 6, or 8, got B`
 *   (AFFINE); `unsupported GGML tensor type N` (GGUF); `block-FP8 geometry
 *   must be positive, got [R, C]` (BLOCK_FP8).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_linear_format_validate(const eredu_linear_format *format,
                                                    eredu_error **error);

/**
 * Validates a spec by the rules of the LinearFormatSpec constructors
 * (unscaled, scaled, affine; also when spec->raw is 1); docs/planning.md,
 * "Format declarations".
 *
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (spec, spec->format);
 *   EREDU_E_INVALID_ARGUMENT (the struct_size of spec or its format
 *   (docs/abi.md), unknown kind, scale encoding or dtype, a flag other
 *   than 0/1, invalid UTF-8);
 *   EREDU_E_INVALID_FORMAT, in order: a blank companion target (`parameter
 *   identity must not be empty`); the format (as
 *   eredu_linear_format_validate); `linear format F requires scale/bias
 *   companions (s, b), got (s', b')`; `linear scale and affine-bias
 *   companions require distinct identities`; a companion dtype on a kind
 *   other than AFFINE and BLOCK_FP8 (`linear format F takes no companion
 *   dtype`).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_linear_format_spec_validate(const eredu_linear_format_spec *spec,
                                                         eredu_error **error);

/**
 * Looks up a GGML type by code (GgmlType::block_and_bytes).
 *
 * @param code  a ggml_type code.
 * @param out   an output struct with struct_size set, written up to it;
 *              its covered fields are zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (out); EREDU_E_INVALID_ARGUMENT
 *         (out->struct_size); EREDU_E_INVALID_FORMAT (`unsupported GGML
 *         tensor type N` for codes 4, 5, 9, 15, 31-38 and unknown codes).
 * Thread-safe. docs/planning.md, "GGML block table".
 */
EREDU_API eredu_status eredu_ggml_type_by_code(uint32_t code, eredu_ggml_type_info *out,
                                               eredu_error **error);

/**
 * Looks up a GGML type by ggml's exact, case-sensitive name ("Q4_K",
 * "IQ2_XXS", "BF16").
 *
 * @param name  NUL-terminated UTF-8.
 * @param out   an output struct with struct_size set, written up to it;
 *              its covered fields are zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (name, out);
 *         EREDU_E_INVALID_ARGUMENT (invalid UTF-8, out->struct_size);
 *         EREDU_E_NOT_FOUND (a name ggml does not define);
 *         EREDU_E_INVALID_FORMAT (`unsupported GGML tensor type N` for the
 *         ggml types eredu does not support: Q8_1, Q8_K, TQ1_0, TQ2_0).
 * Thread-safe. docs/planning.md, "GGML block table".
 */
EREDU_API eredu_status eredu_ggml_type_by_name(const char *name, eredu_ggml_type_info *out,
                                               eredu_error **error);

/**
 * Expands one member (expand_linear_format_member): the physical
 * members in order [packed weight, scale (if any), affine bias (if any)],
 * with shapes, dtypes and shardings as the table at the top of this header.
 * Shardings are copied, except PARTITIONED_SEGMENTS / SEGMENTED on a
 * packed axis, whose bounds become physical indices by exact geometry:
 * AFFINE/MXFP4 weight by exact bits (k = 32 / gcd(32, bits) values fill
 * k * bits / 32 words; a bound must be a multiple of k), companions by the
 * group, GGUF to bytes (bound / block values * block bytes), the BLOCK_FP8
 * scale by block_rows on the row axis and block_columns on the column axis
 * (a bound at the axis end maps to the last, partial block); see
 * docs/planning.md, "Segment remapping by exact geometry".
 *
 * @param member the logical dense member (as for eredu_group_new); read
 *               only during the call.
 * @param spec   its declaration; read only during the call.
 * @param out    receives the members (owned; free with
 *               eredu_member_list_free), NULL on failure.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT and EREDU_E_INVALID_ARGUMENT (the argument checks
 *   of eredu_group_new for the member, of eredu_linear_format_spec_validate
 *   for the spec; NULL out);
 *   EREDU_E_INVALID_FORMAT (a spec with raw 0 that does not validate);
 *   then these checks, in this order: EREDU_E_INVALID_GROUP `dense linear
 *   parameter T declares physical companions`; EREDU_E_INVALID_TENSOR
 *   `encoded linear parameter T must have at least two dimensions`;
 *   per format the companion checks (EREDU_E_INVALID_GROUP), format
 *   validation (EREDU_E_INVALID_TENSOR, raw specs only) and alignment
 *   (EREDU_E_INVALID_TENSOR: `GGUF matrix T input c is not aligned to block
 *   b`, `packed matrix T input c is incompatible with group g and b bits`,
 *   `packed companion T segment s..e is not aligned to k`);
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. Expansion and segment remapping: docs/planning.md,
 * "Expansion errors, in order".
 */
EREDU_API eredu_status eredu_expand_linear_format_member(const eredu_member_desc *member,
                                                         const eredu_linear_format_spec *spec,
                                                         eredu_member_list **out,
                                                         eredu_error **error);

/**
 * Expands a group: member i is replaced by its expansion when specs[i] is
 * not NULL. The group records each matrix it expanded (other than DENSE),
 * so that planning holds its physical members to the companion rule
 * (docs/planning.md, "The companion rule"); members expanded one by one
 * with eredu_expand_linear_format_member and given to eredu_group_new are
 * not checked. A group with at least one spec is rebuilt with its name, role
 * and scope: a partitioned group by
 * eredu_partitioned_group_with_preferred_units with its units as preferred
 * (so they may shrink), an unpartitioned one as eredu_group_new (a
 * companion target equal to another member's target is then "repeats tensor
 * target"). A group without specs is copied unchanged.
 *
 * @param group      the group (not modified; may be freed afterwards).
 * @param specs      `spec_count` pointers, one per member in member order;
 *                   NULL entries mean "not declared". May be NULL when
 *                   spec_count is 0. Read only during the call.
 * @param spec_count must equal the group's member count.
 * @param out        receives the new group (owned; free with
 *                   eredu_group_free), NULL on failure.
 * @return EREDU_OK;
 *   EREDU_E_NULL_ARGUMENT (group, out, NULL specs with a nonzero count,
 *   spec->format);
 *   EREDU_E_INVALID_ARGUMENT (spec_count differs from the member count, the
 *   spec checks of eredu_linear_format_spec_validate, struct sizes
 *   included), for every spec first;
 *   EREDU_E_INVALID_FORMAT for the first spec (with raw 0) that does not
 *   validate, before any expansion; then member by member the errors of
 *   eredu_expand_linear_format_member, in its order; then the rebuild's
 *   EREDU_E_INVALID_TENSOR (a partitioned axis missing) and
 *   EREDU_E_INVALID_GROUP; EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. docs/planning.md, "Expanding a group".
 */
EREDU_API eredu_status eredu_expand_linear_format_group(
    const eredu_group *group, const eredu_linear_format_spec *const *specs, size_t spec_count,
    eredu_group **out, eredu_error **error);

/**
 * Expands a whole model description: as eredu_expand_linear_format_group
 * for every group in document order, then the model is rebuilt with the
 * same `model` object (as eredu_model_new).
 *
 * @param model      the description (not modified; may be freed afterwards).
 * @param specs      `spec_count` pointers, one per tensor in document order
 *                   (group by group, member by member); NULL entries mean
 *                   "not declared". May be NULL when spec_count is 0. Read
 *                   only during the call.
 * @param spec_count must equal eredu_model_tensor_count(model).
 * @param out        receives the new model (owned; free with
 *                   eredu_model_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, out, NULL specs with a
 *   nonzero count, spec->format); EREDU_E_INVALID_ARGUMENT (spec_count
 *   differs from the tensor count; spec checks), for every spec first;
 *   EREDU_E_INVALID_FORMAT for the first spec that does not validate; then,
 *   group by group, the group's expansion errors (as
 *   eredu_expand_linear_format_group) followed by eredu_model_new's checks
 *   of that group (EREDU_E_INVALID_GROUP for a scope outside the model,
 *   EREDU_E_INVALID_TENSOR for a byte size overflowing 64 bits,
 *   EREDU_E_INVALID_GROUP for a target used by an earlier group);
 *   EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_expand_linear_format_model(
    const eredu_model *model, const eredu_linear_format_spec *const *specs, size_t spec_count,
    eredu_model **out, eredu_error **error);

/**
 * Releases a member list. NULL is a no-op.
 * Not thread-safe with concurrent readers of the same list.
 */
EREDU_API void eredu_member_list_free(eredu_member_list *list);

/** The number of members in a list. Cannot fail; 0 for NULL. Thread-safe. */
EREDU_API size_t eredu_member_list_count(const eredu_member_list *list);

/**
 * Describes member `index` (0-based, in order) in `out`: target, shape,
 * ndim, dtype, sharding, axis and segments ({start, end} pairs flattened),
 * exactly the descriptor eredu_group_new would take for it. The pointers
 * are borrowed from the list and valid until eredu_member_list_free(list).
 *
 * @param out  a descriptor whose struct_size is set (EREDU_MEMBER_DESC_INIT
 *             or eredu_member_desc_init), written up to it (docs/abi.md);
 *             its covered fields are zeroed on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (list, out);
 *         EREDU_E_INVALID_ARGUMENT (index >= count, out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_member_list_get(const eredu_member_list *list, size_t index,
                                             eredu_member_desc *out, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_FORMAT_H */
