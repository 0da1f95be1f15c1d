// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/plan_file.h: plan files (docs/plan-files.md). One file holds every
 * rank's eredu.layout.v1 text of one world, each rank in its own zstd frame,
 * behind a checksummed header and index; a launcher writes it once and hands
 * it to every rank, which reads the header, the index and its own frame.
 */
#ifndef EREDU_PLAN_FILE_H
#define EREDU_PLAN_FILE_H

#include <eredu/types.h>

/**
 * The header of a plan file. An output struct (docs/abi.md): set
 * struct_size with EREDU_PLAN_FILE_INFO_INIT or eredu_plan_file_info_init;
 * eredu_plan_file_get_info fills it. Pointers are borrowed from the file
 * handle and valid until eredu_plan_file_free.
 */
struct eredu_plan_file_info {
  /** The caller's sizeof(eredu_plan_file_info). */
  uint32_t struct_size;
  /** The file's format version (1). */
  uint32_t format_version;
  /** The world size T * P * E * D: the ranks the file holds. */
  uint64_t world_size;
  /** Tensor-parallel size T. */
  uint64_t tensor;
  /** Pipeline-parallel size P. */
  uint64_t pipeline;
  /** Expert-parallel size E. */
  uint64_t expert;
  /** Data-parallel size D. */
  uint64_t data;
  /** The chosen pipeline stages (`pipeline_layer_count` decoder-layer
   * counts, one per stage), or NULL and 0 for the balanced split. */
  const uint64_t *pipeline_layers;
  size_t pipeline_layer_count;
  /** The EREDU_POLICY_* value the world was planned with. */
  eredu_policy policy;
  /** 1 when coverage was proven when the file was written (as
   * eredu_plan_world_json's `coverage.ok`), else 0. */
  uint8_t coverage_ok;
  /** The version of the library that wrote the file (NUL-terminated
   * ASCII, e.g. "0.1.0") and its length in bytes. */
  const char *library_version;
  size_t library_version_length;
  /** The fingerprint: XXH3-128 of the description's canonical
   * eredu.groups.v1 text, the topology, the policy and the library version
   * (docs/plan-files.md, "Fingerprint"), as its high and low 64-bit
   * halves; printed as 32 hex digits, high half first. */
  uint64_t fingerprint_high;
  uint64_t fingerprint_low;
  /** The file's size in bytes. */
  uint64_t file_bytes;
};

/** Zeros: no file. */
#define EREDU_PLAN_FILE_INFO_INIT \
  { (uint32_t)sizeof(eredu_plan_file_info), 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, 0, 0, 0, 0 }

EREDU_BEGIN_DECLS

/**
 * Plans every rank of `topology` for `model`, as eredu_plan_world_json
 * does, and writes the plan file at `path`: each rank's eredu.layout.v1 text
 * (byte for byte eredu_layout_to_json's of eredu_plan_rank's layout of that
 * rank) compressed into its own zstd frame, behind the header and index of
 * docs/plan-files.md. The write is atomic: a temporary file in the same
 * folder is written whole, flushed to disk and renamed over `path`; on any
 * failure it is removed and `path` is left as it was. A world whose
 * coverage fails is still written, with coverage_ok 0 in its header.
 *
 * @param model    the description; borrowed for the call.
 * @param topology the axis sizes; read for the call.
 * @param options  policy, threads, progress and pipeline stages, as for
 *                 eredu_plan_world_json; NULL for the defaults.
 * @param path     the file to write, NUL-terminated UTF-8.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (model, topology, path);
 *         EREDU_E_INVALID_ARGUMENT (a struct_size, unknown policy, path not
 *         UTF-8; more than 2^20 ranks; a rank whose layout text is larger
 *         than 1 GiB); the planning errors of eredu_plan_world_json;
 *         EREDU_E_CANCELLED (the progress callback returned non-zero);
 *         EREDU_E_IO (the file cannot be written, named with the reason);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe (the model is read-only); two calls writing the same path at
 * once leave one of the two complete files.
 */
EREDU_API eredu_status eredu_plan_file_write(const eredu_model *model,
                                             const eredu_topology *topology,
                                             const eredu_plan_options *options, const char *path,
                                             eredu_error **error);

