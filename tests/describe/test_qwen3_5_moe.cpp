// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The qwen3_5_moe family on qwen3.5-25b-reap-a3b-moe (docs/describe.md,
// "qwen3_5_moe, qwen3_5_moe_text"): 40 hybrid layers (Gated DeltaNet, gated
// full attention every 4th), 180 routed experts and a shared expert per
// layer, planned with tensor, pipeline and expert parallelism.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

using Shape = std::vector<std::uint64_t>;

using test::group_named;
using test::targets;

constexpr const char* kQwen = "qwen3.5-25b-reap-a3b-moe";
constexpr std::uint64_t kBytes = 50182743296u;

std::string layer(std::uint64_t index) {
  return fmt::format("model.language_model.layers.{}.", index);
}

using test::topology;

const LocalTensorLayout& tensor(const LocalModelLayout& layout, const std::string& target) {
  const LocalTensorLayout* found = layout.tensor(target);
  REQUIRE_MESSAGE(found != nullptr, target);
  return *found;
}

void check_member(const ParameterMemberSpec& member, const std::string& target, const Shape& shape,
                  const MemberSharding& sharding) {
  CAPTURE(target);
  CHECK(member.target() == target);
  CHECK(member.global_shape() == shape);
  CHECK(member.sharding() == sharding);
  CHECK(member.dtype() == Dtype::F16);
}

TEST_CASE("qwen3.5 MoE: every index tensor described exactly once, bytes equal total_size") {
  const auto model = test::describe(kQwen);
  const auto index = test::read_json(test::example_model(kQwen), "model.safetensors.index.json");
  CHECK(model->tensor_count() == 22213);
  CHECK(model->global_bytes() == kBytes);
  CHECK(model->global_bytes() == index["metadata"]["total_size"].get<std::uint64_t>());
  CHECK(model->unknown_bytes_tensors() == 0);
  std::multiset<std::string> described;
  for (const ParameterGroupSpec& group : model->groups()) {
    for (const ParameterMemberSpec& member : group.members()) described.insert(member.target());
  }
  std::multiset<std::string> indexed;
  for (const auto& [name, shard] : index["weight_map"].items()) indexed.insert(name);
  CHECK(indexed.size() == 22213);
  CHECK(described == indexed);

  CHECK(model->info() == ModelInfo{kQwen, 40, 180});
  // embed, 40 layers of attention, norms, router, 180 experts and the shared
  // expert, head.
  CHECK(model->groups().size() == 1 + 40 * (3 + 180 + 1) + 1);
  for (std::uint64_t l = 0; l < 40; ++l) {
    CAPTURE(l);
    const bool full = (l + 1) % 4 == 0;
    const ParameterGroupSpec& attention =
        group_named(*model, layer(l) + (full ? "self_attn" : "linear_attn"));
    CHECK(attention.role() == (full ? ParameterRole::AttentionHeads : ParameterRole::Channels));
    CHECK(attention.scope() == GroupScope::indexed(l, std::nullopt));
  }
  CHECK(model->groups().front().members()[0].target() ==
        "model.language_model.embed_tokens.weight");
  CHECK(targets(model->groups().back()) ==
        std::vector<std::string>{"model.language_model.norm.weight", "lm_head.weight"});
}

