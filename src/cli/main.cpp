// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The `eredu` command (docs/interchange.md): argument parsing and dispatch.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/plan_file_commands.hpp"
#include "cli/suggest.hpp"
#include "eredu/version.h"

namespace eredu::cli {
namespace {

// Errors found while parsing flags still follow --format json if it was given.
bool wants_json(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--format=json") == 0) return true;
    if (std::strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
        std::strcmp(argv[i + 1], "json") == 0) {
      return true;
    }
  }
  return false;
}

// CLI11 reads "-1" into an unsigned flag as 2^64 - 1, saturates overflow and
// takes "0x10" or "1e3"; sizes and ranks must be plain decimal uint64 values.
const CLI::Validator kDecimal(
    [](std::string& text) -> std::string {
      std::uint64_t value = 0;
      const char* end = text.data() + text.size();
      auto [stop, error] = std::from_chars(text.data(), end, value);
      const bool digits = text.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || error != std::errc() || stop != end) {
        return "must be a decimal integer from 0 to 18446744073709551615, got " + text;
      }
      return "";
    },
    "", "DECIMAL");

CLI::Option* add_count(CLI::App& command, const char* name, std::uint64_t& value,
                       const char* help) {
  return command.add_option(name, value, help)->check(kDecimal);
}

void add_topology_flags(CLI::App& command, TopologyFlags& flags, bool with_data) {
  add_count(command, "--tp", flags.tensor, "tensor-parallel size")->default_val(1);
  command.add_option("--pp", flags.pipeline, "pipeline-parallel size (default 1)")->check(kDecimal);
  command
      .add_option("--pp-layers", flags.pipeline_layers,
                  "decoder layers of each pipeline stage, e.g. 8,8,7,7 (default: balanced)")
      ->delimiter(',')
      ->check(kDecimal);
  add_count(command, "--ep", flags.expert, "expert-parallel size")->default_val(1);
  if (with_data) add_count(command, "--dp", flags.data, "data-parallel size")->default_val(1);
}

void add_pad_vocab_flag(CLI::App& command, std::optional<std::uint64_t>& multiple) {
  command
      .add_option("--pad-vocab", multiple,
                  "pad the vocabulary rows to a multiple of M x the tensor size")
      ->check(kDecimal);
}

CLI::Option* add_config_only_flag(CLI::App& command, bool& config_only) {
  return command.add_flag("--config-only", config_only,
                          "describe from config.json alone, without the weight index (unverified)");
}

CLI::Option* add_rank_from_env_flag(CLI::App& command, bool& from_env) {
  return command.add_flag("--rank-from-env", from_env,
                          "the rank and world size from torchrun, Open MPI, PMI or Slurm "
                          "(RANK/WORLD_SIZE, OMPI_COMM_WORLD_RANK/_SIZE, PMI_RANK/_SIZE, "
                          "SLURM_PROCID/SLURM_NTASKS); the world size must be the topology's");
}

void add_policy_flag(CLI::App& command, std::string& policy) {
  command.add_option("--policy", policy, "require | require-even | replicate-unsupported")
      ->default_val("require");
}

// The residency flags of `eredu check`, kept as given: which were given
// decides the options (docs/residency.md, "Flags of `eredu check`").
class ResidencyFlagOptions {
 public:
  ResidencyFlagOptions(CLI::App& command, ResidencyFlags& flags) : flags_(flags) {
    command
        .add_option("--residency", flags.kind,
                    "fully-resident | layerwise-host | dense-disk-stream")
        ->default_val("fully-resident");
    device_ = command.add_option("--device-budget", device_budget_,
                                 "device budget: bytes, or with KiB MiB GiB TiB / KB MB GB TB");
    host_ = command.add_option("--host-budget", host_budget_,
                               "host budget (layerwise-host, dense-disk-stream)");
    depth_ = add_count(command, "--prefetch-depth", prefetch_depth_,
                       "device window in layer units (layerwise-host)");
    lookahead_ = add_count(command, "--host-lookahead", host_lookahead_,
                           "protected host units (dense-disk-stream)");
    queue_ = add_count(command, "--queue-capacity", queue_capacity_,
                       "background host materializations (dense-disk-stream)");
    expert_cache_ = command.add_option(
        "--expert-cache", expert_cache_bytes_,
        "hold the routed experts apart in an expert cache of this many device bytes");
  }

