// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// `eredu load` (docs/interchange.md): one rank's read plan executed into
// memory, and how fast.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include "cli/byte_units.hpp"
#include "cli/commands.hpp"
#include "cli/launch_rank.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/read_plan_steps.hpp"

namespace eredu::cli {
namespace {

using RankData = std::unique_ptr<eredu_rank_data, Freer<eredu_rank_data_free>>;

// --cold: asks the kernel to drop the cached pages of the plan's files, so
// that the read that follows comes from the disk (pages another process
// has mapped or dirtied stay).
Result<void> drop_cached_pages(const eredu_read_plan& plan) {
  for (std::size_t i = 0; i < eredu_read_plan_file_count(&plan); ++i) {
    const char* path = eredu_read_plan_file_path(&plan, i);
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return outcome::failure(
          Error{EREDU_E_IO, fmt::format("cannot read {}: {}", path, std::strerror(errno)), {}});
    }
    ::fdatasync(fd);
    const int advised = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
    if (advised != 0) {
      return outcome::failure(
          Error{EREDU_E_IO,
                fmt::format("cannot drop the cached pages of {}: {}", path, std::strerror(advised)),
                {}});
    }
  }
  return outcome::success();
}

}  // namespace

Result<int> run_load(const LoadArgs& args) {
  const ReadPlanArgs& flags = args.plan;
  EREDU_TRY(policy, policy_from(flags.policy));
  EREDU_TRY(checkpoint, open_checkpoint(flags.model));
  EREDU_TRY(model, read_plan_model(flags, *checkpoint));
  const eredu_topology topology = topology_of(flags.topology);
  const eredu_plan_options options = plan_options(policy, flags.topology);
  EREDU_TRY(rank, rank_to_plan(flags.rank, flags.rank_from_env, topology));
  EREDU_TRY(plan, read_plan_of(*model, topology, rank, options, *checkpoint));
  // The rank is planned: the topology is valid, its world size fits.
  const std::uint64_t world = topology.tensor * topology.pipeline * topology.expert * topology.data;
  if (args.cold) {
    EREDU_TRY(drop_cached_pages(*plan));
  }

  eredu_read_options read = EREDU_READ_OPTIONS_INIT;
  read.threads = args.threads;
  read.direct = args.direct ? 1 : 0;
  if (args.max_gap) read.max_gap_bytes = *args.max_gap;
  eredu_read_stats stats = EREDU_READ_STATS_INIT;
  eredu_rank_data* loaded = nullptr;
  double seconds = 0;
  {
    ByteProgress bar;
    read = bar.options(read);
    const auto start = std::chrono::steady_clock::now();
    EREDU_TRY(check([&](eredu_error** error) {
      return eredu_read_plan_load(plan.get(), &read, &loaded, &stats, error);
    }));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }  // the bar is erased
  const RankData data(loaded);

  const std::size_t files = eredu_read_plan_file_count(plan.get());
  const double rate = seconds > 0 ? static_cast<double>(stats.bytes_read) / seconds / 1e9 : 0;
  std::string out = fmt::format("rank {} of {}: {} tensors from {} file{}, {} thread{}{}\n", rank,
                                world, stats.tensors, files, files == 1 ? "" : "s", stats.threads,
                                stats.threads == 1 ? "" : "s", stats.direct ? ", O_DIRECT" : "");
  out += fmt::format("kept: {} bytes ({})\n", stats.bytes_kept, human_bytes(stats.bytes_kept));
  out += fmt::format("read: {} bytes ({}), {} more than kept\n", stats.bytes_read,
                     human_bytes(stats.bytes_read), stats.bytes_read - stats.bytes_kept);
  out += fmt::format("time: {:.3f} s, {:.2f} GB/s\n", seconds, rate);
  EREDU_TRY(write_stdout(out));
  return kExitOk;
}

}  // namespace eredu::cli
