// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/scope_json.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>

#include "core/text.hpp"
#include "interchange/strict_json.hpp"

namespace eredu::json {
namespace {

// In the documented order.
enum class ScopeField { Layer, Expert };

constexpr FieldTable<ScopeField, 2> kScopeFields({
    {ScopeField::Layer, "layer"},
    {ScopeField::Expert, "expert"},
});

// An empty scope object is reported after both fields.
constexpr unsigned kEmptyScopeRank = field_rank(ScopeField::Expert) + 1;

}  // namespace

Read<GroupScope> read_scope(od::value& value, const Path& path, FirstError& group_error,
                            unsigned rank) {
  EREDU_TRY(type, type_of(value, path));
  if (type == od::json_type::string) {
    EREDU_TRY(text, read_string(value, path, group_error, rank));
    if (text == "embedding") return GroupScope::embedding();
    if (text == "output_head") return GroupScope::output_head();
    if (text == "tied_embedding") return GroupScope::tied_embedding();
    group_error.note(rank, fmt::format("{}: unknown scope {}", path.str(), debug_quoted(*text)));
    return GroupScope::all();
  }
  EREDU_TRY(is_object, expect(value, od::json_type::object, "a string or an object", path,
                              group_error, rank, Null::Absent));
  if (!is_object) return GroupScope::all();
  FirstError error;
  std::optional<std::uint64_t> layer;
  std::optional<std::uint64_t> expert;
  EREDU_TRY(for_each_field(
      value, path, kScopeFields, error,
      [&](ScopeField field, od::value& field_value, const Path& at) -> Read<void> {
        EREDU_TRY(number, read_uint(field_value, at, error, field_rank(field), Null::Absent));
        switch (field) {
          case ScopeField::Layer:
            layer = number;
            break;
          case ScopeField::Expert:
            expert = number;
            break;
        }
        return outcome::success();
      }));
  if (!layer && !expert) {
    error.note(
        kEmptyScopeRank,
        fmt::format("{}: a scope object must hold \"layer\", \"expert\" or both", path.str()));
  }
  group_error.note(rank, error.take());
  return GroupScope::indexed(layer, expert);
}

}  // namespace eredu::json
