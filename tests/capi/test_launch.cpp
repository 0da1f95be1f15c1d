// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu/launch.h through the public header only: both readers, the check
// against a topology with its exact messages, and the sized-struct rules.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "capi_support.hpp"
#include "sized_checks.hpp"

using namespace capi_test;

namespace {

/// The outcome of a reader: its status, struct and error.
struct Read {
  eredu_status status = EREDU_OK;
  eredu_launch_env env = EREDU_LAUNCH_ENV_INIT;
  eredu_status code = EREDU_OK;
  std::string message;
};

Read from_list(std::initializer_list<const char*> entries) {
  std::vector<const char*> list(entries);
  list.push_back(nullptr);
  Read read;
  ErrorSlot error;
  read.status = eredu_launch_env_from_list(list.data(), &read.env, error.slot());
  if (read.status != EREDU_OK) {
    read.code = error.code();
    read.message = error.message();
  } else {
    CHECK(error.get() == nullptr);
  }
  return read;
}

/// eredu_launch_env_check's status and message ("" on success).
std::pair<eredu_status, std::string> check(const eredu_launch_env& env,
                                           const eredu_topology& topology) {
  ErrorSlot error;
  const eredu_status status = eredu_launch_env_check(&env, &topology, error.slot());
  return {status, status == EREDU_OK ? std::string() : error.message()};
}

const char* const kLauncherVariables[] = {"RANK",
                                          "WORLD_SIZE",
                                          "LOCAL_RANK",
                                          "OMPI_COMM_WORLD_RANK",
                                          "OMPI_COMM_WORLD_SIZE",
                                          "OMPI_COMM_WORLD_LOCAL_RANK",
                                          "PMI_RANK",
                                          "PMI_SIZE",
                                          "SLURM_PROCID",
                                          "SLURM_NTASKS",
                                          "SLURM_LOCALID"};

}  // namespace

