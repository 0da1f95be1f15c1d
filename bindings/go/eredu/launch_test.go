// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"os"
	"testing"
)

var launcherVariables = []string{"RANK", "WORLD_SIZE", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK",
	"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_RANK", "PMI_SIZE",
	"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"}

func TestLaunchEnvFromListReadsEachLauncher(t *testing.T) {
	cases := []struct {
		list []string
		want LaunchEnv
	}{
		{[]string{"RANK=3", "WORLD_SIZE=8", "LOCAL_RANK=1"}, LaunchEnv{LauncherTorchrun, 3, 8, true, 1}},
		{[]string{"SLURM_PROCID=0", "SLURM_NTASKS=1", "OMPI_COMM_WORLD_RANK=6", "OMPI_COMM_WORLD_SIZE=8"},
			LaunchEnv{LauncherOpenMPI, 6, 8, false, 0}},
		{[]string{"PMI_RANK=2", "PMI_SIZE=4", "NOT_A_VARIABLE"}, LaunchEnv{LauncherPMI, 2, 4, false, 0}},
		{[]string{"SLURM_PROCID=15", "SLURM_NTASKS=16", "SLURM_LOCALID=3"}, LaunchEnv{LauncherSlurm, 15, 16, true, 3}},
	}
	for _, c := range cases {
		got, err := LaunchEnvFromList(c.list)
		if err != nil || got != c.want {
			t.Errorf("LaunchEnvFromList(%q) = %+v, %v; want %+v", c.list, got, err, c.want)
		}
	}
}

func TestLaunchEnvFromListRefusals(t *testing.T) {
	_, err := LaunchEnvFromList(nil)
	assertError(t, err, ErrNotFound, "no launcher environment: none of RANK and WORLD_SIZE (torchrun), "+
		"OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE (Open MPI), PMI_RANK and PMI_SIZE (PMI), "+
		"SLURM_PROCID and SLURM_NTASKS (Slurm) is set")
	_, err = LaunchEnvFromList([]string{"WORLD_SIZE=8"})
	assertError(t, err, ErrInvalidArgument, `WORLD_SIZE="8" is set (torchrun) but RANK is not`)
	_, err = LaunchEnvFromList([]string{"RANK=8", "WORLD_SIZE=8"})
	assertError(t, err, ErrInvalidArgument, "RANK=8 is not below WORLD_SIZE=8 (torchrun)")
	_, err = LaunchEnvFromList([]string{"PMI_RANK=0", "PMI_SIZE=0x4"})
	assertError(t, err, ErrInvalidArgument, `PMI_SIZE="0x4" (PMI) is not a plain decimal number`)
	_, err = LaunchEnvFromList([]string{"RANK=1\x00", "WORLD_SIZE=2"})
	assertError(t, err, ErrInvalidArgument, `environment entry "RANK=1\x00" contains a NUL byte`)
}

func TestLaunchEnvFromEnviron(t *testing.T) {
	for _, name := range launcherVariables {
		if value, ok := os.LookupEnv(name); ok {
			t.Setenv(name, value) // restored after the test
			os.Unsetenv(name)
		}
	}
	_, err := LaunchEnvFromEnviron()
	if e, ok := err.(*Error); !ok || e.Code != StatusNotFound {
		t.Fatalf("LaunchEnvFromEnviron() error = %v, want EREDU_E_NOT_FOUND", err)
	}
	t.Setenv("OMPI_COMM_WORLD_RANK", "5")
	t.Setenv("OMPI_COMM_WORLD_SIZE", "8")
	t.Setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1")
	got, err := LaunchEnvFromEnviron()
	if want := (LaunchEnv{LauncherOpenMPI, 5, 8, true, 1}); err != nil || got != want {
		t.Errorf("LaunchEnvFromEnviron() = %+v, %v; want %+v", got, err, want)
	}
}

func TestLaunchEnvCheck(t *testing.T) {
	env, err := LaunchEnvFromList([]string{"RANK=1", "WORLD_SIZE=8"})
	if err != nil {
		t.Fatal(err)
	}
	if err := env.Check(NewParallelTopology(4, 2, 1, 1)); err != nil {
		t.Errorf("Check(4x2) = %v", err)
	}
	assertError(t, env.Check(NewParallelTopology(4, 1, 1, 1)), ErrWorldSizeMismatch,
		"WORLD_SIZE=8 from torchrun but the topology tensor 4 × pipeline 1 × expert 1 × data 1 has 4 ranks")
	if e, ok := env.Check(NewParallelTopology(4, 1, 1, 1)).(*Error); !ok || e.Code != 211 {
		t.Errorf("the mismatch code is not 211: %v", e)
	}
	assertError(t, LaunchEnv{Source: LauncherPMI, Rank: 2, WorldSize: 2}.Check(NewParallelTopology(2, 1, 1, 1)),
		ErrInvalidArgument, "PMI_RANK=2 is not below PMI_SIZE=2 (PMI)")
	assertError(t, LaunchEnv{Source: 9, WorldSize: 1}.Check(NewParallelTopology(1, 1, 1, 1)),
		ErrInvalidArgument, "unknown env->source value 9")
}
