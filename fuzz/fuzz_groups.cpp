// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_model_from_json on the input as an eredu.groups.v1 document; a model
// it loads is planned for rank 0 of one rank and for one rank of a small
// topology chosen from the input's length (so that every seed stays a valid
// document), and written back as canonical text, which must load again.
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

using eredu_fuzz::ok;
using eredu_fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  eredu_model* model = nullptr;
  eredu_error* error = nullptr;
  if (!ok(eredu_model_from_json(reinterpret_cast<const char*>(data), size, &model, &error),
          error)) {
    require(model == nullptr);
    return 0;
  }
  const eredu_topology single = EREDU_TOPOLOGY_INIT;
  eredu_fuzz::plan_rank(model, single, 0, EREDU_POLICY_REQUIRE);

  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.tensor = 1 + size % 4;
  topology.pipeline = 1 + size / 4 % 2;
  topology.expert = 1 + size / 8 % 2;
  const uint64_t world = topology.tensor * topology.pipeline * topology.expert;
  eredu_fuzz::plan_rank(model, topology, size / 16 % world, static_cast<eredu_policy>(size % 3));

  char* text = nullptr;
  std::size_t length = 0;
  require(ok(eredu_model_to_json(model, &text, &length, &error), error));
  eredu_fuzz::check_text(text, length);
  eredu_model* again = nullptr;
  require(ok(eredu_model_from_json(text, length, &again, &error), error));
  require(eredu_model_tensor_count(again) == eredu_model_tensor_count(model));
  eredu_model_free(again);
  eredu_buffer_free(text);
  eredu_model_free(model);
  return 0;
}
