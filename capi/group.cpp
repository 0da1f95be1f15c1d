// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_group_*: seed ParameterGroupSpec built from C descriptors.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/text.hpp"
#include "firewall.hpp"
#include "group_arguments.hpp"
#include "handles.hpp"
#include "outputs.hpp"

namespace eredu::capi {
namespace {

// The C constants are the core's enum values.
static_assert(EREDU_ROLE_REPLICATED == static_cast<int>(ParameterRole::Replicated));
static_assert(EREDU_ROLE_COLUMN_PROJECTION == static_cast<int>(ParameterRole::ColumnProjection));
static_assert(EREDU_ROLE_ROW_PROJECTION == static_cast<int>(ParameterRole::RowProjection));
static_assert(EREDU_ROLE_VOCABULARY == static_cast<int>(ParameterRole::Vocabulary));
static_assert(EREDU_ROLE_ATTENTION_HEADS == static_cast<int>(ParameterRole::AttentionHeads));
static_assert(EREDU_ROLE_FEED_FORWARD_INTERMEDIATE ==
              static_cast<int>(ParameterRole::FeedForwardIntermediate));
static_assert(EREDU_ROLE_EXPERT_INTERMEDIATE ==
              static_cast<int>(ParameterRole::ExpertIntermediate));
static_assert(EREDU_ROLE_CHANNELS == static_cast<int>(ParameterRole::Channels));
static_assert(EREDU_ROLE_SEGMENTED == static_cast<int>(ParameterRole::Segmented));
static_assert(kRoleCount == 9);

static_assert(EREDU_SHARDING_REPLICATED == static_cast<int>(ShardingKind::Replicated));
static_assert(EREDU_SHARDING_EQUAL == static_cast<int>(ShardingKind::Equal));
static_assert(EREDU_SHARDING_BALANCED == static_cast<int>(ShardingKind::Balanced));
static_assert(EREDU_SHARDING_PARTITIONED == static_cast<int>(ShardingKind::Partitioned));
static_assert(EREDU_SHARDING_PARTITIONED_SEGMENTS ==
              static_cast<int>(ShardingKind::PartitionedSegments));
static_assert(EREDU_SHARDING_SEGMENTED == static_cast<int>(ShardingKind::Segmented));
static_assert(kShardingKindCount == 6);

static_assert(EREDU_DTYPE_BOOL == static_cast<int>(Dtype::Bool));
static_assert(EREDU_DTYPE_U8 == static_cast<int>(Dtype::U8));
static_assert(EREDU_DTYPE_I8 == static_cast<int>(Dtype::I8));
static_assert(EREDU_DTYPE_I16 == static_cast<int>(Dtype::I16));
static_assert(EREDU_DTYPE_U16 == static_cast<int>(Dtype::U16));
static_assert(EREDU_DTYPE_F16 == static_cast<int>(Dtype::F16));
static_assert(EREDU_DTYPE_BF16 == static_cast<int>(Dtype::BF16));
static_assert(EREDU_DTYPE_I32 == static_cast<int>(Dtype::I32));
static_assert(EREDU_DTYPE_U32 == static_cast<int>(Dtype::U32));
static_assert(EREDU_DTYPE_F32 == static_cast<int>(Dtype::F32));
static_assert(EREDU_DTYPE_F64 == static_cast<int>(Dtype::F64));
static_assert(EREDU_DTYPE_I64 == static_cast<int>(Dtype::I64));
static_assert(EREDU_DTYPE_U64 == static_cast<int>(Dtype::U64));
static_assert(EREDU_DTYPE_F8_E4M3 == static_cast<int>(Dtype::F8E4M3));
static_assert(EREDU_DTYPE_F8_E5M2 == static_cast<int>(Dtype::F8E5M2));
static_assert(EREDU_DTYPE_F8_E8M0 == static_cast<int>(Dtype::F8E8M0));
static_assert(kDtypeCount == 16);

static_assert(EREDU_SCOPE_ALL == static_cast<int>(GroupScope::Kind::All));
static_assert(EREDU_SCOPE_EMBEDDING == static_cast<int>(GroupScope::Kind::Embedding));
static_assert(EREDU_SCOPE_OUTPUT_HEAD == static_cast<int>(GroupScope::Kind::OutputHead));
static_assert(EREDU_SCOPE_TIED_EMBEDDING == static_cast<int>(GroupScope::Kind::TiedEmbedding));
static_assert(EREDU_SCOPE_INDEXED == static_cast<int>(GroupScope::Kind::Indexed));

}  // namespace

Result<GroupScope> scope_argument(const eredu_group_scope* given) {
  if (given == nullptr) return GroupScope::all();
  EREDU_TRY(scope, read_sized(given, SizedDefaults<eredu_group_scope>::value(), "scope"));
  EREDU_TRY(has_layer, flag_argument(scope.has_layer, "scope->has_layer"));
  EREDU_TRY(has_expert, flag_argument(scope.has_expert, "scope->has_expert"));
  if (scope.kind > EREDU_SCOPE_INDEXED) {
    return failf(Status::InvalidArgument, "unknown scope->kind value {}", scope.kind);
  }
  const auto kind = static_cast<GroupScope::Kind>(scope.kind);
  if (kind != GroupScope::Kind::Indexed) {
    if (has_layer || has_expert) {
      return failf(Status::InvalidArgument,
                   "scope->kind {} takes no layer or expert; use EREDU_SCOPE_INDEXED", scope.kind);
    }
    return GroupScope{kind, std::nullopt, std::nullopt};
  }
  if (!has_layer && !has_expert) {
    return fail(Status::InvalidArgument, "an EREDU_SCOPE_INDEXED scope needs a layer or an expert");
  }
  return GroupScope::indexed(has_layer ? std::optional(scope.layer) : std::nullopt,
                             has_expert ? std::optional(scope.expert) : std::nullopt);
}

Result<ParameterMemberSpec> member_argument(const eredu_member_desc* given, const char* base,
                                            std::optional<std::size_t> index) {
  const auto field = [base, index](const char* name) {
    return index ? ArgumentName(base, *index, name) : ArgumentName::field(base, name);
  };
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_member_desc>::value(), field("")));
  const eredu_member_desc* desc = &read;
  EREDU_TRY(target, text_argument(desc->target, field("->target")));
  EREDU_TRY(require_array(desc->shape, desc->ndim, field("->shape")));
  // model/group's rule, checked here before the caller's shape is copied.
  static_assert(EREDU_MAX_NDIM == kMaxAxes);
  if (desc->ndim > EREDU_MAX_NDIM) {
    return failf(Status::InvalidArgument,
                 "{} is too large: {} axes, more than the {} eredu accepts", field("->ndim").text(),
                 desc->ndim, EREDU_MAX_NDIM);
  }
  EREDU_TRY(has_dtype, flag_argument(desc->has_dtype, field("->has_dtype")));
  std::optional<Dtype> dtype;
  if (has_dtype) {
    EREDU_TRY(value, enum_argument(dtype_from_value(desc->dtype), desc->dtype, field("->dtype")));
    dtype = value;
  }
  EREDU_TRY(kind, enum_argument(sharding_kind_from_value(desc->sharding), desc->sharding,
                                field("->sharding")));
  if (kind == ShardingKind::Replicated && desc->axis != 0) {
    return failf(Status::InvalidArgument, "{} is {}, but a replicated member has no axis",
                 field("->axis").text(), desc->axis);
  }
  EREDU_TRY(require_array(desc->segments, desc->segment_count, field("->segments")));
  const bool takes_segments =
      kind == ShardingKind::PartitionedSegments || kind == ShardingKind::Segmented;
  if (!takes_segments && desc->segment_count != 0) {
    return failf(Status::InvalidArgument, "{} is {}, but only segment shardings take segments",
                 field("->segment_count").text(), desc->segment_count);
  }
  // Checked before reserving: a count no array can hold is not INTERNAL.
  EREDU_TRY(count_argument(desc->segment_count, 2 * sizeof(std::uint64_t), sizeof(IndexRange),
                           field("->segment_count")));
  std::vector<IndexRange> segments;
  segments.reserve(desc->segment_count);
  for (std::size_t i = 0; i < desc->segment_count; ++i) {
    segments.push_back(IndexRange{desc->segments[2 * i], desc->segments[2 * i + 1]});
  }
  EREDU_TRY(per_kv_head, flag_argument(desc->per_kv_head, field("->per_kv_head")));
  EREDU_TRY(stacks_experts, flag_argument(desc->has_expert_axis, field("->has_expert_axis")));
  std::vector<std::uint64_t> shape(desc->shape, desc->shape + desc->ndim);
  return ParameterMemberSpec(
      std::string(target), std::move(shape),
      MemberSharding{kind, desc->axis, std::move(segments), per_kv_head,
                     stacks_experts ? std::optional(desc->expert_axis) : std::nullopt},
      dtype);
}

