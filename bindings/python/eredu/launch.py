# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""A process's rank and world size as its launcher (torchrun, Open MPI's
mpirun, a PMI launcher, Slurm's srun) exported them, and the check that
they fit a topology (eredu/launch.h, docs/launch.md).

    env = eredu.launch_env()  # this process's environment
    env.check(eredu.ParallelTopology(tensor=4, pipeline=2))
    layout = eredu.plan_rank(model, topology, rank=env.rank)
"""
import ctypes
import enum
import os
import typing

from . import _capi
from . import _convert as convert
from ._library import lib
from .errors import call
from .plan import ParallelTopology

_byref = ctypes.byref
_Env = _capi.eredu_launch_env
_ENV_SIZE = ctypes.sizeof(_Env)


class Launcher(enum.IntEnum):
    """Whose variables a LaunchEnv came from (EREDU_LAUNCHER_*), in the
    order the readers prefer them when several are set."""

    #: RANK, WORLD_SIZE, LOCAL_RANK.
    TORCHRUN = 1
    #: OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK.
    OPEN_MPI = 2
    #: PMI_RANK, PMI_SIZE (no local rank).
    PMI = 3
    #: SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID.
    SLURM = 4


class LaunchEnv(typing.NamedTuple):
    """What a launcher told this process: `rank` below `world_size`, and
    `local_rank` (the rank on its node) or None when the launcher did not
    set it."""

    source: Launcher
    rank: int
    world_size: int
    local_rank: typing.Optional[int] = None

    def struct(self):
        """As an eredu_launch_env (struct_size = its ctypes size)."""
        source = convert.member(Launcher, self.source, "LaunchEnv.source")
        rank = convert.u64(self.rank, "LaunchEnv.rank")
        world_size = convert.u64(self.world_size, "LaunchEnv.world_size")
        local = self.local_rank
        local_rank = 0 if local is None else convert.u64(local, "LaunchEnv.local_rank")
        return _Env(_ENV_SIZE, source, rank, world_size, int(local is not None), local_rank)

    def check(self, topology):
        """Returns None when this launch can plan `topology` (a
        ParallelTopology or a (tensor, pipeline, expert, data) sequence).

        Raises TopologyError (EREDU_E_WORLD_SIZE_MISMATCH: the world sizes
        differ, naming both, the variable and the topology; EREDU_E_ZERO_AXIS,
        EREDU_E_WORLD_SIZE_OVERFLOW: the topology), GeneralError
        (EREDU_E_INVALID_ARGUMENT: a rank or local rank not below the world
        size, a world size of 0)."""
        env = self.struct()
        sizes = ParallelTopology.of(topology).struct()
        call(lib.eredu_launch_env_check, _byref(env), _byref(sizes))

    @classmethod
    def from_struct(cls, struct):
        local = struct.local_rank if struct.has_local_rank else None
        return cls(Launcher(struct.source), struct.rank, struct.world_size, local)


def _entry(name, value):
    """b"NAME=VALUE" of one variable (str or bytes, as os.fsencode takes)."""
    name = os.fsencode(name)
    value = os.fsencode(value)
    if not name or b"=" in name or b"\0" in name or b"\0" in value:
        raise ValueError(f"environment variable {name!r}={value!r}: a name must be non-empty "
                         "without '=' or NUL, a value without NUL")
    return name + b"=" + value


def launch_env(environ=None):
    """The LaunchEnv of this process's environment (environ None: the C
    library reads `environ`, which os.environ writes through), or of
    `environ`, a mapping of variable names to values (str or bytes).

    The launchers are tried in the order torchrun, Open MPI, PMI, Slurm;
    the first that sets its rank or world-size variable is the source.
    Raises GeneralError (EREDU_E_NOT_FOUND: no launcher variable, the
    message listing every one looked for; EREDU_E_INVALID_ARGUMENT: half a
    pair, a value that is not a plain decimal number, a rank not below the
    world size, naming the variable and its value); ValueError (a name or
    value that cannot be an environment entry) before any C call.
    Reading the process environment is not safe against a concurrent
    os.putenv/os.environ write in another thread."""
    out = _capi.sized(_Env)
    if environ is None:
        call(lib.eredu_launch_env_from_environ, _byref(out))
    else:
        entries = [_entry(name, value) for name, value in environ.items()]
        variables = (ctypes.c_char_p * (len(entries) + 1))(*entries, None)
        call(lib.eredu_launch_env_from_list, variables, _byref(out))
    return LaunchEnv.from_struct(out)
