#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Benchmark of the Python binding on a large description (reported, never
asserted).

usage: bench.py FILE [--runs N] [--accessor-calls N] [--tensor-calls N]

FILE is an eredu.groups.v1 description (e.g. the DeepSeek-V3-scale one of
build/bench/bench_write_description). Topology TP 8 x PP 2 x EP 8 (128
ranks), policy require. Prints one line per figure:

    bench python load <ms> ms       file bytes in memory -> ModelDescription
    bench python plan_one <ms> ms   plan_rank(rank 0) + LocalModelLayout.to_json()
    bench python plan_all <ms> ms   plan_world_json(threads=0)
    bench python accessor <ns> ns   one LocalModelLayout.len() call
    bench python tensor <ns> ns     every field of one tensor:
                                    LocalModelLayout.tensor_at(i), one
                                    eredu_layout_get_tensor_info call

The ms figures are the median of --runs runs (default 5); releasing the
handles is not timed. The accessor figure is the mean over --accessor-calls
calls (default 1000000), the tensor figure the mean over --tensor-calls
calls (default 200000) cycling through the layout's tensors.
"""
import argparse
import statistics
import sys
import time

import eredu

TOPOLOGY = eredu.ParallelTopology(tensor=8, pipeline=2, expert=8)
POLICY = eredu.ShardingPolicy.REQUIRE


def median_ms(runs, setup_and_time):
    """Median in ms of `runs` calls of setup_and_time(), which returns the
    seconds it measured."""
    return statistics.median(setup_and_time() for _ in range(runs)) * 1000


def time_load(data):
    start = time.perf_counter()
    model = eredu.ModelDescription.from_json(data)
    elapsed = time.perf_counter() - start
    model.close()
    return elapsed


def time_plan_one(model):
    start = time.perf_counter()
    layout = eredu.plan_rank(model, TOPOLOGY, 0, POLICY)
    layout.to_json()
    elapsed = time.perf_counter() - start
    layout.close()
    return elapsed


def time_plan_all(model):
    start = time.perf_counter()
    eredu.plan_world_json(model, TOPOLOGY, POLICY, threads=0)
    return time.perf_counter() - start


def accessor_ns(layout, calls):
    count = layout.len
    start = time.perf_counter()
    for _ in range(calls):
        count()
    return (time.perf_counter() - start) / calls * 1e9


def tensor_ns(layout, calls):
    read, count = layout.tensor_at, layout.len()
    start = time.perf_counter()
    for call in range(calls):
        read(call % count)
    return (time.perf_counter() - start) / calls * 1e9


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--accessor-calls", type=int, default=1_000_000)
    parser.add_argument("--tensor-calls", type=int, default=200_000)
    args = parser.parse_args(argv)
    with open(args.file, "rb") as handle:
        data = handle.read()

    print(f"bench python load {median_ms(args.runs, lambda: time_load(data)):.1f} ms")
    with eredu.ModelDescription.from_json(data) as model:
        print(f"bench python plan_one {median_ms(args.runs, lambda: time_plan_one(model)):.1f} ms")
        try:
            plan_all = median_ms(args.runs, lambda: time_plan_all(model))
            print(f"bench python plan_all {plan_all:.1f} ms")
        except NotImplementedError as error:
            print(f"bench python plan_all skipped: {error}", file=sys.stderr)
        with eredu.plan_rank(model, TOPOLOGY, 0, POLICY) as layout:
            print(f"bench python accessor {accessor_ns(layout, args.accessor_calls):.0f} ns")
            print(f"bench python tensor {tensor_ns(layout, args.tensor_calls):.0f} ns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
