// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The shared test vectors' generator (tests/vectors/README.md): describes
// every bundled model into inputs/models/<model>.groups.json and writes the
// expected output of every case of cases.txt to expected/<name>.out, all from
// the C++ core — never through the C API, which the vectors check against
// the core.
//
// usage: vectors_generate VECTORS_DIR MODELS_DIR OUT_DIR
//   VECTORS_DIR holds cases.txt and the hand-written inputs; MODELS_DIR is
//   examples/models; OUT_DIR receives inputs/models/ and expected/ (it may be
//   VECTORS_DIR itself). Exits 1 with a message on any problem.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "admission/check.hpp"
#include "admission/check_json.hpp"
#include "admission/policy.hpp"
#include "core/text_file.hpp"
#include "describe/describe.hpp"
#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "interchange/layout_json.hpp"
#include "plan/planner.hpp"
#include "world/world.hpp"
#include "world/world_json.hpp"

namespace fs = std::filesystem;

namespace eredu::vectors {
namespace {

/// One line of cases.txt (README "cases.txt": keys, defaults).
struct Case {
  std::string name;
  std::string op;
  std::string groups;
  std::uint64_t tp = 1, pp = 1, ep = 1, dp = 1, rank = 0;
  std::vector<std::uint64_t> pp_layers;  // empty: balanced stages
  ShardingPolicy policy = ShardingPolicy::Require;
  std::optional<std::string> residency;
  std::optional<std::uint64_t> device_budget;
};

[[noreturn]] void die(const std::string& message) { throw std::runtime_error(message); }

std::string read_file(const fs::path& path) {
  auto text = read_text_file(path.string(), path.string());
  if (!text) die(text.error().message);
  return std::move(text).value();
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) die("cannot write " + path.string());
}

std::uint64_t number(const std::string& value, const std::string& where) {
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
    die(where + ": not a decimal number: " + value);
  }
  try {
    return std::stoull(value);
  } catch (const std::out_of_range&) {
    die(where + ": does not fit 64 bits: " + value);
  }
}

bool valid_name(const std::string& name) {
  return !name.empty() &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.-") == std::string::npos;
}

/// Sets `key` of `c`; a key the case's op has no use for is an error too.
void set_key(Case& c, const std::string& key, const std::string& value, const std::string& where) {
  const auto only = [&](const char* op) {
    if (c.op != op) die(where + ": " + key + " is for op=" + op + " only");
  };
  if (key == "groups") {
    c.groups = value;
  } else if (key == "tp" || key == "pp" || key == "ep" || key == "dp") {
    std::uint64_t& axis = key == "tp" ? c.tp : key == "pp" ? c.pp : key == "ep" ? c.ep : c.dp;
    axis = number(value, where);
  } else if (key == "pp_layers") {
    std::stringstream counts(value);
    for (std::string count; std::getline(counts, count, ',');) {
      c.pp_layers.push_back(number(count, where));
    }
  } else if (key == "rank") {
    only("layout");
    c.rank = number(value, where);
  } else if (key == "policy") {
    if (value == "require") {
      c.policy = ShardingPolicy::Require;
    } else if (value == "replicate-unsupported") {
      c.policy = ShardingPolicy::ReplicateUnsupported;
    } else if (value == "require-even") {
      c.policy = ShardingPolicy::RequireEven;
    } else {
      die(where + ": unknown policy " + value);
    }
  } else if (key == "residency") {
    only("check");
    c.residency = value;
  } else if (key == "device_budget") {
    only("check");
    c.device_budget = number(value, where);
  } else {
    die(where + ": unknown key " + key);
  }
}

/// The cases of cases.txt, in file order; names are unique.
std::vector<Case> parse_cases(const std::string& text) {
  std::vector<Case> cases;
  std::set<std::string> names;
  std::istringstream lines(text);
  std::string line;
  for (int number_of_line = 1; std::getline(lines, line); ++number_of_line) {
    const std::string where = fmt::format("cases.txt:{}", number_of_line);
    std::istringstream tokens(line);
    std::vector<std::pair<std::string, std::string>> pairs;
    for (std::string token; tokens >> token;) {
      if (pairs.empty() && token[0] == '#') break;
      const auto equals = token.find('=');
      if (equals == std::string::npos) die(where + ": not key=value: " + token);
      pairs.emplace_back(token.substr(0, equals), token.substr(equals + 1));
    }
    if (pairs.empty()) continue;
    Case c;
    for (const auto& [key, value] : pairs) {
      if (key == "name") c.name = value;
      if (key == "op") c.op = value;
    }
    if (!valid_name(c.name)) die(where + ": missing or invalid name");
    if (c.op != "layout" && c.op != "world" && c.op != "check") die(where + ": missing or bad op");
    for (const auto& [key, value] : pairs) {
      if (key != "name" && key != "op") set_key(c, key, value, where);
    }
    if (c.groups.empty()) die(where + ": missing groups");
    if (!names.insert(c.name).second) die(where + ": repeated name " + c.name);
    cases.push_back(std::move(c));
  }
  return cases;
}