TEST_SUITE("capi.launch") {
  TEST_CASE("a list gives the source, rank, world size and local rank") {
    const Read torchrun = from_list({"HOME=/root", "RANK=3", "WORLD_SIZE=8", "LOCAL_RANK=1"});
    REQUIRE(torchrun.status == EREDU_OK);
    CHECK(torchrun.env.struct_size == sizeof(eredu_launch_env));
    CHECK(torchrun.env.source == EREDU_LAUNCHER_TORCHRUN);
    CHECK(torchrun.env.rank == 3);
    CHECK(torchrun.env.world_size == 8);
    CHECK(torchrun.env.has_local_rank == 1);
    CHECK(torchrun.env.local_rank == 1);

    const Read mpi = from_list({"SLURM_PROCID=0", "SLURM_NTASKS=1", "OMPI_COMM_WORLD_RANK=6",
                                "OMPI_COMM_WORLD_SIZE=8", "OMPI_COMM_WORLD_LOCAL_RANK=6"});
    REQUIRE(mpi.status == EREDU_OK);
    CHECK(mpi.env.source == EREDU_LAUNCHER_OPEN_MPI);
    CHECK(mpi.env.rank == 6);
    CHECK(mpi.env.world_size == 8);
    CHECK(mpi.env.has_local_rank == 1);
    CHECK(mpi.env.local_rank == 6);

    const Read pmi = from_list({"SLURM_PROCID=2", "SLURM_NTASKS=4", "PMI_RANK=2", "PMI_SIZE=4"});
    REQUIRE(pmi.status == EREDU_OK);
    CHECK(pmi.env.source == EREDU_LAUNCHER_PMI);
    CHECK(pmi.env.has_local_rank == 0);
    CHECK(pmi.env.local_rank == 0);

    const Read slurm = from_list({"SLURM_PROCID=2", "SLURM_NTASKS=4", "SLURM_LOCALID=0"});
    REQUIRE(slurm.status == EREDU_OK);
    CHECK(slurm.env.source == EREDU_LAUNCHER_SLURM);
    CHECK(slurm.env.rank == 2);
    CHECK(slurm.env.world_size == 4);
    CHECK(slurm.env.has_local_rank == 1);
  }

  TEST_CASE("a refused list names the variable and zeroes the struct") {
    const Read none = from_list({"PATH=/bin"});
    CHECK(none.status == EREDU_E_NOT_FOUND);
    CHECK(none.code == EREDU_E_NOT_FOUND);
    CHECK(none.message ==
          "no launcher environment: none of RANK and WORLD_SIZE (torchrun), OMPI_COMM_WORLD_RANK "
          "and OMPI_COMM_WORLD_SIZE (Open MPI), PMI_RANK and PMI_SIZE (PMI), SLURM_PROCID and "
          "SLURM_NTASKS (Slurm) is set");
    CHECK(none.env.struct_size == sizeof(eredu_launch_env));
    CHECK(none.env.source == 0);

    const Read half = from_list({"WORLD_SIZE=8"});
    CHECK(half.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(half.message == "WORLD_SIZE=\"8\" is set (torchrun) but RANK is not");

    const Read past = from_list({"RANK=8", "WORLD_SIZE=8", "LOCAL_RANK=0"});
    CHECK(past.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(past.message == "RANK=8 is not below WORLD_SIZE=8 (torchrun)");
    CHECK(past.env.rank == 0);
    CHECK(past.env.world_size == 0);
    CHECK(past.env.has_local_rank == 0);

    const Read word = from_list({"PMI_RANK=0", "PMI_SIZE=four"});
    CHECK(word.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(word.message == "PMI_SIZE=\"four\" (PMI) is not a plain decimal number");

    eredu_launch_env env = EREDU_LAUNCH_ENV_INIT;
    CHECK(eredu_launch_env_from_list(nullptr, &env, nullptr) == EREDU_E_NULL_ARGUMENT);
    const char* const empty[] = {nullptr};
    CHECK(eredu_launch_env_from_list(empty, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_launch_env_from_list(empty, &env, nullptr) == EREDU_E_NOT_FOUND);
  }

  TEST_CASE("the process environment is read like a list") {
    for (const char* name : kLauncherVariables) REQUIRE(unsetenv(name) == 0);
    eredu_launch_env env = EREDU_LAUNCH_ENV_INIT;
    ErrorSlot error;
    CHECK(eredu_launch_env_from_environ(&env, error.slot()) == EREDU_E_NOT_FOUND);
    CHECK(error.code() == EREDU_E_NOT_FOUND);

    REQUIRE(setenv("SLURM_PROCID", "1", 1) == 0);
    REQUIRE(setenv("SLURM_NTASKS", "2", 1) == 0);
    REQUIRE(setenv("OMPI_COMM_WORLD_RANK", "5", 1) == 0);
    REQUIRE(setenv("OMPI_COMM_WORLD_SIZE", "8", 1) == 0);
    REQUIRE(eredu_launch_env_from_environ(&env, error.slot()) == EREDU_OK);
    CHECK(error.get() == nullptr);
    CHECK(env.source == EREDU_LAUNCHER_OPEN_MPI);
    CHECK(env.rank == 5);
    CHECK(env.world_size == 8);
    CHECK(env.has_local_rank == 0);

    REQUIRE(setenv("OMPI_COMM_WORLD_SIZE", "5", 1) == 0);
    CHECK(eredu_launch_env_from_environ(&env, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() ==
          "OMPI_COMM_WORLD_RANK=5 is not below OMPI_COMM_WORLD_SIZE=5 (Open MPI)");
    CHECK(env.source == 0);
    for (const char* name : kLauncherVariables) REQUIRE(unsetenv(name) == 0);
  }

  TEST_CASE("the check refuses another world size than the topology's") {
    const Read eight = from_list({"RANK=1", "WORLD_SIZE=8"});
    REQUIRE(eight.status == EREDU_OK);
    CHECK(check(eight.env, topology_of(4, 2)) ==
          std::pair<eredu_status, std::string>{EREDU_OK, ""});
    CHECK(check(eight.env, topology_of(4)) ==
          std::pair<eredu_status, std::string>{
              EREDU_E_WORLD_SIZE_MISMATCH,
              "WORLD_SIZE=8 from torchrun but the topology tensor 4 × pipeline 1 × expert 1 × "
              "data 1 has 4 ranks"});
    CHECK(check(eight.env, topology_of(2, 2, 2, 2)).first == EREDU_E_WORLD_SIZE_MISMATCH);
    CHECK(check(eight.env, topology_of(0)).first == EREDU_E_ZERO_AXIS);

    eredu_launch_env bad = eight.env;
    bad.source = 9;
    CHECK(check(bad, topology_of(8)) ==
          std::pair<eredu_status, std::string>{EREDU_E_INVALID_ARGUMENT,
                                               "unknown env->source value 9"});
    bad = eight.env;
    bad.has_local_rank = 2;
    CHECK(check(bad, topology_of(8)).first == EREDU_E_INVALID_ARGUMENT);
    bad = eight.env;
    bad.rank = 8;
    CHECK(check(bad, topology_of(8)) ==
          std::pair<eredu_status, std::string>{EREDU_E_INVALID_ARGUMENT,
                                               "RANK=8 is not below WORLD_SIZE=8 (torchrun)"});
    bad = eight.env;
    bad.world_size = 0;
    bad.rank = 0;
    CHECK(check(bad, topology_of(8)).second ==
          "WORLD_SIZE=0 (torchrun): a world has at least one rank");
    const eredu_topology topology = topology_of(8);
    CHECK(eredu_launch_env_check(nullptr, &topology, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_launch_env_check(&eight.env, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  }

  TEST_CASE("eredu_launch_env follows the sized-struct rules") {
    check_init_sizes<eredu_launch_env>(eredu_launch_env_init, offsetof(eredu_launch_env, rank),
                                       offsetof(eredu_launch_env, rank) + 4);
    const char* const list[] = {"SLURM_PROCID=3", "SLURM_NTASKS=4", "SLURM_LOCALID=1", nullptr};
    const eredu_launch_env full = check_output_sizes<eredu_launch_env>(
        [&](eredu_launch_env* out) { return eredu_launch_env_from_list(list, out, nullptr); },
        offsetof(eredu_launch_env, world_size), offsetof(eredu_launch_env, world_size) + 2);
    CHECK(full.source == EREDU_LAUNCHER_SLURM);
    CHECK(full.rank == 3);
    CHECK(full.world_size == 4);
    CHECK(full.has_local_rank == 1);
    CHECK(full.local_rank == 1);
    const eredu_topology topology = topology_of(4);
    check_input_sizes<eredu_launch_env>(
        full,
        [&](const eredu_launch_env* env) {
          return eredu_launch_env_check(env, &topology, nullptr);
        },
        offsetof(eredu_launch_env, local_rank) + 1);
  }
}
