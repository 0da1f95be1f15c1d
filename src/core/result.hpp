// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The error value and Result type every fallible internal function returns.
#pragma once

#include <fmt/format.h>
#include <boost/outcome/result.hpp>
#include <boost/outcome/try.hpp>

#include <string>
#include <utility>

#include "core/status.hpp"

namespace eredu {

/// A failure: a stable status code and a human-readable message.
struct Error {
  Status code = Status::Internal;
  std::string message;
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
