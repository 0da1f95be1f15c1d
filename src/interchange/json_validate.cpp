// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/json_validate.hpp"

#include <fmt/format.h>

#include <deque>
#include <string_view>
#include <unordered_set>

#include "interchange/json_number.hpp"
#include "interchange/json_text.hpp"

namespace eredu::json {
namespace {

// Checks a scalar that On-Demand would otherwise skip unchecked.
Read<void> validate_scalar(od::value& value, od::json_type type, const Path& path) {
  switch (type) {
    case od::json_type::string: {
      EREDU_TRY(string_text(value, path));
      return outcome::success();
    }
    case od::json_type::number: {
      const std::string_view token = trim_token(value.raw_json_token());
      if (!is_json_number(token)) {
        return outcome::failure(syntax_error(path, fmt::format("invalid number {}", token)));
      }
      return outcome::success();
    }
    case od::json_type::boolean: {
      bool flag = false;
      if (value.get_bool().get(flag) != simdjson::SUCCESS) {
        return outcome::failure(syntax_error(path, "invalid literal"));
      }
      return outcome::success();
    }
    case od::json_type::null: {
      bool is_null = false;
      if (value.is_null().get(is_null) != simdjson::SUCCESS || !is_null) {
        return outcome::failure(syntax_error(path, "invalid literal"));
      }
      return outcome::success();
    }
    case od::json_type::object:
    case od::json_type::array:
      break;
  }
  return outcome::success();
}

// An object or array being validated: its pointer (children point here),
// its iterator, and the keys seen so far.
struct OpenContainer {
  Path path;
  bool is_object = false;
  bool started = false;  // an element was visited; advance before the next
  std::uint64_t next_index = 0;
  od::object_iterator field;
  od::object_iterator fields_end;
  od::array_iterator item;
  od::array_iterator items_end;
  std::unordered_set<std::string_view> keys;
};

// Checks a scalar, or opens a container on `stack` (deque: stable addresses).
Read<void> visit(od::value& value, const Path& path, std::deque<OpenContainer>& stack) {
  EREDU_TRY(type, type_of(value, path));
  if (type != od::json_type::object && type != od::json_type::array) {
    return validate_scalar(value, type, path);
  }
  if (stack.size() >= kMaxDepth) {
    return outcome::failure(
        syntax_error(path, fmt::format("nested deeper than {} levels", kMaxDepth)));
  }
  OpenContainer& open = stack.emplace_back();
  open.path = path;
  open.is_object = type == od::json_type::object;
  simdjson::error_code code = simdjson::SUCCESS;
  if (open.is_object) {
    od::object object;
    code = value.get_object().get(object);
    if (!code) code = object.begin().get(open.field);
    if (!code) code = object.end().get(open.fields_end);
  } else {
    od::array array;
    code = value.get_array().get(array);
    if (!code) code = array.begin().get(open.item);
    if (!code) code = array.end().get(open.items_end);
  }
  if (code) return outcome::failure(syntax_error(path, code));
  return outcome::success();
}

}  // namespace

Read<void> validate(od::value& value, const Path& path) {
  EREDU_TRY(type, type_of(value, path));
  if (type != od::json_type::object && type != od::json_type::array) {
    return validate_scalar(value, type, path);
  }
  std::deque<OpenContainer> stack;
  EREDU_TRY(visit(value, path, stack));
  while (!stack.empty()) {
    OpenContainer& top = stack.back();
    if (top.is_object) {
      if (top.started) ++top.field;
      top.started = true;
      if (!(top.field != top.fields_end)) {
        stack.pop_back();
        continue;
      }
      od::field field;
      if (auto code = (*top.field).get(field)) {
        return outcome::failure(syntax_error(top.path, code));
      }
      EREDU_TRY(key, key_text(field, top.path));
      const Path child = top.path.field(key);
      if (!top.keys.insert(key).second) {
        return outcome::failure(syntax_error(child, "duplicate key"));
      }
      EREDU_TRY(visit(field.value(), child, stack));
    } else {
      if (top.started) ++top.item;
      top.started = true;
      if (!(top.item != top.items_end)) {
        stack.pop_back();
        continue;
      }
      od::value item;
      if (auto code = (*top.item).get(item)) {
        return outcome::failure(syntax_error(top.path, code));
      }
      EREDU_TRY(visit(item, top.path.item(top.next_index++), stack));
    }
  }
  return outcome::success();
}

}  // namespace eredu::json
