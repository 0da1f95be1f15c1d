// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Where a streaming JSON reader is (a JSON pointer) and the wording of the
// errors it reports there.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace eredu::json {

namespace od = simdjson::ondemand;

/// A reader's fatal error (Parse, OutOfMemory): an Error in a box. A
/// Result keeps its Error beside its value (Boost 1.74's Outcome), so each
/// of the millions of successful reads of a large document would construct
/// and destroy an empty one; a Read holds a null pointer instead.
class Fatal {
 public:
  Fatal() = default;
  // Implicit both ways, so that failures pass between Read and Result.
  Fatal(Error error) : error_(new Error(std::move(error))) {}
  operator Error() && { return std::move(*error_); }

 private:
  // Out of line, so that destroying an empty Fatal inlines to a test.
  struct Delete {
    void operator()(Error* error) const noexcept;
  };
  std::unique_ptr<Error, Delete> error_;
};

/// What the readers return: a value or a Fatal error. EREDU_TRY converts
/// between Read and Result either way.
template <class T>
using Read = outcome::result<T, Fatal, outcome::policy::terminate>;

/// A JSON pointer as a chain of nodes owned by the readers (stack frames or
/// the validator's deque); rendered only for messages. The root has no
/// parent.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;
  std::uint64_t index = 0;
  bool is_index = false;

  Path field(std::string_view name) const { return Path{this, name, 0, false}; }
  Path item(std::uint64_t position) const { return Path{this, {}, position, true}; }

  /// `/groups/3/members/0`; empty for the root.
  std::string str() const;
};

/// Parse: `invalid JSON at <path>: <what>` (no location at the root).
Error syntax_error(const Path& at, std::string_view what);
/// As above, with the error described in eredu's words (never simdjson's
/// message); OutOfMemory for MEMALLOC.
Error syntax_error(const Path& at, simdjson::error_code code);
/// An error of the whole document `text` (its first pass): as above at the
/// root, with the line and column of the first byte that is not UTF-8 for
/// UTF8_ERROR.
Error document_error(std::string_view text, simdjson::error_code code);

/// `an array`, `a string`, ... for `expected X, found Y`.
std::string_view describe(od::json_type type);

/// `<path>: required field is missing or null`.
std::string missing(const Path& path);

}  // namespace eredu::json
