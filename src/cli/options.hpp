// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Flags shared by the subcommands: topology sizes, policy, residency
// (docs/residency.md), output format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/result.hpp"
#include "eredu/eredu.h"

namespace eredu::cli {

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
  bool rank_from_env = false;  // --rank-from-env: the launcher's rank
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
  std::uint64_t max_world = 64;  // eredu_fit_options' default
  std::string format = "table";
};

/// `eredu read-plan`.
struct ReadPlanArgs {
  std::string model;                  // a model folder or file: the checkpoint
  std::optional<std::string> groups;  // --groups FILE: the description, else MODEL's
  TopologyFlags topology;
  std::optional<std::uint64_t> rank;
  bool rank_from_env = false;  // --rank-from-env: the launcher's rank
  bool all_ranks = false;
  std::optional<std::uint64_t> pad_vocab;  // --pad-vocab M
  std::string policy = "require";
  std::string format = "table";
};

/// `eredu load`: read-plan's flags for one rank, and how to read.
struct LoadArgs {
  ReadPlanArgs plan;                     // format and all_ranks unused
  std::uint32_t threads = 0;             // --threads N; 0: one per hardware thread
  bool direct = false;                   // --direct: O_DIRECT reads
  bool cold = false;                     // --cold: drop the files' cached pages first
  std::optional<std::uint64_t> max_gap;  // --max-gap BYTES: coalescing threshold
};

/// `eredu residency`.
struct ResidencyArgs {
  std::string policy;  // a file, or "-" for standard input
};

/// The policy and residency a check or fit admits ranks under, as
/// eredu_check_options holds them: an eredu.residency.v1 document (none:
/// fully resident) and the device budget of a fully resident one.
struct Admission {
  std::optional<std::string> residency_json;
  std::optional<std::uint64_t> device_budget;

  /// The eredu_check_options for this admission; it borrows the document,
  /// so it is valid while this object lives.
  eredu_check_options check_options() const;
};

/// The axis sizes of the flags: --pp defaults to one stage per --pp-layers
/// count, else 1. The library checks them when planning (EREDU_E_ZERO_AXIS,
/// EREDU_E_WORLD_SIZE_OVERFLOW).
eredu_topology topology_of(const TopologyFlags& flags);

/// The plan options of `policy` with the flags' --pp-layers stages (the
/// library checks them when planning); they borrow `flags`, so they are
/// valid while it lives. Threads 0, no progress callback.
eredu_plan_options plan_options(eredu_policy policy, const TopologyFlags& flags);

/// `require`, `require-even`, `replicate-unsupported` (or the snake_case
/// spellings). Errors: EREDU_E_INVALID_ARGUMENT naming the accepted words.
Result<eredu_policy> policy_from(const std::string& flag);

/// The admission the residency flags select (docs/residency.md, "Flags of
/// `eredu check`"), checked in this order:
/// 1. `--residency`: fully-resident, layerwise-host, dense-disk-stream (or
///    the snake_case words), else EREDU_E_INVALID_ARGUMENT;
/// 2. the sizes (parse_size's EREDU_E_INVALID_ARGUMENT), device first;
/// 3. a flag the kind has no option for (fully resident: all but
///    --device-budget; layerwise host: --host-lookahead, --queue-capacity;
///    dense disk stream: --prefetch-depth) is EREDU_E_INVALID_ARGUMENT;
/// 4. the policy's construction, by eredu_residency_from_json: layerwise
///    host with the budgets given and prefetch depth 1 unless given
///    (EREDU_E_ZERO_PREFETCH_DEPTH); dense disk stream with device 4 GiB,
///    host 16 GiB, lookahead and queue 2 — 0 when the host budget is 0 —
///    unless given (EREDU_E_HOST_DISABLED_CONTROLS,
///    EREDU_E_ZERO_HOST_LOOKAHEAD, EREDU_E_ZERO_QUEUE_CAPACITY). Fully
///    resident takes the device budget as its admission budget (unbounded
///    unless given);
/// 5. `--expert-cache SIZE` (parse_size's EREDU_E_INVALID_ARGUMENT): the
///    routed experts are held apart in an expert cache of SIZE device bytes
///    (the document's `parameter_bank_cache`).
Result<Admission> admission_from(const ResidencyFlags& flags);

}  // namespace eredu::cli
