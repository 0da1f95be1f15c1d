// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu/checkpoint.h: describing stories260K.gguf, its read plan at TP 2,
// reading a tensor through it, and the errors of each call.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "capi_support.hpp"

namespace {

using capi_test::ErrorSlot;

struct CheckpointFree {
  void operator()(eredu_checkpoint* checkpoint) const { eredu_checkpoint_free(checkpoint); }
};
struct ReadPlanFree {
  void operator()(eredu_read_plan* plan) const { eredu_read_plan_free(plan); }
};
using Checkpoint = std::unique_ptr<eredu_checkpoint, CheckpointFree>;
using ReadPlan = std::unique_ptr<eredu_read_plan, ReadPlanFree>;

std::string stories() {
  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  return std::string(root ? root : ".") + "/examples/files/stories260K.gguf";
}

std::string file_bytes(const std::string& path, std::uint64_t offset, std::uint64_t length) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  std::string bytes(length, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(length));
  return bytes;
}

// stories260K at TP 2, rank 1.
struct Planned {
  capi_test::Model model;
  Checkpoint checkpoint;
  capi_test::Layout layout;
  ReadPlan plan;

  Planned() {
    ErrorSlot error;
    eredu_model* described = nullptr;
    REQUIRE(eredu_model_describe(stories().c_str(), nullptr, &described, error.slot()) == EREDU_OK);
    model.reset(described);
    eredu_checkpoint* opened = nullptr;
    REQUIRE(eredu_checkpoint_open(stories().c_str(), &opened, error.slot()) == EREDU_OK);
    checkpoint.reset(opened);
    eredu_topology topology = EREDU_TOPOLOGY_INIT;
    topology.tensor = 2;
    eredu_layout* planned = nullptr;
    REQUIRE(eredu_plan_rank(model.get(), &topology, 1, nullptr, &planned, error.slot()) ==
            EREDU_OK);
    layout.reset(planned);
    eredu_read_plan* made = nullptr;
    REQUIRE(eredu_read_plan_new(layout.get(), checkpoint.get(), &made, error.slot()) == EREDU_OK);
    plan.reset(made);
  }

  eredu_read_tensor_info tensor(const char* target) const {
    for (std::size_t i = 0; i < eredu_read_plan_tensor_count(plan.get()); ++i) {
      eredu_read_tensor_info info = EREDU_READ_TENSOR_INFO_INIT;
      ErrorSlot error;
      REQUIRE(eredu_read_plan_tensor_info(plan.get(), i, &info, error.slot()) == EREDU_OK);
      if (std::strcmp(info.target, target) == 0) return info;
    }
    FAIL("no tensor " << target);
    return {};
  }
};

