// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/json_text.hpp"

#include "interchange/json_number.hpp"

namespace eredu::json {

Read<od::json_type> type_of(od::value& value, const Path& path) {
  od::json_type type{};
  if (auto code = value.type().get(type)) return outcome::failure(syntax_error(path, code));
  return type;
}

// simdjson's stage 1 has checked UTF-8 and raw control characters for the
// whole input and indexed each string's closing quote, so a token without a
// backslash is the text itself. Not copying it into simdjson's string buffer
// leaves that buffer's pages untouched: several MiB of peak memory for a
// large description, at the same speed.
Read<std::string_view> string_text(od::value& value, const Path& path) {
  const std::string_view token = trim_token(value.raw_json_token());
  if (token.size() >= 2 && token.find('\\', 1) == std::string_view::npos) {
    od::raw_json_string raw;  // consumes the value, as get_string() would
    if (auto code = value.get_raw_json_string().get(raw)) {
      return outcome::failure(syntax_error(path, code));
    }
    return token.substr(1, token.size() - 2);
  }
  // Escapes are left to simdjson, whose string buffer then holds the text.
  std::string_view unescaped;
  if (auto code = value.get_string().get(unescaped)) {
    return outcome::failure(syntax_error(path, code));
  }
  return unescaped;
}

Read<std::string_view> key_text(od::field& field, const Path& path) {
  std::string_view key;
  if (auto code = field.unescaped_key().get(key)) {
    return outcome::failure(syntax_error(path, code));
  }
  return key;
}

}  // namespace eredu::json
