// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/groups_write.hpp"

#include "format/ggml.hpp"
#include "interchange/json_writer.hpp"

namespace eredu {
namespace {

void append_model(JsonWriter& writer, const ModelInfo& info) {
  const bool has_experts = info.experts.value_or(0) > 0;  // 0 means a dense model
  if (!info.name && !info.layers && !has_experts) return;
  writer.key("model").begin_object();
  if (info.name) writer.key("name").string(*info.name);
  if (info.layers) writer.key("layers").uint(*info.layers);
  if (has_experts) writer.key("experts").uint(*info.experts);
  writer.end_object();
}

void append_scope(JsonWriter& writer, const GroupScope& scope) {
  switch (scope.kind) {
    case GroupScope::Kind::All:
      return;
    case GroupScope::Kind::Embedding:
      writer.key("scope").string("embedding");
      return;
    case GroupScope::Kind::OutputHead:
      writer.key("scope").string("output_head");
      return;
    case GroupScope::Kind::TiedEmbedding:
      writer.key("scope").string("tied_embedding");
      return;
    case GroupScope::Kind::Indexed:
      writer.key("scope").begin_object();
      if (scope.layer) writer.key("layer").uint(*scope.layer);
      if (scope.expert) writer.key("expert").uint(*scope.expert);
      writer.end_object();
      return;
  }
}

void append_sharding(JsonWriter& writer, const MemberSharding& sharding) {
  writer.begin_object().key("kind").string(sharding_kind_name(sharding.kind));
  if (sharding.kind != ShardingKind::Replicated) writer.key("axis").uint(sharding.axis);
  if (sharding.kind == ShardingKind::PartitionedSegments ||
      sharding.kind == ShardingKind::Segmented) {
    writer.key("segments").begin_array();
    for (const IndexRange& segment : sharding.segments) {
      writer.begin_array().uint(segment.start).uint(segment.end).end_array();
    }
    writer.end_array();
  }
  if (sharding.per_kv_head) writer.key("per_kv_head").boolean(true);
  if (sharding.expert_axis) writer.key("expert_axis").uint(*sharding.expert_axis);
  writer.end_object();
}

// A `format` object, fields in the order of docs/interchange.md's table.
void append_format(JsonWriter& writer, const LinearFormatSpec& spec) {
  const LinearFormat& format = spec.encoding();
  writer.begin_object().key("kind").string(linear_format_kind_name(format.kind()));
  if (const auto* affine = format.get_if<AffineQuantization>()) {
    writer.key("group_size").uint(static_cast<std::uint64_t>(affine->group_size));
    writer.key("bits").uint(static_cast<std::uint64_t>(affine->bits));
  }
  if (const auto* gguf = format.get_if<GgufIQuant>()) {
    auto info = ggml_type_info(gguf->ggml_type);
    if (info) {
      writer.key("ggml_type").string(info.value().name);
    } else {
      writer.key("ggml_type").uint(gguf->ggml_type);
    }
  }
  if (const auto* fp8 = format.get_if<BlockFp8Format>()) {
    writer.key("block").begin_array();
    writer.uint(static_cast<std::uint64_t>(fp8->block_rows));
    writer.uint(static_cast<std::uint64_t>(fp8->block_columns)).end_array();
    writer.key("scale_encoding").string(block_fp8_scale_encoding_name(fp8->scale_encoding));
  }
  if (spec.scale()) writer.key("scale").string(*spec.scale());
  if (spec.affine_bias()) writer.key("bias").string(*spec.affine_bias());
  if (spec.companion_dtype())
    writer.key("companion_dtype").string(dtype_name(*spec.companion_dtype()));
  writer.end_object();
}

void append_member(JsonWriter& writer, const ParameterMemberSpec& member,
                   const LinearFormatSpec* format = nullptr) {
  writer.begin_object();
  writer.key("target").string(member.target());
  writer.key("shape").begin_array();
  for (std::uint64_t dimension : member.global_shape()) writer.uint(dimension);
  writer.end_array();
  if (member.dtype()) writer.key("dtype").string(dtype_name(*member.dtype()));
  writer.key("sharding");
  append_sharding(writer, member.sharding());
  if (format != nullptr) {
    writer.key("format");
    append_format(writer, *format);
  }
  writer.end_object();
}

void append_group(JsonWriter& writer, const ParameterGroupSpec& group) {
  writer.begin_object();
  writer.key("name").string(group.logical_name());
  writer.key("role").string(role_name(group.role()));
  if (group.partition_units()) writer.key("partition_units").uint(*group.partition_units());
  if (group.query_units()) writer.key("query_units").uint(*group.query_units());
  if (group.vocab_pad_multiple()) {
    writer.key("vocab_pad_multiple").uint(*group.vocab_pad_multiple());
  }
  append_scope(writer, group.scope());
  // An encoded matrix is written as declared: its logical member and format,
  // which reload to the same physical members.
  writer.key("members").begin_array();
  auto matrix = group.encoded().begin();
  const auto& members = group.members();
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (matrix != group.encoded().end() && matrix->first == i) {
      append_member(writer, matrix->logical, &matrix->format);
      i += matrix->count - 1;
      ++matrix;
      continue;
    }
    append_member(writer, members[i]);
  }
  writer.end_array();
  writer.end_object();
}

}  // namespace

std::string groups_to_json(const ModelDescription& model) {
  std::string out;
  out.reserve(256 + model.tensor_count() * 160);  // typical bytes per member entry
  JsonWriter writer(out);
  writer.begin_object();
  writer.key("schema").string("eredu.groups.v1");
  append_model(writer, model.info());
  writer.key("groups").begin_array();
  for (const ParameterGroupSpec& group : model.groups()) append_group(writer, group);
  writer.end_array();
  writer.end_object();
  out += '\n';
  return out;
}

}  // namespace eredu
