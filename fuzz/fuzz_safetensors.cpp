// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The safetensors header reader: eredu_checkpoint_open on the input written
// to a .safetensors file (made once, overwritten for each input).
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

using eredu_fuzz::ok;
using eredu_fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string path = eredu_fuzz::write_file("model.safetensors", data, size);
  eredu_checkpoint* checkpoint = nullptr;
  eredu_error* error = nullptr;
  if (ok(eredu_checkpoint_open(path.c_str(), &checkpoint, &error), error)) {
    eredu_checkpoint_tensor_count(checkpoint);
    eredu_checkpoint_free(checkpoint);
  } else {
    require(checkpoint == nullptr);
  }
  return 0;
}
