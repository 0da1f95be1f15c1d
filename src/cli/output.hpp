// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// How the command reports results and failures (docs/interchange.md, "Errors
// and exit codes").
#pragma once

#include <string_view>

#include "core/result.hpp"

namespace eredu {

/// Exit statuses of docs/interchange.md, "Errors and exit codes".
enum ExitCode : int {
  kExitOk = 0,
  kExitIo = 1,
  kExitInvalidInput = 2,
  kExitCoverage = 3,
  kExitInternal = 4,
};

/// The exit status for a failure: Io → 1, Internal and OutOfMemory → 4,
/// every other status (caused by the input or flags) → 2.
int exit_code_for(Status status);

/// Writes `text` to stdout and flushes it. Errors: Io when stdout fails
/// (a closed pipe, a full disk).
Result<void> write_stdout(std::string_view text);

/// Prints `error[EREDU_E_<NAME>]: <message>` on stderr and, when `json`,
/// `{"error":{"code":…,"status":…,"message":…}}` on stdout; returns the exit
/// status for it.
int report_error(const Error& error, bool json);

}  // namespace eredu