/**
 * Opens the plan file at `path` and checks its header and index: magic,
 * format version, counts, the header checksum and every frame's place in
 * the file. Reads the header and the index only (positioned reads), never
 * a frame: its memory is the index's, 32 bytes a rank.
 *
 * @param path  the file, NUL-terminated UTF-8.
 * @param out   receives the open file (owned; free with
 *              eredu_plan_file_free), NULL on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (path, out);
 *         EREDU_E_INVALID_ARGUMENT (path not UTF-8); EREDU_E_IO (missing,
 *         a directory, unreadable); EREDU_E_CORRUPT_DATA (truncated, bad
 *         magic, bad header checksum, absurd counts, a frame out of bounds,
 *         overlapping frames or bytes after the last: the message says what
 *         and at which byte offset); EREDU_E_UNSUPPORTED_VERSION (a newer
 *         format version); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe. The handle keeps the file open; it may be read from any
 * number of threads at once (eredu_plan_file_rank_json).
 */
EREDU_API eredu_status eredu_plan_file_open(const char *path, eredu_plan_file **out,
                                            eredu_error **error);

/** Closes and frees `file`. NULL-safe. */
EREDU_API void eredu_plan_file_free(eredu_plan_file *file);

/**
 * Initializes the first `size` bytes of `info` (pass sizeof *info): zeroes,
 * struct_size = size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (info); EREDU_E_INVALID_ARGUMENT
 *         (size below 4 or above 4096, or ending inside a field).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_plan_file_info_init(eredu_plan_file_info *info, size_t size,
                                                 eredu_error **error);

/**
 * The header of `file` into `out`, up to out->struct_size.
 *
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (file, out);
 *         EREDU_E_INVALID_ARGUMENT (out->struct_size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_plan_file_get_info(const eredu_plan_file *file,
                                                eredu_plan_file_info *out, eredu_error **error);

/**
 * The sizes of rank `rank`'s frame, as the index records them.
 *
 * @param compressed   optional: bytes of the zstd frame in the file.
 * @param uncompressed optional: bytes of the rank's layout text.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (file);
 *         EREDU_E_RANK_OUT_OF_RANGE (rank >= the world size).
 * Thread-safe.
 */
EREDU_API eredu_status eredu_plan_file_rank_bytes(const eredu_plan_file *file, uint64_t rank,
                                                  uint64_t *compressed, uint64_t *uncompressed,
                                                  eredu_error **error);

/**
 * Rank `rank`'s eredu.layout.v1 text, read from its frame only: the
 * checksum of the frame is checked, then it is decompressed. The text is
 * byte for byte eredu_layout_to_json's (one trailing newline) for the layout
 * eredu_plan_rank gives that rank with the description, topology and
 * policy the file was written from.
 *
 * @param out    receives a NUL-terminated UTF-8 buffer owned by the caller,
 *               released with eredu_buffer_free; NULL on failure.
 * @param length optional (may be NULL): the text length in bytes without
 *               the terminator.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (file, out);
 *         EREDU_E_RANK_OUT_OF_RANGE (rank >= the world size); EREDU_E_IO
 *         (the read fails); EREDU_E_CORRUPT_DATA (the frame's checksum
 *         differs from the index's, or it does not decompress to its
 *         recorded size; the message names the rank and the frame's byte
 *         range); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe: any number of ranks may be read at once from one handle.
 * docs/interchange.md, eredu.layout.v1.
 */
EREDU_API eredu_status eredu_plan_file_rank_json(const eredu_plan_file *file, uint64_t rank,
                                                 char **out, size_t *length, eredu_error **error);

/**
 * Whether `file` was written from `model`, `topology` and the policy and
 * pipeline stages of `options` by this library version: compares the
 * library version, the topology (stages included) and the policy with the
 * header's, then the fingerprint (which hashes the description's canonical
 * eredu.groups.v1 text, so this costs writing that text once). The
 * options' threads and progress callback are not used.
 *
 * @param options policy and pipeline stages; NULL for the defaults.
 * @return EREDU_OK (it was); EREDU_E_PLAN_FILE_MISMATCH (the message names
 *         the first that differs: the library version, the topology, the
 *         policy, the description); EREDU_E_NULL_ARGUMENT (file, model,
 *         topology); EREDU_E_INVALID_ARGUMENT (a struct_size, unknown
 *         policy, bad pipeline stages); EREDU_E_ZERO_AXIS,
 *         EREDU_E_WORLD_SIZE_OVERFLOW (the topology);
 *         EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_plan_file_verify(const eredu_plan_file *file, const eredu_model *model,
                                              const eredu_topology *topology,
                                              const eredu_plan_options *options,
                                              eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_PLAN_FILE_H */
