// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The registry of model families is the one list: docs/describe.md's table,
// the message of an unsupported model_type and the C API's list follow it,
// and every family's config defaults are a JSON object.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "describe/registry.hpp"
#include "model_folders.hpp"

namespace eredu {
namespace {

// The backticked model types of the first column of docs/describe.md's
// family table (the rows before the first blank line after its header).
std::set<std::string> documented_model_types() {
  std::ifstream in(test::source_path("docs/describe.md"));
  REQUIRE(in.good());
  std::set<std::string> types;
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.starts_with("| `model_type` | family |")) {
      in_table = true;
      continue;
    }
    if (!in_table || line.starts_with("| ---")) continue;
    if (!line.starts_with("|")) break;
    const std::string cell = line.substr(1, line.find('|', 1) - 1);
    for (std::size_t open = cell.find('`'); open != std::string::npos;
         open = cell.find('`', cell.find('`', open + 1) + 1)) {
      const std::size_t close = cell.find('`', open + 1);
      types.insert(cell.substr(open + 1, close - open - 1));
    }
  }
  return types;
}

TEST_CASE("registry: docs/describe.md's table lists every model type, and only those") {
  std::set<std::string> registered;
  for (const FamilyEntry& entry : family_entries()) registered.emplace(entry.model_type);
  CHECK(registered.size() == family_entries().size());  // no model_type twice
  CHECK(documented_model_types() == registered);
}

TEST_CASE("registry: supported_model_types lists the supported entries in order") {
  std::string expected;
  for (const FamilyEntry& entry : family_entries()) {
    if (!entry.supported) continue;
    expected += (expected.empty() ? "" : ", ") + std::string(entry.model_type);
  }
  CHECK(supported_model_types() == expected);
  CHECK(supported_model_types().starts_with("llama, mistral, qwen2, qwen3, phi3, "));
  CHECK(supported_model_types().find("deepseek_vl_v2") == std::string::npos);
}

TEST_CASE("registry: every entry describes one way, its defaults an object naming a class") {
  for (const FamilyEntry& entry : family_entries()) {
    CAPTURE(entry.model_type);
    CHECK((entry.recipe == nullptr) != (entry.describe == nullptr));
    if (entry.defaults.empty()) {
      CHECK(entry.defaults_class.empty());
      continue;
    }
    CHECK_FALSE(entry.defaults_class.empty());
    const nlohmann::json defaults = nlohmann::json::parse(entry.defaults, nullptr, false);
    CHECK(defaults.is_object());
  }
}

}  // namespace
}  // namespace eredu
