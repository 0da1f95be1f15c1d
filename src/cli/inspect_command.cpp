// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu inspect FILE`: a plan file's header and frames, or one rank's
// layout (docs/plan-files.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/input.hpp"
#include "cli/layout_table.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"
#include "cli/plan_file_commands.hpp"
#include "cli/table.hpp"

namespace eredu::cli {
namespace {

using nlohmann::ordered_json;

// "require", "replicate_unsupported" or "require_even", as eredu.layout.v1
// names a policy.
std::string policy_word(eredu_policy policy) {
  switch (policy) {
    case EREDU_POLICY_REPLICATE_UNSUPPORTED:
      return "replicate_unsupported";
    case EREDU_POLICY_REQUIRE_EVEN:
      return "require_even";
    default:
      return "require";
  }
}

Result<PlanFile> open_plan_file(const std::string& path) {
  eredu_plan_file* file = nullptr;
  EREDU_TRY(
      check([&](eredu_error** error) { return eredu_plan_file_open(path.c_str(), &file, error); }));
  return PlanFile(file);
}

Result<eredu_plan_file_info> plan_file_info(const eredu_plan_file& file) {
  eredu_plan_file_info info = EREDU_PLAN_FILE_INFO_INIT;
  EREDU_TRY(
      check([&](eredu_error** error) { return eredu_plan_file_get_info(&file, &info, error); }));
  return info;
}

Result<std::string> plan_file_rank_json(const eredu_plan_file& file, std::uint64_t rank) {
  return text_of([&](char** text, std::size_t* length, eredu_error** error) {
    return eredu_plan_file_rank_json(&file, rank, text, length, error);
  });
}

std::string topology_text(const eredu_plan_file_info& info) {
  std::string text = fmt::format("tp {} x pp {} x ep {} x dp {}", info.tensor, info.pipeline,
                                 info.expert, info.data);
  if (info.pipeline_layer_count > 0) {
    text += fmt::format(
        " (stages of {} layers)",
        fmt::join(info.pipeline_layers, info.pipeline_layers + info.pipeline_layer_count, ","));
  }
  return text;
}

std::string fingerprint_text(const eredu_plan_file_info& info) {
  return fmt::format("{:016x}{:016x}", info.fingerprint_high, info.fingerprint_low);
}

struct FrameSizes {
  std::uint64_t compressed = 0;
  std::uint64_t uncompressed = 0;
};

// Every rank's frame sizes; each frame is read and checked on the way.
Result<std::vector<FrameSizes>> checked_frames(const eredu_plan_file& file, std::uint64_t ranks) {
  std::vector<FrameSizes> frames(ranks);
  for (std::uint64_t rank = 0; rank < ranks; ++rank) {
    EREDU_TRY(plan_file_rank_json(file, rank));
    EREDU_TRY(check([&](eredu_error** error) {
      return eredu_plan_file_rank_bytes(&file, rank, &frames[rank].compressed,
                                        &frames[rank].uncompressed, error);
    }));
  }
  return frames;
}

std::string header_table(const std::string& path, const eredu_plan_file_info& info,
                         const std::vector<FrameSizes>& frames) {
  std::uint64_t layouts = 0;
  for (const FrameSizes& frame : frames) layouts += frame.uncompressed;
  std::string out = fmt::format(
      "plan file {}: format {}, written by eredu {}\nfingerprint {}\ntopology {}, {} ranks; "
      "policy {}; coverage {}\n{} bytes; layouts {} bytes uncompressed ({:.1f}x)\n\n",
      path, info.format_version, std::string(info.library_version, info.library_version_length),
      fingerprint_text(info), topology_text(info), info.world_size, policy_word(info.policy),
      info.coverage_ok != 0 ? "ok" : "problems", info.file_bytes, layouts,
      static_cast<double>(layouts) / static_cast<double>(info.file_bytes));
  TextTable table({{"RANK", TextTable::Align::Right},
                   {"COMPRESSED", TextTable::Align::Right},
                   {"UNCOMPRESSED", TextTable::Align::Right}});
  for (std::size_t rank = 0; rank < frames.size(); ++rank) {
    table.add_row({std::to_string(rank), std::to_string(frames[rank].compressed),
                   std::to_string(frames[rank].uncompressed)});
  }
  return out + table.render();
}

std::string header_json(const eredu_plan_file_info& info, const std::vector<FrameSizes>& frames) {
  ordered_json ranks = ordered_json::array();
  for (std::size_t rank = 0; rank < frames.size(); ++rank) {
    ranks.push_back({{"rank", rank},
                     {"compressed", frames[rank].compressed},
                     {"uncompressed", frames[rank].uncompressed}});
  }
  ordered_json topology = {{"tensor", info.tensor},
                           {"pipeline", info.pipeline},
                           {"expert", info.expert},
                           {"data", info.data}};
  if (info.pipeline_layer_count > 0) {
    topology["pipeline_layers"] = std::vector<std::uint64_t>(
        info.pipeline_layers, info.pipeline_layers + info.pipeline_layer_count);
  }
  const ordered_json out = {
      {"format_version", info.format_version},
      {"library_version", std::string(info.library_version, info.library_version_length)},
      {"fingerprint", fingerprint_text(info)},
      {"topology", topology},
      {"policy", policy_word(info.policy)},
      {"coverage_ok", info.coverage_ok != 0},
      {"file_bytes", info.file_bytes},
      {"ranks", ranks}};
  return out.dump() + "\n";
}

// eredu_plan_file_verify of `file` against the description in `groups`,
// with the file's own topology and policy.
Result<void> verify(const eredu_plan_file& file, const eredu_plan_file_info& info,
                    const std::string& groups) {
  EREDU_TRY(model, load_description(groups));
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.tensor = info.tensor;
  topology.pipeline = info.pipeline;
  topology.expert = info.expert;
  topology.data = info.data;
  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.policy = info.policy;
  options.pipeline_layers = info.pipeline_layers;
  options.pipeline_layer_count = info.pipeline_layer_count;
  return check([&](eredu_error** error) {
    return eredu_plan_file_verify(&file, model.get(), &topology, &options, error);
  });
}

}  // namespace

CLI::App* add_inspect_command(CLI::App& app, InspectArgs& args, std::uint64_t& rank,
                              CLI::Option*& rank_flag, const CLI::Validator& decimal) {
  CLI::App* command =
      app.add_subcommand("inspect", "check a plan file and print its header, or one rank's layout");
  command->add_option("FILE", args.file, "a plan file (eredu plan --all-ranks --output FILE)")
      ->required();
  rank_flag = command->add_option("--rank", rank, "print this rank's layout")->check(decimal);
  command->add_option("--groups", args.groups,
                      "verify the file against this eredu.groups.v1 description, or - for stdin");
  command->add_option("--format", args.format, "table | json")
      ->check(CLI::IsMember({"table", "json"}))
      ->default_val("table");
  return command;
}

Result<int> run_inspect(const InspectArgs& args) {
  EREDU_TRY(file, open_plan_file(args.file));
  EREDU_TRY(info, plan_file_info(*file));
  if (args.groups) {
    EREDU_TRY(verify(*file, info, *args.groups));
  }
  const bool json_format = args.format == "json";
  if (args.rank) {
    EREDU_TRY(text, plan_file_rank_json(*file, *args.rank));
    EREDU_TRY(write_stdout(json_format ? text : layout_table(Json::parse(text))));
    return kExitOk;
  }
  EREDU_TRY(frames, checked_frames(*file, info.world_size));
  EREDU_TRY(write_stdout(json_format ? header_json(info, frames)
                                     : header_table(args.file, info, frames)));
  return kExitOk;
}

}  // namespace eredu::cli
