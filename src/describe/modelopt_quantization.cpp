// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/modelopt_quantization.hpp"

#include <algorithm>
#include <utility>

#include "core/text.hpp"
#include "describe/physical_linear.hpp"
#include "describe/quantization_refusal.hpp"

namespace eredu {

Result<std::optional<NvFp4Quantization>> read_modelopt_quantization(const ConfigFields& config) {
  const std::optional<std::string> method = quantization_method(config);
  if (!method || *method != "modelopt") return std::optional<NvFp4Quantization>{};
  EREDU_TRY(outer, config.section("quantization_config"));
  EREDU_TRY(nested, outer.optional_section("quantization"));
  const ConfigFields& fields = nested ? *nested : outer;
  EREDU_TRY(algo, fields.optional_string("quant_algo"));
  if (!algo) return failf(Status::Parse, "{}: required field quant_algo is missing", fields.file());
  if (*algo != "NVFP4") {
    return failf(Status::UnsupportedModel,
                 "{}: ModelOpt quant_algo {} is not supported; supported: \"NVFP4\"", fields.file(),
                 debug_quoted(*algo));
  }
  if (fields.field("kv_cache_quant_algo") != nullptr) {
    return failf(Status::UnsupportedModel,
                 "{}: kv_cache_quant_algo is not supported (its k_scale / v_scale tensors)",
                 fields.file());
  }
  EREDU_TRY(group, fields.optional_count("group_size"));
  if (group && *group != NvFp4Quantization::kGroupSize) {
    return failf(Status::InvalidFormat, "{}: NVFP4 group_size must be 16, got {}", fields.file(),
                 *group);
  }
  NvFp4Quantization out;
  for (const char* key : {"exclude_modules", "ignore"}) {
    EREDU_TRY(entries, fields.string_list(key));
    for (std::string& entry : entries) {
      if (entry.find_first_of("*?") != std::string::npos) {
        return failf(Status::UnsupportedModel,
                     "{}: {} entry {} has a wildcard; supported: module names", fields.file(), key,
                     debug_quoted(entry));
      }
      out.exclude.push_back(std::move(entry));
    }
  }
  return std::optional<NvFp4Quantization>{std::move(out)};
}

Result<std::vector<ParameterGroupSpec>> expand_nvfp4_groups(std::vector<ParameterGroupSpec> groups,
                                                            const NvFp4Quantization& quantization,
                                                            const WeightIndex& index) {
  const auto excluded = [&](const std::string& module) {
    return std::any_of(
        quantization.exclude.begin(), quantization.exclude.end(), [&](const std::string& entry) {
          return module == entry ||
                 (module.size() > entry.size() && module.compare(0, entry.size(), entry) == 0 &&
                  module[entry.size()] == '.');
        });
  };
  return expand_physical_linears(
      std::move(groups), "NVFP4",
      [&](const std::string& module,
          const ParameterMemberSpec& dense) -> Result<std::optional<PhysicalLinear>> {
        if (excluded(module) ||
            !index.contains(module + ".weight_scale", dense.sharding().is_partitioned())) {
          return std::optional<PhysicalLinear>{};
        }
        constexpr std::uint64_t kGroup = NvFp4Quantization::kGroupSize;
        const std::uint64_t out = dense.global_shape()[0];
        const std::uint64_t in = dense.global_shape()[1];
        if (in % kGroup != 0) {
          return failf(Status::InvalidTensor, "{}: NVFP4 input width {} is not a multiple of {}",
                       module, in, kGroup);
        }
        PhysicalLinear linear;
        linear.members.push_back({"weight", {out, in / 2}, Dtype::U8, {0}, {1, 1, 2}});
        linear.members.push_back(
            {"weight_scale", {out, in / kGroup}, Dtype::F8E4M3, {0}, {1, 1, kGroup}});
        linear.members.push_back({"weight_scale_2", {}, Dtype::F32, {}, {}});
        linear.members.push_back({"input_scale", {}, Dtype::F32, {}, {}});
        return std::optional<PhysicalLinear>{std::move(linear)};
      });
}

}  // namespace eredu
