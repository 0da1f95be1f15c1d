// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The real checkpoint files of examples/files/ (PROVENANCE.md there).
#pragma once

#include <cstdlib>
#include <string>

namespace eredu::test {

/// `$EREDU_SOURCE_ROOT/examples/files/<name>`.
inline std::string example_file(const std::string& name) {
  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  return std::string(root ? root : ".") + "/examples/files/" + name;
}

inline const std::string kStories = "stories260K.gguf";
inline const std::string kLora = "gpt2-lora/adapter_model.safetensors";
inline const std::string kLoraGroups = "gpt2-lora/adapter.groups.json";

}  // namespace eredu::test
