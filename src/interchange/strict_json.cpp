// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/strict_json.hpp"

#include "interchange/json_number.hpp"

namespace eredu::json {

namespace {

// `value`, of `type`, where `wanted_text` is wanted: expect's other cases.
Read<bool> unexpected(od::value& value, od::json_type type, std::string_view wanted_text,
                      const Path& path, FirstError& error, unsigned rank, Null null) {
  if (type == od::json_type::null && null == Null::Absent) {
    EREDU_TRY(validate(value, path));
    return false;
  }
  error.note(rank,
             fmt::format("{}: expected {}, found {}", path.str(), wanted_text, describe(type)));
  EREDU_TRY(validate(value, path));
  return false;
}

}  // namespace

// The type is read without type_of: expect runs for every value read, and
// each Result it nests costs an Error's construction and destruction.
Read<bool> expect(od::value& value, od::json_type wanted, std::string_view wanted_text,
                  const Path& path, FirstError& error, unsigned rank, Null null) {
  od::json_type type{};
  if (auto code = value.type().get(type)) return outcome::failure(syntax_error(path, code));
  if (type == wanted) return true;
  return unexpected(value, type, wanted_text, path, error, rank, null);
}

Read<std::optional<std::string_view>> read_string(od::value& value, const Path& path,
                                                  FirstError& error, unsigned rank) {
  EREDU_TRY(is_string,
            expect(value, od::json_type::string, "a string", path, error, rank, Null::Absent));
  if (!is_string) return std::optional<std::string_view>{};
  EREDU_TRY(text, string_text(value, path));
  return std::optional<std::string_view>{text};
}

Read<std::optional<std::uint64_t>> read_uint(od::value& value, const Path& path, FirstError& error,
                                             unsigned rank, Null null) {
  EREDU_TRY(is_number, expect(value, od::json_type::number, "a non-negative integer", path, error,
                              rank, null));
  if (!is_number) return std::optional<std::uint64_t>{};
  const std::string_view token = trim_token(value.raw_json_token());
  if (!is_json_number(token)) {
    return outcome::failure(syntax_error(path, fmt::format("invalid number {}", token)));
  }
  std::uint64_t result = 0;
  for (char c : token) {
    if (!is_digit(c)) {
      error.note(rank,
                 fmt::format("{}: expected a non-negative integer, found {}", path.str(), token));
      return std::optional<std::uint64_t>{};
    }
    if (__builtin_mul_overflow(result, 10u, &result) ||
        __builtin_add_overflow(result, static_cast<std::uint64_t>(c - '0'), &result)) {
      error.note(rank, fmt::format("{}: integer {} does not fit 64 bits", path.str(), token));
      return std::optional<std::uint64_t>{};
    }
  }
  return std::optional<std::uint64_t>{result};
}

Read<std::optional<bool>> read_bool(od::value& value, const Path& path, FirstError& error,
                                    unsigned rank) {
  EREDU_TRY(is_bool,
            expect(value, od::json_type::boolean, "a boolean", path, error, rank, Null::Absent));
  if (!is_bool) return std::optional<bool>{};
  bool flag = false;
  if (auto code = value.get_bool().get(flag)) {
    return outcome::failure(syntax_error(path, code));
  }
  return std::optional<bool>{flag};
}

}  // namespace eredu::json
