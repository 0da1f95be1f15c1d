// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The first structure error of one JSON object, in schema order.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace eredu::json {

/// The rank of errors about the object itself (its type, an unknown field).
/// Its known fields rank from 1 in the order docs/interchange.md lists them
/// (field_rank in strict_json.hpp); checks across fields rank after them.
inline constexpr unsigned kObjectRank = 0;

/// Keeps the error of the lowest rank, so that the error reported does not
/// depend on the key order in the text; among equal ranks the first noted
/// wins.
class FirstError {
 public:
  void note(unsigned rank, std::string message) {
    if (!message_ || rank < rank_) {
      rank_ = rank;
      message_ = std::move(message);
    }
  }
  void note(unsigned rank, std::optional<std::string> message) {
    if (message) note(rank, std::move(*message));
  }
  explicit operator bool() const { return message_.has_value(); }
  std::optional<std::string> take() { return std::move(message_); }

 private:
  unsigned rank_ = 0;
  std::optional<std::string> message_;
};

}  // namespace eredu::json