Result<GroupHeadArgument> group_head_argument(const char* name, eredu_role role,
                                              const eredu_group_scope* scope) {
  EREDU_TRY(logical_name, text_argument(name, "name"));
  EREDU_TRY(group_role, enum_argument(role_from_value(role), role, "role"));
  EREDU_TRY(group_scope, scope_argument(scope));
  return GroupHeadArgument{logical_name, group_role, std::move(group_scope)};
}

Result<std::vector<ParameterMemberSpec>> members_argument(const eredu_member_desc* const* members,
                                                          std::size_t count) {
  EREDU_TRY(require_array(members, count, "members"));
  EREDU_TRY(count_argument(count, sizeof(const eredu_member_desc*), sizeof(ParameterMemberSpec),
                           "member_count"));
  std::vector<ParameterMemberSpec> specs;
  specs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    EREDU_TRY(spec, member_argument(members[i], "members", i));
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_member_desc_init(eredu_member_desc* desc, size_t size, eredu_error** error) {
  return init_sized(desc, size, "desc", error);
}

eredu_status eredu_group_desc_init(eredu_group_desc* desc, size_t size, eredu_error** error) {
  return init_sized(desc, size, "desc", error);
}

eredu_status eredu_group_scope_init(eredu_group_scope* scope, size_t size, eredu_error** error) {
  return init_sized(scope, size, "scope", error);
}

eredu_status eredu_group_info_init(eredu_group_info* info, size_t size, eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_group_new(const eredu_group_desc* desc, const eredu_member_desc* const* members,
                             size_t member_count, eredu_group** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(group, read_sized(desc, SizedDefaults<eredu_group_desc>::value(), "desc"));
        EREDU_TRY(logical_name, text_argument(group.name, "desc->name"));
        EREDU_TRY(group_role, enum_argument(role_from_value(group.role), group.role, "desc->role"));
        EREDU_TRY(partitioned,
                  flag_argument(group.has_partition_units, "desc->has_partition_units"));
        EREDU_TRY(group_scope, scope_argument(group.scope));
        EREDU_TRY(has_query, flag_argument(group.has_query_units, "desc->has_query_units"));
        EREDU_TRY(has_padding,
                  flag_argument(group.has_vocab_pad_multiple, "desc->has_vocab_pad_multiple"));
        EREDU_TRY(specs, members_argument(members, member_count));
        EREDU_TRY(require(out, "out"));
        if (has_query && !partitioned) {
          return failf(Status::InvalidGroup,
                       "parallel parameter group {}: query_units needs partition_units",
                       debug_quoted(logical_name));
        }
        const auto query_units =
            has_query ? std::optional<std::uint64_t>(group.query_units) : std::nullopt;
        EREDU_TRY(spec, partitioned
                            ? ParameterGroupSpec::partitioned(
                                  std::string(logical_name), group_role, group.partition_units,
                                  std::move(specs), group_scope, query_units)
                            : ParameterGroupSpec::create(std::string(logical_name), group_role,
                                                         std::move(specs), group_scope));
        if (has_padding) {
          EREDU_TRY(padded, spec.with_vocab_pad_multiple(group.vocab_pad_multiple));
          spec = std::move(padded);
        }
        *out = new eredu_group(std::move(spec));
        return outcome::success();
      },
      out);
}

