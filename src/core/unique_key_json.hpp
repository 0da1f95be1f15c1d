// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Parsing JSON with nlohmann while rejecting a repeated key, which nlohmann
// would silently resolve by keeping one of its values.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_syntax.hpp"
#include "core/result.hpp"

namespace eredu {

/// Parses `text` into a `Json` (nlohmann::json or nlohmann::ordered_json),
/// tracking the keys of every open object. Fails with Status::Parse and the
/// message `repeated(key)` for the first key repeated within one object, or
/// `invalid(what)` for a syntax error, `what` being where and what in
/// eredu's words (json_syntax_at: "line 2, column 7: unexpected ']'"), never
/// nlohmann's message, which copies the input's bytes (nlohmann reports
/// errors only by exception, which stays inside this function). A NUL byte
/// is a syntax error wherever it stands (nlohmann would take it for the end
/// of the input and ignore what follows).
template <class Json, class Repeated, class Invalid>
Result<Json> parse_unique_key_json(std::string_view text, Repeated&& repeated, Invalid&& invalid) {
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    return fail(Status::Parse, invalid(json_syntax_at(text, nul).c_str()));
  }
  std::vector<std::set<std::string>> open_objects;
  std::optional<std::string> duplicate;
  auto track_keys = [&](int, typename Json::parse_event_t event, Json& parsed) {
    using Event = typename Json::parse_event_t;
    if (event == Event::object_start) open_objects.emplace_back();
    if (event == Event::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == Event::key && !duplicate && !open_objects.empty() &&
        !open_objects.back().insert(parsed.template get<std::string>()).second) {
      duplicate = parsed.template get<std::string>();
    }
    return true;
  };
  try {
    Json document = Json::parse(text.begin(), text.end(), track_keys);
    if (duplicate) return fail(Status::Parse, repeated(*duplicate));
    return document;
  } catch (const typename Json::parse_error& error) {
    // `byte` counts the characters read, the offending one included.
    const std::size_t offset = error.byte == 0 ? 0 : error.byte - 1;
    return fail(Status::Parse, invalid(json_syntax_at(text, offset).c_str()));
  } catch (const typename Json::out_of_range&) {  // 406: a number beyond a double
    return fail(Status::Parse, invalid("a number is too large for a 64-bit float"));
  } catch (const typename Json::exception&) {
    return fail(Status::Parse, invalid("the document is not JSON"));
  }
}

}  // namespace eredu
