// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Peak memory of loading a description and planning one rank, relative to
// the size of its JSON (issue target: under 3×). Run in a fresh process:
//   bench_memory generate FILE   writes the DeepSeek-V3-scale description
//   bench_memory measure FILE    loads FILE, plans rank 0 of TP 8 × PP 2 × EP 8
#include <malloc.h>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <string_view>

#include "deepseek_description.hpp"
#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "plan/planner.hpp"

namespace {

double heap_mib() { return static_cast<double>(mallinfo2().uordblks) / (1 << 20); }

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int generate(const char* path) {
  std::ofstream out(path, std::ios::binary);
  out << eredu::groups_to_json(*eredu::bench::deepseek_v3_description());
  return out ? 0 : 1;
}

int measure(const char* path) {
  const long baseline = peak_rss_kib();
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const auto json_bytes = static_cast<double>(in.tellg());
  auto model = eredu::load_groups_json_file(path);
  if (!model) {
    std::fprintf(stderr, "%s\n", model.error().message.c_str());
    return 1;
  }
  const long after_load = peak_rss_kib();
  const double model_heap = heap_mib();
  auto topology = eredu::ParallelTopology::create(8, 2, 8, 1).value();
  auto layout = eredu::plan_rank(model.value(), topology, 0, eredu::ShardingPolicy::Require);
  if (!layout) {
    std::fprintf(stderr, "%s\n", layout.error().message.c_str());
    return 1;
  }
  const long peak = peak_rss_kib();
  const double plan_heap = heap_mib() - model_heap;
  const double mib = 1024.0;
  std::printf("json            %.1f MiB, %zu tensors\n", json_bytes / (1 << 20),
              model.value()->tensor_count());
  std::printf("baseline rss    %.1f MiB\n", baseline / mib);
  std::printf("peak after load %.1f MiB; the model keeps %.1f MiB of heap\n", after_load / mib,
              model_heap);
  std::printf("one-rank layout %.1f MiB of heap\n", plan_heap);
  std::printf("peak after plan %.1f MiB (%.2fx the JSON, %.2fx above baseline)\n", peak / mib,
              peak * 1024.0 / json_bytes, (peak - baseline) * 1024.0 / json_bytes);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string_view(argv[1]) == "generate") return generate(argv[2]);
  if (argc == 3 && std::string_view(argv[1]) == "measure") return measure(argv[2]);
  std::fprintf(stderr, "usage: bench_memory generate|measure FILE\n");
  return 2;
}