TEST_CASE("qwen3.5 MoE: Gated DeltaNet, gated attention, experts and shared expert members") {
  const auto model = test::describe(kQwen);
  // 16 key heads and 32 value heads of 128 channels: q and k 2048 rows each,
  // v 4096, conv channels 8192, kernel 4.
  const ParameterGroupSpec& linear = group_named(*model, layer(0) + "linear_attn");
  CHECK(linear.partition_units() == std::optional<std::uint64_t>{16});
  CHECK(linear.query_units() == std::nullopt);
  REQUIRE(linear.members().size() == 9);
  const std::string la = layer(0) + "linear_attn.";
  const auto qkv = MemberSharding::partitioned_segments(0, {{0, 2048}, {2048, 4096}, {4096, 8192}});
  check_member(linear.members()[0], la + "in_proj_qkv.weight", {8192, 2048}, qkv);
  check_member(linear.members()[1], la + "in_proj_z.weight", {4096, 2048},
               MemberSharding::partitioned(0));
  check_member(linear.members()[2], la + "in_proj_b.weight", {32, 2048},
               MemberSharding::partitioned(0));
  check_member(linear.members()[3], la + "in_proj_a.weight", {32, 2048},
               MemberSharding::partitioned(0));
  check_member(linear.members()[4], la + "conv1d.weight", {8192, 1, 4}, qkv);
  check_member(linear.members()[5], la + "dt_bias", {32}, MemberSharding::partitioned(0));
  check_member(linear.members()[6], la + "A_log", {32}, MemberSharding::partitioned(0));
  check_member(linear.members()[7], la + "norm.weight", {128}, MemberSharding::replicated());
  check_member(linear.members()[8], la + "out_proj.weight", {2048, 4096},
               MemberSharding::partitioned(1));

  // 16 query heads of 256 with an output gate each, 2 KV heads.
  const ParameterGroupSpec& attention = group_named(*model, layer(3) + "self_attn");
  CHECK(attention.partition_units() == std::optional<std::uint64_t>{2});
  CHECK(attention.query_units() == std::optional<std::uint64_t>{16});
  const std::string sa = layer(3) + "self_attn.";
  REQUIRE(attention.members().size() == 4);
  check_member(attention.members()[0], sa + "q_proj.weight", {8192, 2048},
               MemberSharding::partitioned(0));
  check_member(attention.members()[1], sa + "k_proj.weight", {512, 2048},
               MemberSharding::partitioned(0).kv_head());
  check_member(attention.members()[3], sa + "o_proj.weight", {2048, 4096},
               MemberSharding::partitioned(1));
  CHECK(targets(group_named(*model, layer(3) + "norms")) ==
        std::vector<std::string>{
            layer(3) + "input_layernorm.weight", layer(3) + "post_attention_layernorm.weight",
            layer(3) + "self_attn.q_norm.weight", layer(3) + "self_attn.k_norm.weight"});
  CHECK(group_named(*model, layer(3) + "norms").members()[2].global_shape() == Shape{256});

  const ParameterGroupSpec& router = group_named(*model, layer(39) + "mlp.gate");
  CHECK(router.role() == ParameterRole::Replicated);
  check_member(router.members()[0], layer(39) + "mlp.gate.weight", {180, 2048},
               MemberSharding::replicated());

  const ParameterGroupSpec& expert = group_named(*model, layer(39) + "mlp.experts.179");
  CHECK(expert.role() == ParameterRole::ExpertIntermediate);
  CHECK(expert.partition_units() == std::optional<std::uint64_t>{512});
  CHECK(expert.scope() == GroupScope::indexed(39, 179));
  const std::string ex = layer(39) + "mlp.experts.179.";
  check_member(expert.members()[0], ex + "gate_proj.weight", {512, 2048},
               MemberSharding::partitioned(0));
  check_member(expert.members()[1], ex + "up_proj.weight", {512, 2048},
               MemberSharding::partitioned(0));
  check_member(expert.members()[2], ex + "down_proj.weight", {2048, 512},
               MemberSharding::partitioned(1));

  const ParameterGroupSpec& shared = group_named(*model, layer(39) + "mlp.shared_expert");
  CHECK(shared.role() == ParameterRole::ExpertIntermediate);
  CHECK(shared.partition_units() == std::optional<std::uint64_t>{512});
  CHECK(shared.scope() == GroupScope::indexed(39, std::nullopt));
  REQUIRE(shared.members().size() == 4);
  check_member(shared.members()[2], layer(39) + "mlp.shared_expert.down_proj.weight", {2048, 512},
               MemberSharding::partitioned(1));
  check_member(shared.members()[3], layer(39) + "mlp.shared_expert_gate.weight", {1, 2048},
               MemberSharding::replicated());
}

