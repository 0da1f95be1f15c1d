// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/granitemoe_family.hpp"

#include <string>
#include <utility>
#include <vector>

#include "describe/decoder_config.hpp"
#include "describe/llama_family.hpp"

namespace eredu {
namespace {

// The router: one row of logits per expert, the same on every rank.
Result<ParameterGroupSpec> granitemoe_router_group(const DecoderConfig& config,
                                                   std::uint64_t experts, const std::string& prefix,
                                                   GroupScope scope) {
  Members members(config.dtype);
  members.add(prefix + "block_sparse_moe.router.layer.weight", {experts, config.hidden_size},
              MemberSharding::replicated());
  return ParameterGroupSpec::create(prefix + "block_sparse_moe.router", ParameterRole::Replicated,
                                    members.take(), scope);
}

// The stacked experts of a layer, axis 0 of both tensors: expert
// parallelism gives each expert rank its range of them. Within an expert,
// input_linear holds the gate rows then the up rows (GraniteMoe chunks its
// output in two), each split by the intermediate channels like a
// column-parallel projection; output_linear is row-parallel over them.
Result<ParameterGroupSpec> experts_group(const DecoderConfig& config, std::uint64_t experts,
                                         std::uint64_t gate_up_rows, const std::string& prefix,
                                         GroupScope scope) {
  const std::string name = prefix + "block_sparse_moe.";
  const std::uint64_t hidden = config.hidden_size;
  const std::uint64_t intermediate = config.intermediate_size;
  Members members(config.dtype);
  members.add(name + "input_linear.weight", {experts, gate_up_rows, hidden},
              MemberSharding::partitioned_segments(
                  1, {IndexRange{0, intermediate}, IndexRange{intermediate, gate_up_rows}})
                  .stacked_experts(0));
  members.add(name + "output_linear.weight", {experts, hidden, intermediate},
              MemberSharding::partitioned(2).stacked_experts(0));
  return ParameterGroupSpec::partitioned(name + "experts", ParameterRole::ExpertIntermediate,
                                         intermediate, members.take(), scope);
}

}  // namespace

Result<FamilyGroups> describe_granitemoe(const ConfigFields& fields, const WeightIndex& index) {
  EREDU_TRY(dtype, fields.dtype());
  EREDU_TRY(config, read_decoder_config(fields, dtype));
  EREDU_TRY(experts, fields.required_count("num_local_experts"));
  EREDU_TRY(gate_up_rows, fields.product("input_linear rows", {2, config.intermediate_size}));
  EREDU_TRY(check_layer_count(config.num_hidden_layers, index.file, index.tensor_bound()));
  EREDU_TRY(rows, attention_rows(fields, config));
  EREDU_TRY(described,
            decoder_groups(
                decoder_outline(config, index),
                [&](const std::string& prefix,
                    GroupScope scope) -> Result<std::vector<ParameterGroupSpec>> {
                  EREDU_TRY(attention, llama_attention_group(config, index, rows, prefix, scope));
                  EREDU_TRY(norms, llama_norms_group(config, index, prefix, scope));
                  EREDU_TRY(router, granitemoe_router_group(config, experts, prefix, scope));
                  EREDU_TRY(moe, experts_group(config, experts, gate_up_rows, prefix, scope));
                  return std::vector{std::move(attention), std::move(norms), std::move(router),
                                     std::move(moe)};
                }));
  described.experts = experts;
  return described;
}

}  // namespace eredu
