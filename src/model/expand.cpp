// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "model/expand.hpp"

#include <algorithm>

#include "core/checked.hpp"
#include "format/axis_cells.hpp"
#include "format/ggml.hpp"

namespace eredu {
namespace {

Error invalid_tensor(std::string message) {
  return Error{Status::InvalidTensor, std::move(message)};
}

// Seed `remap_linear_segments`, with this project's exact geometry: the
// bounds of segments on a remapped axis become the physical indices of the
// cells they start (GGUF: bytes; packed words: by exact bits; companions:
// blocks or groups), so a segment must start and end on a cell boundary (or
// end at the axis end, for cells of one unit). Other shardings are copied.
Result<MemberSharding> remap_linear_segments(const ParameterMemberSpec& source,
                                             const LinearFormat& format, EncodedRole role) {
  const MemberSharding& sharding = source.sharding();
  const bool segmented = sharding.kind == ShardingKind::PartitionedSegments ||
                         sharding.kind == ShardingKind::Segmented;
  const auto& shape = source.global_shape();
  if (!segmented || sharding.axis >= shape.size()) return sharding;
  const std::optional<AxisCells> cells = axis_cells(format, role, sharding.axis, shape.size());
  if (!cells) {
    return failf(Status::InvalidTensor, "linear format of {} has no valid geometry",
                 source.target());
  }
  if (cells->identity()) return sharding;
  MemberSharding remapped = sharding;
  const std::uint64_t extent = shape[sharding.axis];
  for (IndexRange& segment : remapped.segments) {
    const auto start = physical_bound(*cells, segment.start, extent);
    const auto end = physical_bound(*cells, segment.end, extent);
    if (!start || !end) {
      return failf(Status::InvalidTensor, "packed companion {} segment {}..{} is not aligned to {}",
                   source.target(), segment.start, segment.end, cells->values);
    }
    segment = IndexRange{*start, *end};
  }
  return remapped;
}

std::uint64_t div_ceil(std::uint64_t value, std::uint64_t divisor) {
  return value / divisor + (value % divisor != 0 ? 1 : 0);
}

Result<std::vector<ParameterMemberSpec>> expand_block_fp8(const ParameterMemberSpec& source,
                                                          const LinearFormatSpec& declaration,
                                                          const BlockFp8Format& fp8) {
  const std::string& name = source.target();
  if (!declaration.scale()) {
    return failf(Status::InvalidGroup,
                 "block-FP8 linear parameter {} must declare exactly one scale companion", name);
  }
  if (declaration.affine_bias()) {
    return failf(Status::InvalidGroup,
                 "block-FP8 linear parameter {} must not declare an affine-bias companion", name);
  }
  if (auto valid = fp8.validate(); !valid) {
    return outcome::failure(invalid_tensor(valid.error().message));
  }
  const auto rows = static_cast<std::uint64_t>(fp8.block_rows);
  const auto columns = static_cast<std::uint64_t>(fp8.block_columns);
  std::vector<std::uint64_t> scale_shape = source.global_shape();
  const std::uint64_t row_axis = scale_shape.size() - 2;
  const std::uint64_t column_axis = scale_shape.size() - 1;
  scale_shape[row_axis] = div_ceil(scale_shape[row_axis], rows);
  scale_shape[column_axis] = div_ceil(scale_shape[column_axis], columns);
  EREDU_TRY(scale_sharding,
            remap_linear_segments(source, declaration.encoding(), EncodedRole::Scale));
  const Dtype scale_dtype = declaration.companion_dtype().value_or(
      fp8.scale_encoding == BlockFp8ScaleEncoding::Ue8m0 ? Dtype::F8E8M0 : Dtype::F32);
  return std::vector<ParameterMemberSpec>{
      source, ParameterMemberSpec(*declaration.scale(), std::move(scale_shape),
                                  std::move(scale_sharding), scale_dtype)};
}

Result<std::vector<ParameterMemberSpec>> expand_gguf(const ParameterMemberSpec& source,
                                                     const LinearFormatSpec& declaration,
                                                     const GgufIQuant& gguf) {
  const std::string& name = source.target();
  if (declaration.scale() || declaration.affine_bias()) {
    return failf(Status::InvalidGroup,
                 "GGUF linear parameter {} must not declare companion tensors", name);
  }
  auto block = ggml_type_info(gguf.ggml_type);
  if (!block) return outcome::failure(invalid_tensor(block.error().message));
  const std::uint64_t values = block.value().block_values;
  std::vector<std::uint64_t> packed = source.global_shape();
  const std::uint64_t column_axis = packed.size() - 1;
  const std::uint64_t input = packed[column_axis];
  if (input % values != 0) {
    return failf(Status::InvalidTensor, "GGUF matrix {} input {} is not aligned to block {}", name,
                 input, values);
  }
  auto bytes = checked_mul(input / values, block.value().block_bytes);
  if (!bytes) return failf(Status::InvalidTensor, "GGUF matrix {} overflows", name);
  packed[column_axis] = *bytes;
  EREDU_TRY(sharding, remap_linear_segments(source, declaration.encoding(), EncodedRole::Weight));
  return std::vector<ParameterMemberSpec>{
      ParameterMemberSpec(name, std::move(packed), std::move(sharding), Dtype::U8)};
}

// Affine and MXFP4: a U32 word-packed weight plus per-group companions.
Result<std::vector<ParameterMemberSpec>> expand_packed(const ParameterMemberSpec& source,
                                                       const LinearFormatSpec& declaration,
                                                       const WeightQuantization& quantization) {
  const std::string& name = source.target();
  if (!declaration.scale()) {
    return failf(Status::InvalidGroup, "packed linear parameter {} must declare a scale companion",
                 name);
  }
  if (quantization.has_biases() != declaration.affine_bias().has_value()) {
    return failf(Status::InvalidGroup,
                 "packed linear parameter {} declares companions inconsistent with its format",
                 name);
  }
  if (quantization.bits() < 0) {
    return failf(Status::InvalidTensor, "packed bit width for {} exceeds usize", name);
  }
  if (quantization.group_size() < 0) {
    return failf(Status::InvalidTensor, "packed group width for {} exceeds usize", name);
  }
  const auto bits = static_cast<std::uint64_t>(quantization.bits());
  const auto group = static_cast<std::uint64_t>(quantization.group_size());
  std::vector<std::uint64_t> packed = source.global_shape();
  const std::uint64_t column_axis = packed.size() - 1;
  const std::uint64_t input = packed[column_axis];
  auto packed_bits = checked_mul(input, bits);
  if (!packed_bits) return failf(Status::InvalidTensor, "packed matrix {} overflows", name);
  // bits == 0 passes the seed's test and then divides 32 by zero.
  if (group == 0 || bits == 0 || input % group != 0 || *packed_bits % 32 != 0) {
    return failf(Status::InvalidTensor,
                 "packed matrix {} input {} is incompatible with group {} and {} bits", name, input,
                 group, bits);
  }
  packed[column_axis] = *packed_bits / 32;
  std::vector<std::uint64_t> companion = source.global_shape();
  companion[column_axis] = input / group;
  const LinearFormat& format = declaration.encoding();
  EREDU_TRY(weight_sharding, remap_linear_segments(source, format, EncodedRole::Weight));
  EREDU_TRY(companion_sharding, remap_linear_segments(source, format, EncodedRole::Scale));
  const std::optional<Dtype> companion_dtype =
      quantization.has_biases()
          ? (declaration.companion_dtype() ? declaration.companion_dtype() : source.dtype())
          : std::optional<Dtype>(Dtype::F8E8M0);
  std::vector<ParameterMemberSpec> members;
  members.emplace_back(name, std::move(packed), std::move(weight_sharding), Dtype::U32);
  members.emplace_back(*declaration.scale(), companion, companion_sharding, companion_dtype);
  if (declaration.affine_bias()) {
    members.emplace_back(*declaration.affine_bias(), std::move(companion),
                         std::move(companion_sharding), companion_dtype);
  }
  return members;
}

}  // namespace

Result<std::vector<ParameterMemberSpec>> expand_linear_format_member(
    const ParameterMemberSpec& source, const LinearFormatSpec& declaration) {
  const LinearFormat& format = declaration.encoding();
  if (format.kind() == LinearFormatKind::Dense) {
    if (declaration.scale() || declaration.affine_bias()) {
      return failf(Status::InvalidGroup, "dense linear parameter {} declares physical companions",
                   source.target());
    }
    return std::vector<ParameterMemberSpec>{source};
  }
  if (source.global_shape().size() < 2) {
    return failf(Status::InvalidTensor,
                 "encoded linear parameter {} must have at least two dimensions", source.target());
  }
  if (const auto* fp8 = format.get_if<BlockFp8Format>()) {
    return expand_block_fp8(source, declaration, *fp8);
  }
  if (const auto* gguf = format.get_if<GgufIQuant>())
    return expand_gguf(source, declaration, *gguf);
  return expand_packed(source, declaration, *format.weight_quantization());
}

Result<ParameterGroupSpec> expand_linear_format_group(const ParameterGroupSpec& group,
                                                      const LinearFormatDeclaration& declaration) {
  std::vector<ParameterMemberSpec> members;
  members.reserve(group.members().size());
  std::vector<EncodedMatrix> encoded;
  // Where each member of `group` went, when it passed through unchanged.
  std::vector<std::optional<std::uint32_t>> kept(group.members().size());
  bool declared = false;
  for (std::size_t i = 0; i < group.members().size(); ++i) {
    const ParameterMemberSpec& source = group.members()[i];
    EREDU_TRY(spec, declaration(source));
    if (!spec) {
      kept[i] = static_cast<std::uint32_t>(members.size());
      members.push_back(source);
      continue;
    }
    declared = true;
    EREDU_TRY(expanded, expand_linear_format_member(source, *spec));
    if (spec->encoding().kind() != LinearFormatKind::Dense) {
      encoded.push_back({source, *spec, static_cast<std::uint32_t>(members.size()),
                         static_cast<std::uint32_t>(expanded.size())});
    }
    for (ParameterMemberSpec& member : expanded) members.push_back(std::move(member));
  }
  if (!declared) return group;
  // Matrices of an already expanded group stay recorded while all of their
  // members pass through.
  for (const EncodedMatrix& matrix : group.encoded()) {
    bool whole = true;
    for (std::uint32_t k = matrix.first; k < matrix.first + matrix.count; ++k) {
      whole = whole && kept[k].has_value() && *kept[k] == *kept[matrix.first] + (k - matrix.first);
    }
    if (!whole) continue;
    EncodedMatrix moved = matrix;
    moved.first = *kept[matrix.first];
    encoded.push_back(std::move(moved));
  }
  std::sort(encoded.begin(), encoded.end(),
            [](const EncodedMatrix& a, const EncodedMatrix& b) { return a.first < b.first; });
  Result<ParameterGroupSpec> rebuilt =
      group.partition_units() ? partitioned_group_with_preferred_units(
                                    group.logical_name(), group.role(), *group.partition_units(),
                                    std::move(members), group.scope(), group.query_units())
                              : ParameterGroupSpec::create(group.logical_name(), group.role(),
                                                           std::move(members), group.scope());
  if (!rebuilt) return rebuilt;
  ParameterGroupSpec done = std::move(rebuilt).value().with_encoded(std::move(encoded));
  if (const auto multiple = group.vocab_pad_multiple())
    return done.with_vocab_pad_multiple(*multiple);
  return done;
}

Result<std::vector<ParameterGroupSpec>> expand_linear_format_parameter_groups(
    std::vector<ParameterGroupSpec> groups, const LinearFormatDeclaration& declaration) {
  std::vector<ParameterGroupSpec> expanded;
  expanded.reserve(groups.size());
  for (const ParameterGroupSpec& group : groups) {
    EREDU_TRY(result, expand_linear_format_group(group, declaration));
    expanded.push_back(std::move(result));
  }
  return expanded;
}

}  // namespace eredu
