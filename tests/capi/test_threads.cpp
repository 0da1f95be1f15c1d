// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The thread-safety promise of eredu/eredu.h: eight threads share one model
// handle, plan ranks from it and read their layouts at once, and get what one
// thread gets alone; the planner's own helper threads (plan options'
// `threads`) and the loader's change no result. Run under ThreadSanitizer by
// scripts/test.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstdint>
#include <cstdlib>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

constexpr std::uint64_t kTensor = 4;
constexpr std::uint64_t kPipeline = 2;
constexpr unsigned kThreads = 8;  // one per rank of TP 4 x PP 2

std::string model_folder(const char* name) {
  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  return std::string(root ? root : ".") + "/examples/models/" + name;
}

Model describe(const char* name, bool config_only) {
  eredu_describe_options options = EREDU_DESCRIBE_OPTIONS_INIT;
  options.config_only = config_only ? 1 : 0;
  eredu_model* model = nullptr;
  REQUIRE(eredu_model_describe(model_folder(name).c_str(), &options, &model, nullptr) == EREDU_OK);
  return Model(model);
}

std::string take(char* text, std::size_t length) {
  std::string copy(text, length);
  eredu_buffer_free(text);
  return copy;
}

// Rank `rank`'s layout as JSON, planned with `threads`; "" on any failure.
std::string layout_json(const eredu_model* model, std::uint64_t tensor, std::uint64_t pipeline,
                        std::uint64_t rank, std::uint32_t threads) {
  const eredu_topology topology = topology_of(tensor, pipeline);
  const eredu_plan_options options = options_of(EREDU_POLICY_REQUIRE, threads);
  eredu_layout* planned = nullptr;
  if (eredu_plan_rank(model, &topology, rank, &options, &planned, nullptr) != EREDU_OK) return "";
  const Layout layout(planned);
  char* text = nullptr;
  std::size_t length = 0;
  if (eredu_layout_to_json(layout.get(), &text, &length, nullptr) != EREDU_OK) return "";
  return take(text, length);
}

// Every tensor of rank `rank`'s layout found again by its target: the count
// of tensors for which eredu_layout_find_tensor returns its own index.
std::size_t found_by_target(const eredu_model* model, std::uint64_t rank) {
  const eredu_topology topology = topology_of(kTensor, kPipeline);
  eredu_layout* planned = nullptr;
  if (eredu_plan_rank(model, &topology, rank, nullptr, &planned, nullptr) != EREDU_OK) return 0;
  const Layout layout(planned);
  std::size_t found = 0;
  for (std::size_t i = 0; i < eredu_layout_tensor_count(layout.get()); ++i) {
    eredu_layout_tensor_info info = EREDU_LAYOUT_TENSOR_INFO_INIT;
    std::size_t index = SIZE_MAX;
    if (eredu_layout_get_tensor_info(layout.get(), i, &info, nullptr) == EREDU_OK &&
        eredu_layout_find_tensor(layout.get(), info.target, &index, nullptr) == EREDU_OK &&
        index == i) {
      ++found;
    }
  }
  return found;
}

std::string world_json(const eredu_model* model, std::uint32_t threads) {
  const eredu_topology topology = topology_of(kTensor, kPipeline);
  const eredu_plan_options options = options_of(EREDU_POLICY_REQUIRE, threads);
  char* text = nullptr;
  std::size_t length = 0;
  if (eredu_plan_world_json(model, &topology, &options, &text, &length, nullptr) != EREDU_OK) {
    return "";
  }
  return take(text, length);
}

// Runs `work(i)` for i in [0, kThreads), each on its own thread, all
// released at once; returns when all are done.
template <class Work>
void at_once(const Work& work) {
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      work(i);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// `model` as eredu.groups.v1 text, without the final newline.
std::string model_json(const eredu_model* model) {
  char* text = nullptr;
  std::size_t length = 0;
  REQUIRE(eredu_model_to_json(model, &text, &length, nullptr) == EREDU_OK);
  std::string json = take(text, length);
  if (!json.empty() && json.back() == '\n') json.pop_back();
  return json;
}

// `text` loaded and written again, or its status and message.
std::string reload(const std::string& text) {
  const auto loaded = model_from_json(text);
  if (loaded.status != EREDU_OK) {
    return std::to_string(static_cast<int>(loaded.status)) + ": " + loaded.message;
  }
  return model_json(loaded.handle.get());
}

// `text` with its `groups` before its `model`.
std::string groups_first(const std::string& text) {
  const std::size_t model_at = text.find(",\"model\":");
  const std::size_t groups_at = text.find(",\"groups\":");
  REQUIRE(model_at < groups_at);
  return text.substr(0, model_at) + text.substr(groups_at, text.size() - 1 - groups_at) +
         text.substr(model_at, groups_at - model_at) + "}";
}

}  // namespace

