// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

// Launcher names whose variables a LaunchEnv came from (EREDU_LAUNCHER_*),
// in the order the readers prefer them when several are set
// (docs/launch.md).
type Launcher uint32

// Launcher values.
const (
	// LauncherTorchrun reads RANK, WORLD_SIZE, LOCAL_RANK.
	LauncherTorchrun Launcher = C.EREDU_LAUNCHER_TORCHRUN
	// LauncherOpenMPI reads OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE,
	// OMPI_COMM_WORLD_LOCAL_RANK.
	LauncherOpenMPI Launcher = C.EREDU_LAUNCHER_OPEN_MPI
	// LauncherPMI reads PMI_RANK, PMI_SIZE (no local rank).
	LauncherPMI Launcher = C.EREDU_LAUNCHER_PMI
	// LauncherSlurm reads SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID.
	LauncherSlurm Launcher = C.EREDU_LAUNCHER_SLURM
)

// LaunchEnv is what a launcher told this process (eredu_launch_env): its
// Rank below WorldSize and, when HasLocalRank, its rank on its node.
type LaunchEnv struct {
	Source       Launcher
	Rank         uint64
	WorldSize    uint64
	HasLocalRank bool
	LocalRank    uint64
}

// LaunchEnvFromEnviron reads this process's environment
// (eredu_launch_env_from_environ). The launchers are tried in the order
// torchrun, Open MPI, PMI, Slurm; the first that sets its rank or
// world-size variable is the source. Not safe against a concurrent
// os.Setenv or os.Unsetenv.
//
// Errors: *VersionError; ErrNotFound (no launcher variable; the message
// lists every one looked for); ErrInvalidArgument (half a pair, a value that
// is not a plain decimal number, a rank not below the world size, naming the
// variable and its value).
func LaunchEnvFromEnviron() (LaunchEnv, error) {
	if err := checkVersion(); err != nil {
		return LaunchEnv{}, err
	}
	var out C.eredu_launch_env
	C.eredu_launch_env_init(&out, C.sizeof_eredu_launch_env, nil)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_launch_env_from_environ(&out, &cerr), cerr); err != nil {
		return LaunchEnv{}, err
	}
	return launchEnvFromC(&out), nil
}

// LaunchEnvFromList reads "NAME=VALUE" entries laid out as os.Environ()
// returns them (eredu_launch_env_from_list): an entry without '=' names
// nothing, the first entry of a name counts.
//
// Errors: as LaunchEnvFromEnviron; ErrInvalidArgument for an entry holding
// a NUL byte.
func LaunchEnvFromList(variables []string) (LaunchEnv, error) {
	if err := checkVersion(); err != nil {
		return LaunchEnv{}, err
	}
	var mem cMemory
	defer mem.free()
	list, err := pointerArray(&mem, len(variables)+1, func(i int) (*C.char, error) {
		if i == len(variables) {
			return nil, nil
		}
		return mem.cstring(variables[i], "environment entry")
	})
	if err != nil {
		return LaunchEnv{}, err
	}
	var out C.eredu_launch_env
	C.eredu_launch_env_init(&out, C.sizeof_eredu_launch_env, nil)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_launch_env_from_list(list, &out, &cerr), cerr); err != nil {
		return LaunchEnv{}, err
	}
	return launchEnvFromC(&out), nil
}

// Check returns nil when this launch can plan topology
// (eredu_launch_env_check).
//
// Errors: *VersionError; ErrWorldSizeMismatch (the world sizes differ; the
// message names both, the variable and the topology); ErrZeroAxis,
// ErrWorldSizeOverflow (the topology); ErrInvalidArgument (a rank or local
// rank not below the world size, a world size of 0, an unknown Source).
func (e LaunchEnv) Check(topology ParallelTopology) error {
	if err := checkVersion(); err != nil {
		return err
	}
	env := C.eredu_launch_env{struct_size: C.sizeof_eredu_launch_env,
		source: C.eredu_launcher(e.Source), rank: C.uint64_t(e.Rank),
		world_size: C.uint64_t(e.WorldSize), local_rank: C.uint64_t(e.LocalRank)}
	if e.HasLocalRank {
		env.has_local_rank = 1
	}
	sizes := topology.c()
	var cerr *C.eredu_error
	return takeError(C.eredu_launch_env_check(&env, &sizes, &cerr), cerr)
}

func launchEnvFromC(e *C.eredu_launch_env) LaunchEnv {
	return LaunchEnv{Source: Launcher(e.source), Rank: uint64(e.rank),
		WorldSize: uint64(e.world_size), HasLocalRank: e.has_local_rank != 0,
		LocalRank: uint64(e.local_rank)}
}
