// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/groups_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/text.hpp"
#include "interchange/format_declaration_json.hpp"
#include "interchange/json_number.hpp"
#include "interchange/scope_json.hpp"
#include "interchange/sharding_json.hpp"
#include "interchange/strict_json.hpp"

namespace eredu {
namespace {

using namespace json;

constexpr std::string_view kSchema = "eredu.groups.v1";
constexpr std::string_view kSchemaPrefix = "eredu.groups.v";

// The fields of each object kind, in the documented order.
enum class RootField { Schema, Model, Groups };
enum class ModelField { Name, Layers, Experts };
enum class GroupField { Name, Role, PartitionUnits, QueryUnits, VocabPadMultiple, Scope, Members };
enum class MemberField { Target, Shape, Dtype, Sharding, Format };

constexpr FieldTable<RootField, 3> kRootFields({
    {RootField::Schema, "schema"},
    {RootField::Model, "model"},
    {RootField::Groups, "groups"},
});
constexpr FieldTable<ModelField, 3> kModelFields({
    {ModelField::Name, "name"},
    {ModelField::Layers, "layers"},
    {ModelField::Experts, "experts"},
});
constexpr FieldTable<GroupField, 7> kGroupFields({
    {GroupField::Name, "name"},
    {GroupField::Role, "role"},
    {GroupField::PartitionUnits, "partition_units"},
    {GroupField::QueryUnits, "query_units"},
    {GroupField::VocabPadMultiple, "vocab_pad_multiple"},
    {GroupField::Scope, "scope"},
    {GroupField::Members, "members"},
});
constexpr FieldTable<MemberField, 5> kMemberFields({
    {MemberField::Target, "target"},
    {MemberField::Shape, "shape"},
    {MemberField::Dtype, "dtype"},
    {MemberField::Sharding, "sharding"},
    {MemberField::Format, "format"},
});

// `<path>/<field>: required field is missing or null`.
template <class Field, std::size_t N>
std::string missing_field(const Path& path, const FieldTable<Field, N>& fields, Field field) {
  return missing(path.field(fields.name(field)));
}

// Streams the document once into the specs, keeping the first structure
// error of the top level, of `model` and of `groups` apart so they can be
// reported in the documented order after the whole text proved to be valid
// JSON.
class GroupsReader {
 public:
  GroupsReader(PaddedInput& input, GroupsConsumer& consumer) : input_(input), consumer_(consumer) {}

  Result<GroupsDocument> read() &&;

 private:
  Read<void> read_root(od::document& document);
  Read<void> read_model(od::value& value, const Path& path);
  Read<void> read_groups(od::value& value, const Path& path);
  Read<void> read_group(od::value& value, const Path& path);
  // `first_member`: where the group's members start in the batch.
  Read<void> read_members(od::value& value, const Path& path, FirstError& group_error,
                          std::size_t first_member);
  Read<void> read_member(od::value& value, const Path& path, FirstError& group_error,
                         std::size_t first_member);
  Read<void> check_schema() const;
  // No structure error so far: groups read from here on may still make the
  // model.
  bool can_load() const { return !top_error_ && !model_error_ && !groups_error_; }
  std::size_t extrapolate(std::size_t count, const char* location) const;
  void hand_over(const char* location);

