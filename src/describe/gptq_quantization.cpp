// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/gptq_quantization.hpp"

#include <cctype>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>

#include "core/checked.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

using nlohmann::json;

std::string lowered(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string_view method_name(PackedMethod method) {
  return method == PackedMethod::Gptq ? "GPTQ" : "AWQ";
}

Result<std::int32_t> required_int(const json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return failf(Status::Parse, "{}: required field {} is missing", where, key);
  }
  if (!it->is_number_integer() ||
      it->get<std::int64_t>() < std::numeric_limits<std::int32_t>::min() ||
      it->get<std::int64_t>() > std::numeric_limits<std::int32_t>::max()) {
    return failf(Status::Parse, "{}: {} must be an integer that fits 32 bits, got {}", where, key,
                 it->dump());
  }
  return static_cast<std::int32_t>(it->get<std::int64_t>());
}

// An optional string field, lowered; `fallback` when absent or null.
Result<std::string> optional_word(const json& object, const char* key, const char* fallback,
                                  const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::string(fallback);
  if (!it->is_string()) {
    return failf(Status::Parse, "{}: {} must be a string, got {}", where, key, it->dump());
  }
  return lowered(it->get<std::string>());
}

Result<bool> optional_flag(const json& object, const char* key, bool fallback,
                           const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) {
    return failf(Status::Parse, "{}: {} must be a boolean, got {}", where, key, it->dump());
  }
  return it->get<bool>();
}

// `<module>.weight` → `<module>`, or nullopt for other targets.
std::optional<std::string> packed_weight_module(const std::string& target) {
  constexpr std::string_view kSuffix = ".weight";
  if (target.size() <= kSuffix.size() ||
      target.compare(target.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
    return std::nullopt;
  }
  return target.substr(0, target.size() - kSuffix.size());
}

// How one physical member's axes follow the dense [out, in] axes: the axis
// each maps to (none: a split of that dense axis replicates the member) and
// the ratio physical / dense extent, as num / den.
struct AxisRule {
  std::optional<std::uint64_t> axis;
  std::uint64_t num = 1;
  std::uint64_t den = 1;
};
struct PhysicalMember {
  std::string suffix;
  std::vector<std::uint64_t> shape;
  Dtype dtype;
  AxisRule out;
  AxisRule in;
};

Result<MemberSharding> physical_sharding(const MemberSharding& dense, const PhysicalMember& member,
                                         const std::string& module) {
  if (dense.kind == ShardingKind::Replicated) return MemberSharding::replicated();
  const AxisRule& rule = dense.axis == 0 ? member.out : member.in;
  if (!rule.axis) return MemberSharding::replicated();
  MemberSharding out = dense;
  out.axis = *rule.axis;
  for (IndexRange& segment : out.segments) {
    const std::optional<std::uint64_t> start = checked_mul(segment.start, rule.num);
    const std::optional<std::uint64_t> end = checked_mul(segment.end, rule.num);
    if (!start || !end || *start % rule.den != 0 || *end % rule.den != 0) {
      return failf(Status::InvalidTensor,
                   "packed companion {}.{} segment {}..{} is not aligned to {}", module,
                   member.suffix, segment.start, segment.end, rule.den / rule.num);
    }
    segment = IndexRange{*start / rule.den, *end / rule.den};
  }
  return out;
}

}  // namespace

Result<std::optional<PackedQuantization>> read_packed_quantization(const ConfigFields& config) {
  const json* object = config.field("quantization_config");
  if (object == nullptr || !object->is_object()) return std::optional<PackedQuantization>{};
  auto method = object->find("quant_method");
  if (method == object->end() || !method->is_string()) return std::optional<PackedQuantization>{};
  const std::string name = lowered(method->get<std::string>());
  if (name != "gptq" && name != "awq") return std::optional<PackedQuantization>{};
  const std::string where = config.file() + ": quantization_config";
  PackedQuantization out;
  out.method = name == "gptq" ? PackedMethod::Gptq : PackedMethod::Awq;
  EREDU_TRY(bits, required_int(*object, "bits", where));
  EREDU_TRY(group, required_int(*object, "group_size", where));
  if (out.method == PackedMethod::Gptq) {
    if (bits != 2 && bits != 3 && bits != 4 && bits != 8) {
      return failf(Status::InvalidFormat, "{}: GPTQ bits must be one of 2, 3, 4, or 8, got {}",
                   where, bits);
    }
    if (group <= 0 && group != -1) {
      return failf(Status::InvalidFormat, "{}: GPTQ group_size must be positive or -1, got {}",
                   where, group);
    }
    EREDU_TRY(desc_act, optional_flag(*object, "desc_act", false, where));
    EREDU_TRY(format, optional_word(*object, "checkpoint_format", "gptq", where));
    EREDU_TRY(marlin, optional_flag(*object, "is_marlin_format", false, where));
    if (format != "gptq" || marlin) {
      return failf(Status::UnsupportedModel,
                   "{}: GPTQ checkpoint_format {} is not supported; supported: \"gptq\"", where,
                   debug_quoted(marlin ? "marlin" : format));
    }
    out.desc_act = desc_act;
  } else {
    if (bits != 4) {
      return failf(Status::InvalidFormat, "{}: AWQ bits must be 4, got {}", where, bits);
    }
    if (group <= 0) {
      return failf(Status::InvalidFormat, "{}: AWQ group_size must be positive, got {}", where,
                   group);
    }
    EREDU_TRY(version, optional_word(*object, "version", "gemm", where));
    if (version != "gemm") {
      return failf(Status::UnsupportedModel,
                   "{}: AWQ version {} is not supported; supported: \"gemm\"", where,
                   debug_quoted(version));
    }
    EREDU_TRY(zero_point, optional_flag(*object, "zero_point", true, where));
    if (!zero_point) {
      return failf(Status::UnsupportedModel, "{}: AWQ without zero_point is not supported", where);
    }
  }
  out.bits = bits;
  if (group != -1) out.group_size = group;
  return std::optional<PackedQuantization>{out};
}

