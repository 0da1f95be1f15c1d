// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The bulk entry points of eredu/world.h through the public header only:
// eredu_plan_world_json (eredu.world.v1) and eredu_check_json
// (eredu.check.v1) with exact texts, every error path the header names, and
// the argument checks.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "capi_support.hpp"
#include "test_data.hpp"

using namespace capi_test;

namespace {

// The eredu.groups.v1 example of docs/interchange.md, TP 2: two ranks of
// 33554432 bytes.
const std::string kAttention = test_data::read("attention.groups.json");

/// `<source root>/<path>`, read whole.
std::string read_source(const std::string& path) {
  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  std::ifstream in(std::string(root ? root : ".") + "/" + path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The outcome of a bulk call: its status, text (empty on failure) and error.
struct Bulk {
  eredu_status status = EREDU_OK;
  std::string text;
  eredu_status code = EREDU_OK;
  std::string message;
};

/// Moves a returned buffer into `bulk` (checking `length` and the out
/// parameters' state on failure) and frees it.
Bulk collect(eredu_status status, char* out, std::size_t length, const ErrorSlot& error) {
  Bulk bulk;
  bulk.status = status;
  if (status == EREDU_OK) {
    REQUIRE(out != nullptr);
    CHECK(length == std::char_traits<char>::length(out));
    bulk.text.assign(out, length);
    CHECK(error.get() == nullptr);
  } else {
    CHECK(out == nullptr);
    CHECK(length == 0);
    bulk.code = error.code();
    bulk.message = error.message();
  }
  eredu_buffer_free(out);
  return bulk;
}

Bulk world(const eredu_model* model, std::uint64_t tensor, std::uint64_t pipeline = 1,
           std::uint64_t expert = 1, std::uint64_t data = 1,
           eredu_policy policy = EREDU_POLICY_REQUIRE, std::uint32_t threads = 0) {
  char* out = reinterpret_cast<char*>(&out);  // overwritten: NULL on failure
  std::size_t length = 99;
  ErrorSlot error;
  const eredu_topology topology = topology_of(tensor, pipeline, expert, data);
  const eredu_plan_options options = options_of(policy, threads);
  const eredu_status status =
      eredu_plan_world_json(model, &topology, &options, &out, &length, error.slot());
  return collect(status, out, length, error);
}

Bulk check(const eredu_model* model, std::uint64_t tensor, const eredu_check_options* options,
           std::uint64_t pipeline = 1, eredu_policy policy = EREDU_POLICY_REQUIRE) {
  char* out = reinterpret_cast<char*>(&out);
  std::size_t length = 99;
  ErrorSlot error;
  const eredu_topology topology = topology_of(tensor, pipeline);
  const eredu_plan_options plan = options_of(policy);
  const eredu_status status =
      eredu_check_json(model, &topology, &plan, options, &out, &length, error.slot());
  return collect(status, out, length, error);
}

eredu_check_options options_with(const std::string* residency,
                                 std::optional<std::uint64_t> device_budget = std::nullopt) {
  eredu_check_options options = EREDU_CHECK_OPTIONS_INIT;
  if (residency != nullptr) {
    options.residency_json = residency->data();
    options.residency_json_length = residency->size();
  }
  options.has_device_budget = device_budget ? 1 : 0;
  options.device_budget_bytes = device_budget.value_or(0);
  return options;
}

Model load(const std::string& text) {
  auto made = model_from_json(text);
  REQUIRE_MESSAGE(made.status == EREDU_OK, made.message);
  return std::move(made.handle);
}

// One admitted rank of the attention example at TP 2: its 2 tensors form the
// layer unit of layer 0.
std::string attention_rank(int rank, const char* fit) {
  return "{\"rank\":" + std::to_string(rank) +
         ",\"coordinates\":{\"tensor\":" + std::to_string(rank) +
         ",\"pipeline\":0,\"expert\":0,\"data\":0},\"totals\":{\"local_bytes\":33554432,"
         "\"global_bytes\":67108864,\"materialized_tensors\":2,\"omitted_tensors\":0},"
         "\"fell_back_groups\":[],\"local_bytes\":33554432,\"static_bytes\":0,"
         "\"layer_units\":1,\"device_window_units\":1,\"device_bytes\":33554432,\"host_bytes\":"
         "0,\"disk_bytes\":0," +
         fit + "}";
}

// The eredu.check.v1 text of the attention example at TP 2 under `residency`.
std::string attention_check(const std::string& residency, const std::string& ranks, bool fits) {
  return "{\"schema\":\"eredu.check.v1\",\"model\":{\"name\":\"example\",\"tensors\":2,"
         "\"global_bytes\":67108864},\"topology\":{\"tensor\":2,\"pipeline\":1,\"expert\":1,"
         "\"data\":1},\"policy\":\"require\",\"residency\":" +
         residency + ",\"coverage\":{\"ok\":true,\"tensors\":2,\"problems\":[]},\"ranks\":[" +
         ranks + "],\"fits\":" + (fits ? "true" : "false") + "}\n";
}

}  // namespace

TEST_SUITE("capi.world") {
  TEST_CASE("eredu_check_options_init sets the defaults") {
    eredu_check_options options;
    std::memset(&options, 0xAB, sizeof options);
    CHECK(eredu_check_options_init(&options, sizeof options, nullptr) == EREDU_OK);
    CHECK(options.struct_size == sizeof(eredu_check_options));
    CHECK(options.residency_json == nullptr);
    CHECK(options.residency_json_length == 0);
    CHECK(options.has_device_budget == 0);
    CHECK(options.device_budget_bytes == 0);

    ErrorSlot error;
    CHECK(eredu_check_options_init(nullptr, sizeof options, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
    CHECK(error.message() == "argument options is NULL");
  }

  TEST_CASE("eredu_plan_world_json is eredu plan --all-ranks --format json") {
    const Model model = load(kAttention);
    const Bulk planned = world(model.get(), 2);
    REQUIRE(planned.status == EREDU_OK);
    CHECK(planned.text == test_data::read("attention.tp2.world.json"));
    // The text does not depend on the thread count.
    for (std::uint32_t threads : {1u, 2u, 7u}) {
      CAPTURE(threads);
      CHECK(world(model.get(), 2, 1, 1, 1, EREDU_POLICY_REQUIRE, threads).text == planned.text);
    }
    // The length is optional, and NULL options are the defaults.
    char* out = nullptr;
    const eredu_topology topology = topology_of(2);
    CHECK(eredu_plan_world_json(model.get(), &topology, nullptr, &out, nullptr, nullptr) ==
          EREDU_OK);
    CHECK(std::string(out) == planned.text);
    eredu_buffer_free(out);
  }

  TEST_CASE("a fallback to replication is listed per rank, and coverage still holds") {
    const Model model = load(kAttention);
    const Bulk planned = world(model.get(), 16, 1, 1, 1, EREDU_POLICY_REPLICATE_UNSUPPORTED);
    REQUIRE(planned.status == EREDU_OK);
    CHECK(planned.text.find("\"policy\":\"replicate_unsupported\"") != std::string::npos);
    CHECK(planned.text.find("{\"rank\":15,\"coordinates\":{\"tensor\":15,\"pipeline\":0,"
                            "\"expert\":0,\"data\":0},\"totals\":{\"local_bytes\":67108864,"
                            "\"global_bytes\":67108864,\"materialized_tensors\":2,"
                            "\"omitted_tensors\":0},\"fell_back_groups\":["
                            "\"model.layers.0.self_attn\"]}") != std::string::npos);
    CHECK(planned.text.ends_with("\"coverage\":{\"ok\":true,\"tensors\":2,\"problems\":[]}}\n"));
  }

  TEST_CASE("eredu_check_json is eredu check --format json for a real model") {
    // reflection-llama-3.1-70b as `eredu describe` writes it (the vectors'
    // copy), against the CLI's output: the eredu.check.v1 example of
    // docs/interchange.md.
    const Model model =
        load(read_source("tests/vectors/inputs/models/reflection-llama-3.1-70b.groups.json"));
    const eredu_check_options options = options_with(nullptr, 85899345920u);
    const Bulk checked = check(model.get(), 4, &options);
    REQUIRE(checked.status == EREDU_OK);
    CHECK(checked.text == test_data::read("reflection.tp4.check.json"));
  }

  TEST_CASE("fully resident admission with and without a device budget") {
    const Model model = load(kAttention);
    const std::string unbounded =
        "{\"kind\":\"fully_resident\",\"device_budget_bytes\":null,\"host_budget_bytes\":null,"
        "\"prefetch_depth\":1,\"host_lookahead\":0}";
    const std::string fits = attention_rank(0, "\"fits\":true,\"error\":null") + "," +
                             attention_rank(1, "\"fits\":true,\"error\":null");
    // NULL options, default options and a fully resident document agree.
    CHECK(check(model.get(), 2, nullptr).text == attention_check(unbounded, fits, true));
    const eredu_check_options defaults = options_with(nullptr);
    CHECK(check(model.get(), 2, &defaults).text == attention_check(unbounded, fits, true));
    const std::string document = R"({"schema":"eredu.residency.v1","kind":"fully_resident"})";
    const eredu_check_options resident = options_with(&document);
    CHECK(check(model.get(), 2, &resident).text == attention_check(unbounded, fits, true));

    // One byte short: every rank reports BudgetExceeded, the call succeeds.
    const eredu_check_options tight = options_with(&document, 33554431u);
    const Bulk checked = check(model.get(), 2, &tight);
    REQUIRE(checked.status == EREDU_OK);
    const std::string error =
        "\"fits\":false,\"error\":{\"code\":\"EREDU_E_BUDGET_EXCEEDED\",\"status\":305,"
        "\"message\":\"planned 33554432 bytes for the Device tier exceed its 33554431-byte "
        "budget\"}";
    CHECK(checked.text ==
          attention_check("{\"kind\":\"fully_resident\",\"device_budget_bytes\":"
                          "33554431,\"host_budget_bytes\":null,\"prefetch_depth\":"
                          "1,\"host_lookahead\":0}",
                          attention_rank(0, error.c_str()) + "," + attention_rank(1, error.c_str()),
                          false));
  }

  TEST_CASE("residency documents: layerwise host, dense disk stream, parameter banks") {
    const Model model = load(kAttention);
    const std::string layerwise =
        R"({"schema":"eredu.residency.v1","kind":"layerwise_host","prefetch_depth":3,)"
        R"("host_budget_bytes":33554432})";
    eredu_check_options options = options_with(&layerwise);
    Bulk checked = check(model.get(), 2, &options);
    REQUIRE(checked.status == EREDU_OK);
    CHECK(checked.text.find(
              "\"residency\":{\"kind\":\"layerwise_host\",\"device_budget_bytes\":null,"
              "\"host_budget_bytes\":33554432,\"prefetch_depth\":3,\"host_lookahead\":0}") !=
          std::string::npos);
    // K = 1 layer unit, a window of 3: the device holds the one layer.
    CHECK(checked.text.find("\"layer_units\":1,\"device_window_units\":3,\"device_bytes\":"
                            "33554432,\"host_bytes\":33554432,\"disk_bytes\":0,\"fits\":true") !=
          std::string::npos);

    const std::string dense =
        R"({"schema":"eredu.residency.v1","kind":"dense_disk_stream","host_budget_bytes":0})";
    options = options_with(&dense);
    checked = check(model.get(), 2, &options);
    REQUIRE(checked.status == EREDU_OK);
    CHECK(checked.text.find(
              "\"residency\":{\"kind\":\"dense_disk_stream\",\"device_budget_bytes\":4294967296,"
              "\"host_budget_bytes\":0,\"prefetch_depth\":2,\"host_lookahead\":0}") !=
          std::string::npos);
    CHECK(checked.text.find("\"device_window_units\":1,\"device_bytes\":33554432,\"host_bytes\":"
                            "0,\"disk_bytes\":33554432,\"fits\":true") != std::string::npos);

    // A parameter-bank cache becomes the expert cache: a model without
    // routed experts is admitted as without it.
    const std::string banks =
        R"({"schema":"eredu.residency.v1","kind":"layerwise_host","prefetch_depth":3,)"
        R"("host_budget_bytes":33554432,"parameter_bank_cache":{"prefetch_depth":2,)"
        R"("device_budget_bytes":1048576}})";
    options = options_with(&banks);
    const eredu_check_options without_banks = options_with(&layerwise);
    std::string expected = check(model.get(), 2, &without_banks).text;
    const std::string lookahead = "\"host_lookahead\":0";
    expected.insert(expected.find(lookahead) + lookahead.size(),
                    ",\"expert_cache\":{\"device_budget_bytes\":1048576}");
    CHECK(check(model.get(), 2, &options).text == expected);
  }

  TEST_CASE("a residency document not NUL-terminated is read to its length") {
    const Model model = load(kAttention);
    const std::string padded = R"({"schema":"eredu.residency.v1","kind":"layerwise_host"}garbage)";
    eredu_check_options options = options_with(&padded);
    options.residency_json_length = padded.size() - 7;
    CHECK(check(model.get(), 2, &options).status == EREDU_OK);
    // A non-NULL empty document is a document, and not JSON.
    options.residency_json_length = 0;
    const Bulk empty = check(model.get(), 2, &options);
    CHECK(empty.code == EREDU_E_PARSE);
  }

  TEST_CASE("eredu_plan_world_json errors: arguments, topology, preflight, groups") {
    const Model model = load(kAttention);
    CHECK(world(nullptr, 2).code == EREDU_E_NULL_ARGUMENT);
    CHECK(world(nullptr, 2).message == "argument model is NULL");
    ErrorSlot error;
    const eredu_topology two = topology_of(2);
    CHECK(eredu_plan_world_json(model.get(), &two, nullptr, nullptr, nullptr, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(error.message() == "argument out is NULL");
    CHECK(eredu_plan_world_json(model.get(), nullptr, nullptr, nullptr, nullptr, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(error.message() == "argument topology is NULL");
    // No error object requested: the status alone.
    const eredu_topology zero_tensor = topology_of(0);
    CHECK(eredu_plan_world_json(model.get(), &zero_tensor, nullptr, nullptr, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    const Bulk policy = world(model.get(), 2, 1, 1, 1, 7);
    CHECK(policy.code == EREDU_E_INVALID_ARGUMENT);
    CHECK(policy.message == "unknown options->policy value 7");
    const Bulk huge = world(model.get(), 1024, 1, 1, 1025);
    CHECK(huge.code == EREDU_E_INVALID_ARGUMENT);
    CHECK(huge.message == "world size 1049600 is more than the 1048576 ranks eredu plans at once");
    // Exactly 2^20 ranks are accepted (and take a while): not run here.

    const Bulk zero = world(model.get(), 2, 1, 0);
    CHECK(zero.code == EREDU_E_ZERO_AXIS);
    CHECK(zero.message == "parallel topology axis sizes must be positive");
    const Bulk overflow = world(model.get(), 1, 1, 4294967296u, 4294967296u);
    CHECK(overflow.code == EREDU_E_WORLD_SIZE_OVERFLOW);
    CHECK(overflow.message == "parallel topology world size overflows usize");
    const Bulk experts = world(model.get(), 1, 1, 2);
    CHECK(experts.code == EREDU_E_MISSING_EXPERT_COUNT);
    CHECK(experts.message == "expert topology preflight requires the routed-expert count");
    const Bulk stages = world(model.get(), 1, 33);
    CHECK(stages.code == EREDU_E_EMPTY_PARTITION);
    CHECK(stages.message ==
          "32 decoder layers cannot be split over 33 pipeline stages; pipeline sizes from 1 to 32 "
          "work");
    const Bulk units = world(model.get(), 16);
    CHECK(units.code == EREDU_E_INVALID_TENSOR);
    CHECK(units.message ==
          "logical parameter \"model.layers.0.self_attn\": 8 partition units — declared by the "
          "group — cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, 2, "
          "3, 4, 5, 6, 7, 8");

    const Model unlayered =
        load(R"({"schema":"eredu.groups.v1","groups":[{"name":"n","role":"replicated","members":[)"
             R"({"target":"n","shape":[4],"dtype":"F32","sharding":{"kind":"replicated"}}]}]})");
    const Bulk layers = world(unlayered.get(), 1, 2);
    CHECK(layers.code == EREDU_E_MISSING_LAYER_COUNT);
    CHECK(layers.message == "pipeline topology preflight requires the decoder-layer count");
  }

  TEST_CASE("eredu_check_json argument errors") {
    const Model model = load(kAttention);
    eredu_check_options options = options_with(nullptr);
    CHECK(check(nullptr, 2, &options).message == "argument model is NULL");
    ErrorSlot error;
    const eredu_topology two = topology_of(2);
    CHECK(eredu_check_json(model.get(), &two, nullptr, &options, nullptr, nullptr, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(error.message() == "argument out is NULL");

    const Bulk policy = check(model.get(), 2, &options, 1, 3);
    CHECK(policy.code == EREDU_E_INVALID_ARGUMENT);
    CHECK(policy.message == "unknown options->policy value 3");

    options.struct_size = sizeof options - 1;
    const Bulk size = check(model.get(), 2, &options);
    CHECK(size.code == EREDU_E_INVALID_ARGUMENT);
    CHECK(size.message == "options->struct_size " + std::to_string(sizeof options - 1) +
                              " ends inside field device_budget_bytes");

    options = options_with(nullptr);
    options.residency_json_length = 5;
    const Bulk null_document = check(model.get(), 2, &options);
    CHECK(null_document.code == EREDU_E_NULL_ARGUMENT);
    CHECK(null_document.message == "argument options->residency_json is NULL but its count is 5");

    // A length no array can have is refused before a byte is read: the
    // document is two bytes of a heap buffer, with no NUL after them.
    const auto two_bytes = std::make_unique<char[]>(2);
    two_bytes[0] = '{';
    two_bytes[1] = '}';
    for (std::size_t length : {SIZE_MAX, std::size_t{1} << 32}) {
      CAPTURE(length);
      options = options_with(nullptr);
      options.residency_json = two_bytes.get();
      options.residency_json_length = length;
      const Bulk huge = check(model.get(), 2, &options);
      CHECK(huge.code == EREDU_E_INVALID_ARGUMENT);
      CHECK(huge.message == "options->residency_json is " + std::to_string(length) +
                                " bytes long, more than the 4294967295 of a JSON document eredu "
                                "parses");
    }

    options = options_with(nullptr);
    options.has_device_budget = 2;
    const Bulk flag = check(model.get(), 2, &options);
    CHECK(flag.code == EREDU_E_INVALID_ARGUMENT);
    CHECK(flag.message == "flag options->has_device_budget is 2, expected 0 or 1");

    const std::string layerwise = R"({"schema":"eredu.residency.v1","kind":"layerwise_host"})";
    options = options_with(&layerwise, 1024u);
    const Bulk budget = check(model.get(), 2, &options);
    CHECK(budget.code == EREDU_E_INVALID_ARGUMENT);
    CHECK(budget.message ==
          "a device budget applies to a fully_resident policy only; a layerwise_host "
          "policy carries its budgets in its residency document");

    options = options_with(nullptr);
    const Bulk huge = check(model.get(), 1025, &options, 1024);
    CHECK(huge.code == EREDU_E_INVALID_ARGUMENT);
    CHECK(huge.message == "world size 1049600 is more than the 1048576 ranks eredu plans at once");
  }

  TEST_CASE("eredu_check_json judges the residency document before planning") {
    const Model model = load(kAttention);
    struct Case {
      std::string document;
      eredu_status code;
      std::string message;
    };
    const std::string v1 = R"({"schema":"eredu.residency.v1",)";
    const Case cases[] = {
        {"{", EREDU_E_PARSE, ""},
        {R"({"schema":"eredu.residency.v2","kind":"fully_resident"})", EREDU_E_UNSUPPORTED_VERSION,
         "unsupported schema \"eredu.residency.v2\"; this version reads \"eredu.residency.v1\""},
        {v1 + R"("kind":"layerwise_host","prefetch":1})", EREDU_E_PARSE,
         "/prefetch: unknown field"},
        {v1 + R"("kind":"layerwise_host","prefetch_depth":0})", EREDU_E_ZERO_PREFETCH_DEPTH,
         "offload prefetch depth must be nonzero"},
        {v1 + R"("kind":"dense_disk_stream","host_budget_bytes":0,"host_lookahead":1})",
         EREDU_E_HOST_DISABLED_CONTROLS,
         "dense disk streaming with a zero host budget requires zero host lookahead and queue "
         "capacity"},
        {v1 + R"("kind":"dense_disk_stream","host_lookahead":0})", EREDU_E_ZERO_HOST_LOOKAHEAD,
         "dense disk streaming host lookahead must be nonzero when the host budget is enabled"},
        {v1 + R"("kind":"dense_disk_stream","background_queue_capacity":0})",
         EREDU_E_ZERO_QUEUE_CAPACITY,
         "dense disk streaming background queue capacity must be nonzero when host caching is "
         "enabled"},
        {v1 + R"("kind":"fully_resident","parameter_bank_cache":{"prefetch_depth":0}})",
         EREDU_E_ZERO_PREFETCH_DEPTH, "offload prefetch depth must be nonzero"},
        {v1 + R"("kind":"fully_resident","parameter_bank_cache":{"compact_bank_scratch_bytes":0}})",
         EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT,
         "parameter-bank compact scratch limit must be nonzero"},
        {v1 + R"("kind":"fully_resident","parameter_bank_cache":)"
              R"({"prefill_compact_bank_target_bytes":0}})",
         EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET,
         "parameter-bank prefill target must be nonzero"},
        {v1 + R"("kind":"fully_resident","parameter_bank_cache":)"
              R"({"compact_bank_scratch_bytes":1,"prefill_compact_bank_target_bytes":2}})",
         EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH,
         "parameter-bank prefill target 2 exceeds scratch limit 1"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.document);
      const eredu_check_options options = options_with(&c.document);
      // A zero axis (and pipeline stages beyond the layers) would fail
      // planning: the document's error comes first.
      for (std::uint64_t tensor : {2u, 0u}) {
        const Bulk checked = check(model.get(), tensor, &options);
        CHECK(checked.status == c.code);
        CHECK(checked.code == c.code);
        if (!c.message.empty()) CHECK(checked.message == c.message);
      }
    }
  }

  TEST_CASE("eredu_check_json planning errors follow the document's") {
    const Model model = load(kAttention);
    const eredu_check_options options = options_with(nullptr);
    CHECK(check(model.get(), 0, &options).code == EREDU_E_ZERO_AXIS);
    CHECK(check(model.get(), 1, &options, 33).code == EREDU_E_EMPTY_PARTITION);
    CHECK(check(model.get(), 16, &options).code == EREDU_E_INVALID_TENSOR);
    // Under replicate_unsupported the same world falls back and is admitted.
    const Bulk fallback = check(model.get(), 16, &options, 1, EREDU_POLICY_REPLICATE_UNSUPPORTED);
    REQUIRE(fallback.status == EREDU_OK);
    CHECK(fallback.text.find("\"local_bytes\":67108864,\"static_bytes\":0,\"layer_units\":1") !=
          std::string::npos);
  }

  TEST_CASE("progress reports every rank and a non-zero return cancels, writing nothing") {
    const Model model = load(kAttention);
    struct Counter {
      std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
      std::uint64_t stop_after = 0;  // 0: never
    };
    auto callback = [](std::uint64_t done, std::uint64_t total, void* data) -> std::int32_t {
      auto* counter = static_cast<Counter*>(data);
      counter->calls.emplace_back(done, total);
      return counter->stop_after != 0 && done >= counter->stop_after ? 1 : 0;
    };
    const eredu_topology topology = topology_of(2, 4);

    Counter all;
    eredu_plan_options options = options_of(EREDU_POLICY_REQUIRE, 1);
    options.progress = callback;
    options.progress_data = &all;
    const Model layered =
        load(R"({"schema":"eredu.groups.v1","model":{"layers":4},"groups":[)"
             R"({"name":"n","role":"replicated","members":[{"target":"n",)"
             R"("shape":[4],"dtype":"F32","sharding":{"kind":"replicated"}}]}]})");
    char* out = nullptr;
    REQUIRE(eredu_plan_world_json(layered.get(), &topology, &options, &out, nullptr, nullptr) ==
            EREDU_OK);
    eredu_buffer_free(out);
    REQUIRE(all.calls.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) {
      CHECK(all.calls[i] == std::pair<std::uint64_t, std::uint64_t>{i + 1, 8});
    }

    Counter stop;
    stop.stop_after = 3;
    options.progress_data = &stop;
    ErrorSlot error;
    out = reinterpret_cast<char*>(&out);
    std::size_t length = 7;
    CHECK(eredu_plan_world_json(layered.get(), &topology, &options, &out, &length, error.slot()) ==
          EREDU_E_CANCELLED);
    CHECK(out == nullptr);
    CHECK(length == 0);
    CHECK(error.code() == EREDU_E_CANCELLED);
    CHECK(error.message() == "cancelled by the progress callback after 3 of 8 ranks");
    CHECK(stop.calls.size() == 3);

    // eredu_check_json takes the same options and plans each rank once: the
    // command's table is written from that one document.
    Counter check_all;
    options.progress_data = &check_all;
    REQUIRE(eredu_check_json(layered.get(), &topology, &options, nullptr, &out, nullptr,
                             error.slot()) == EREDU_OK);
    eredu_buffer_free(out);
    REQUIRE(check_all.calls.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) {
      CHECK(check_all.calls[i] == std::pair<std::uint64_t, std::uint64_t>{i + 1, 8});
    }
    Counter check_stop;
    check_stop.stop_after = 1;
    options.progress_data = &check_stop;
    options.threads = 2;
    CHECK(eredu_check_json(layered.get(), &topology, &options, nullptr, &out, nullptr,
                           error.slot()) == EREDU_E_CANCELLED);
    CHECK(out == nullptr);
    CHECK(check_stop.calls.size() == 1);
  }

  TEST_CASE("threads 1 plans on the calling thread only") {
    const Model model = load(kAttention);
    static thread_local int here = 0;
    here = 1;
    struct Seen {
      bool elsewhere = false;
    } seen;
    eredu_plan_options options = options_of(EREDU_POLICY_REQUIRE, 1);
    options.progress = [](std::uint64_t, std::uint64_t, void* data) -> std::int32_t {
      if (here != 1) static_cast<Seen*>(data)->elsewhere = true;
      return 0;
    };
    options.progress_data = &seen;
    const eredu_topology topology = topology_of(2, 1, 1, 4);
    char* out = nullptr;
    REQUIRE(eredu_plan_world_json(model.get(), &topology, &options, &out, nullptr, nullptr) ==
            EREDU_OK);
    eredu_buffer_free(out);
    CHECK_FALSE(seen.elsewhere);
  }
}
