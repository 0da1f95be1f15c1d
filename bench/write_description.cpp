// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Writes the DeepSeek-V3-scale benchmark description as eredu.groups.v1 JSON
// to FILE, for the bindings' benchmarks and `eredu plan` timings
// (scripts/bench-bindings).
#include <cstdio>
#include <fstream>

#include "deepseek_description.hpp"
#include "interchange/groups_write.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  const std::string text = eredu::groups_to_json(*eredu::bench::deepseek_v3_description());
  std::ofstream out(argv[1], std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[1]);
    return 1;
  }
  return 0;
}
