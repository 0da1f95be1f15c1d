// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Launch environments (`eredu/launch.h`, docs/launch.md): each launcher's
//! variables, the precedence between them, the refusals with their exact
//! codes and messages, the process environment, and the world-size check.

use eredu::{ErrorCode, LaunchEnv, Launcher, ParallelTopology};

const LAUNCHER_VARIABLES: [&str; 11] = [
    "RANK",
    "WORLD_SIZE",
    "LOCAL_RANK",
    "OMPI_COMM_WORLD_RANK",
    "OMPI_COMM_WORLD_SIZE",
    "OMPI_COMM_WORLD_LOCAL_RANK",
    "PMI_RANK",
    "PMI_SIZE",
    "SLURM_PROCID",
    "SLURM_NTASKS",
    "SLURM_LOCALID",
];

fn env(source: Launcher, rank: u64, world_size: u64, local_rank: Option<u64>) -> LaunchEnv {
    LaunchEnv {
        source,
        rank,
        world_size,
        local_rank,
    }
}

#[test]
fn each_launcher_and_the_precedence() {
    let torchrun = [("RANK", "3"), ("WORLD_SIZE", "8"), ("LOCAL_RANK", "1")];
    assert_eq!(
        LaunchEnv::from_vars(torchrun).unwrap(),
        env(Launcher::Torchrun, 3, 8, Some(1))
    );
    let mpi_in_slurm = [
        ("SLURM_PROCID", "0"),
        ("SLURM_NTASKS", "1"),
        ("OMPI_COMM_WORLD_RANK", "6"),
        ("OMPI_COMM_WORLD_SIZE", "8"),
    ];
    assert_eq!(
        LaunchEnv::from_vars(mpi_in_slurm).unwrap(),
        env(Launcher::OpenMpi, 6, 8, None)
    );
    let pmi = [("PMI_RANK", "2"), ("PMI_SIZE", "4")];
    assert_eq!(
        LaunchEnv::from_vars(pmi).unwrap(),
        env(Launcher::Pmi, 2, 4, None)
    );
    let slurm = vec![
        ("SLURM_PROCID".to_string(), "15".to_string()),
        ("SLURM_NTASKS".to_string(), "16".to_string()),
        ("SLURM_LOCALID".to_string(), "3".to_string()),
    ];
    assert_eq!(
        LaunchEnv::from_vars(slurm).unwrap(),
        env(Launcher::Slurm, 15, 16, Some(3))
    );
}

#[test]
fn refusals_name_the_variable() {
    let error = LaunchEnv::from_vars([("PATH", "/bin")]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::NotFound);
    assert_eq!(
        error.message(),
        "no launcher environment: none of RANK and WORLD_SIZE (torchrun), OMPI_COMM_WORLD_RANK \
         and OMPI_COMM_WORLD_SIZE (Open MPI), PMI_RANK and PMI_SIZE (PMI), SLURM_PROCID and \
         SLURM_NTASKS (Slurm) is set"
    );
    let error = LaunchEnv::from_vars([("WORLD_SIZE", "8")]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(
        error.message(),
        "WORLD_SIZE=\"8\" is set (torchrun) but RANK is not"
    );
    let error = LaunchEnv::from_vars([("RANK", "8"), ("WORLD_SIZE", "8")]).unwrap_err();
    assert_eq!(
        error.message(),
        "RANK=8 is not below WORLD_SIZE=8 (torchrun)"
    );
    let error = LaunchEnv::from_vars([("PMI_RANK", "0"), ("PMI_SIZE", "4 ")]).unwrap_err();
    assert_eq!(
        error.message(),
        "PMI_SIZE=\"4 \" (PMI) is not a plain decimal number"
    );
    let error = LaunchEnv::from_vars([("RANK=1", "0")]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    let error = LaunchEnv::from_vars([("RANK", "1\0")]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn the_process_environment() {
    // The only test of this binary that touches the environment.
    let saved: Vec<_> = LAUNCHER_VARIABLES
        .iter()
        .filter_map(|name| std::env::var_os(name).map(|value| (*name, value)))
        .collect();
    for name in LAUNCHER_VARIABLES {
        std::env::remove_var(name);
    }
    let error = LaunchEnv::from_env().unwrap_err();
    assert_eq!(error.code(), ErrorCode::NotFound);
    std::env::set_var("SLURM_PROCID", "1");
    std::env::set_var("SLURM_NTASKS", "2");
    let read = LaunchEnv::from_env();
    for name in LAUNCHER_VARIABLES {
        std::env::remove_var(name);
    }
    for (name, value) in saved {
        std::env::set_var(name, value);
    }
    assert_eq!(read.unwrap(), env(Launcher::Slurm, 1, 2, None));
}

#[test]
fn the_world_size_must_be_the_topology_s() {
    let eight = LaunchEnv::from_vars([("RANK", "1"), ("WORLD_SIZE", "8")]).unwrap();
    eight.check(&ParallelTopology::new(4, 2, 1, 1)).unwrap();
    let error = eight
        .check(&ParallelTopology::tensor_parallel(4))
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::WorldSizeMismatch);
    assert_eq!(error.status(), 211);
    assert_eq!(error.name(), "EREDU_E_WORLD_SIZE_MISMATCH");
    assert_eq!(
        error.message(),
        "WORLD_SIZE=8 from torchrun but the topology tensor 4 × pipeline 1 × expert 1 × data 1 \
         has 4 ranks"
    );
    let error = env(Launcher::Pmi, 2, 2, None)
        .check(&ParallelTopology::tensor_parallel(2))
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(error.message(), "PMI_RANK=2 is not below PMI_SIZE=2 (PMI)");
    let error = env(Launcher::Unknown(9), 0, 1, None)
        .check(&ParallelTopology::default())
        .unwrap_err();
    assert_eq!(error.message(), "unknown env->source value 9");
}
