// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Launch environments (docs/launch.md): each launcher's variables, the
// precedence between launchers, every refusal with its exact message, and
// the world-size check against a topology.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "topology/launch_env.hpp"

using namespace eredu;

namespace {

Result<LaunchEnvironment> read(std::initializer_list<const char*> entries) {
  const std::vector<const char*> list(entries);
  return read_launch_environment(list);
}

/// The refusal of `result`, as "code: message".
template <class T>
std::string refusal(const Result<T>& result) {
  REQUIRE_FALSE(result);
  return std::string(status_name(static_cast<std::int32_t>(result.error().code))) + ": " +
         result.error().message;
}

ParallelTopology topology(std::uint64_t t, std::uint64_t p, std::uint64_t e, std::uint64_t d) {
  auto created = ParallelTopology::create(t, p, e, d);
  REQUIRE(created);
  return created.value();
}

}  // namespace

TEST_CASE("each launcher's variables give rank, world size and local rank") {
  const auto torchrun = read({"PATH=/usr/bin", "RANK=3", "WORLD_SIZE=8", "LOCAL_RANK=1"});
  REQUIRE(torchrun);
  CHECK(torchrun.value().source == Launcher::Torchrun);
  CHECK(torchrun.value().rank == 3);
  CHECK(torchrun.value().world_size == 8);
  CHECK(torchrun.value().local_rank == std::optional<std::uint64_t>(1));

  const auto mpi =
      read({"OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_LOCAL_RANK=0"});
  REQUIRE(mpi);
  CHECK(mpi.value().source == Launcher::OpenMpi);
  CHECK(mpi.value().rank == 0);
  CHECK(mpi.value().world_size == 4);
  CHECK(mpi.value().local_rank == std::optional<std::uint64_t>(0));

  const auto pmi = read({"PMI_RANK=5", "PMI_SIZE=6"});
  REQUIRE(pmi);
  CHECK(pmi.value().source == Launcher::Pmi);
  CHECK(pmi.value().rank == 5);
  CHECK(pmi.value().world_size == 6);
  CHECK_FALSE(pmi.value().local_rank);

  const auto slurm = read({"SLURM_PROCID=15", "SLURM_NTASKS=16"});
  REQUIRE(slurm);
  CHECK(slurm.value().source == Launcher::Slurm);
  CHECK(slurm.value().rank == 15);
  CHECK(slurm.value().world_size == 16);
  CHECK_FALSE(slurm.value().local_rank);
}

TEST_CASE("the most specific launcher wins: torchrun, Open MPI, PMI, Slurm") {
  // mpirun inside a Slurm allocation: the allocation's SLURM_* are inherited.
  const auto mpi = read(
      {"SLURM_PROCID=0", "SLURM_NTASKS=1", "OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4"});
  REQUIRE(mpi);
  CHECK(mpi.value().source == Launcher::OpenMpi);
  CHECK(mpi.value().rank == 2);

  // torchrun under srun: the agent's SLURM_* and PMI_* describe the node.
  const auto torchrun =
      read({"PMI_RANK=1", "PMI_SIZE=2", "SLURM_PROCID=1", "SLURM_NTASKS=2",
            "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2", "RANK=9", "WORLD_SIZE=16"});
  REQUIRE(torchrun);
  CHECK(torchrun.value().source == Launcher::Torchrun);
  CHECK(torchrun.value().rank == 9);
  CHECK(torchrun.value().world_size == 16);

  const auto pmi = read({"SLURM_PROCID=7", "SLURM_NTASKS=8", "PMI_RANK=3", "PMI_SIZE=4"});
  REQUIRE(pmi);
  CHECK(pmi.value().source == Launcher::Pmi);
  CHECK(pmi.value().rank == 3);

  // The chosen launcher's errors are reported; a lower one is not a fallback.
  CHECK(refusal(read({"RANK=1", "SLURM_PROCID=1", "SLURM_NTASKS=2"})) ==
        "EREDU_E_INVALID_ARGUMENT: RANK=\"1\" is set (torchrun) but WORLD_SIZE is not");
}

TEST_CASE("the first entry of a name counts; entries without '=' name nothing") {
  const auto first = read({"RANK", "RANK=", "WORLD_SIZE=2", "RANK=1"});
  CHECK(refusal(first) ==
        "EREDU_E_INVALID_ARGUMENT: RANK=\"\" (torchrun) is not a plain "
        "decimal number");
  const auto skipped = read({"RANK", "RANKS=4", "RANK=1", "WORLD_SIZE=2", "WORLD_SIZE=9"});
  REQUIRE(skipped);
  CHECK(skipped.value().rank == 1);
  CHECK(skipped.value().world_size == 2);
}

TEST_CASE("no launcher variable is NotFound, listing what was looked for") {
  CHECK(refusal(read({"PATH=/usr/bin", "LOCAL_RANK=0", "SLURM_LOCALID=0"})) ==
        "EREDU_E_NOT_FOUND: no launcher environment: none of RANK and WORLD_SIZE (torchrun), "
        "OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE (Open MPI), PMI_RANK and PMI_SIZE (PMI), "
        "SLURM_PROCID and SLURM_NTASKS (Slurm) is set");
  CHECK(refusal(read({})).starts_with("EREDU_E_NOT_FOUND: no launcher environment"));
}