void eredu_group_free(eredu_group* group) { delete group; }

eredu_status eredu_group_get_info(const eredu_group* group, eredu_group_info* out,
                                  eredu_error** error) {
  return handle_call(
      group, "group", error,
      [&](const eredu_group& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        const ParameterGroupSpec& spec = handle.spec;
        eredu_group_info info{};
        info.role = static_cast<eredu_role>(spec.role());
        info.name = spec.logical_name().c_str();
        info.name_length = spec.logical_name().size();
        info.member_count = spec.members().size();
        info.has_partition_units = spec.partition_units().has_value() ? 1 : 0;
        info.partition_units = spec.partition_units().value_or(0);
        info.scope_kind = static_cast<eredu_scope_kind>(spec.scope().kind);
        info.has_layer = spec.scope().layer.has_value() ? 1 : 0;
        info.has_expert = spec.scope().expert.has_value() ? 1 : 0;
        info.layer = spec.scope().layer.value_or(0);
        info.expert = spec.scope().expert.value_or(0);
        info.has_query_units = spec.query_units().has_value() ? 1 : 0;
        info.query_units = spec.query_units().value_or(0);
        info.has_vocab_pad_multiple = spec.vocab_pad_multiple().has_value() ? 1 : 0;
        info.vocab_pad_multiple = spec.vocab_pad_multiple().value_or(0);
        write_sized(out, info);
        return outcome::success();
      },
      out);
}

eredu_status eredu_group_member(const eredu_group* group, size_t index, eredu_member_desc* out,
                                eredu_error** error) {
  return handle_call(
      group, "group", error,
      [&](const eredu_group& handle) -> Result<void> {
        EREDU_TRY(index_argument(index, handle.spec.members().size(), "member index"));
        EREDU_TRY(sized_out(out, "out"));
        write_sized(out, handle.views.view(handle.spec.members(), index));
        return outcome::success();
      },
      out);
}

}  // extern "C"
