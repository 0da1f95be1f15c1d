// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/json_path.hpp"

#include <fmt/format.h>

#include <vector>

#include "core/text.hpp"

namespace eredu::json {

std::string Path::str() const {
  std::vector<const Path*> chain;  // iterative: paths of skipped values can be deep
  for (const Path* node = this; node->parent != nullptr; node = node->parent) {
    chain.push_back(node);
  }
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    out += '/';
    if ((*it)->is_index) {
      out += std::to_string((*it)->index);
      continue;
    }
    append_pointer_token(out, (*it)->key);
  }
  return out;
}

Error syntax_error(const Path& at, std::string_view what) {
  if (at.parent == nullptr) return Error{Status::Parse, fmt::format("invalid JSON: {}", what)};
  return Error{Status::Parse, fmt::format("invalid JSON at {}: {}", at.str(), what)};
}

Error syntax_error(const Path& at, simdjson::error_code code) {
  if (code == simdjson::MEMALLOC) {
    return Error{Status::OutOfMemory, "out of memory while parsing JSON"};
  }
  return syntax_error(at, simdjson::error_message(code));
}

std::string_view describe(od::json_type type) {
  switch (type) {
    case od::json_type::array:
      return "an array";
    case od::json_type::object:
      return "an object";
    case od::json_type::number:
      return "a number";
    case od::json_type::string:
      return "a string";
    case od::json_type::boolean:
      return "a boolean";
    case od::json_type::null:
      return "null";
  }
  return "a value";
}

std::string missing(const Path& path) {
  return fmt::format("{}: required field is missing or null", path.str());
}

}  // namespace eredu::json
