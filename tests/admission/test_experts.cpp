// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The routed experts of a rank and the expert cache (docs/residency.md,
// "Routed experts"), on the tiny model: expert 1 of layer 0 (`l0.e1`, 32
// bytes) and expert 0 without a layer (`shared.e0`, 16 bytes) of 416 bytes.
#include <doctest/doctest.h>

#include "admission/admission.hpp"
#include "admission/check.hpp"
#include "admission/residency_json.hpp"
#include "plan/rank_experts.hpp"
#include "tiny_model.hpp"

namespace eredu {
namespace {

CheckReport check_tiny(std::uint64_t ep, const AdmissionPolicy& policy) {
  auto topology = ParallelTopology::create(1, 1, ep, 1);
  REQUIRE(topology.has_value());
  auto report = check_world(test::tiny_model(), topology.value(), ShardingPolicy::Require, policy);
  REQUIRE_MESSAGE(report.has_value(), report.error().message);
  return std::move(report).value();
}

TEST_CASE("each expert rank holds its experts; the rest is other bytes") {
  const LocalModelLayout all = test::tiny_layout(1, 1, 1, 0);
  CHECK(all.experts == std::optional<RankExperts>{RankExperts{{0, 2}, 48, 368, 2, 32}});
  // Expert rank 0 holds expert 0 (shared.e0), rank 1 expert 1 (l0.e1).
  CHECK(test::tiny_layout(1, 1, 2, 0).experts ==
        std::optional<RankExperts>{RankExperts{{0, 1}, 16, 368, 1, 16}});
  CHECK(test::tiny_layout(1, 1, 2, 1).experts ==
        std::optional<RankExperts>{RankExperts{{1, 2}, 32, 368, 1, 32}});
  CHECK(is_routed_expert(*all.tensor("l0.e1")));
  CHECK_FALSE(is_routed_expert(*all.tensor("l0.w")));
}

TEST_CASE("an expert cache holds as many units as its budget has room for the largest") {
  const RankExperts experts{{0, 2}, 48, 368, 2, 32};
  CHECK(cached_expert_units(experts, 100) == 2);
  CHECK(cached_expert_units(experts, 64) == 2);
  CHECK(cached_expert_units(experts, 63) == 1);
  CHECK(cached_expert_units(experts, 31) == 0);
  CHECK(cached_expert_units(RankExperts{{0, 2}, 0, 8, 2, 0}, 0) == 2);
}

TEST_CASE("with an expert cache the ordinary units leave the routed experts out") {
  const AdmissionPolicy plain = AdmissionPolicy::fully_resident(400);
  const CheckReport without = check_tiny(1, plain);
  CHECK(without.ranks[0].figures.local_bytes == 416);
  CHECK_FALSE(without.fits());
  CHECK_FALSE(without.ranks[0].cached_units(plain).has_value());

  const AdmissionPolicy cached = plain.with_expert_cache(ExpertCache{40});
  const CheckReport with = check_tiny(1, cached);
  CHECK(with.ranks[0].figures.local_bytes == 368);
  CHECK(with.fits());
  CHECK(with.ranks[0].cached_units(cached) == std::optional<std::uint64_t>{1});
  // An unbounded cache holds every unit.
  const AdmissionPolicy unbounded = plain.with_expert_cache(ExpertCache{std::nullopt});
  CHECK(check_tiny(2, unbounded).ranks[1].cached_units(unbounded) ==
        std::optional<std::uint64_t>{1});
}

TEST_CASE("a residency document's parameter-bank cache is the expert cache") {
  auto policy = AdmissionPolicy::from_residency_document(
      R"({"schema":"eredu.residency.v1","kind":"fully_resident",)"
      R"("parameter_bank_cache":{"device_budget_bytes":1024}})",
      std::nullopt);
  REQUIRE_MESSAGE(policy.has_value(), policy.error().message);
  CHECK(policy.value().expert_cache() == std::optional<ExpertCache>{ExpertCache{1024}});
  auto plain = AdmissionPolicy::from_residency_document(
      R"({"schema":"eredu.residency.v1","kind":"fully_resident"})", std::nullopt);
  REQUIRE(plain.has_value());
  CHECK_FALSE(plain.value().expert_cache().has_value());
}

}  // namespace
}  // namespace eredu
