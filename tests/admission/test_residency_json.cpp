// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu.residency.v1` policies (docs/residency.md): every kind, defaults,
// the parameter-bank cache, and the errors in their order.
#include <doctest/doctest.h>

#include <string>

#include "admission/residency_json.hpp"

namespace eredu {
namespace {

WeightResidency load(const std::string& fields) {
  auto residency = load_residency_json(R"({"schema": "eredu.residency.v1", )" + fields + "}");
  REQUIRE_MESSAGE(residency.has_value(), residency.error().message);
  return residency.value();
}

Error load_error(const std::string& text) {
  auto residency = load_residency_json(text);
  REQUIRE_FALSE(residency.has_value());
  return residency.error();
}

Error field_error(const std::string& fields) {
  return load_error(R"({"schema": "eredu.residency.v1", )" + fields + "}");
}

TEST_CASE("fully resident") {
  CHECK(load(R"("kind": "fully_resident")") == WeightResidency::fully_resident());
  CHECK(load(R"("kind": "fully_resident", "parameter_bank_cache": null)") ==
        WeightResidency::fully_resident());
}

TEST_CASE("layerwise host with every option, and with the defaults") {
  const WeightResidency residency = load(
      R"("kind": "layerwise_host", "device_budget_bytes": 100, "host_budget_bytes": 200,
         "prefetch_depth": 3, "eviction_policy": "least_frequently_used",
         "max_cached_shards": 7, "sample_backend_memory": true, "sample_process_memory": false)");
  const OffloadConfig offload = OffloadConfig::create(100, 200, 3)
                                    .value()
                                    .with_eviction_policy(CacheEvictionPolicy::LeastFrequentlyUsed);
  CHECK(residency ==
        WeightResidency::layerwise_host(
            LayerwiseLoadOptions(offload).with_max_cached_shards(7).with_memory_sampling(true,
                                                                                         false)));
  CHECK(load(R"("kind": "layerwise_host")") ==
        WeightResidency::layerwise_host(LayerwiseLoadOptions()));
  CHECK(load(R"("kind": "layerwise_host", "device_budget_bytes": null, "prefetch_depth": null)") ==
        WeightResidency::layerwise_host(LayerwiseLoadOptions()));
}

TEST_CASE("dense disk stream: defaults, direct disk-to-device, every option") {
  CHECK(load(R"("kind": "dense_disk_stream")") ==
        WeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions()));
  const WeightResidency direct = load(R"("kind": "dense_disk_stream", "host_budget_bytes": 0)");
  CHECK(direct.layers().dense() ==
        DenseDiskStreamLoadOptions::create(std::uint64_t{4} << 30, 0, 0, 0).value());
  const WeightResidency all = load(
      R"("kind": "dense_disk_stream", "device_budget_bytes": 32, "host_budget_bytes": 64,
         "host_lookahead": 3, "background_queue_capacity": 2,
         "eviction_policy": "least_frequently_used", "max_cached_shards": 0,
         "sample_backend_memory": false, "sample_process_memory": true)");
  CHECK(all == WeightResidency::dense_disk_stream(
                   DenseDiskStreamLoadOptions::create(32, 64, 3, 2)
                       .value()
                       .with_eviction_policy(CacheEvictionPolicy::LeastFrequentlyUsed)
                       .with_max_cached_shards(0)
                       .with_memory_sampling(false, true)));
  CHECK(all.layers().offload().value().prefetch_depth() == 3);
}

TEST_CASE("an independent parameter-bank cache beside each kind") {
  const WeightResidency defaults = load(R"("kind": "fully_resident", "parameter_bank_cache": {})");
  CHECK(defaults == WeightResidency::with_independent_parameter_banks(
                        OrdinaryWeightResidency::fully_resident(), ParameterBankLoadOptions()));
  CHECK(defaults.ordinary_is_fully_resident());
  CHECK_FALSE(defaults.is_fully_resident());
  const WeightResidency banks = load(
      R"("kind": "dense_disk_stream", "parameter_bank_cache": {"device_budget_bytes": 10,
         "host_budget_bytes": 20, "prefetch_depth": 2, "eviction_policy": "least_frequently_used",
         "compact_bank_scratch_bytes": 64, "prefill_compact_bank_target_bytes": 32})");
  const OffloadConfig members = OffloadConfig::create(10, 20, 2).value().with_eviction_policy(
      CacheEvictionPolicy::LeastFrequentlyUsed);
  CHECK(banks == WeightResidency::with_independent_parameter_banks(
                     OrdinaryWeightResidency::dense_disk_stream(DenseDiskStreamLoadOptions()),
                     ParameterBankLoadOptions::create(members, 64, 32).value()));
  CHECK(load(R"("kind": "layerwise_host", "parameter_bank_cache": {})").ordinary_residency() ==
        OrdinaryWeightResidency::layerwise_host(LayerwiseLoadOptions()));
}

