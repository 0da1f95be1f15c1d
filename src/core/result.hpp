// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The error value and Result type every fallible internal function returns.
#pragma once

#include <fmt/format.h>
#include <boost/outcome/result.hpp>
#include <boost/outcome/try.hpp>

#include <string>
#include <utility>
#include <vector>

#include "core/status.hpp"

namespace eredu {

/// One problem of a planning failure: its code, the logical group and the
/// tensor it names (empty when none), and its message.
struct ErrorEntry {
  Status code = Status::Internal;
  std::string group;
  std::string tensor;
  std::string message;
};

/// A failure: a stable status code and a human-readable message. A
/// planning failure lists every problem it found in `entries`, in the order
/// of docs/interchange.md ("Planning errors"); `code` and `message` are one
/// of them, the one planning reported before it listed them all. Other
/// failures have no entries.
struct Error {
  Error() = default;
  Error(Status error_code, std::string error_message, std::vector<ErrorEntry> all = {})
      : code(error_code), message(std::move(error_message)), entries(std::move(all)) {}

  Status code = Status::Internal;
  std::string message;
  std::vector<ErrorEntry> entries;
};

namespace outcome = boost::outcome_v2;

template <class T>
using Result = outcome::result<T, Error, outcome::policy::terminate>;

/// Builds a failure for any Result<T>.
inline auto fail(Status code, std::string message) {
  return outcome::failure(Error{code, std::move(message)});
}

/// Builds a failure whose message is a fmt format string.
template <class... Args>
auto failf(Status code, fmt::format_string<Args...> format, Args&&... args) {
  return outcome::failure(Error{code, fmt::format(format, std::forward<Args>(args)...)});
}

}  // namespace eredu

/// Propagates a failure; `EREDU_TRY(name, expr)` declares `name` on success.
#define EREDU_TRY BOOST_OUTCOME_TRY
