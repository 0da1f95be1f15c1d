// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/model.h: a model description: its groups in document order, indexed
 * by target, built from group handles or from one eredu.groups.v1 JSON
 * document (docs/interchange.md).
 *
 * Thread-safety: an eredu_model is immutable once built; any number of
 * threads may read it and plan ranks from it at once.
 */
#ifndef EREDU_MODEL_H
#define EREDU_MODEL_H

#include <eredu/types.h>

/**
 * The optional `model` object of eredu.groups.v1. A sized struct
 * (docs/abi.md): initialize with EREDU_MODEL_INFO_INIT or
 * eredu_model_info_init (everything absent), then set the fields.
 */
struct eredu_model_info {
  /** The caller's sizeof(eredu_model_info). */
  uint32_t struct_size;
  /** The model's name (NUL-terminated UTF-8), or NULL when absent. */
  const char *name;
  /** 1 when `layers` is set, else 0. */
  uint8_t has_layers;
  /** Decoder-layer count, at least 1; required to plan pipeline size > 1. */
  uint64_t layers;
  /** 1 when `experts` is set, else 0. */
  uint8_t has_experts;
  /** Routed experts per layer; required to plan expert size > 1. 0 means a
   * dense model, the same as absent. */
  uint64_t experts;
};

/** No name, no layer count, no expert count. */
#define EREDU_MODEL_INFO_INIT \
  { (uint32_t)sizeof(eredu_model_info), NULL, 0, 0, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Initializes the first `size` bytes of `info` (pass sizeof *info): no name,
 * no layer count, no expert count; struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info); EREDU_E_INVALID_ARGUMENT
 *         (size below 4 or above 4096, or ending inside a field).
 * Thread-safe. eredu.groups.v1 `model`.
 */
EREDU_API eredu_status eredu_model_info_init(eredu_model_info *info, size_t size,
                                             eredu_error **error);

/**
 * Builds a model description from groups, in the given (document) order.
 * The groups are copied: the caller still owns and frees its group handles,
 * before or after the model. Atomic: a complete model or an error.
 *
 * Checks, in order: arguments (NULL pointers, info struct_size and flags,
 * UTF-8 of the name), `layers` 0 (EREDU_E_INVALID_ARGUMENT); then group by
 * group: a scope outside `layers`/`experts` when those are known
 * (EREDU_E_INVALID_GROUP), a member whose element count or bytes overflow
 * 64 bits (EREDU_E_INVALID_TENSOR), a target already used by an earlier group
 * (EREDU_E_INVALID_GROUP, "parallel placement target <T> was registered more
 * than once").
 *
 * @param info        the model object, or NULL when absent.
 * @param groups      `group_count` group handles; may be NULL when
 *                    group_count is 0 (an empty model is valid).
 * @param group_count number of groups; more than PTRDIFF_MAX bytes of
 *                    pointers is EREDU_E_INVALID_ARGUMENT.
 * @param out         receives the new model (owned; free with
 *                    eredu_model_free), NULL on failure.
 * @param error       optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (out, NULL groups with a nonzero
 *         count, a NULL element); EREDU_E_INVALID_ARGUMENT (see above);
 *         EREDU_E_INVALID_GROUP; EREDU_E_INVALID_TENSOR;
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_model_new(const eredu_model_info *info,
                                       const eredu_group *const *groups, size_t group_count,
                                       eredu_model **out, eredu_error **error);

/**
 * Loads a model description from an eredu.groups.v1 JSON document
 * (docs/interchange.md), the bulk path: one call for a whole model.
 * Errors come in the fixed order of docs/interchange.md, "Load errors".
 *
 * @param text   the document, UTF-8, `length` bytes (no terminator needed;
 *               an embedded NUL is a parse error). May be NULL when length
 *               is 0 (then EREDU_E_PARSE).
 * @param length size of `text` in bytes, at most 4294967295 (the most the
 *               JSON parser takes); more is EREDU_E_INVALID_ARGUMENT, checked
 *               before the document is read or copied.
 * @param out    receives the new model (owned; free with eredu_model_free),
 *               NULL on failure.
 * @param error  optional error slot; the message gives the JSON pointer of
 *               a structural error.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (out, NULL text with a nonzero
 *         length); EREDU_E_INVALID_ARGUMENT (length above 4294967295);
 *         EREDU_E_PARSE (syntax, UTF-8, duplicate or unknown keys,
 *         wrong types, unknown enum words, bad integers, layers 0);
 *         EREDU_E_UNSUPPORTED_VERSION (eredu.groups.v<N> other than v1);
 *         EREDU_E_INVALID_GROUP; EREDU_E_INVALID_FORMAT;
 *         EREDU_E_INVALID_TENSOR; EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. A document of at least 64 groups whose `model` object comes
 * before its `groups` is built on one helper thread while it is read; the
 * call joins it before it returns, and loads on the calling thread alone
 * when no thread can be started (docs/interchange.md, "Load errors").
 */
