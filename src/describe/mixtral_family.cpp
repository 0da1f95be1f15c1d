// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/mixtral_family.hpp"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"
#include "describe/llama_family.hpp"

namespace eredu {
namespace {

// The router: one row of logits per expert, the same on every rank.
Result<ParameterGroupSpec> mixtral_router_group(const DecoderConfig& config, std::uint64_t experts,
                                                const std::string& prefix, GroupScope scope) {
  Members members(config.dtype);
  members.add(prefix + "block_sparse_moe.gate.weight", {experts, config.hidden_size},
              MemberSharding::replicated());
  return ParameterGroupSpec::create(prefix + "block_sparse_moe.gate", ParameterRole::Replicated,
                                    members.take(), scope);
}

// Expert N of a layer: w1 (gate) and w3 (up) column-parallel, w2 (down)
// row-parallel over the intermediate channels, owned by one expert rank.
Result<ParameterGroupSpec> expert_group(const DecoderConfig& config, const std::string& prefix,
                                        std::uint64_t layer, std::uint64_t expert) {
  const std::string name = fmt::format("{}block_sparse_moe.experts.{}", prefix, expert);
  const std::uint64_t hidden = config.hidden_size;
  const std::uint64_t intermediate = config.intermediate_size;
  Members members(config.dtype);
  members.add(name + ".w1.weight", {intermediate, hidden}, MemberSharding::partitioned(0));
  members.add(name + ".w2.weight", {hidden, intermediate}, MemberSharding::partitioned(1));
  members.add(name + ".w3.weight", {intermediate, hidden}, MemberSharding::partitioned(0));
  return ParameterGroupSpec::partitioned(name, ParameterRole::ExpertIntermediate, intermediate,
                                         members.take(), GroupScope::indexed(layer, expert));
}

}  // namespace

Result<FamilyGroups> describe_mixtral(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(config, read_decoder_config(fields, dtype));
  EREDU_TRY(experts, fields.required_count("num_local_experts"));
  EREDU_TRY(check_layer_count(config.num_hidden_layers, index.file, index.tensor_bound()));
  EREDU_TRY(rows, attention_rows(fields, config));
  EREDU_TRY(described,
            decoder_groups(
                decoder_outline(config, index),
                [&](const std::string& prefix,
                    GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
                  std::vector<ParameterGroupSpec> groups;
                  EREDU_TRY(attention, llama_attention_group(config, index, rows, prefix, scope));
                  groups.push_back(std::move(attention));
                  EREDU_TRY(norms, llama_norms_group(config, index, prefix, scope));
                  groups.push_back(std::move(norms));
                  EREDU_TRY(router, mixtral_router_group(config, experts, prefix, scope));
                  groups.push_back(std::move(router));
                  for (std::uint64_t expert = 0; expert < experts; ++expert) {
                    EREDU_TRY(group, expert_group(config, prefix, *scope.layer, expert));
                    groups.push_back(std::move(group));
                  }
                  return groups;
                }));
  described.experts = experts;
  return described;
}

}  // namespace eredu
