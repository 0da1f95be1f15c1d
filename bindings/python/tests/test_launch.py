# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Launch environments (eredu/launch.h, docs/launch.md) through Python: each
launcher's variables, the precedence between them, the refusals with their
exact codes and messages, the process environment, and the world-size check
against a topology."""
import os
import unittest

import eredu
from eredu import GeneralError, LaunchEnv, Launcher, TopologyError, launch_env, status

LAUNCHER_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK",
                      "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_RANK",
                      "PMI_SIZE", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID")


class Read(unittest.TestCase):
    def test_each_launcher(self):
        self.assertEqual(launch_env({"RANK": "3", "WORLD_SIZE": "8", "LOCAL_RANK": "1"}),
                         LaunchEnv(Launcher.TORCHRUN, 3, 8, 1))
        self.assertEqual(launch_env({"OMPI_COMM_WORLD_RANK": "6", "OMPI_COMM_WORLD_SIZE": "8",
                                     "SLURM_PROCID": "0", "SLURM_NTASKS": "1"}),
                         LaunchEnv(Launcher.OPEN_MPI, 6, 8, None))
        self.assertEqual(launch_env({b"PMI_RANK": b"2", b"PMI_SIZE": b"4"}),
                         LaunchEnv(Launcher.PMI, 2, 4, None))
        env = launch_env({"SLURM_PROCID": "15", "SLURM_NTASKS": "16", "SLURM_LOCALID": "3"})
        self.assertEqual(env, LaunchEnv(Launcher.SLURM, 15, 16, 3))
        self.assertIs(env.source, Launcher.SLURM)

    def test_refusals(self):
        with self.assertRaises(GeneralError) as caught:
            launch_env({"PATH": "/bin"})
        self.assertEqual(caught.exception.code, status.EREDU_E_NOT_FOUND)
        self.assertEqual(caught.exception.message,
                         "no launcher environment: none of RANK and WORLD_SIZE (torchrun), "
                         "OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE (Open MPI), PMI_RANK "
                         "and PMI_SIZE (PMI), SLURM_PROCID and SLURM_NTASKS (Slurm) is set")
        for variables, message in [
                ({"WORLD_SIZE": "8"}, 'WORLD_SIZE="8" is set (torchrun) but RANK is not'),
                ({"RANK": "8", "WORLD_SIZE": "8"}, "RANK=8 is not below WORLD_SIZE=8 (torchrun)"),
                ({"PMI_RANK": "0", "PMI_SIZE": "+4"},
                 'PMI_SIZE="+4" (PMI) is not a plain decimal number')]:
            with self.subTest(variables=variables):
                with self.assertRaises(GeneralError) as caught:
                    launch_env(variables)
                self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
                self.assertEqual(caught.exception.message, message)
        with self.assertRaises(ValueError):
            launch_env({"RANK=1": "0"})
        with self.assertRaises(ValueError):
            launch_env({"RANK": "1\0"})

    def test_the_process_environment(self):
        saved = {name: os.environ.pop(name) for name in LAUNCHER_VARIABLES if name in os.environ}
        try:
            with self.assertRaises(GeneralError) as caught:
                launch_env()
            self.assertEqual(caught.exception.code, status.EREDU_E_NOT_FOUND)
            os.environ.update({"SLURM_PROCID": "1", "SLURM_NTASKS": "2", "RANK": "5",
                               "WORLD_SIZE": "8"})
            self.assertEqual(launch_env(), LaunchEnv(Launcher.TORCHRUN, 5, 8, None))
        finally:
            for name in LAUNCHER_VARIABLES:
                os.environ.pop(name, None)
            os.environ.update(saved)


class Check(unittest.TestCase):
    def test_the_world_size_must_be_the_topology_s(self):
        env = launch_env({"RANK": "1", "WORLD_SIZE": "8"})
        self.assertIsNone(env.check(eredu.ParallelTopology(tensor=4, pipeline=2)))
        self.assertIsNone(env.check((2, 2, 2, 1)))
        with self.assertRaises(TopologyError) as caught:
            env.check(eredu.ParallelTopology(tensor=4))
        self.assertEqual(caught.exception.code, status.EREDU_E_WORLD_SIZE_MISMATCH)
        self.assertEqual(caught.exception.name, "EREDU_E_WORLD_SIZE_MISMATCH")
        self.assertEqual(caught.exception.message,
                         "WORLD_SIZE=8 from torchrun but the topology tensor 4 × pipeline 1 × "
                         "expert 1 × data 1 has 4 ranks")

    def test_a_hand_made_value_is_checked_too(self):
        with self.assertRaises(GeneralError) as caught:
            LaunchEnv(Launcher.PMI, 2, 2).check((2, 1, 1, 1))
        self.assertEqual(caught.exception.code, status.EREDU_E_INVALID_ARGUMENT)
        self.assertEqual(caught.exception.message, "PMI_RANK=2 is not below PMI_SIZE=2 (PMI)")
        with self.assertRaises(ValueError):
            LaunchEnv(7, 0, 1).check((1, 1, 1, 1))
        with self.assertRaises(ValueError):
            LaunchEnv(Launcher.SLURM, -1, 1).check((1, 1, 1, 1))


if __name__ == "__main__":
    unittest.main()