EREDU_API eredu_status eredu_model_from_json(const char *text, size_t length, eredu_model **out,
                                             eredu_error **error);

/**
 * Releases the caller's reference to a model. NULL is a no-op. Layouts
 * planned from it keep the description alive, so they stay valid.
 * Not thread-safe with concurrent readers of the same handle.
 */
EREDU_API void eredu_model_free(eredu_model *model);

/**
 * The number of physical tensors (members of all groups, after any format
 * expansion). Cannot fail; 0 for a NULL model. Thread-safe.
 */
EREDU_API size_t eredu_model_tensor_count(const eredu_model *model);

/** The number of groups. Cannot fail; 0 for a NULL model. Thread-safe. */
EREDU_API size_t eredu_model_group_count(const eredu_model *model);

/**
 * The global size in bytes of the tensors that have a dtype (tensors without
 * one are not counted), as `global_bytes` of every layout. Cannot fail; 0
 * for a NULL model. Thread-safe.
 */
EREDU_API uint64_t eredu_model_global_bytes(const eredu_model *model);

/**
 * The model's optional `model` object of eredu.groups.v1: its name, decoder
 * layer count and routed expert count, as given when it was built, loaded or
 * described.
 *
 * @param model the description; NULL is EREDU_E_NULL_ARGUMENT.
 * @param out   an eredu_model_info with struct_size set (EREDU_MODEL_INFO_INIT
 *              or eredu_model_info_init); filled within its struct_size:
 *              `name` (NULL when absent) borrows from the model and stays
 *              valid while the model handle lives; has_layers/layers and
 *              has_experts/experts as stored (0 when absent). Zeroed within
 *              its struct_size on failure.
 * @param error optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size below 4 or above 4096,
 *         or ending inside a field).
 * Thread-safe. eredu.groups.v1 `model`.
 */
EREDU_API eredu_status eredu_model_get_info(const eredu_model *model, eredu_model_info *out,
                                            eredu_error **error);

/**
 * The model as canonical eredu.groups.v1 text (docs/interchange.md, "Writing
 * a description"), as `eredu describe` prints it: compact, one trailing
 * newline; loading it with eredu_model_from_json gives an equal model.
 *
 * @param model  the description; NULL is EREDU_E_NULL_ARGUMENT.
 * @param out    receives a NUL-terminated UTF-8 buffer owned by the caller,
 *               released with eredu_buffer_free; NULL on failure.
 * @param length optional (may be NULL): the text length in bytes without
 *               the terminator; 0 on failure.
 * @param error  optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, out);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_model_to_json(const eredu_model *model, char **out, size_t *length,
                                           eredu_error **error);

/**
 * A copy of `model` whose vocabulary groups (role vocabulary, with a balanced
 * member) pad their rows to a multiple of `multiple`
 * times the tensor-parallel size when planned (docs/planning.md,
 * "Vocabulary padding"), replacing any multiple they had; what
 * eredu_describe_options.pad_vocab_multiple does when describing, for a
 * description loaded from JSON or built from groups. `model` is unchanged.
 *
 * @param model    the description; NULL is EREDU_E_NULL_ARGUMENT.
 * @param multiple the padding multiple, at least 1.
 * @param out      receives the new model (owned; free with
 *                 eredu_model_free), NULL on failure.
 * @param error    optional error slot.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, out);
 *         EREDU_E_INVALID_ARGUMENT (multiple 0, or no group of the model can
 *         be padded); EREDU_E_INVALID_GROUP (a vocabulary group whose
 *         balanced members have different extents); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_model_pad_vocab(const eredu_model *model, uint64_t multiple,
                                             eredu_model **out, eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_MODEL_H */