TEST_CASE("stories260K.gguf described, planned at TP 2 and read through rank 1's plan") {
  Planned planned;
  CHECK(eredu_model_tensor_count(planned.model.get()) == 48);
  CHECK(eredu_checkpoint_tensor_count(planned.checkpoint.get()) == 48);
  const eredu_read_plan* plan = planned.plan.get();
  CHECK(eredu_read_plan_rank(plan) == 1);
  CHECK(eredu_read_plan_tensor_count(plan) == 48);
  CHECK(eredu_read_plan_read_bytes(plan) == 587008);
  REQUIRE(eredu_read_plan_file_count(plan) == 1);
  CHECK(std::string(eredu_read_plan_file(plan, 0)) == stories());
  CHECK(std::string(eredu_read_plan_file_path(plan, 0)) == stories());
  CHECK(eredu_read_plan_file(plan, 1) == nullptr);

  const eredu_read_tensor_info q = planned.tensor("blk.0.attn_q.weight");
  CHECK(std::string(q.dtype) == "F32");
  CHECK(std::vector<std::uint64_t>(q.local_shape, q.local_shape + q.ndim) ==
        std::vector<std::uint64_t>{32, 64});
  CHECK(q.local_bytes == 8192);
  REQUIRE(q.extent_count == 1);
  CHECK(q.extents[0].offset == 284768);
  CHECK(q.extents[0].length == 8192);

  const eredu_read_tensor_info output = planned.tensor("blk.0.attn_output.weight");
  REQUIRE(output.extent_count == 1);
  const eredu_read_extent& rows = output.extents[0];
  CHECK(rows.length == 128);
  CHECK(rows.count == 64);
  CHECK(rows.stride == 256);
  CHECK(rows.dest_stride == 128);

  // Reading it: row i of the local [64, 32] is columns [32, 64) of row i.
  std::size_t index = 0;
  for (; index < 48; ++index) {
    eredu_read_tensor_info info{};
    ErrorSlot slot;
    REQUIRE(eredu_read_tensor_info_init(&info, sizeof info, slot.slot()) == EREDU_OK);
    CHECK(info.struct_size == sizeof info);
    REQUIRE(eredu_read_plan_tensor_info(plan, index, &info, slot.slot()) == EREDU_OK);
    if (std::strcmp(info.target, "blk.0.attn_output.weight") == 0) break;
  }
  std::vector<char> buffer(output.local_bytes + 4, 'x');
  ErrorSlot error;
  REQUIRE(eredu_read_plan_read_tensor(plan, index, buffer.data(), buffer.size(), error.slot()) ==
          EREDU_OK);
  for (std::uint64_t row = 0; row < 64; ++row) {
    CHECK(std::string(buffer.data() + row * 128, 128) ==
          file_bytes(stories(), rows.offset + row * 256, 128));
  }
  CHECK(std::string(buffer.data() + output.local_bytes, 4) == "xxxx");  // untouched
  CHECK(eredu_read_plan_read_tensor(plan, index, buffer.data(), output.local_bytes - 1,
                                    error.slot()) == EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_read_plan_read_tensor(plan, 48, buffer.data(), buffer.size(), error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_read_plan_read_tensor(plan, 0, nullptr, 16, error.slot()) == EREDU_E_NULL_ARGUMENT);

  char* json = nullptr;
  std::size_t length = 0;
  REQUIRE(eredu_read_plan_to_json(plan, &json, &length, error.slot()) == EREDU_OK);
  const std::string text(json, length);
  eredu_buffer_free(json);
  CHECK(text.rfind(R"({"format":"eredu.readplan.v1","model":"stories260K","rank":1,)", 0) == 0);
  CHECK(text.back() == '\n');
}

// Every tensor of the plan read one by one with eredu_read_plan_read_tensor.
std::vector<std::string> read_each(const eredu_read_plan* plan) {
  std::vector<std::string> tensors;
  for (std::size_t i = 0; i < eredu_read_plan_tensor_count(plan); ++i) {
    eredu_read_tensor_info info = EREDU_READ_TENSOR_INFO_INIT;
    ErrorSlot error;
    REQUIRE(eredu_read_plan_tensor_info(plan, i, &info, error.slot()) == EREDU_OK);
    std::string bytes(info.local_bytes, '\0');
    REQUIRE(eredu_read_plan_read_tensor(plan, i, bytes.data(), bytes.size(), error.slot()) ==
            EREDU_OK);
    tensors.push_back(std::move(bytes));
  }
  return tensors;
}

int32_t cancel_at_once(uint64_t, uint64_t, void* calls) {
  ++*static_cast<int*>(calls);
  return 1;
}

TEST_CASE("a whole rank read into the caller's buffers and into library memory") {
  Planned planned;
  const eredu_read_plan* plan = planned.plan.get();
  const std::vector<std::string> expected = read_each(plan);
  REQUIRE(expected.size() == 48);

  std::vector<std::string> tensors;
  std::vector<eredu_tensor_buffer> buffers;
  for (const std::string& bytes : expected) tensors.emplace_back(bytes.size(), '\0');
  for (std::string& bytes : tensors) buffers.push_back({bytes.data(), bytes.size()});
  ErrorSlot error;
  eredu_read_stats stats = EREDU_READ_STATS_INIT;
  REQUIRE(eredu_read_plan_read_rank(plan, buffers.data(), buffers.size(), nullptr, &stats,
                                    error.slot()) == EREDU_OK);
  CHECK(tensors == expected);
  CHECK(stats.tensors == 48);
  CHECK(stats.bytes_kept == 587008);
  CHECK(stats.bytes_read == 587008);  // strided rows copied from a mapping
  CHECK(stats.direct == 0);

  eredu_read_options options;
  REQUIRE(eredu_read_options_init(&options, sizeof options, error.slot()) == EREDU_OK);
  CHECK(options.request_bytes == 1048576);
  CHECK(options.max_gap_bytes == 0);
  options.threads = 2;
  options.max_gap_bytes = 65536;
  REQUIRE(eredu_read_plan_read_rank(plan, buffers.data(), buffers.size(), &options, &stats,
                                    error.slot()) == EREDU_OK);
  CHECK(tensors == expected);
  CHECK(stats.bytes_read == 735688);  // the gaps between coalesced rows
  CHECK(stats.threads == 2);

  eredu_rank_data* data = nullptr;
  REQUIRE(eredu_read_plan_load(plan, &options, &data, nullptr, error.slot()) == EREDU_OK);
  REQUIRE(eredu_rank_data_tensor_count(data) == 48);
  for (std::size_t i = 0; i < 48; ++i) {
    uint64_t bytes = 1;
    const char* tensor = static_cast<const char*>(eredu_rank_data_tensor(data, i, &bytes));
    REQUIRE(tensor != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(tensor) % 4096 == 0);
    CHECK(std::string(tensor, bytes) == expected[i]);
  }
  uint64_t bytes = 1;
  CHECK(eredu_rank_data_tensor(data, 48, &bytes) == nullptr);
  CHECK(bytes == 0);
  eredu_rank_data_free(data);

  // Errors: buffers that do not fit, options out of range, a cancel.
  CHECK(eredu_read_plan_read_rank(plan, buffers.data(), 47, nullptr, nullptr, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(eredu_read_plan_read_rank(plan, nullptr, 48, nullptr, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  buffers[5].capacity -= 1;
  CHECK(eredu_read_plan_read_rank(plan, buffers.data(), 48, nullptr, nullptr, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(std::string(error.message()).find("buffers[5].capacity is ") == 0);
  buffers[5].capacity += 1;
  buffers[7].data = nullptr;
  CHECK(eredu_read_plan_read_rank(plan, buffers.data(), 48, nullptr, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  buffers[7].data = tensors[7].data();
  options.direct = 2;
  CHECK(eredu_read_plan_read_rank(plan, buffers.data(), 48, &options, nullptr, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  options.direct = 0;
  options.request_bytes = 100;
  CHECK(eredu_read_plan_read_rank(plan, buffers.data(), 48, &options, nullptr, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  options.request_bytes = 4096;
  int calls = 0;
  options.progress = &cancel_at_once;
  options.progress_data = &calls;
  CHECK(eredu_read_plan_read_rank(plan, buffers.data(), 48, &options, nullptr, error.slot()) ==
        EREDU_E_CANCELLED);
  CHECK(calls == 1);
  data = reinterpret_cast<eredu_rank_data*>(&calls);
  CHECK(eredu_read_plan_load(plan, &options, &data, nullptr, error.slot()) == EREDU_E_CANCELLED);
  CHECK(data == nullptr);
  eredu_read_stats wrong = EREDU_READ_STATS_INIT;
  wrong.struct_size = 2;
  CHECK(eredu_read_plan_read_rank(plan, buffers.data(), 48, nullptr, &wrong, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
}

// The model's eredu.groups.v1 text.
std::string model_json(const eredu_model* model) {
  char* text = nullptr;
  std::size_t length = 0;
  ErrorSlot error;
  REQUIRE(eredu_model_to_json(model, &text, &length, error.slot()) == EREDU_OK);
  std::string copy(text, length);
  eredu_buffer_free(text);
  return copy;
}

TEST_CASE("a checkpoint opened once describes its model as the path does") {
  Planned planned;
  ErrorSlot error;
  eredu_model* described = nullptr;
  eredu_describe_options options = EREDU_DESCRIBE_OPTIONS_INIT;
  options.pad_vocab_multiple = 64;
  REQUIRE(eredu_checkpoint_describe(planned.checkpoint.get(), &options, &described, error.slot()) ==
          EREDU_OK);
  capi_test::Model from_checkpoint(described);
  REQUIRE(eredu_model_describe(stories().c_str(), &options, &described, error.slot()) == EREDU_OK);
  capi_test::Model from_path(described);
  CHECK(model_json(from_checkpoint.get()) == model_json(from_path.get()));
  CHECK(eredu_model_tensor_count(from_checkpoint.get()) == 48);
  CHECK(eredu_model_global_bytes(from_checkpoint.get()) ==
        eredu_model_global_bytes(from_path.get()));

  described = nullptr;
  CHECK(eredu_checkpoint_describe(nullptr, nullptr, &described, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_checkpoint_describe(planned.checkpoint.get(), nullptr, nullptr, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  options.config_only = 2;
  CHECK(eredu_checkpoint_describe(planned.checkpoint.get(), &options, &described, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  CHECK(described == nullptr);

  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  const std::string adapter =
      std::string(root ? root : ".") + "/examples/files/gpt2-lora/adapter_model.safetensors";
  eredu_checkpoint* lora = nullptr;
  REQUIRE(eredu_checkpoint_open(adapter.c_str(), &lora, error.slot()) == EREDU_OK);
  CHECK(eredu_checkpoint_describe(lora, nullptr, &described, error.slot()) == EREDU_E_PARSE);
  CHECK(described == nullptr);
  eredu_checkpoint_free(lora);
}

TEST_CASE("describe and open errors reach C with their codes") {
  ErrorSlot error;
  eredu_model* model = nullptr;
  CHECK(eredu_model_describe(nullptr, nullptr, &model, error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_model_describe("/nonexistent/eredu", nullptr, &model, error.slot()) == EREDU_E_IO);
  CHECK(model == nullptr);
  eredu_describe_options options = EREDU_DESCRIBE_OPTIONS_INIT;
  options.config_only = 2;
  CHECK(eredu_model_describe(stories().c_str(), &options, &model, error.slot()) ==
        EREDU_E_INVALID_ARGUMENT);
  options.config_only = 0;
  options.pad_vocab_multiple = 64;
  REQUIRE(eredu_model_describe(stories().c_str(), &options, &model, error.slot()) == EREDU_OK);
  eredu_model_free(model);

  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  const std::string groups =
      std::string(root ? root : ".") + "/examples/files/gpt2-lora/adapter.groups.json";
  CHECK(eredu_model_describe(groups.c_str(), nullptr, &model, error.slot()) == EREDU_E_PARSE);
  eredu_checkpoint* checkpoint = nullptr;
  CHECK(eredu_checkpoint_open(groups.c_str(), &checkpoint, error.slot()) == EREDU_E_PARSE);
  CHECK(checkpoint == nullptr);
  CHECK(eredu_checkpoint_open(nullptr, &checkpoint, error.slot()) == EREDU_E_NULL_ARGUMENT);

  Planned planned;
  eredu_read_plan* plan = nullptr;
  CHECK(eredu_read_plan_new(nullptr, planned.checkpoint.get(), &plan, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_read_plan_new(planned.layout.get(), nullptr, &plan, error.slot()) ==
        EREDU_E_NULL_ARGUMENT);
  eredu_checkpoint* lora = nullptr;
  const std::string adapter =
      std::string(root ? root : ".") + "/examples/files/gpt2-lora/adapter_model.safetensors";
  REQUIRE(eredu_checkpoint_open(adapter.c_str(), &lora, error.slot()) == EREDU_OK);
  CHECK(eredu_read_plan_new(planned.layout.get(), lora, &plan, error.slot()) ==
        EREDU_E_CHECKPOINT_MISMATCH);
  CHECK(plan == nullptr);
  eredu_checkpoint_free(lora);
  CHECK(eredu_read_plan_rank(nullptr) == 0);
  CHECK(eredu_read_plan_tensor_count(nullptr) == 0);
  CHECK(eredu_read_plan_file(nullptr, 0) == nullptr);
  CHECK(eredu_checkpoint_tensor_count(nullptr) == 0);
  eredu_read_plan_free(nullptr);
  eredu_checkpoint_free(nullptr);
}

}  // namespace