namespace {

// The physical members of `module` [out, in], or an alignment error.
Result<std::vector<PhysicalMember>> physical_members(const PackedQuantization& quantization,
                                                     const std::string& module, std::uint64_t out,
                                                     std::uint64_t in) {
  const std::string_view name = method_name(quantization.method);
  const auto bits = static_cast<std::uint64_t>(quantization.bits);
  const std::uint64_t group =
      quantization.group_size ? static_cast<std::uint64_t>(*quantization.group_size) : in;
  if (in % group != 0) {
    return failf(Status::InvalidTensor, "{}: {} group_size {} does not divide input width {}",
                 module, name, group, in);
  }
  const bool gptq = quantization.method == PackedMethod::Gptq;
  // width × bits / 32 without the product: width must be a multiple of
  // 32 / gcd(bits, 32), and the words are never more than the width.
  const std::uint64_t common = std::gcd(bits, std::uint64_t{32});
  const auto words = [&](std::uint64_t width) { return width / (32 / common) * (bits / common); };
  if (gptq && in % (32 / common) != 0) {
    return failf(Status::InvalidTensor,
                 "{}: {} {}-bit input width {} does not fill whole 32-bit words", module, name,
                 bits, in);
  }
  if (out % (32 / common) != 0) {
    return failf(Status::InvalidTensor,
                 "{}: {} {}-bit output width {} does not fill whole 32-bit words", module, name,
                 bits, out);
  }
  const AxisRule per_group{0, 1, group};
  // One group: an input split leaves every rank the whole group.
  const AxisRule group_in = quantization.group_size ? per_group : AxisRule{};
  std::vector<PhysicalMember> members;
  if (gptq) {
    members.push_back({"qweight", {words(in), out}, Dtype::I32, {1}, {0, bits, 32}});
  } else {
    members.push_back({"qweight", {in, words(out)}, Dtype::I32, {1, bits, 32}, {0}});
  }
  members.push_back({"qzeros", {in / group, words(out)}, Dtype::I32, {1, bits, 32}, group_in});
  members.push_back({"scales", {in / group, out}, Dtype::F16, {1}, group_in});
  if (gptq) members.push_back({"g_idx", {in}, Dtype::I32, {}, {0}});
  return members;
}

}  // namespace

Result<std::vector<ParameterGroupSpec>> expand_packed_groups(std::vector<ParameterGroupSpec> groups,
                                                             const PackedQuantization& quantization,
                                                             const WeightIndex& index) {
  std::vector<ParameterGroupSpec> expanded;
  expanded.reserve(groups.size());
  for (ParameterGroupSpec& group : groups) {
    std::vector<ParameterMemberSpec> members;
    bool changed = false;
    // Act-order with an input split: 1 unit, and no KV-head replication
    // (which would split the row-parallel member by query heads).
    bool cuts_groups = false;
    for (const ParameterMemberSpec& member : group.members()) {
      const std::optional<std::string> module = packed_weight_module(member.target());
      const MemberSharding& dense = member.sharding();
      if (!module || member.global_shape().size() != 2 ||
          !index.contains(*module + ".qweight", dense.is_partitioned())) {
        members.push_back(member);
        continue;
      }
      if (dense.expert_axis || dense.kind == ShardingKind::Equal ||
          dense.kind == ShardingKind::Balanced) {
        return failf(Status::InvalidTensor, "{}: {} tensors cannot follow a {} split", *module,
                     method_name(quantization.method), sharding_kind_name(dense.kind));
      }
      EREDU_TRY(physical, physical_members(quantization, *module, member.global_shape()[0],
                                           member.global_shape()[1]));
      for (const PhysicalMember& part : physical) {
        EREDU_TRY(sharding, physical_sharding(dense, part, *module));
        if (sharding.kind == ShardingKind::Replicated) sharding.per_kv_head = false;
        members.emplace_back(*module + "." + part.suffix, part.shape, std::move(sharding),
                             part.dtype);
      }
      if (dense.kind != ShardingKind::Replicated && dense.axis == 1 && quantization.desc_act &&
          quantization.group_size) {
        cuts_groups = true;
      }
      changed = true;
    }
    if (!changed) {
      expanded.push_back(std::move(group));
      continue;
    }
    if (!group.encoded().empty()) {
      return failf(Status::InvalidGroup, "{}: {} members next to another linear format",
                   group.logical_name(), method_name(quantization.method));
    }
    if (cuts_groups) {
      for (ParameterMemberSpec& each : members) {
        MemberSharding sharding = each.sharding();
        sharding.per_kv_head = false;
        each = ParameterMemberSpec(each.target(), each.global_shape(), std::move(sharding),
                                   each.dtype());
      }
    }
    Result<ParameterGroupSpec> rebuilt =
        group.partition_units()
            ? partitioned_group_with_preferred_units(
                  group.logical_name(), group.role(), cuts_groups ? 1 : *group.partition_units(),
                  std::move(members), group.scope(),
                  cuts_groups ? std::nullopt : group.query_units())
            : ParameterGroupSpec::create(group.logical_name(), group.role(), std::move(members),
                                         group.scope());
    EREDU_TRY(done, std::move(rebuilt));
    expanded.push_back(std::move(done));
  }
  return expanded;
}

}  // namespace eredu
