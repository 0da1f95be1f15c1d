#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors
"""Runs stories260K (examples/files/stories260K.gguf) tensor-parallel with
torch.distributed and checks it against a single process.

    python3 examples/distributed/stories.py --tp 2

starts N processes (MASTER_ADDR=127.0.0.1, MASTER_PORT, RANK, WORLD_SIZE:
the standard torch.distributed environment, gloo backend). Each describes
the GGUF file with eredu's Python binding, plans its rank, and fills its
weights through its read plan: it reads only its own bytes of the file.
The 5-layer llama forward then runs with column-parallel q/k/v, gate and
up projections, row-parallel attention output and down projections
(all_reduce), a vocabulary-parallel embedding (all_reduce) and output head
(all_gather). Rank 0 also runs the whole model in one process, from the
TP 1 plan, prints the largest logit difference and the bytes each rank
read, and the command exits 0 only when every logit agrees within 1e-5.

Run it from the repository root after the build: the binding loads
build/capi/liberedu.so.0 unless EREDU_LIBRARY names another library.
"""
import argparse
import os
import pathlib
import socket
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODEL = ROOT / "examples" / "files" / "stories260K.gguf"
TOLERANCE = 1e-5
# A fixed prompt of token ids (the model's vocabulary has 512 tokens).
PROMPT = [1, 403, 407, 261, 378, 300, 316, 261, 264, 394, 423, 268]

# stories260K's GGUF metadata: llama.attention.layer_norm_rms_epsilon and
# llama.rope.freq_base (head dimension 8, adjacent-pair rotary embedding).
RMS_EPSILON = 1e-5
ROPE_BASE = 10000.0


def use_binding():
    """Imports the Python binding from the source tree, with the built library."""
    sys.path.insert(0, str(ROOT / "bindings" / "python"))
    os.environ.setdefault("EREDU_LIBRARY", str(ROOT / "build" / "capi" / "liberedu.so.0"))
    import eredu
    return eredu


def load_rank(eredu, torch, tp, rank):
    """This rank's tensors, read through its read plan, and where its
    vocabulary rows start. Returns (weights, vocab_start, bytes_read)."""
    with eredu.describe_model(str(MODEL)) as model, \
            eredu.Checkpoint.open(str(MODEL)) as checkpoint, \
            eredu.plan_rank(model, eredu.ParallelTopology(tensor=tp), rank=rank) as layout, \
            eredu.read_plan(layout, checkpoint) as plan:
        for tensor in plan.tensors:
            if tensor.dtype != "F32":
                raise SystemExit(f"{tensor.target}: {tensor.dtype}, expected F32")
        # Every tensor in one call, read straight into the torch tensors.
        import eredu.torch
        loaded, _ = eredu.torch.load_rank(plan)
        # The F32 weights, exactly, in float64: the forward then differs
        # between one process and N only by the all_reduce summation order,
        # far below the tolerance.
        weights = {target: tensor.double() for target, tensor in loaded.items()}
        vocab_start = layout.placement("token_embd.weight").start if tp > 1 else 0
        return weights, vocab_start, plan.read_bytes


def rms_norm(torch, x, weight):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + RMS_EPSILON) * weight