  /// Copies the flags that were given into `flags`.
  void collect() const {
    if (device_->count() > 0) flags_.device_budget = device_budget_;
    if (host_->count() > 0) flags_.host_budget = host_budget_;
    if (depth_->count() > 0) flags_.prefetch_depth = prefetch_depth_;
    if (lookahead_->count() > 0) flags_.host_lookahead = host_lookahead_;
    if (queue_->count() > 0) flags_.queue_capacity = queue_capacity_;
    if (expert_cache_->count() > 0) flags_.expert_cache = expert_cache_bytes_;
  }

 private:
  ResidencyFlags& flags_;
  std::string device_budget_;
  std::string host_budget_;
  std::uint64_t prefetch_depth_ = 0;
  std::uint64_t host_lookahead_ = 0;
  std::uint64_t queue_capacity_ = 0;
  std::string expert_cache_bytes_;
  CLI::Option* device_ = nullptr;
  CLI::Option* host_ = nullptr;
  CLI::Option* depth_ = nullptr;
  CLI::Option* lookahead_ = nullptr;
  CLI::Option* queue_ = nullptr;
  CLI::Option* expert_cache_ = nullptr;
};

// Under every help text (docs/interchange.md, "Errors and exit codes").
constexpr const char* kExitStatus =
    "Exit status:\n"
    "  0  success\n"
    "  1  a file or standard input could not be read, or standard output could not be written\n"
    "  2  invalid input or flags\n"
    "  3  coverage problems, or a rank that does not fit (the output is written first)\n"
    "  4  an internal error, or out of memory";

// A command's help ends with an example of it, then the exit statuses.
void add_example(CLI::App& command, const char* example) {
  command.footer(std::string("Example:\n  ") + example + "\n\n" + kExitStatus);
}

// `eredu --version`: the command, the library it loaded, what that was
// built with, and the command's own argument parser.
std::string version_text() {
  return fmt::format("eredu {}\nliberedu {} ({})\nCLI11 {}", EREDU_VERSION_STRING,
                     eredu_version_string(), eredu_dependency_versions(), CLI11_VERSION);
}

