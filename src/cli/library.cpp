// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/library.hpp"

namespace eredu::cli {
namespace {

std::string text_or_empty(const char* text, std::size_t length) {
  return text == nullptr ? std::string() : std::string(text, length);
}

}  // namespace

Error take_error(eredu_status status, eredu_error* error) {
  Error out{status, error == nullptr ? "" : eredu_error_message(error), {}};
  if (eredu_error_is_planning_failure(error)) {
    const std::size_t count = eredu_error_count(error);
    for (std::size_t i = 0; i < count; ++i) {
      eredu_error_entry entry = EREDU_ERROR_ENTRY_INIT;
      if (eredu_error_get_entry(error, i, &entry, nullptr) != EREDU_OK) break;
      out.entries.push_back({entry.code, text_or_empty(entry.group, entry.group_length),
                             text_or_empty(entry.tensor, entry.tensor_length),
                             text_or_empty(entry.message, entry.message_length)});
    }
  }
  eredu_error_free(error);
  return out;
}

std::string_view status_name(eredu_status status) { return eredu_status_name(status); }

}  // namespace eredu::cli
