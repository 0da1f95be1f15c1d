// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// How the command reports results and failures (docs/interchange.md, "Errors
// and exit codes").
#pragma once

#include <string_view>

#include "cli/result.hpp"

namespace eredu::cli {

/// Exit statuses of docs/interchange.md, "Errors and exit codes".
enum ExitCode : int {
  kExitOk = 0,
  kExitIo = 1,
  kExitInvalidInput = 2,
  kExitCoverage = 3,
  kExitInternal = 4,
};

/// The exit status for a failure: EREDU_E_IO → 1, EREDU_E_INTERNAL and
/// EREDU_E_OUT_OF_MEMORY → 4, every other status (caused by the input or
/// flags) → 2.
int exit_code_for(eredu_status status);

/// Writes `text` to stdout and flushes it. Errors: EREDU_E_IO when stdout
/// fails (a closed pipe, a full disk).
Result<void> write_stdout(std::string_view text);

/// Prints `error[EREDU_E_<NAME>]: <message>` on stderr (one line per problem
/// of a planning failure that lists several) and, when `json`,
/// `{"error":{"code":…,"status":…,"message":…}}` on stdout, with an
/// `errors` array for a planning failure; returns the exit status for it.
int report_error(const Error& error, bool json);

}  // namespace eredu::cli