int run(int argc, char** argv) {
  const bool json = wants_json(argc, argv);
  CLI::App app{
      "eredu: which slice of every checkpoint tensor each rank of a tensor x pipeline "
      "x expert x data parallel topology loads",
      "eredu"};
  app.set_version_flag("--version", version_text,
                       "print the command's and the library's versions and the library's "
                       "dependencies");
  app.require_subcommand(1);
  app.footer(kExitStatus);

  PlanArgs plan;
  CLI::App* plan_command =
      app.add_subcommand("plan", "plan one rank, or every rank with coverage, of a description");
  plan_command->add_option("--groups", plan.groups, "eredu.groups.v1 file, or - for stdin")
      ->required();
  add_topology_flags(*plan_command, plan.topology, true);
  std::uint64_t rank = 0;
  CLI::Option* rank_flag = add_count(*plan_command, "--rank", rank, "the global rank to plan");
  CLI::Option* all_flag =
      plan_command->add_flag("--all-ranks", plan.all_ranks, "plan every rank, verify coverage");
  rank_flag->excludes(all_flag);
  add_rank_from_env_flag(*plan_command, plan.rank_from_env)
      ->excludes(rank_flag)
      ->excludes(all_flag);
  plan_command
      ->add_option("--output", plan.output, "with --all-ranks: write every rank to this plan file")
      ->needs(all_flag);
  add_policy_flag(*plan_command, plan.policy);
  plan_command->add_option("--format", plan.format, "table | json")
      ->check(CLI::IsMember({"table", "json"}))
      ->default_val("table");

  DescribeArgs describe;
  CLI::App* describe_command =
      app.add_subcommand("describe", "describe a model folder or GGUF file as eredu.groups.v1");
  describe_command->add_option("MODEL", describe.model_dir, "folder with config.json, or .gguf")
      ->required();
  add_pad_vocab_flag(*describe_command, describe.pad_vocab);
  add_config_only_flag(*describe_command, describe.config_only);
  describe_command->add_option("--format", describe.format, "json")
      ->check(CLI::IsMember({"json"}))
      ->default_val("json");

  CheckArgs check;
  CLI::App* check_command = app.add_subcommand(
      "check", "describe a model folder, plan every rank, verify coverage and admit each rank");
  check_command->add_option("MODEL_DIR", check.model_dir, "folder with config.json, or .gguf")
      ->required();
  add_topology_flags(*check_command, check.topology, false);
  add_pad_vocab_flag(*check_command, check.pad_vocab);
  add_config_only_flag(*check_command, check.config_only);
  add_policy_flag(*check_command, check.policy);
  const ResidencyFlagOptions residency_flags(*check_command, check.residency);
  check_command->add_option("--format", check.format, "table | json")
      ->check(CLI::IsMember({"table", "json"}))
      ->default_val("table");

  FitArgs fit;
  CLI::App* fit_command = app.add_subcommand(
      "fit", "plan and admit every tensor x pipeline x expert topology up to a world size");
  CLI::Option* fit_dir =
      fit_command->add_option("MODEL_DIR", fit.model_dir, "folder with config.json, or .gguf");
  CLI::Option* fit_groups =
      fit_command->add_option("--groups", fit.groups, "eredu.groups.v1 file, or - for stdin");
  fit_dir->excludes(fit_groups);
  add_pad_vocab_flag(*fit_command, fit.pad_vocab);
  add_config_only_flag(*fit_command, fit.config_only)->excludes(fit_groups);
  add_policy_flag(*fit_command, fit.policy);
  const ResidencyFlagOptions fit_residency_flags(*fit_command, fit.residency);
  add_count(*fit_command, "--max-world", fit.max_world, "largest world size searched")
      ->default_val(64);
  fit_command->add_option("--format", fit.format, "table | json")
      ->check(CLI::IsMember({"table", "json"}))
      ->default_val("table");

  ReadPlanArgs read_plan;
  CLI::App* read_plan_command =
      app.add_subcommand("read-plan", "the byte extents of the checkpoint files each rank reads");
  read_plan_command
      ->add_option("MODEL", read_plan.model,
                   "model folder with its shards, .gguf or .safetensors file")
      ->required();
  read_plan_command->add_option("--groups", read_plan.groups,
                                "eredu.groups.v1 file describing MODEL's tensors");
  add_topology_flags(*read_plan_command, read_plan.topology, true);
  std::uint64_t read_rank = 0;
  CLI::Option* read_rank_flag =
      add_count(*read_plan_command, "--rank", read_rank, "the global rank to plan");
  CLI::Option* read_all_flag =
      read_plan_command->add_flag("--all-ranks", read_plan.all_ranks, "every rank");
  read_rank_flag->excludes(read_all_flag);
  add_rank_from_env_flag(*read_plan_command, read_plan.rank_from_env)
      ->excludes(read_rank_flag)
      ->excludes(read_all_flag);
  add_pad_vocab_flag(*read_plan_command, read_plan.pad_vocab);
  add_policy_flag(*read_plan_command, read_plan.policy);
  read_plan_command->add_option("--format", read_plan.format, "table | json")
      ->check(CLI::IsMember({"table", "json"}))
      ->default_val("table");

  LoadArgs load;
  CLI::App* load_command = app.add_subcommand(
      "load", "read one rank's tensors from the checkpoint into memory, and how fast");
  load_command
      ->add_option("MODEL", load.plan.model,
                   "model folder with its shards, .gguf or .safetensors file")
      ->required();
  load_command->add_option("--groups", load.plan.groups,
                           "eredu.groups.v1 file describing MODEL's tensors");
  add_topology_flags(*load_command, load.plan.topology, true);
  std::uint64_t load_rank = 0;
  CLI::Option* load_rank_flag =
      add_count(*load_command, "--rank", load_rank, "the global rank to load");
  add_rank_from_env_flag(*load_command, load.plan.rank_from_env)->excludes(load_rank_flag);
  add_pad_vocab_flag(*load_command, load.plan.pad_vocab);
  add_policy_flag(*load_command, load.plan.policy);
  load_command
      ->add_option("--threads", load.threads,
                   "threads reading (default 0: one per hardware thread)")
      ->check(kDecimal)
      ->check(CLI::Range(0u, 4096u));
  load_command->add_flag("--direct", load.direct,
                         "read with O_DIRECT, bypassing the page cache (buffered where the file "
                         "system refuses it)");
  load_command->add_flag("--cold", load.cold,
                         "drop the files' cached pages first, to measure reads from the disk");
  load_command
      ->add_option("--max-gap", load.max_gap,
                   "read rows whose gaps are at most this many bytes as one span (default 0: "
                   "copy rows from a mapping, reading only kept bytes)")
      ->check(kDecimal);

  ResidencyArgs residency;
  CLI::App* residency_command = app.add_subcommand(
      "residency", "validate an eredu.residency.v1 weight-residency policy, print what it derives");
  residency_command
      ->add_option("--policy", residency.policy, "eredu.residency.v1 file, or - for stdin")
      ->required();

  InspectArgs inspect;
  std::uint64_t inspect_rank = 0;
  CLI::Option* inspect_rank_flag = nullptr;
  CLI::App* inspect_command =
      add_inspect_command(app, inspect, inspect_rank, inspect_rank_flag, kDecimal);
  add_example(*plan_command, "eredu plan --groups llama.groups.json --tp 8 --all-ranks");
  add_example(*describe_command, "eredu describe ./Llama-3.1-70B > llama.groups.json");
  describe_command->footer(fmt::format("Model types (config.json model_type): {}\n\n{}",
                                       eredu_model_types(), describe_command->get_footer()));
  add_example(*check_command, "eredu check ./Llama-3.1-70B --tp 4 --device-budget 80GiB");
  add_example(*fit_command, "eredu fit ./Llama-3.1-70B --device-budget 80GiB --max-world 16");
  add_example(*read_plan_command, "eredu read-plan ./Llama-3.1-70B --tp 8 --rank 3");
  add_example(*load_command, "eredu load ./Llama-3.1-70B --tp 8 --rank 3 --cold");
  add_example(*residency_command, "eredu residency --policy dense.residency.json");
  add_example(*inspect_command, "eredu inspect world.eredu --rank 3 --format json");

  if (argc == 1) {  // bare `eredu`: its usage
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    std::string message = error.what();
    // CLI11 says only "A subcommand is required" for a word it does not know.
    if (argv[1][0] != '-' &&
        app.get_subcommands([&](const CLI::App* command) { return command->get_name() == argv[1]; })
            .empty()) {
      message = fmt::format("unknown command `{}`", argv[1]);
    }
    if (const auto meant = suggestion(app, argc, argv)) message += "; did you mean " + *meant + "?";
    return report_error(Error{EREDU_E_INVALID_ARGUMENT, std::move(message), {}}, json);
  }
  if (*plan_command && rank_flag->count() == 0 && !plan.rank_from_env && !plan.all_ranks) {
    return report_error(
        {EREDU_E_INVALID_ARGUMENT, "plan needs --rank R, --rank-from-env or --all-ranks", {}},
        json);
  }
  if (rank_flag->count() > 0) plan.rank = rank;
  if (inspect_rank_flag->count() > 0) inspect.rank = inspect_rank;
  if (*read_plan_command && read_rank_flag->count() == 0 && !read_plan.rank_from_env &&
      !read_plan.all_ranks) {
    return report_error(
        {EREDU_E_INVALID_ARGUMENT, "read-plan needs --rank R, --rank-from-env or --all-ranks", {}},
        json);
  }
  if (read_rank_flag->count() > 0) read_plan.rank = read_rank;
  if (*load_command && load_rank_flag->count() == 0 && !load.plan.rank_from_env) {
    return report_error({EREDU_E_INVALID_ARGUMENT, "load needs --rank R or --rank-from-env", {}},
                        json);
  }
  if (load_rank_flag->count() > 0) load.plan.rank = load_rank;
  if (*fit_command && !fit.model_dir && !fit.groups) {
    return report_error({EREDU_E_INVALID_ARGUMENT, "fit needs MODEL_DIR or --groups FILE", {}},
                        json);
  }
  residency_flags.collect();
  fit_residency_flags.collect();

  Result<int> status = *plan_command        ? run_plan(plan)
                       : *describe_command  ? run_describe(describe)
                       : *residency_command ? run_residency(residency)
                       : *inspect_command   ? run_inspect(inspect)
                       : *read_plan_command ? run_read_plan(read_plan)
                       : *load_command      ? run_load(load)
                       : *fit_command       ? run_fit(fit)
                                            : run_check(check);
  if (!status) return report_error(status.error(), json);
  return status.value();
}

}  // namespace
}  // namespace eredu::cli

int main(int argc, char** argv) {
  // Nothing may escape as an uncaught exception: report it as
  // docs/interchange.md ("Errors and exit codes") says.
  try {
    return eredu::cli::run(argc, argv);
  } catch (const std::bad_alloc&) {
    return eredu::cli::report_error({EREDU_E_OUT_OF_MEMORY, "out of memory", {}},
                                    eredu::cli::wants_json(argc, argv));
  } catch (const std::exception& error) {
    return eredu::cli::report_error({EREDU_E_INTERNAL, error.what(), {}},
                                    eredu::cli::wants_json(argc, argv));
  }
}