TEST_CASE("half a pair, bad numbers and ranks past the world are refused by name") {
  CHECK(refusal(read({"OMPI_COMM_WORLD_SIZE=8"})) ==
        "EREDU_E_INVALID_ARGUMENT: OMPI_COMM_WORLD_SIZE=\"8\" is set (Open MPI) but "
        "OMPI_COMM_WORLD_RANK is not");
  CHECK(refusal(read({"PMI_RANK=0"})) ==
        "EREDU_E_INVALID_ARGUMENT: PMI_RANK=\"0\" is set (PMI) but PMI_SIZE is not");
  for (const char* value : {"WORLD_SIZE=+8", "WORLD_SIZE= 8", "WORLD_SIZE=8 ", "WORLD_SIZE=0x8",
                            "WORLD_SIZE=-1", "WORLD_SIZE=8.0", "WORLD_SIZE=eight"}) {
    INFO(value);
    const std::string text(value);
    CHECK(refusal(read({"RANK=0", value})) == "EREDU_E_INVALID_ARGUMENT: WORLD_SIZE=\"" +
                                                  text.substr(11) +
                                                  "\" (torchrun) is not a plain decimal number");
  }
  CHECK(refusal(read({"RANK=0", "WORLD_SIZE=18446744073709551616"})) ==
        "EREDU_E_INVALID_ARGUMENT: WORLD_SIZE=\"18446744073709551616\" (torchrun) does not fit "
        "64 bits");
  const auto largest = read({"RANK=18446744073709551614", "WORLD_SIZE=18446744073709551615"});
  REQUIRE(largest);
  CHECK(largest.value().world_size == UINT64_MAX);
  CHECK(refusal(read({"SLURM_PROCID=0", "SLURM_NTASKS=0"})) ==
        "EREDU_E_INVALID_ARGUMENT: SLURM_NTASKS=0 (Slurm): a world has at least one rank");
  CHECK(refusal(read({"RANK=8", "WORLD_SIZE=8"})) ==
        "EREDU_E_INVALID_ARGUMENT: RANK=8 is not below WORLD_SIZE=8 (torchrun)");
  CHECK(refusal(read({"SLURM_PROCID=1", "SLURM_NTASKS=4", "SLURM_LOCALID=4"})) ==
        "EREDU_E_INVALID_ARGUMENT: SLURM_LOCALID=4 is not below SLURM_NTASKS=4 (Slurm)");
  CHECK(refusal(read({"RANK=1", "WORLD_SIZE=4", "LOCAL_RANK=one"})) ==
        "EREDU_E_INVALID_ARGUMENT: LOCAL_RANK=\"one\" (torchrun) is not a plain decimal number");
  // Bytes that are not UTF-8 are shown as U+FFFD, so the message stays UTF-8.
  CHECK(refusal(read({"RANK=\xff", "WORLD_SIZE=4"})) ==
        "EREDU_E_INVALID_ARGUMENT: RANK=\"\\u{fffd}\" (torchrun) is not a plain decimal number");
}

TEST_CASE("the launcher's world size must be the topology's") {
  const LaunchEnvironment eight{Launcher::Torchrun, 1, 8, std::nullopt};
  CHECK(check_launch_environment(eight, topology(4, 2, 1, 1)));
  CHECK(check_launch_environment(eight, topology(2, 1, 2, 2)));
  CHECK(refusal(check_launch_environment(eight, topology(4, 1, 1, 1))) ==
        "EREDU_E_WORLD_SIZE_MISMATCH: WORLD_SIZE=8 from torchrun but the topology tensor 4 × "
        "pipeline 1 × expert 1 × data 1 has 4 ranks");
  const LaunchEnvironment four{Launcher::OpenMpi, 3, 4, 0};
  CHECK(refusal(check_launch_environment(four, topology(4, 2, 1, 1))) ==
        "EREDU_E_WORLD_SIZE_MISMATCH: OMPI_COMM_WORLD_SIZE=4 from Open MPI but the topology "
        "tensor 4 × pipeline 2 × expert 1 × data 1 has 8 ranks");
  const LaunchEnvironment two{Launcher::Pmi, 0, 2, std::nullopt};
  CHECK(refusal(check_launch_environment(two, topology(1, 1, 1, 1))) ==
        "EREDU_E_WORLD_SIZE_MISMATCH: PMI_SIZE=2 from PMI but the topology tensor 1 × pipeline "
        "1 × expert 1 × data 1 has 1 rank");
  // A value filled by hand is checked as a reader would.
  const LaunchEnvironment past{Launcher::Slurm, 4, 4, std::nullopt};
  CHECK(refusal(check_launch_environment(past, topology(4, 1, 1, 1))) ==
        "EREDU_E_INVALID_ARGUMENT: SLURM_PROCID=4 is not below SLURM_NTASKS=4 (Slurm)");
  const LaunchEnvironment local{Launcher::Pmi, 0, 2, 2};
  CHECK(refusal(check_launch_environment(local, topology(2, 1, 1, 1))) ==
        "EREDU_E_INVALID_ARGUMENT: local rank 2 is not below PMI_SIZE=2 (PMI)");
}
