// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "topology/launch_env.hpp"

#include <fmt/format.h>

#include <array>
#include <string>

#include "core/checked.hpp"
#include "core/text.hpp"

namespace eredu {
namespace {

constexpr std::array<Launcher, 4> kPrecedence{Launcher::Torchrun, Launcher::OpenMpi, Launcher::Pmi,
                                              Launcher::Slurm};

/// The value of the first entry named `name`, as getenv finds it.
std::optional<std::string_view> lookup(std::span<const char* const> entries,
                                       std::string_view name) {
  for (const char* entry : entries) {
    const std::string_view text(entry);
    if (text.size() > name.size() && text.starts_with(name) && text[name.size()] == '=') {
      return text.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

/// A plain decimal number: one or more ASCII digits, fitting 64 bits.
Result<std::uint64_t> decimal(std::string_view name, std::string_view value, Launcher source) {
  const auto not_decimal = [&](std::string_view why) {
    return failf(Status::InvalidArgument, "{}={} ({}) {}", name, debug_quoted(value),
                 launcher_name(source), why);
  };
  if (value.empty()) return not_decimal("is not a plain decimal number");
  std::uint64_t number = 0;
  for (const char digit : value) {
    if (digit < '0' || digit > '9') return not_decimal("is not a plain decimal number");
    const auto shifted = checked_mul(number, 10);
    const auto next =
        shifted ? checked_add(*shifted, static_cast<std::uint64_t>(digit - '0')) : std::nullopt;
    if (!next) return not_decimal("does not fit 64 bits");
    number = *next;
  }
  return number;
}

std::string looked_for() {
  std::string text;
  for (const Launcher launcher : kPrecedence) {
    const LauncherVariables names = launcher_variables(launcher);
    if (!text.empty()) text += ", ";
    text += fmt::format("{} and {} ({})", names.rank, names.world_size, launcher_name(launcher));
  }
  return text;
}

Result<LaunchEnvironment> read_launcher(std::span<const char* const> entries, Launcher source,
                                        std::optional<std::string_view> rank_text,
                                        std::optional<std::string_view> world_text) {
  const LauncherVariables names = launcher_variables(source);
  if (!rank_text || !world_text) {
    const std::string_view set = rank_text ? names.rank : names.world_size;
    const std::string_view unset = rank_text ? names.world_size : names.rank;
    const std::string_view value = rank_text ? *rank_text : *world_text;
    return failf(Status::InvalidArgument, "{}={} is set ({}) but {} is not", set,
                 debug_quoted(value), launcher_name(source), unset);
  }
  LaunchEnvironment out;
  out.source = source;
  EREDU_TRY(rank, decimal(names.rank, *rank_text, source));
  EREDU_TRY(world_size, decimal(names.world_size, *world_text, source));
  out.rank = rank;
  out.world_size = world_size;
  if (!names.local_rank.empty()) {
    if (const auto local_text = lookup(entries, names.local_rank)) {
      EREDU_TRY(local_rank, decimal(names.local_rank, *local_text, source));
      out.local_rank = local_rank;
    }
  }
  EREDU_TRY(check_launch_values(out));
  return out;
}

}  // namespace

std::optional<Launcher> launcher_from_value(std::uint32_t value) {
  for (const Launcher launcher : kPrecedence) {
    if (static_cast<std::uint32_t>(launcher) == value) return launcher;
  }
  return std::nullopt;
}

std::string_view launcher_name(Launcher launcher) {
  switch (launcher) {
    case Launcher::Torchrun:
      return "torchrun";
    case Launcher::OpenMpi:
      return "Open MPI";
    case Launcher::Pmi:
      return "PMI";
    case Launcher::Slurm:
      return "Slurm";
  }
  return "unknown launcher";
}

LauncherVariables launcher_variables(Launcher launcher) {
  switch (launcher) {
    case Launcher::Torchrun:
      return {"RANK", "WORLD_SIZE", "LOCAL_RANK"};
    case Launcher::OpenMpi:
      return {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"};
    case Launcher::Pmi:
      return {"PMI_RANK", "PMI_SIZE", ""};
    case Launcher::Slurm:
      return {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"};
  }
  return {};
}

Result<LaunchEnvironment> read_launch_environment(std::span<const char* const> entries) {
  for (const Launcher launcher : kPrecedence) {
    const LauncherVariables names = launcher_variables(launcher);
    const auto rank = lookup(entries, names.rank);
    const auto world_size = lookup(entries, names.world_size);
    if (rank || world_size) return read_launcher(entries, launcher, rank, world_size);
  }
  return failf(Status::NotFound, "no launcher environment: none of {} is set", looked_for());
}

Result<void> check_launch_values(const LaunchEnvironment& environment) {
  const LauncherVariables names = launcher_variables(environment.source);
  const std::string_view source = launcher_name(environment.source);
  if (environment.world_size == 0) {
    return failf(Status::InvalidArgument, "{}=0 ({}): a world has at least one rank",
                 names.world_size, source);
  }
  if (environment.rank >= environment.world_size) {
    return failf(Status::InvalidArgument, "{}={} is not below {}={} ({})", names.rank,
                 environment.rank, names.world_size, environment.world_size, source);
  }
  if (environment.local_rank && *environment.local_rank >= environment.world_size) {
    const std::string local = names.local_rank.empty()
                                  ? fmt::format("local rank {}", *environment.local_rank)
                                  : fmt::format("{}={}", names.local_rank, *environment.local_rank);
    return failf(Status::InvalidArgument, "{} is not below {}={} ({})", local, names.world_size,
                 environment.world_size, source);
  }
  return outcome::success();
}

Result<void> check_launch_environment(const LaunchEnvironment& environment,
                                      const ParallelTopology& topology) {
  EREDU_TRY(check_launch_values(environment));
  if (environment.world_size == topology.world_size()) return outcome::success();
  return failf(Status::WorldSizeMismatch,
               "{}={} from {} but the topology tensor {} × pipeline {} × expert {} × data {} has "
               "{} rank{}",
               launcher_variables(environment.source).world_size, environment.world_size,
               launcher_name(environment.source), topology.tensor(), topology.pipeline(),
               topology.expert(), topology.data(), topology.world_size(),
               topology.world_size() == 1 ? "" : "s");
}

}  // namespace eredu