  PaddedInput& input_;
  GroupsConsumer& consumer_;
  std::optional<std::string> schema_;
  FirstError top_error_;
  FirstError model_error_;
  FirstError groups_error_;
  bool groups_seen_ = false;
  GroupsDocument document_;
  // The groups read and not handed over yet, and the count handed over.
  GroupBatch batch_;
  std::size_t handed_over_ = 0;
  // Scratch reused for every member.
  std::vector<IndexRange> segments_scratch_;
};

Result<GroupsDocument> GroupsReader::read() && {
  od::parser parser;
  od::document document;
  if (auto code = parser.iterate(input_.view()).get(document)) {
    return outcome::failure(document_error(std::string_view(input_.data(), input_.size()), code));
  }
  EREDU_TRY(read_root(document));
  EREDU_TRY(check_schema());
  for (FirstError* error : {&top_error_, &model_error_, &groups_error_}) {
    if (*error) return fail(Status::Parse, *error->take());
  }
  return std::move(document_);
}

Read<void> GroupsReader::read_root(od::document& document) {
  const Path root;
  od::json_type type{};
  if (auto code = document.type().get(type)) return outcome::failure(syntax_error(root, code));
  if (type != od::json_type::object) {
    return fail(Status::Parse, "an eredu.groups.v1 document must be a JSON object");
  }
  od::value value;
  if (auto code = document.get_value().get(value)) {
    return outcome::failure(syntax_error(root, code));
  }
  EREDU_TRY(for_each_field(
      value, root, kRootFields, top_error_,
      [&](RootField field, od::value& field_value, const Path& path) -> Read<void> {
        switch (field) {
          case RootField::Schema: {
            // Step 2 judges the schema; here it only has to be read.
            FirstError ignored;
            EREDU_TRY(text, read_string(field_value, path, ignored, field_rank(field)));
            if (text) schema_.emplace(*text);
            return outcome::success();
          }
          case RootField::Model: {
            EREDU_TRY(read_model(field_value, path));
            if (can_load() && !groups_seen_) consumer_.model(document_.info);
            return outcome::success();
          }
          case RootField::Groups:
            return read_groups(field_value, path);
        }
        return outcome::success();
      }));
  // On-Demand stops after the root value; anything after it is an error.
  const char* location = nullptr;
  auto code = document.current_location().get(location);
  if (code == simdjson::SUCCESS) {
    return outcome::failure(syntax_error(root, "trailing content after the document"));
  }
  if (code != simdjson::OUT_OF_BOUNDS) return outcome::failure(syntax_error(root, code));
  if (!groups_seen_) {
    groups_error_.note(kObjectRank, missing_field(root, kRootFields, RootField::Groups));
  }
  return outcome::success();
}

Read<void> GroupsReader::check_schema() const {
  if (!schema_) {
    return fail(Status::Parse, "/schema: required string field is missing or not a string");
  }
  const std::string_view schema = *schema_;
  if (schema == kSchema) return outcome::success();
  const bool versioned = schema.size() > kSchemaPrefix.size() &&
                         schema.starts_with(kSchemaPrefix) &&
                         std::all_of(schema.begin() + kSchemaPrefix.size(), schema.end(), is_digit);
  if (versioned) {
    return failf(Status::UnsupportedVersion, "unsupported schema {}; this version reads {}",
                 debug_quoted(schema), debug_quoted(kSchema));
  }
  return failf(Status::Parse, "/schema: unknown schema {}", debug_quoted(schema));
}

Read<void> GroupsReader::read_model(od::value& value, const Path& path) {
  EREDU_TRY(is_object, expect(value, od::json_type::object, "an object", path, model_error_,
                              kObjectRank, Null::Absent));
  if (!is_object) return outcome::success();
  ModelInfo& info = document_.info;
  return for_each_field(
      value, path, kModelFields, model_error_,
      [&](ModelField field, od::value& field_value, const Path& at) -> Read<void> {
        const unsigned rank = field_rank(field);
        switch (field) {
          case ModelField::Name: {
            EREDU_TRY(name, read_string(field_value, at, model_error_, rank));
            if (name) info.name = std::string(*name);
            return outcome::success();
          }
          case ModelField::Layers: {
            EREDU_TRY(count, read_uint(field_value, at, model_error_, rank, Null::Absent));
            if (count == 0u) {
              model_error_.note(
                  rank, fmt::format("{}: the decoder-layer count must be at least 1", at.str()));
              return outcome::success();
            }
            info.layers = count;
            return outcome::success();
          }
          case ModelField::Experts: {
            EREDU_TRY(count, read_uint(field_value, at, model_error_, rank, Null::Absent));
            if (count.value_or(0) != 0) info.experts = count;  // 0 routed experts: a dense model
            return outcome::success();
          }
        }
        return outcome::success();
      });
}

Read<void> GroupsReader::read_groups(od::value& value, const Path& path) {
  EREDU_TRY(is_array, expect(value, od::json_type::array, "an array", path, groups_error_,
                             kObjectRank, Null::Absent));
  if (!is_array) return outcome::success();
  groups_seen_ = true;
  EREDU_TRY(for_each_item(value, path, [&](od::value& item, const Path& at) -> Read<void> {
    EREDU_TRY(read_group(item, at));
    const char* location = nullptr;
    if (item.current_location().get(location) != simdjson::SUCCESS) location = nullptr;
    if (batch_.groups.size() == kBatchGroups && can_load()) hand_over(location);
    // Nothing kept refers to the input read so far: batches and messages
    // own their text, the schema is copied, and paths name known fields by
    // the static names.
    if (location != nullptr) input_.release_before(location);
    return outcome::success();
  }));
  if (can_load() && !batch_.groups.empty()) hand_over(nullptr);
  return outcome::success();
}

// `count` things read from the input up to `location`, extrapolated to
// the whole input; 0 where that overflows. No member takes fewer than 32
// bytes of text, whatever the count says.
std::size_t GroupsReader::extrapolate(std::size_t count, const char* location) const {
  const auto read = static_cast<std::size_t>(location - input_.data());
  std::size_t scaled = 0;
  if (__builtin_mul_overflow(count, input_.size(), &scaled)) return 0;
  return std::min(scaled / read, input_.size() / 32);
}

// Hands the batch, read up to `location` in the input (null: unknown),
// over, and starts the next with room for as much.
void GroupsReader::hand_over(const char* location) {
  if (handed_over_ == 0 && location != nullptr && location > input_.data()) {
    batch_.expected_groups = extrapolate(batch_.groups.size(), location);
    batch_.expected_members = extrapolate(batch_.members.size(), location);
  }
  handed_over_ += batch_.groups.size();
  GroupBatch next;
  next.text.reserve(batch_.text.size());
  next.dims.reserve(batch_.dims.size());
  next.members.reserve(batch_.members.size());
  next.groups.reserve(kBatchGroups);
  consumer_.groups(std::move(batch_));
  batch_ = std::move(next);
}

Read<void> GroupsReader::read_group(od::value& value, const Path& path) {
  FirstError error;
  EREDU_TRY(is_object, expect(value, od::json_type::object, "an object", path, error, kObjectRank,
                              Null::Rejected));
  std::optional<std::string_view> name;
  std::optional<ParameterRole> role;
  std::optional<std::uint64_t> units;
  std::optional<std::uint64_t> query_units;
  std::optional<std::uint64_t> vocab_pad_multiple;
  GroupScope scope;
  bool members_seen = false;
  // The members go straight to the batch; a group with an error ends the
  // handing over, so that what it left there is never read.
  const std::size_t first_member = batch_.members.size();
  const std::size_t first_format = batch_.formats.size();
  if (is_object) {
    EREDU_TRY(for_each_field(
        value, path, kGroupFields, error,
        [&](GroupField field, od::value& field_value, const Path& at) -> Read<void> {
          const unsigned rank = field_rank(field);
          switch (field) {
            case GroupField::Name: {
              EREDU_TRY(text, read_string(field_value, at, error, rank));
              name = text;
              return outcome::success();
            }
            case GroupField::Role: {
              EREDU_TRY(text, read_string(field_value, at, error, rank));
              if (!text) return outcome::success();
              role = parse_role(*text);
              if (!role) {
                error.note(rank, fmt::format("{}: unknown role {}", at.str(), debug_quoted(*text)));
              }
              return outcome::success();
            }
            case GroupField::PartitionUnits: {
              EREDU_TRY(count, read_uint(field_value, at, error, rank, Null::Absent));
              units = count;
              return outcome::success();
            }
            case GroupField::QueryUnits: {
              EREDU_TRY(count, read_uint(field_value, at, error, rank, Null::Absent));
              query_units = count;
              return outcome::success();
            }
            case GroupField::VocabPadMultiple: {
              EREDU_TRY(count, read_uint(field_value, at, error, rank, Null::Absent));
              vocab_pad_multiple = count;
              return outcome::success();
            }
            case GroupField::Scope: {
              EREDU_TRY(parsed, read_scope(field_value, at, error, rank));
              scope = parsed;
              return outcome::success();
            }
            case GroupField::Members: {
              EREDU_TRY(is_array, expect(field_value, od::json_type::array, "an array", at, error,
                                         rank, Null::Absent));
              if (!is_array) return outcome::success();
              members_seen = true;
              return read_members(field_value, at, error, first_member);
            }
          }
          return outcome::success();
        }));
    if (!name) {
      error.note(field_rank(GroupField::Name), missing_field(path, kGroupFields, GroupField::Name));
    }
    if (!role) {
      error.note(field_rank(GroupField::Role), missing_field(path, kGroupFields, GroupField::Role));
    }
    if (!members_seen) {
      error.note(field_rank(GroupField::Members),
                 missing_field(path, kGroupFields, GroupField::Members));
    }
  }
  if (groups_error_ || error) {
    groups_error_.note(kObjectRank, error.take());
    return outcome::success();
  }
  if (!can_load()) return outcome::success();
  batch_.groups.push_back(
      GroupRecord{batch_.add_text(*name), *role, units, query_units, vocab_pad_multiple, scope,
                  BatchSpan{first_member, batch_.members.size() - first_member},
                  BatchSpan{first_format, batch_.formats.size() - first_format}});
  return outcome::success();
}

// The members' first structure error is the group's `members` error.
Read<void> GroupsReader::read_members(od::value& value, const Path& path, FirstError& group_error,
                                      std::size_t first_member) {
  FirstError members_error;
  EREDU_TRY(for_each_item(value, path, [&](od::value& item, const Path& item_path) {
    return read_member(item, item_path, members_error, first_member);
  }));
  group_error.note(field_rank(GroupField::Members), members_error.take());
  return outcome::success();
}

Read<void> GroupsReader::read_member(od::value& value, const Path& path, FirstError& group_error,
                                     std::size_t first_member) {
  FirstError error;
  EREDU_TRY(is_object, expect(value, od::json_type::object, "an object", path, error, kObjectRank,
                              Null::Rejected));
  if (!is_object) {
    group_error.note(kObjectRank, error.take());
    return outcome::success();
  }
  std::optional<std::string_view> target;
  std::optional<BatchSpan> shape;
  std::optional<Dtype> dtype;
  std::optional<MemberSharding> sharding;
  std::optional<FormatDeclaration> format;
  EREDU_TRY(for_each_field(
      value, path, kMemberFields, error,
      [&](MemberField field, od::value& field_value, const Path& at) -> Read<void> {
        const unsigned rank = field_rank(field);
        switch (field) {
          case MemberField::Target: {
            EREDU_TRY(text, read_string(field_value, at, error, rank));
            target = text;
            return outcome::success();
          }
          case MemberField::Shape: {
            EREDU_TRY(is_array, expect(field_value, od::json_type::array, "an array", at, error,
                                       rank, Null::Absent));
            if (!is_array) return outcome::success();
            shape = BatchSpan{batch_.dims.size(), 0};
            EREDU_TRY(for_each_item(
                field_value, at, [&](od::value& item, const Path& item_path) -> Read<void> {
                  EREDU_TRY(dimension, read_uint(item, item_path, error, rank, Null::Rejected));
                  if (dimension) batch_.dims.push_back(*dimension);
                  return outcome::success();
                }));
            shape->size = batch_.dims.size() - shape->offset;
            return outcome::success();
          }
          case MemberField::Dtype: {
            EREDU_TRY(text, read_string(field_value, at, error, rank));
            if (!text) return outcome::success();
            dtype = parse_dtype(*text);
            if (!dtype) {
              error.note(rank, fmt::format("{}: unknown dtype {}", at.str(), debug_quoted(*text)));
            }
            return outcome::success();
          }
          case MemberField::Sharding: {
            EREDU_TRY(parsed, read_sharding(field_value, at, error, rank, segments_scratch_));
            sharding = std::move(parsed);
            return outcome::success();
          }
          case MemberField::Format: {
            EREDU_TRY(parsed, read_format_declaration(field_value, at, error, rank));
            format = std::move(parsed);
            return outcome::success();
          }
        }
        return outcome::success();
      }));
  if (!target) {
    error.note(field_rank(MemberField::Target),
               missing_field(path, kMemberFields, MemberField::Target));
  }
  if (!shape) {
    error.note(field_rank(MemberField::Shape),
               missing_field(path, kMemberFields, MemberField::Shape));
  }
  if (!sharding) {
    error.note(field_rank(MemberField::Sharding),
               missing_field(path, kMemberFields, MemberField::Sharding));
  }
  // Specs are only built while the whole document can still load.
  if (error || group_error || !can_load()) {
    group_error.note(kObjectRank, error.take());
    return outcome::success();
  }
  if (format) {
    batch_.formats.push_back({batch_.members.size() - first_member, std::move(*format)});
  }
  batch_.members.push_back(
      MemberRecord{batch_.add_text(*target), *shape, dtype, std::move(*sharding)});
  return outcome::success();
}

}  // namespace

Result<GroupsDocument> read_groups_document(PaddedInput& input, GroupsConsumer& consumer) {
  return GroupsReader(input, consumer).read();
}

}  // namespace eredu