/// The case's topology, with its chosen pipeline stages (as
/// eredu_plan_options.pipeline_layers).
Result<ParallelTopology> topology_of(const Case& c) {
  EREDU_TRY(topology, ParallelTopology::create(c.tp, c.pp, c.ep, c.dp));
  if (c.pp_layers.empty()) return topology;
  return topology.with_pipeline_layers(c.pp_layers);
}

/// README "Running a case" steps 1–2 through the core.
Result<std::string> run_case(const Case& c, const std::string& groups,
                             const std::optional<std::string>& residency) {
  EREDU_TRY(model, load_groups_json(groups));
  if (c.op == "layout") {
    EREDU_TRY(topology, topology_of(c));
    EREDU_TRY(layout, plan_rank(model, topology, c.rank, c.policy));
    return layout_to_json(layout);
  }
  std::optional<AdmissionPolicy> admission;
  if (c.op == "check") {
    EREDU_TRY(policy, AdmissionPolicy::from_residency_document(residency, c.device_budget));
    admission = policy;
  }
  EREDU_TRY(topology, topology_of(c));
  if (!admission) {
    EREDU_TRY(world, plan_world(model, topology, c.policy));
    return world_to_json(world);
  }
  EREDU_TRY(report, check_world(model, topology, c.policy, *admission));
  return check_to_json(report);
}

/// Step 3: the output text of a failed case.
std::string error_line(const Error& error) {
  const auto code = static_cast<std::int32_t>(error.code);
  std::string text = fmt::format("error[{}] {}: {}\n", status_name(code), code, error.message);
  if (error.entries.size() < 2) return text;
  for (std::size_t i = 0; i < error.entries.size(); ++i) {
    const ErrorEntry& entry = error.entries[i];
    const auto entry_code = static_cast<std::int32_t>(entry.code);
    text +=
        fmt::format("problem {}: error[{}] {} group {} tensor {}: {}\n", i, status_name(entry_code),
                    entry_code, entry.group.empty() ? "-" : entry.group,
                    entry.tensor.empty() ? "-" : entry.tensor, entry.message);
  }
  return text;
}

/// `inputs/models/<model>.groups.json` of every model folder the describer
/// accepts, and `<model>.config-only.groups.json` of a folder whose index the
/// checkpoint check refuses (described from config.json alone, so its family
/// has vectors); the others are named on stderr (a case using one then
/// fails).
std::map<std::string, std::string> describe_models(const fs::path& models) {
  std::map<std::string, std::string> described;
  std::set<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(models)) {
    if (entry.is_directory()) folders.insert(entry.path());
  }
  for (const fs::path& folder : folders) {
    auto model = describe_model_dir(folder.string());
    const std::string path = "inputs/models/" + folder.filename().string();
    if (model) {
      described[path + ".groups.json"] = groups_to_json(*model.value());
      continue;
    }
    std::cerr << "note: not described: " << error_line(model.error());
    if (model.error().code != Status::CheckpointMismatch) continue;
    auto from_config = describe_model_dir(folder.string(), DescribeOptions{std::nullopt, true});
    if (from_config) {
      described[path + ".config-only.groups.json"] = groups_to_json(*from_config.value());
    }
  }
  return described;
}

void generate(const fs::path& vectors, const fs::path& models, const fs::path& out) {
  const std::vector<Case> cases = parse_cases(read_file(vectors / "cases.txt"));
  const std::map<std::string, std::string> described = describe_models(models);
  const auto input = [&](const std::string& path) {
    const auto found = described.find(path);
    return found != described.end() ? found->second : read_file(vectors / path);
  };
  for (const auto& [path, text] : described) write_file(out / path, text);
  for (const Case& c : cases) {
    const std::optional<std::string> residency =
        c.residency ? std::optional<std::string>(input(*c.residency)) : std::nullopt;
    auto text = run_case(c, input(c.groups), residency);
    write_file(out / "expected" / (c.name + ".out"),
               text ? text.value() : error_line(text.error()));
  }
  std::cout << "generated " << cases.size() << " cases and " << described.size()
            << " model descriptions in " << out.string() << "\n";
}

}  // namespace
}  // namespace eredu::vectors

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: vectors_generate VECTORS_DIR MODELS_DIR OUT_DIR\n";
    return 1;
  }
  try {
    eredu::vectors::generate(argv[1], argv[2], argv[3]);
  } catch (const std::exception& error) {
    std::cerr << "vectors_generate: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
