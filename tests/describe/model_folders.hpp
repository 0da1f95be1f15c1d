// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Model folders for the tests: the real examples and synthetic temporary ones.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace eredu::test {

/// `$EREDU_SOURCE_ROOT/<relative>`: a file of the source tree.
std::string source_path(const std::string& relative);

/// `$EREDU_SOURCE_ROOT/examples/models/<name>` (the copied real models).
std::string example_model(const std::string& name);

/// `$EREDU_SOURCE_ROOT/tests/data/models/<name>`: a test-only folder.
std::string test_model(const std::string& name);

/// A temporary folder removed when the object goes out of scope.
class TempFolder {
 public:
  TempFolder();
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  /// Writes `text` to `<folder>/<name>`.
  void write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

/// The contents of `<dir>/<name>` parsed as JSON.
nlohmann::json read_json(const std::string& dir, const std::string& name);

/// A small llama config: hidden 64, 4 heads of head_dim 32 (not 64 / 4),
/// 2 kv heads, intermediate 96, 2 layers, vocab 100, float16.
nlohmann::json tiny_llama_config();

/// The weight index `tiny_llama_config()` describes: its tensor names and
/// their F16 bytes as metadata.total_size.
nlohmann::json tiny_llama_index();

}  // namespace eredu::test
