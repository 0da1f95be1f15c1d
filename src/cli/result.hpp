// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The command's error value and Result type: a status code of
// eredu/status.h, its message and, for a planning failure, every problem.
#pragma once

#include <fmt/format.h>

#include <boost/outcome/result.hpp>
#include <boost/outcome/try.hpp>
#include <string>
#include <utility>
#include <vector>

#include "eredu/eredu.h"

namespace eredu::cli {

/// One problem of a planning failure (eredu_error_get_entry); `group` and
/// `tensor` are empty when it names none.
struct ErrorEntry {
  eredu_status code = EREDU_E_INTERNAL;
  std::string group;
  std::string tensor;
  std::string message;
};

/// A failure: its code and message and, for a planning failure, every
/// problem it lists (empty for any other error).
struct Error {
  eredu_status code = EREDU_E_INTERNAL;
  std::string message;
  std::vector<ErrorEntry> entries;
};

namespace outcome = boost::outcome_v2;

template <class T>
using Result = outcome::result<T, Error, outcome::policy::terminate>;

inline auto fail(eredu_status code, std::string message) {
  return outcome::failure(Error{code, std::move(message), {}});
}

template <class... Args>
auto failf(eredu_status code, fmt::format_string<Args...> format, Args&&... args) {
  return fail(code, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace eredu::cli

#define EREDU_TRY BOOST_OUTCOME_TRY
