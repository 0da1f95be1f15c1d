// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The describer (eredu_model_describe) on a model folder: the input is a
// config.json, then optionally a 0x00 byte and a
// model.safetensors.index.json, written to a folder made once. A model it
// describes is planned for rank 0 and written as canonical text.
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "fuzz_support.hpp"

using eredu_fuzz::ok;
using eredu_fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto* separator = static_cast<const uint8_t*>(std::memchr(data, 0, size));
  const std::size_t config_size = separator != nullptr ? separator - data : size;
  eredu_fuzz::write_file("config.json", data, config_size);
  const std::filesystem::path index = eredu_fuzz::temp_folder() / "model.safetensors.index.json";
  if (separator != nullptr) {
    eredu_fuzz::write_file(index.filename().c_str(), separator + 1, size - config_size - 1);
  } else {
    std::filesystem::remove(index);
  }

  eredu_describe_options options = EREDU_DESCRIBE_OPTIONS_INIT;
  options.pad_vocab_multiple = size % 3 == 0 ? 0 : 64;
  eredu_model* model = nullptr;
  eredu_error* error = nullptr;
  if (!ok(eredu_model_describe(eredu_fuzz::temp_folder().c_str(), &options, &model, &error),
          error)) {
    require(model == nullptr);
    return 0;
  }
  const eredu_topology single = EREDU_TOPOLOGY_INIT;
  eredu_fuzz::plan_rank(model, single, 0, EREDU_POLICY_REPLICATE_UNSUPPORTED);
  char* text = nullptr;
  std::size_t length = 0;
  require(ok(eredu_model_to_json(model, &text, &length, &error), error));
  eredu_fuzz::check_buffer(text, length);
  eredu_model_free(model);
  return 0;
}
