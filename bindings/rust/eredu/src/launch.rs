// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! A process's rank and world size as its launcher (torchrun, Open MPI's
//! mpirun, a PMI launcher, Slurm's srun) exported them, and the check that
//! they fit a topology (`eredu/launch.h`, docs/launch.md).

use std::ffi::{c_char, CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::ptr;

use eredu_sys as sys;

use crate::enums::c_enum;
use crate::error::{Error, ErrorCode, Result};
use crate::ffi::{call, flag, struct_size, OutputStruct};
use crate::topology::ParallelTopology;

c_enum! {
    /// Whose variables a [`LaunchEnv`] came from (`EREDU_LAUNCHER_*`), in
    /// the order the readers prefer them when several are set.
    pub enum Launcher: sys::eredu_launcher {
        /// torchrun: `RANK`, `WORLD_SIZE`, `LOCAL_RANK`.
        Torchrun = EREDU_LAUNCHER_TORCHRUN,
        /// Open MPI: `OMPI_COMM_WORLD_RANK`, `OMPI_COMM_WORLD_SIZE`,
        /// `OMPI_COMM_WORLD_LOCAL_RANK`.
        OpenMpi = EREDU_LAUNCHER_OPEN_MPI,
        /// A PMI launcher: `PMI_RANK`, `PMI_SIZE` (no local rank).
        Pmi = EREDU_LAUNCHER_PMI,
        /// Slurm: `SLURM_PROCID`, `SLURM_NTASKS`, `SLURM_LOCALID`.
        Slurm = EREDU_LAUNCHER_SLURM,
    }
}

/// What a launcher told this process (`eredu_launch_env`).
///
/// ```
/// use eredu::{LaunchEnv, Launcher, ParallelTopology};
/// let env = LaunchEnv::from_vars([("RANK", "1"), ("WORLD_SIZE", "8")]).unwrap();
/// assert_eq!(env, LaunchEnv { source: Launcher::Torchrun, rank: 1, world_size: 8, local_rank: None });
/// env.check(&ParallelTopology::new(4, 2, 1, 1)).unwrap();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LaunchEnv {
    /// The launcher whose variables were read.
    pub source: Launcher,
    /// This process's global rank, below `world_size`.
    pub rank: u64,
    /// The number of processes the launcher started.
    pub world_size: u64,
    /// This process's rank on its node, when the launcher set it.
    pub local_rank: Option<u64>,
}

impl LaunchEnv {
    /// Reads this process's environment (`eredu_launch_env_from_environ`).
    /// The launchers are tried in the order torchrun, Open MPI, PMI, Slurm;
    /// the first that sets its rank or world-size variable is the source.
    ///
    /// Errors: `NotFound` (no launcher variable; the message lists every
    /// one looked for); `InvalidArgument` (half a pair, a value that is not a
    /// plain decimal number, a rank not below the world size, naming the
    /// variable and its value). Not safe against a concurrent
    /// `std::env::set_var` or `remove_var` in another thread.
    pub fn from_env() -> Result<Self> {
        let mut out = sys::eredu_launch_env::empty();
        // SAFETY: `out` is a sized output struct that outlives the call.
        call(|error| unsafe { sys::eredu_launch_env_from_environ(&mut out, error) })?;
        Ok(Self::from_raw(&out))
    }

    /// Reads `vars`, name and value pairs such as `std::env::vars_os()`
    /// yields (`eredu_launch_env_from_list`; the first pair of a name
    /// counts). Errors: as [`from_env`](Self::from_env), and
    /// `InvalidArgument` for an empty name, a name holding `=` or a NUL
    /// byte, or a value holding a NUL byte, before any C call.
    pub fn from_vars<I, K, V>(vars: I) -> Result<Self>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        let entries = vars
            .into_iter()
            .map(|(name, value)| entry(name.as_ref(), value.as_ref()))
            .collect::<Result<Vec<CString>>>()?;
        let mut pointers: Vec<*const c_char> = entries.iter().map(|entry| entry.as_ptr()).collect();
        pointers.push(ptr::null());
        let mut out = sys::eredu_launch_env::empty();
        // SAFETY: `pointers` is a NULL-terminated array of NUL-terminated
        // strings owned by `entries`, and `out` a sized output struct; all
        // outlive the call.
        call(|error| unsafe {
            sys::eredu_launch_env_from_list(pointers.as_ptr(), &mut out, error)
        })?;
        Ok(Self::from_raw(&out))
    }

    /// Checks that this launch can plan `topology` (`eredu_launch_env_check`).
    ///
    /// Errors: `WorldSizeMismatch` (the world sizes differ; the message
    /// names both, the variable and the topology); `ZeroAxis`,
    /// `WorldSizeOverflow` (the topology); `InvalidArgument` (a rank or
    /// local rank not below the world size, a world size of 0, an unknown
    /// source).
    pub fn check(&self, topology: &ParallelTopology) -> Result<()> {
        let env = self.to_raw();
        let sizes = topology.to_raw();
        // SAFETY: both structs are sized and outlive the call.
        call(|error| unsafe { sys::eredu_launch_env_check(&env, &sizes, error) })
    }

    fn to_raw(self) -> sys::eredu_launch_env {
        sys::eredu_launch_env {
            struct_size: struct_size::<sys::eredu_launch_env>(),
            source: self.source.to_raw(),
            rank: self.rank,
            world_size: self.world_size,
            has_local_rank: flag(self.local_rank.is_some()),
            local_rank: self.local_rank.unwrap_or(0),
        }
    }

    fn from_raw(raw: &sys::eredu_launch_env) -> Self {
        Self {
            source: Launcher::from_raw(raw.source),
            rank: raw.rank,
            world_size: raw.world_size,
            local_rank: (raw.has_local_rank != 0).then_some(raw.local_rank),
        }
    }
}

/// `NAME=VALUE` of one variable.
fn entry(name: &OsStr, value: &OsStr) -> Result<CString> {
    let (name, value) = (name.as_bytes(), value.as_bytes());
    if name.is_empty() || name.contains(&b'=') {
        return Err(Error::binding(
            ErrorCode::InvalidArgument,
            format!(
                "environment variable name {:?} must be non-empty without '='",
                String::from_utf8_lossy(name)
            ),
        ));
    }
    let mut text = Vec::with_capacity(name.len() + 1 + value.len());
    text.extend_from_slice(name);
    text.push(b'=');
    text.extend_from_slice(value);
    CString::new(text).map_err(|error| {
        Error::binding(
            ErrorCode::InvalidArgument,
            format!(
                "environment variable {:?} contains a NUL byte at offset {}",
                String::from_utf8_lossy(name),
                error.nul_position()
            ),
        )
    })
}
