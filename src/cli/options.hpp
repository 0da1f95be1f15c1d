// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Flags shared by the subcommands: topology sizes, policy, residency
// (docs/residency.md), output format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "admission/fit.hpp"
#include "admission/policy.hpp"
#include "core/result.hpp"
#include "plan/layout.hpp"
#include "topology/topology.hpp"

namespace eredu {

/// `--tp --pp --ep --dp`, each 1 unless given, and `--pp-layers`.
struct TopologyFlags {
  std::uint64_t tensor = 1;
  std::optional<std::uint64_t> pipeline;  // default: one stage per --pp-layers count, else 1
  std::uint64_t expert = 1;
  std::uint64_t data = 1;
  std::vector<std::uint64_t> pipeline_layers;  // --pp-layers 8,8,7,7; empty: balanced
};

/// `eredu plan`.
struct PlanArgs {
  std::string groups;  // a file, or "-" for standard input
  TopologyFlags topology;
  std::optional<std::uint64_t> rank;
  bool all_ranks = false;
  std::optional<std::string> output;  // --output FILE: a plan file of every rank
  std::string policy = "require";
  std::string format = "table";
};

/// `eredu describe`.
struct DescribeArgs {
  std::string model_dir;
  std::optional<std::uint64_t> pad_vocab;  // --pad-vocab M
  bool config_only = false;                // --config-only
  std::string format = "json";
};

/// `--residency --device-budget --host-budget --prefetch-depth
/// --host-lookahead --queue-capacity --expert-cache`, as given (absent:
/// nullopt).
struct ResidencyFlags {
  std::string kind = "fully-resident";
  std::optional<std::string> device_budget;  // sizes, parsed by admission_policy_from
  std::optional<std::string> host_budget;
  std::optional<std::uint64_t> prefetch_depth;
  std::optional<std::uint64_t> host_lookahead;
  std::optional<std::uint64_t> queue_capacity;
  std::optional<std::string> expert_cache;  // a size
};

/// `eredu check`.
struct CheckArgs {
  std::string model_dir;
  TopologyFlags topology;
  std::optional<std::uint64_t> pad_vocab;  // --pad-vocab M
  bool config_only = false;                // --config-only
  std::string policy = "require";
  ResidencyFlags residency;
  std::string format = "table";
};

/// `eredu fit`: a model folder or a description (exactly one).
struct FitArgs {
  std::optional<std::string> model_dir;
  std::optional<std::string> groups;       // a file, or "-" for standard input
  std::optional<std::uint64_t> pad_vocab;  // --pad-vocab M
  bool config_only = false;                // --config-only (with MODEL_DIR)
  std::string policy = "require";
  ResidencyFlags residency;
  std::uint64_t max_world = kDefaultFitWorld;
  std::string format = "table";
};

/// `eredu read-plan`.
struct ReadPlanArgs {
  std::string model;                  // a model folder or file: the checkpoint
  std::optional<std::string> groups;  // --groups FILE: the description, else MODEL's
  TopologyFlags topology;
  std::optional<std::uint64_t> rank;
  bool all_ranks = false;
  std::optional<std::uint64_t> pad_vocab;  // --pad-vocab M
  std::string policy = "require";
  std::string format = "table";
};

/// `eredu residency`.
struct ResidencyArgs {
  std::string policy;  // a file, or "-" for standard input
};

/// The sizes, then the chosen pipeline stages. Errors: ZeroAxis,
/// WorldSizeOverflow (ParallelTopology::create), then InvalidArgument
/// (ParallelTopology::with_pipeline_layers).
Result<ParallelTopology> topology_from(const TopologyFlags& flags);

/// `require`, `require-even`, `replicate-unsupported` (or the snake_case
/// spellings).
/// Errors: InvalidArgument naming the accepted words.
Result<ShardingPolicy> policy_from(const std::string& flag);

/// The admission policy the residency flags select (docs/residency.md, "Flags
/// of `eredu check`"), checked in this order:
/// 1. `--residency`: fully-resident, layerwise-host, dense-disk-stream (or
///    the snake_case words), else InvalidArgument;
/// 2. the sizes (parse_size's InvalidArgument), device first;
/// 3. a flag the kind has no option for (fully resident: all but
///    --device-budget; layerwise host: --host-lookahead, --queue-capacity;
///    dense disk stream: --prefetch-depth) is InvalidArgument;
/// 4. the seed's construction: layerwise host OffloadConfig::create(device,
///    host, depth 1 unless given) (ZeroPrefetchDepth); dense disk stream
///    DenseDiskStreamLoadOptions::create(device 4 GiB, host 16 GiB, lookahead
///    and queue 2 — 0 when the host budget is 0 — unless given)
///    (HostDisabledControls, ZeroHostLookahead, ZeroQueueCapacity). Fully
///    resident takes the device budget as its admission budget (unbounded
///    unless given);
/// 5. `--expert-cache SIZE` (parse_size's InvalidArgument): the routed
///    experts are held apart in an expert cache of SIZE device bytes.
Result<AdmissionPolicy> admission_policy_from(const ResidencyFlags& flags);

}  // namespace eredu
