// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/json_path.hpp"

#include <fmt/format.h>

#include <vector>

#include "core/json_syntax.hpp"
#include "core/text.hpp"

namespace eredu::json {

void Fatal::Delete::operator()(Error* error) const noexcept { delete error; }

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

namespace {

std::string_view words_for(simdjson::error_code code) {
  switch (code) {
    case simdjson::EMPTY:
      return "the document is empty";
    case simdjson::DEPTH_ERROR:
      return "nested too deeply";
    case simdjson::STRING_ERROR:
      return "a malformed string or escape";
    case simdjson::UNCLOSED_STRING:
      return "a string is not closed";
    case simdjson::UNESCAPED_CHARS:
      return "a string holds an unescaped control character";
    case simdjson::UTF8_ERROR:
      return "the text is not UTF-8";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
      return "a malformed true, false or null";
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE:
      return "a malformed or out-of-range number";
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      return "an array or object is not closed";
    case simdjson::TRAILING_CONTENT:
      return "trailing content after the document";
    case simdjson::CAPACITY:
      return "the document is larger than 4294967295 bytes";
    default:  // TAPE_ERROR and the rest: misplaced commas, colons, brackets
      return "a malformed array or object";
  }
}

}  // namespace

Error syntax_error(const Path& at, simdjson::error_code code) {
  if (code == simdjson::MEMALLOC) {
    return Error{Status::OutOfMemory, "out of memory while parsing JSON"};
  }
  return syntax_error(at, words_for(code));
}

Error document_error(std::string_view text, simdjson::error_code code) {
  if (code == simdjson::UTF8_ERROR) {
    if (const auto at = first_invalid_utf8(text); at != std::string_view::npos) {
      return syntax_error(Path{}, json_syntax_at(text, at));
    }
  }
  return syntax_error(Path{}, code);
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