TEST_CASE("qwen3.5 MoE at TP 2 x EP 8: expert rank e holds the balanced range e of 180 experts") {
  const auto model = test::describe(kQwen);
  auto world = plan_world(model, topology(2, 1, 8), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
  REQUIRE(world.value().ranks.size() == 16);
  for (std::uint64_t rank = 0; rank < 16; ++rank) {
    CAPTURE(rank);
    auto layout = plan_rank(model, topology(2, 1, 8), rank, ShardingPolicy::Require);
    REQUIRE(layout.has_value());
    const std::uint64_t e = layout.value().coordinates.expert;
    const std::uint64_t t = layout.value().coordinates.tensor;
    // 180 = 4 × 23 + 4 × 22: expert ranks 0-3 hold 23 experts, 4-7 hold 22.
    const std::uint64_t first = 22 * e + std::min<std::uint64_t>(e, 4);
    const std::uint64_t last = first + (e < 4 ? 23 : 22);
    for (std::uint64_t l : {0u, 3u, 39u}) {
      std::uint64_t held = 0;
      for (std::uint64_t expert = 0; expert < 180; ++expert) {
        const std::string p = fmt::format("{}mlp.experts.{}.", layer(l), expert);
        const LocalTensorLayout& gate = tensor(layout.value(), p + "gate_proj.weight");
        const LocalTensorLayout& down = tensor(layout.value(), p + "down_proj.weight");
        if (expert >= first && expert < last) {
          ++held;
          CHECK(gate.placement == TensorPlacement::range(0, 256 * t, 256 * t + 256));
          CHECK(gate.local_shape == Shape{256, 2048});
          CHECK(gate.local_bytes == std::optional<std::uint64_t>{1048576});
          CHECK(down.placement == TensorPlacement::range(1, 256 * t, 256 * t + 256));
          CHECK(down.local_shape == Shape{2048, 256});
          CHECK(down.local_bytes == std::optional<std::uint64_t>{1048576});
        } else {
          CHECK(gate.placement.kind == PlacementKind::Omit);
          CHECK(gate.local_bytes == std::optional<std::uint64_t>{0});
          CHECK(down.placement.kind == PlacementKind::Omit);
        }
      }
      CHECK(held == last - first);
      CHECK(tensor(layout.value(), layer(l) + "mlp.gate.weight").placement ==
            TensorPlacement::replicated());
      CHECK(tensor(layout.value(), layer(l) + "mlp.shared_expert.up_proj.weight").placement ==
            TensorPlacement::range(0, 256 * t, 256 * t + 256));
      CHECK(tensor(layout.value(), layer(l) + "mlp.shared_expert_gate.weight").placement ==
            TensorPlacement::replicated());
    }
    // 2457132416 bytes besides the routed experts, 6291456 / 2 per held
    // expert and layer.
    CHECK(world.value().ranks[rank].totals.local_bytes == (e < 4 ? 5351202176u : 5225373056u));
    CHECK(world.value().ranks[rank].totals.global_bytes == kBytes);
  }
}

TEST_CASE("qwen3.5 MoE at TP 8: Gated DeltaNet and gated attention rows as vLLM loads them") {
  const auto model = test::describe(kQwen);
  for (std::uint64_t t = 0; t < 8; ++t) {
    CAPTURE(t);
    auto layout = plan_rank(model, topology(8, 1, 1), t, ShardingPolicy::Require);
    REQUIRE(layout.has_value());
    const LocalModelLayout& local = layout.value();
    // Key heads [2t, 2t + 2), value heads [4t, 4t + 4): q and k rows
    // [256t, 256t + 256) of their segments, v rows [512t, 512t + 512).
    const std::vector<IndexRange> runs{{256 * t, 256 * t + 256},
                                       {2048 + 256 * t, 2048 + 256 * t + 256},
                                       {4096 + 512 * t, 4096 + 512 * t + 512}};
    const std::string la = layer(36) + "linear_attn.";
    CHECK(tensor(local, la + "in_proj_qkv.weight").placement == TensorPlacement::indices(0, runs));
    CHECK(tensor(local, la + "in_proj_qkv.weight").local_shape == Shape{1024, 2048});
    CHECK(tensor(local, la + "conv1d.weight").placement == TensorPlacement::indices(0, runs));
    CHECK(tensor(local, la + "conv1d.weight").local_shape == Shape{1024, 1, 4});
    CHECK(tensor(local, la + "in_proj_z.weight").placement ==
          TensorPlacement::range(0, 512 * t, 512 * t + 512));
    for (const char* name : {"in_proj_b.weight", "in_proj_a.weight", "dt_bias", "A_log"}) {
      CHECK(tensor(local, la + name).placement == TensorPlacement::range(0, 4 * t, 4 * t + 4));
    }
    CHECK(tensor(local, la + "norm.weight").placement == TensorPlacement::replicated());
    CHECK(tensor(local, la + "out_proj.weight").placement ==
          TensorPlacement::range(1, 512 * t, 512 * t + 512));
    // Query heads [2t, 2t + 2) with their gates; KV head t / 4 on 4 ranks.
    const std::string sa = layer(35) + "self_attn.";
    CHECK(tensor(local, sa + "q_proj.weight").placement ==
          TensorPlacement::range(0, 1024 * t, 1024 * t + 1024));
    const LocalTensorLayout& k = tensor(local, sa + "k_proj.weight");
    CHECK(k.placement == TensorPlacement::range(0, 256 * (t / 4), 256 * (t / 4) + 256));
    CHECK(k.kv_head_copies == 4);
    CHECK(tensor(local, sa + "o_proj.weight").placement ==
          TensorPlacement::range(1, 512 * t, 512 * t + 512));
  }
}

TEST_CASE("qwen3.5 MoE: coverage at TP 1/2/4/8/16, PP 2, EP 2/4/8 with TP 2; refusals") {
  const auto model = test::describe(kQwen);
  const std::vector<std::array<std::uint64_t, 4>> sizes{
      // tp, pp, ep, rank 0's local bytes
      {1, 1, 1, kBytes},       {2, 1, 1, 25106374016u}, {4, 1, 1, 12578675136u},
      {8, 1, 1, 6314825696u},  {16, 1, 1, 3182900976u}, {2, 2, 1, 12553184960u},
      {2, 1, 2, 13781753216u}, {2, 1, 4, 8119442816u},  {2, 1, 8, 5351202176u}};
  for (const auto& entry : sizes) {
    // Not structured bindings: clang 14 cannot capture them in CAPTURE's lambda.
    const auto& tp = std::get<0>(entry);
    const auto& pp = std::get<1>(entry);
    const auto& ep = std::get<2>(entry);
    const auto& bytes = std::get<3>(entry);
    CAPTURE(tp);
    CAPTURE(pp);
    CAPTURE(ep);
    auto world = plan_world(model, topology(tp, pp, ep), ShardingPolicy::Require);
    REQUIRE_MESSAGE(world.has_value(), world.error().message);
    CHECK(world.value().coverage_ok());
    CHECK(world.value().ranks[0].totals.local_bytes == bytes);
    CHECK(world.value().ranks[0].fell_back_groups.empty());
  }
  auto experts = plan_world(model, topology(1, 1, 256), ShardingPolicy::Require);
  REQUIRE_FALSE(experts);
  CHECK(experts.error().code == Status::EmptyPartition);
  CHECK(experts.error().message ==
        "180 routed experts cannot be split over 256 expert ranks; expert sizes from 1 to 180 "
        "work");
  auto heads = plan_world(model, topology(32, 1, 1), ShardingPolicy::Require);
  REQUIRE_FALSE(heads);
  CHECK(heads.error().code == Status::InvalidTensor);
  CHECK(heads.error().message ==
        "logical parameter \"model.language_model.layers.0.linear_attn\": 16 partition units — "
        "declared by the group — cannot be split 32 ways; tensor sizes up to 64 that work for "
        "this group: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16");
}

}  // namespace
}  // namespace eredu
