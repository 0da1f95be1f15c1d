// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/common.h: library-wide functions: the runtime version, the release
 * of buffers the library allocates for the caller, and what a program built
 * on the library shares with it: reading an input of bounded size and
 * quoting text as the library's messages do.
 */
#ifndef EREDU_COMMON_H
#define EREDU_COMMON_H

#include <eredu/types.h>

EREDU_BEGIN_DECLS

/**
 * The version of the loaded library as major * 10000 + minor * 100 + patch,
 * to compare with EREDU_VERSION_NUMBER (eredu/version.h) of the headers a
 * program was built against, e.g. right after dlopen.
 *
 * Thread-safe. Cannot fail.
 */
EREDU_API uint32_t eredu_version_number(void);

/**
 * The version of the loaded library as "major.minor.patch".
 *
 * @return a NUL-terminated string in static storage (never NULL, never freed).
 * Thread-safe. Cannot fail.
 */
EREDU_API const char *eredu_version_string(void);

/**
 * The libraries the loaded library was built with, and their versions, as
 * one line: "fmt 9.1.0, simdjson 3.1.1, nlohmann_json 3.11.2, boost 1.74.0,
 * zstd 1.5.4, xxhash 0.8.1" (zstd and xxhash as loaded at run time, the
 * header-only ones as compiled in). For diagnostics (`eredu --version`);
 * the format may gain entries.
 *
 * @return a NUL-terminated string in static storage (never NULL, never freed).
 * Thread-safe. Cannot fail.
 */
EREDU_API const char *eredu_dependency_versions(void);

/**
 * Releases a buffer the library allocated for the caller (for example the
 * text of eredu_layout_to_json). NULL is a no-op. Never pass such a buffer
 * to the C library's free(), nor any other memory to this function.
 *
 * Thread-safe for distinct buffers. Cannot fail.
 */
EREDU_API void eredu_buffer_free(void *buffer);

/**
 * Reads the whole file at `path`, or standard input for "-", into a new
 * buffer, reading at most `max_bytes`: a larger file, or a FIFO or device
 * that does not end, fails once the bound is passed, so no input exhausts
 * memory. The library reads its own JSON files (config.json, a weight
 * index) this way with a bound of 268435456 bytes (docs/interchange.md,
 * "Errors and exit codes"); a program that reads a description or a
 * policy for the library reads it the same way through this call.
 * @param path      NUL-terminated UTF-8 path, or "-".
 * @param max_bytes the most bytes read (0 accepts only an empty input).
 * @param out       receives the bytes, followed by a NUL not counted in
 *                  `length` (owned; free with eredu_buffer_free); NULL on
 *                  failure.
 * @param length    receives the number of bytes read (required: the
 *                  bytes may hold NULs); 0 on failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (path, out, length);
 *         EREDU_E_INVALID_ARGUMENT (path not UTF-8; an input holding more
 *         than max_bytes: "cannot read "a.json": it holds more than N bytes,
 *         the most eredu reads there"); EREDU_E_IO ("cannot read "a.json":
 *         No such file or directory", "... it is a directory", "cannot read
 *         standard input: ..."); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe for distinct files; standard input is the process's.
 */
EREDU_API eredu_status eredu_read_file(const char *path, size_t max_bytes, char **out,
                                       size_t *length, eredu_error **error);

/**
 * `text` quoted as the library's messages quote names (in the style of
 * Rust's `{:?}`): in double quotes, `"` and `\` escaped, `\n`,
 * `\t`, `\r` and `\0` as such, other control characters as `\u{1b}`, a
 * byte that is not UTF-8 as `\u{fffd}`; any other character as it is
 * (docs/interchange.md, "Errors and exit codes").
 * @param text   `text_length` bytes, any values; NULL only with length 0.
 * @param out    receives the quoted text, NUL-terminated (owned; free with
 *               eredu_buffer_free); NULL on failure.
 * @param length optional (may be NULL): receives its length in bytes
 *               without the NUL (the quoted text holds no other NUL); 0 on
 *               failure.
 * @return EREDU_OK; EREDU_E_NULL_ARGUMENT (text with a nonzero length,
 *         out); EREDU_E_OUT_OF_MEMORY.
 * Thread-safe.
 */
EREDU_API eredu_status eredu_quote(const char *text, size_t text_length, char **out, size_t *length,
                                   eredu_error **error);

EREDU_END_DECLS

#endif /* EREDU_COMMON_H */
