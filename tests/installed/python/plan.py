# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Plans one rank through the installed `eredu` Python package and prints its
eredu.layout.v1 text: python3 plan.py DESCRIPTION.json TP RANK"""
import pathlib
import sys

import eredu

path, tensor, rank = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with eredu.ModelDescription.from_json(pathlib.Path(path).read_bytes()) as model, \
        eredu.plan_rank(model, eredu.ParallelTopology(tensor=tensor), rank=rank) as layout:
    sys.stdout.write(layout.to_json())