TEST_SUITE("capi.threads") {
  TEST_CASE("a description loads alike on the loader's helper thread and off it") {
    // Enough groups for eredu_model_from_json to build them on a helper
    // thread while it reads; with `model` after `groups` it cannot, and
    // builds them on the calling thread when reading ends.
    const Model model = describe("qwen3-1.7b", false);
    REQUIRE(eredu_model_group_count(model.get()) == 86);
    const std::string text = model_json(model.get());
    CHECK(reload(text) == text);
    CHECK(reload(groups_first(text)) == text);

    // A target of an earlier group, in the last group: found by whichever
    // thread builds, after every group before it was built.
    const std::size_t last = text.rfind("{\"name\":");
    const std::string group = text.substr(last, text.size() - 2 - last);
    const auto appended = [&](const std::string& groups) {
      return text.substr(0, text.size() - 2) + "," + groups + "]}";
    };
    const std::string duplicate = std::to_string(EREDU_E_INVALID_GROUP) +
                                  ": parallel placement target \"model.norm.weight\" was "
                                  "registered more than once";
    CHECK(reload(appended(group)) == duplicate);
    CHECK(reload(groups_first(appended(group))) == duplicate);
    // A group that cannot be constructed (its name is blank): the builder
    // constructs the groups, so that the first step-4 error in group order
    // is reported, whether a construction's or an addition's.
    const std::string blank = "{\"name\":\" \"" + group.substr(group.find("\",") + 1);
    const std::string unnamed = std::to_string(EREDU_E_INVALID_GROUP) +
                                ": parallel parameter logical name must not be empty";
    CHECK(reload(appended(blank + "," + group)) == unnamed);
    CHECK(reload(groups_first(appended(blank + "," + group))) == unnamed);
    CHECK(reload(appended(group + "," + blank)) == duplicate);
    CHECK(reload(groups_first(appended(group + "," + blank))) == duplicate);
    // A structure error after the groups wins over what was built.
    const std::string extra = text.substr(0, text.size() - 1) + ",\"extra\":1}";
    CHECK(reload(extra) == std::to_string(EREDU_E_PARSE) + ": /extra: unknown field");

    const std::string reordered = groups_first(text);
    std::vector<std::string> loaded(kThreads);
    at_once([&](unsigned i) { loaded[i] = reload(i % 2 == 0 ? text : reordered); });
    for (const std::string& each : loaded) CHECK(each == text);
  }

  TEST_CASE("eight threads plan and read layouts of one shared model") {
    const Model model = describe("qwen3-1.7b", false);
    std::vector<std::string> alone(kThreads);
    std::vector<std::size_t> tensors(kThreads);
    for (unsigned rank = 0; rank < kThreads; ++rank) {
      alone[rank] = layout_json(model.get(), kTensor, kPipeline, rank, 1);
      REQUIRE(!alone[rank].empty());
      tensors[rank] = found_by_target(model.get(), rank);
    }
    // A layout lists every tensor (another stage's as omitted): the
    // embedding, the final norm and 28 layers of 11 tensors.
    CHECK(tensors[0] == 310);
    const std::string world = world_json(model.get(), 1);
    REQUIRE(!world.empty());

    // Each thread plans its own rank, a neighbour's with helper threads,
    // finds every tensor of its layout again and plans the whole world.
    std::vector<std::string> own(kThreads);
    std::vector<std::string> neighbour(kThreads);
    std::vector<std::size_t> found(kThreads);
    std::vector<std::string> worlds(kThreads);
    at_once([&](unsigned rank) {
      own[rank] = layout_json(model.get(), kTensor, kPipeline, rank, 1);
      neighbour[rank] = layout_json(model.get(), kTensor, kPipeline, (rank + 1) % kThreads, 3);
      found[rank] = found_by_target(model.get(), rank);
      worlds[rank] = world_json(model.get(), rank % 2 == 0 ? 2 : 1);
    });
    for (unsigned rank = 0; rank < kThreads; ++rank) {
      CAPTURE(rank);
      CHECK(own[rank] == alone[rank]);
      CHECK(neighbour[rank] == alone[(rank + 1) % kThreads]);
      CHECK(found[rank] == tensors[rank]);
      CHECK(worlds[rank] == world);
    }
  }

  TEST_CASE("helper threads change no result of a model past 16384 tensors") {
    // DeepSeek-R1 from its config alone: 61 layers of 256 routed experts,
    // enough tensors for eredu_plan_rank's default of two threads.
    const Model model = describe("deepseek-r1", true);
    REQUIRE(eredu_model_tensor_count(model.get()) >= 16384);
    const std::string one = layout_json(model.get(), 8, 1, 5, 1);
    REQUIRE(!one.empty());
    CHECK(layout_json(model.get(), 8, 1, 5, 0) == one);
    CHECK(layout_json(model.get(), 8, 1, 5, 4) == one);
  }
}
