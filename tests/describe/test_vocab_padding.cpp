// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Vocabulary padding on the real models (docs/planning.md, "Vocabulary
// padding"): `--pad-vocab` through describe_model_dir, the layout of the
// padded embedding and head, and the coverage proof.
#include <doctest/doctest.h>

#include "describe/describe.hpp"
#include "described_models.hpp"
#include "model_folders.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"

namespace eredu {
namespace {

std::shared_ptr<const ModelDescription> padded(const std::string& name, std::uint64_t multiple) {
  auto model = describe_model_dir(test::example_model(name), DescribeOptions{multiple});
  REQUIRE_MESSAGE(model.has_value(), model.error().message);
  return model.value();
}

WorldPlan plan(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp) {
  auto world =
      plan_world(model, ParallelTopology::create(tp, 1, 1, 1).value(), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  return std::move(world).value();
}

LocalModelLayout layout_of(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp,
                           std::uint64_t pp, std::uint64_t rank) {
  auto layout = plan_rank(model, ParallelTopology::create(tp, pp, 1, 1).value(), rank,
                          ShardingPolicy::Require);
  REQUIRE_MESSAGE(layout.has_value(), layout.error().message);
  return std::move(layout).value();
}

const LocalTensorLayout& at(const LocalModelLayout& layout, std::string_view target) {
  const LocalTensorLayout* entry = layout.tensor(target);
  REQUIRE(entry != nullptr);
  return *entry;
}

TEST_CASE("reflection-llama-3.1-70b at TP 8, multiple 128: 129024 rows, 16128 per rank") {
  const auto model = padded("reflection-llama-3.1-70b", 128);
  CHECK(test::group_named(*model, "embed").vocab_pad_multiple() ==
        std::optional<std::uint64_t>{128});
  CHECK(test::group_named(*model, "head").padded_vocabulary() ==
        std::optional<std::uint64_t>{128262});
  const WorldPlan world = plan(model, 8);
  CHECK(world.coverage_ok());
  REQUIRE(world.ranks.size() == 8);
  for (std::uint64_t rank = 0; rank < 8; ++rank) {
    CAPTURE(rank);
    const LocalModelLayout layout = layout_of(model, 8, 1, rank);
    for (const char* target : {"model.embed_tokens.weight", "lm_head.weight"}) {
      const LocalTensorLayout& entry = at(layout, target);
      CHECK(entry.local_shape == std::vector<std::uint64_t>{16128, 8192});
      CHECK(entry.local_bytes == std::optional<std::uint64_t>{16128ull * 8192 * 4});
      const std::uint64_t end = rank == 7 ? 128262 : 16128 * (rank + 1);
      CHECK(entry.placement == TensorPlacement::range(0, 16128 * rank, end));
      CHECK(entry.padding_rows == (rank == 7 ? 762u : 0u));
    }
    // Unpadded, rank 0 holds 16033 F32 rows of each; padded 16128: 95 more.
    CHECK(world.ranks[rank].totals.local_bytes == 35281534976u + 2 * 95 * 8192 * 4);
  }
}

TEST_CASE("an affine-quantized head pads its weight, scales and biases alike") {
  // qwen3-14b-mlx-4bit: 151936 rows at TP 8, multiple 64: P = 152064, 19008
  // per rank; rank 7 reads [133056, 151936) and pads 128.
  const auto model = padded("qwen3-14b-mlx-4bit", 64);
  CHECK(plan(model, 8).coverage_ok());
  const LocalModelLayout last = layout_of(model, 8, 1, 7);
  for (const char* target : {"lm_head.weight", "lm_head.scales", "lm_head.biases",
                             "model.embed_tokens.weight", "model.embed_tokens.scales"}) {
    CAPTURE(target);
    const LocalTensorLayout& entry = at(last, target);
    CHECK(entry.placement == TensorPlacement::range(0, 133056, 151936));
    CHECK(entry.local_shape[0] == 19008);
    CHECK(entry.padding_rows == 128);
  }
  CHECK(at(last, "lm_head.weight").local_shape == std::vector<std::uint64_t>{19008, 640});
}

TEST_CASE("a tied embedding is padded once, on the first and the last stage") {
  const auto model = padded("qwen3-1.7b", 128);
  auto world =
      plan_world(model, ParallelTopology::create(2, 2, 1, 1).value(), ShardingPolicy::Require);
  REQUIRE_MESSAGE(world.has_value(), world.error().message);
  CHECK(world.value().coverage_ok());
  // 151936 rows, M·T = 256: P = 152064, 76032 per rank.
  const LocalModelLayout stage = layout_of(model, 2, 2, 3);
  const LocalTensorLayout& last = at(stage, "model.embed_tokens.weight");
  CHECK(last.placement == TensorPlacement::range(0, 76032, 151936));
  CHECK(last.local_shape[0] == 76032);
  CHECK(last.padding_rows == 128);
}

TEST_CASE("--pad-vocab 0 is refused") {
  auto zero = describe_model_dir(test::example_model("qwen3-1.7b"), DescribeOptions{0});
  REQUIRE_FALSE(zero);
  CHECK(zero.error().code == Status::InvalidArgument);
  CHECK(zero.error().message == "the vocabulary padding multiple must be at least 1");
}

}  // namespace
}  // namespace eredu
