// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The GGUF reader: the input written to a .gguf file (made once,
// overwritten for each input) is opened as a checkpoint
// (eredu_checkpoint_open) and described (eredu_model_describe); when both
// succeed, rank 0 of one rank is planned and its read plan made and written.
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

using eredu_fuzz::ok;
using eredu_fuzz::require;

namespace {

void check_read_plan(const eredu_model* model, const eredu_checkpoint* checkpoint) {
  const eredu_topology single = EREDU_TOPOLOGY_INIT;
  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.threads = 1;
  eredu_layout* layout = nullptr;
  eredu_error* error = nullptr;
  if (!ok(eredu_plan_rank(model, &single, 0, &options, &layout, &error), error)) return;
  eredu_read_plan* plan = nullptr;
  const bool planned = ok(eredu_read_plan_new(layout, checkpoint, &plan, &error), error);
  eredu_layout_free(layout);
  if (!planned) {
    require(plan == nullptr);
    return;
  }
  for (std::size_t i = 0; i < eredu_read_plan_tensor_count(plan); ++i) {
    eredu_read_tensor_info info = EREDU_READ_TENSOR_INFO_INIT;
    require(ok(eredu_read_plan_tensor_info(plan, i, &info, &error), error));
    eredu_fuzz::check_text(info.target);
    eredu_fuzz::check_text(info.dtype);
  }
  char* text = nullptr;
  std::size_t length = 0;
  require(ok(eredu_read_plan_to_json(plan, &text, &length, &error), error));
  eredu_fuzz::check_buffer(text, length);
  eredu_read_plan_free(plan);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string path = eredu_fuzz::write_file("model.gguf", data, size);
  eredu_checkpoint* checkpoint = nullptr;
  eredu_error* error = nullptr;
  if (!ok(eredu_checkpoint_open(path.c_str(), &checkpoint, &error), error)) {
    require(checkpoint == nullptr);
  }
  eredu_model* model = nullptr;
  if (ok(eredu_model_describe(path.c_str(), nullptr, &model, &error), error)) {
    if (checkpoint != nullptr) check_read_plan(model, checkpoint);
    eredu_model_free(model);
  } else {
    require(model == nullptr);
  }
  eredu_checkpoint_free(checkpoint);
  return 0;
}