TEST_CASE("syntax, duplicate keys and schema") {
  CHECK(load_error("{").code == Status::Parse);
  // nlohmann would stop at a NUL byte and ignore what follows it.
  using namespace std::string_literals;
  const Error nul = load_error(R"({"schema": "eredu.residency.v1", "kind": "fully_resident"})"s +
                               '\0' + "garbage");
  CHECK(nul.code == Status::Parse);
  CHECK(nul.message == "invalid JSON: line 1, column 59: a NUL byte");
  const Error bom = load_error(
      "\xEF\xBB\xBF"
      R"({"schema": "eredu.residency.v1", "kind": "fully_resident"})");
  CHECK(bom.code == Status::Parse);
  CHECK(bom.message == "invalid JSON: a byte-order mark is not accepted");
  CHECK(load_error("\"\xff\"").code == Status::Parse);
  CHECK(load_error("[]").message == "an eredu.residency.v1 document must be a JSON object");
  const Error duplicate = load_error(
      R"({"schema": "eredu.residency.v1", "kind": "fully_resident", "kind": "layerwise_host"})");
  CHECK(duplicate.code == Status::Parse);
  CHECK(duplicate.message == R"(invalid JSON: repeated key "kind")");
  CHECK(load_error(R"({"schema": "eredu.residency.v1", "parameter_bank_cache":
                       {"prefetch_depth": 1, "prefetch_depth": 2}, "kind": "fully_resident"})")
            .message == R"(invalid JSON: repeated key "prefetch_depth")");
  CHECK(load_error(R"({"kind": "fully_resident"})").message ==
        "/schema: required string field is missing or not a string");
  const Error version = load_error(R"({"schema": "eredu.residency.v2", "bogus": 1})");
  CHECK(version.code == Status::UnsupportedVersion);
  CHECK(version.message ==
        R"(unsupported schema "eredu.residency.v2"; this version reads "eredu.residency.v1")");
  CHECK(load_error(R"({"schema": "eredu.groups.v1"})").message ==
        R"(/schema: unknown schema "eredu.groups.v1")");
}

