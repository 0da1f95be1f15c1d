// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * eredu/common.h: library-wide functions: the runtime version and the release
 * of buffers the library allocates for the caller.
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

EREDU_END_DECLS

#endif /* EREDU_COMMON_H */
