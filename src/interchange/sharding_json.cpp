// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/sharding_json.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string_view>

#include "core/text.hpp"
#include "interchange/strict_json.hpp"

namespace eredu::json {
namespace {

// In the documented order.
enum class ShardingField { Kind, Axis, Segments, PerKvHead, ExpertAxis };

constexpr FieldTable<ShardingField, 5> kShardingFields({
    {ShardingField::Kind, "kind"},
    {ShardingField::Axis, "axis"},
    {ShardingField::Segments, "segments"},
    {ShardingField::PerKvHead, "per_kv_head"},
    {ShardingField::ExpertAxis, "expert_axis"},
});

bool is_segment_kind(ShardingKind kind) {
  return kind == ShardingKind::PartitionedSegments || kind == ShardingKind::Segmented;
}

// Appends the [start, end] pairs of `value` (an array) to `segments`.
Read<void> read_segments(od::value& value, const Path& path, FirstError& error, unsigned rank,
                         std::vector<IndexRange>& segments) {
  return for_each_item(value, path, [&](od::value& item, const Path& item_path) -> Read<void> {
    EREDU_TRY(is_pair, expect(item, od::json_type::array, "a [start, end] array", item_path, error,
                              rank, Null::Rejected));
    if (!is_pair) return outcome::success();
    std::array<std::uint64_t, 2> bounds{};
    std::size_t count = 0;
    EREDU_TRY(
        for_each_item(item, item_path, [&](od::value bound, const Path& bound_path) -> Read<void> {
          EREDU_TRY(number, read_uint(bound, bound_path, error, rank, Null::Rejected));
          if (number && count < 2) bounds[count] = *number;
          ++count;
          return outcome::success();
        }));
    if (count != 2) {
      error.note(rank, fmt::format("{}: expected a [start, end] pair, found {} elements",
                                   item_path.str(), count));
    }
    segments.push_back(IndexRange{bounds[0], bounds[1]});
    return outcome::success();
  });
}

// Notes `field` given without being allowed for `kind`, or missing where
// required.
void check_allowed(FirstError& error, const Path& path, ShardingField field, std::string_view kind,
                   bool wanted, bool given) {
  if (wanted == given) return;
  error.note(field_rank(field), fmt::format("{}: {} for sharding kind {}",
                                            path.field(kShardingFields.name(field)).str(),
                                            wanted ? "required" : "not allowed", kind));
}

}  // namespace

Read<std::optional<MemberSharding>> read_sharding(od::value& value, const Path& path,
                                                  FirstError& member_error, unsigned sharding_rank,
                                                  std::vector<IndexRange>& segments) {
  EREDU_TRY(is_object, expect(value, od::json_type::object, "an object", path, member_error,
                              sharding_rank, Null::Absent));
  if (!is_object) return std::optional<MemberSharding>{};
  FirstError error;
  std::optional<ShardingKind> kind;
  std::optional<std::uint64_t> axis;
  bool segments_seen = false;
  bool per_kv_head = false;
  std::optional<std::uint64_t> expert_axis;
  segments.clear();
  EREDU_TRY(for_each_field(
      value, path, kShardingFields, error,
      [&](ShardingField field, od::value& field_value, const Path& at) -> Read<void> {
        const unsigned rank = field_rank(field);
        switch (field) {
          case ShardingField::Kind: {
            EREDU_TRY(text, read_string(field_value, at, error, rank));
            if (!text) return outcome::success();
            kind = parse_sharding_kind(*text);
            if (!kind) {
              error.note(
                  rank, fmt::format("{}: unknown sharding kind {}", at.str(), debug_quoted(*text)));
            }
            return outcome::success();
          }
          case ShardingField::Axis: {
            EREDU_TRY(number, read_uint(field_value, at, error, rank, Null::Absent));
            axis = number;
            return outcome::success();
          }
          case ShardingField::Segments: {
            EREDU_TRY(is_array, expect(field_value, od::json_type::array, "an array", at, error,
                                       rank, Null::Absent));
            if (!is_array) return outcome::success();
            segments_seen = true;
            return read_segments(field_value, at, error, rank, segments);
          }
          case ShardingField::PerKvHead: {
            EREDU_TRY(flag, read_bool(field_value, at, error, rank));
            per_kv_head = flag.value_or(false);
            return outcome::success();
          }
          case ShardingField::ExpertAxis: {
            EREDU_TRY(number, read_uint(field_value, at, error, rank, Null::Absent));
            expert_axis = number;
            return outcome::success();
          }
        }
        return outcome::success();
      }));
  if (!kind) {
    error.note(field_rank(ShardingField::Kind),
               missing(path.field(kShardingFields.name(ShardingField::Kind))));
  } else {
    const std::string_view name = sharding_kind_name(*kind);
    check_allowed(error, path, ShardingField::Axis, name, *kind != ShardingKind::Replicated,
                  axis.has_value());
    check_allowed(error, path, ShardingField::Segments, name, is_segment_kind(*kind),
                  segments_seen);
    const bool partitioned =
        *kind == ShardingKind::Partitioned || *kind == ShardingKind::PartitionedSegments;
    if (per_kv_head && !partitioned) {
      check_allowed(error, path, ShardingField::PerKvHead, name, false, true);
    }
  }
  if (error) {
    member_error.note(sharding_rank, error.take());
    return std::optional<MemberSharding>{};
  }
  MemberSharding sharding{*kind, axis.value_or(0), {}, per_kv_head, expert_axis};
  if (is_segment_kind(*kind)) sharding.segments.assign(segments.begin(), segments.end());
  return std::optional<MemberSharding>{std::move(sharding)};
}

}  // namespace eredu::json