TEST_CASE("structure errors: unknown fields first, then the fields in order") {
  struct Case {
    const char* fields;
    const char* message;
  };
  const Case cases[] = {
      {R"("prefetch_depth": 0, "kind": "x", "typo": 1)", "/typo: unknown field"},
      {R"("device_budget_bytes": 1)", "/kind: required field is missing or null"},
      {R"("kind": null)", "/kind: required field is missing or null"},
      {R"("kind": 1)", "/kind: expected a string, found a number"},
      {R"("kind": "dense-disk-stream")",
       R"(/kind: unknown residency kind "dense-disk-stream"; use fully_resident, layerwise_host or dense_disk_stream)"},
      {R"("kind": "fully_resident", "device_budget_bytes": 1)",
       "/device_budget_bytes: not allowed for a fully_resident policy"},
      {R"("kind": "layerwise_host", "host_lookahead": 1, "prefetch_depth": -1)",
       "/host_lookahead: not allowed for a layerwise_host policy"},
      {R"("kind": "dense_disk_stream", "prefetch_depth": 2)",
       "/prefetch_depth: not allowed for a dense_disk_stream policy"},
      {R"("kind": "layerwise_host", "prefetch_depth": -1)",
       "/prefetch_depth: expected a non-negative integer that fits 64 bits, found -1"},
      {R"("kind": "layerwise_host", "prefetch_depth": -0)",
       "/prefetch_depth: expected a non-negative integer that fits 64 bits, found -0"},
      {R"("kind": "layerwise_host", "prefetch_depth": 1.0)",
       "/prefetch_depth: expected a non-negative integer that fits 64 bits, found a fraction, an "
       "exponent or an integer past 64 bits"},
      {R"("kind": "layerwise_host", "prefetch_depth": 1e3)",
       "/prefetch_depth: expected a non-negative integer that fits 64 bits, found a fraction, an "
       "exponent or an integer past 64 bits"},
      {R"("kind": "fully_resident", "x\u0000y": 1)", "/x\\u{0}y: unknown field"},
      {R"("kind": "layerwise_host", "prefetch_depth": "1")",
       "/prefetch_depth: expected a non-negative integer that fits 64 bits, found a string"},
      {R"("kind": "layerwise_host", "device_budget_bytes": 18446744073709551616)",
       "/device_budget_bytes: expected a non-negative integer that fits 64 bits, found a "
       "fraction, an exponent or an integer past 64 bits"},
      {R"("kind": "dense_disk_stream", "eviction_policy": "lru")",
       R"(/eviction_policy: unknown eviction policy "lru"; use least_recently_used or least_frequently_used)"},
      {R"("kind": "dense_disk_stream", "sample_backend_memory": 1)",
       "/sample_backend_memory: expected a boolean, found a number"},
      {R"("kind": "fully_resident", "parameter_bank_cache": [])",
       "/parameter_bank_cache: expected an object, found an array"},
      {R"("kind": "fully_resident", "parameter_bank_cache": {"host_lookahead": 1})",
       "/parameter_bank_cache/host_lookahead: unknown field"},
      {R"("kind": "fully_resident", "parameter_bank_cache": {"a/b~": 1})",
       "/parameter_bank_cache/a~1b~0: unknown field"},
      {R"("kind": "fully_resident", "parameter_bank_cache": {"compact_bank_scratch_bytes": true})",
       "/parameter_bank_cache/compact_bank_scratch_bytes: expected a non-negative integer that "
       "fits 64 bits, found a boolean"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.fields);
    const Error error = field_error(c.fields);
    CHECK(error.code == Status::Parse);
    CHECK(error.message == c.message);
  }
}

TEST_CASE("the seed's construction errors, ordinary policy before the bank cache") {
  struct Case {
    const char* fields;
    Status code;
    const char* message;
  };
  const Case cases[] = {
      {R"("kind": "layerwise_host", "prefetch_depth": 0, "parameter_bank_cache": {"prefetch_depth": 0})",
       Status::ZeroPrefetchDepth, "offload prefetch depth must be nonzero"},
      {R"("kind": "dense_disk_stream", "host_budget_bytes": 0, "host_lookahead": 1)",
       Status::HostDisabledControls,
       "dense disk streaming with a zero host budget requires zero host lookahead and queue "
       "capacity"},
      {R"("kind": "dense_disk_stream", "host_lookahead": 0)", Status::ZeroHostLookahead,
       "dense disk streaming host lookahead must be nonzero when the host budget is enabled"},
      {R"("kind": "dense_disk_stream", "background_queue_capacity": 0)", Status::ZeroQueueCapacity,
       "dense disk streaming background queue capacity must be nonzero when host caching is "
       "enabled"},
      {R"("kind": "fully_resident", "parameter_bank_cache": {"prefetch_depth": 0})",
       Status::ZeroPrefetchDepth, "offload prefetch depth must be nonzero"},
      {R"("kind": "fully_resident", "parameter_bank_cache": {"compact_bank_scratch_bytes": 0})",
       Status::ZeroParameterBankScratchLimit,
       "parameter-bank compact scratch limit must be nonzero"},
      {R"("kind": "fully_resident", "parameter_bank_cache": {"prefill_compact_bank_target_bytes": 0})",
       Status::ZeroParameterBankPrefillTarget, "parameter-bank prefill target must be nonzero"},
      {R"("kind": "fully_resident", "parameter_bank_cache": {"compact_bank_scratch_bytes": 64,
          "prefill_compact_bank_target_bytes": 65})",
       Status::ParameterBankPrefillTargetExceedsScratch,
       "parameter-bank prefill target 65 exceeds scratch limit 64"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.fields);
    const Error error = field_error(c.fields);
    CHECK(error.code == c.code);
    CHECK(error.message == c.message);
  }
}

}  // namespace
}  // namespace eredu
