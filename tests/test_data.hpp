// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Shared test inputs and expected outputs in tests/data/ (the
// docs/interchange.md examples), read through EREDU_SOURCE_ROOT, which meson
// sets for every test.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace test_data {

/// The contents of tests/data/<name>; throws when it cannot be read.
inline std::string read(std::string_view name) {
  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  const std::string path = std::string(root ? root : ".") + "/tests/data/" + std::string(name);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read test data " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace test_data