def rotary(torch, x):
    """Adjacent-pair rotary embedding of x [heads, tokens, head_dim]."""
    head_dim = x.shape[-1]
    positions = torch.arange(x.shape[1], dtype=torch.float64)
    inverse = ROPE_BASE ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    angles = torch.outer(positions, inverse)
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def forward(torch, weights, vocab_start, reduce, gather):
    """Logits [tokens, vocabulary] of PROMPT. `reduce` sums partial results
    over the ranks and `gather` concatenates vocabulary slices (both the
    identity in one process)."""
    tokens = torch.tensor(PROMPT)
    embedding = weights["token_embd.weight"]
    local = tokens - vocab_start
    held = (local >= 0) & (local < embedding.shape[0])
    x = embedding[local.clamp(0, embedding.shape[0] - 1)] * held.unsqueeze(-1)
    x = reduce(x)
    count = len(PROMPT)
    mask = torch.full((count, count), float("-inf"), dtype=torch.float64).triu(1)
    for layer in range(5):
        w = {name.split(".", 2)[2]: value for name, value in weights.items()
             if name.startswith(f"blk.{layer}.")}
        head_dim = 8
        h = rms_norm(torch, x, w["attn_norm.weight"])
        q = (h @ w["attn_q.weight"].T).view(count, -1, head_dim).transpose(0, 1)
        k = (h @ w["attn_k.weight"].T).view(count, -1, head_dim).transpose(0, 1)
        v = (h @ w["attn_v.weight"].T).view(count, -1, head_dim).transpose(0, 1)
        q, k = rotary(torch, q), rotary(torch, k)
        group = q.shape[0] // k.shape[0]  # query heads per KV head (GQA)
        k, v = k.repeat_interleave(group, 0), v.repeat_interleave(group, 0)
        scores = (q @ k.transpose(1, 2)) / head_dim ** 0.5 + mask
        attention = (scores.softmax(-1) @ v).transpose(0, 1).reshape(count, -1)
        x = x + reduce(attention @ w["attn_output.weight"].T)
        h = rms_norm(torch, x, w["ffn_norm.weight"])
        gate = torch.nn.functional.silu(h @ w["ffn_gate.weight"].T)
        x = x + reduce((gate * (h @ w["ffn_up.weight"].T)) @ w["ffn_down.weight"].T)
    x = rms_norm(torch, x, weights["output_norm.weight"])
    return gather(x @ weights["output.weight"].T)


def worker():
    import torch
    import torch.distributed as dist
    dist.init_process_group("gloo")
    rank, tp = dist.get_rank(), dist.get_world_size()
    eredu = use_binding()
    weights, vocab_start, read = load_rank(eredu, torch, tp, rank)

    def reduce(tensor):
        dist.all_reduce(tensor)
        return tensor

    def gather(tensor):
        parts = [torch.empty_like(tensor) for _ in range(tp)]
        dist.all_gather(parts, tensor.contiguous())
        return torch.cat(parts, dim=-1)

    logits = forward(torch, weights, vocab_start, reduce, gather)
    reads = [None] * tp
    dist.all_gather_object(reads, read)
    status = 0
    if rank == 0:
        whole, _, whole_read = load_rank(eredu, torch, 1, 0)
        reference = forward(torch, whole, 0, lambda t: t, lambda t: t)
        difference = (logits - reference).abs().max().item()
        print(f"stories260K at TP {tp}: {len(PROMPT)} tokens, logits {tuple(logits.shape)}")
        for each, count in enumerate(reads):
            print(f"  rank {each} read {count} bytes (the whole model: {whole_read})")
        print(f"largest logit difference from one process: {difference:.3g}")
        status = 0 if difference <= TOLERANCE else 1
        if status:
            print(f"FAILED: above the tolerance {TOLERANCE}")
    flag = torch.tensor([status])
    dist.broadcast(flag, 0)
    dist.destroy_process_group()
    return int(flag.item())


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def launch(tp):
    """Starts the tp processes (torchrun's environment, without torchrun).
    When one fails the others are stopped: they would wait for it forever."""
    environment = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()),
                       WORLD_SIZE=str(tp))
    processes = [subprocess.Popen([sys.executable, __file__, "--worker"],
                                  env=dict(environment, RANK=str(rank)))
                 for rank in range(tp)]
    while any(process.poll() is None for process in processes):
        if any(process.poll() not in (None, 0) for process in processes):
            for process in processes:
                if process.poll() is None:
                    process.kill()
        time.sleep(0.1)
    return 0 if all(process.returncode == 0 for process in processes) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tp", type=int, default=2, help="tensor-parallel size (1, 2 or 4)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker()
    return launch(args.tp)


if __name__ == "__main__":
    sys.exit(main())
