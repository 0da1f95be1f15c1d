// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/library.hpp"

#include <new>

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

std::string debug_quoted(std::string_view text) {
  char* quoted = nullptr;
  std::size_t length = 0;
  // Fails only when memory runs out (its arguments are valid).
  if (eredu_quote(text.data(), text.size(), &quoted, &length, nullptr) != EREDU_OK) {
    throw std::bad_alloc();
  }
  std::string out(quoted, length);
  eredu_buffer_free(quoted);
  return out;
}

Result<Buffer> read_file(const std::string& path, std::size_t max_bytes) {
  char* bytes = nullptr;
  std::size_t length = 0;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_read_file(path.c_str(), max_bytes, &bytes, &length, error);
  }));
  return Buffer{std::unique_ptr<char, Freer<eredu_buffer_free>>(bytes), length};
}

}  // namespace eredu::cli
