// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Strict reading of On-Demand values for the eredu.groups.v1 loader: typed
// reads that note structure errors in a FirstError by schema rank, and
// object fields dispatched by name. Whatever is not read is validated.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "core/result.hpp"
#include "interchange/first_error.hpp"
#include "interchange/json_path.hpp"
#include "interchange/json_text.hpp"
#include "interchange/json_validate.hpp"

namespace eredu::json {

/// What null means where a value is read: an absent object field, or a
/// value of the wrong type (array elements).
enum class Null { Absent, Rejected };

/// True when `value` has the `wanted` type. Otherwise false, with the type
/// noted in `error` at `rank` (unless it is an absent null), after
/// validating the value.
Read<bool> expect(od::value& value, od::json_type wanted, std::string_view wanted_text,
                  const Path& path, FirstError& error, unsigned rank, Null null);

/// A string, or nothing when absent or noted as the wrong type.
Read<std::optional<std::string_view>> read_string(od::value& value, const Path& path,
                                                  FirstError& error, unsigned rank);

/// A plain JSON integer token (no fraction, exponent or minus) that fits 64
/// bits; the raw token is checked, never a converted double.
Read<std::optional<std::uint64_t>> read_uint(od::value& value, const Path& path, FirstError& error,
                                             unsigned rank, Null null);

/// `true` or `false`, or nothing when absent or noted as the wrong type.
Read<std::optional<bool>> read_bool(od::value& value, const Path& path, FirstError& error,
                                    unsigned rank);

/// One known field of an object kind: `Field` is an enum class whose
/// enumerators are the fields in the documented order, from 0.
template <class Field>
struct FieldName {
  Field field;
  std::string_view name;
};

/// The rank of a known field in FirstError: 1 + its documented position.
template <class Field>
constexpr unsigned field_rank(Field field) {
  return static_cast<unsigned>(field) + 1;
}

/// The names of an object kind's fields. Its entries must list every
/// enumerator in order (checked at compile time), so that the enum's order
/// is the documented order the ranks follow.
template <class Field, std::size_t N>
class FieldTable {
 public:
  consteval explicit FieldTable(const FieldName<Field> (&entries)[N]) {
    static_assert(N <= 32, "fields are tracked in a 32-bit set");
    for (std::size_t index = 0; index < N; ++index) {
      if (static_cast<std::size_t>(entries[index].field) != index) {
        throw "FieldTable entries must follow the enumerators' order";
      }
      names_[index] = entries[index].name;
    }
  }

  static constexpr std::size_t size() { return N; }
  constexpr std::string_view name(Field field) const {
    return names_[static_cast<std::size_t>(field)];
  }
  static constexpr Field at(std::size_t index) { return static_cast<Field>(index); }

  /// The field whose name `key` is, compared on the raw key: known names
  /// hold no character that JSON escapes, so a raw match is that name.
  std::optional<Field> match_raw(od::raw_json_string key) const {
    for (std::size_t index = 0; index < N; ++index) {
      if (key.unsafe_is_equal(names_[index])) return at(index);
    }
    return std::nullopt;
  }
  std::optional<Field> find(std::string_view key) const {
    for (std::size_t index = 0; index < N; ++index) {
      if (names_[index] == key) return at(index);
    }
    return std::nullopt;
  }

 private:
  std::array<std::string_view, N> names_{};
};

/// Calls `on_field(field, value, path)` for each key of the object `value`
/// found in `fields`; unknown keys are noted in `error` at kObjectRank and
/// validated. A repeated key is fatal (Parse).
template <class Field, std::size_t N, class OnField>
Read<void> for_each_field(od::value& value, const Path& path, const FieldTable<Field, N>& fields,
                          FirstError& error, OnField&& on_field) {
  od::object object;
  if (auto code = value.get_object().get(object)) return outcome::failure(syntax_error(path, code));
  std::uint32_t seen = 0;
  // Made for the first unknown key: most objects have none, and even an
  // empty set costs its construction and destruction per object.
  std::optional<std::unordered_set<std::string_view>> unknown;
  for (auto result : object) {
    od::field field;
    if (auto code = std::move(result).get(field)) return outcome::failure(syntax_error(path, code));
    std::optional<Field> known = fields.match_raw(field.key());
    std::string_view key;
    if (!known) {  // unknown, or a known name spelled with escapes
      EREDU_TRY(text, key_text(field, path));
      key = text;
      known = fields.find(key);
    }
    if (!known) {
      const Path child = path.field(key);
      if (!unknown) unknown.emplace();
      if (!unknown->emplace(key).second) {
        return outcome::failure(syntax_error(child, "duplicate key"));
      }
      error.note(kObjectRank, fmt::format("{}: unknown field", child.str()));
      EREDU_TRY(validate(field.value(), child));
      continue;
    }
    const Path child = path.field(fields.name(*known));
    const std::uint32_t bit = 1u << static_cast<unsigned>(*known);
    if ((seen & bit) != 0) return outcome::failure(syntax_error(child, "duplicate key"));
    seen |= bit;
    EREDU_TRY(on_field(*known, field.value(), child));
  }
  return outcome::success();
}

/// Calls `on_item(value, path)` for each element of the array `value`.
template <class OnItem>
Read<void> for_each_item(od::value& value, const Path& path, OnItem&& on_item) {
  od::array array;
  if (auto code = value.get_array().get(array)) return outcome::failure(syntax_error(path, code));
  std::uint64_t position = 0;
  for (auto result : array) {
    od::value item;
    if (auto code = std::move(result).get(item)) return outcome::failure(syntax_error(path, code));
    EREDU_TRY(on_item(item, path.item(position++)));
  }
  return outcome::success();
}

}  // namespace eredu::json
