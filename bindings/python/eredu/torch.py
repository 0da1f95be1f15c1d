# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""A rank's tensors as torch.Tensors in one call: every tensor of a
ReadPlan allocated with its local shape and dtype, and filled in place by
ReadPlan.read_rank (eredu_read_plan_read_rank), the library writing
straight into the tensors' storage (no copy).

torch is imported when a function is called, not with this module: eredu
itself does not need it.
"""

#: Safetensors and ggml dtype names and the torch dtype attribute they
#: become. A GGUF block type (Q4_K, ...) is a uint8 tensor whose row axis
#: counts bytes (its local shape says so).
_DTYPES = {
    "F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16",
    "I64": "int64", "I32": "int32", "I16": "int16", "I8": "int8", "U8": "uint8",
    "BOOL": "bool", "F8_E4M3": "float8_e4m3fn", "F8_E5M2": "float8_e5m2",
}


def torch_dtype(dtype):
    """The torch dtype holding a tensor stored as `dtype` (a ReadTensor's
    dtype): torch.uint8 for a GGUF block type. Raises TypeError for a
    dtype this torch has no type for (U16, U32, U64 before torch 2.3,
    float8 before 2.1)."""
    import torch
    name = _DTYPES.get(dtype, "uint8" if dtype.startswith(("Q", "IQ", "TQ")) else None)
    found = getattr(torch, name, None) if name else None
    if found is None:
        raise TypeError(f"torch has no dtype for {dtype}")
    return found


def load_rank(plan, *, threads=0, direct=False, progress=None, **options):
    """Every tensor of `plan` (a ReadPlan) as a CPU torch.Tensor of its
    local shape and dtype, read in one call; returns (a dict target ->
    tensor in the plan's order, ReadStats). Padding rows (vocabulary
    padding) are zeros. `threads`, `direct`, `progress` and the other
    keyword options are ReadPlan.read_rank's."""
    import torch
    tensors = {}
    for tensor in plan.tensors:
        dtype = torch_dtype(tensor.dtype)
        allocate = torch.zeros if tensor.padding_rows else torch.empty
        made = allocate(tuple(tensor.local_shape), dtype=dtype)
        if made.numel() * made.element_size() != tensor.local_bytes:
            raise ValueError(f"{tensor.target}: {tensor.local_bytes} local bytes do not fill a "
                             f"{dtype} tensor of shape {list(tensor.local_shape)}")
        tensors[tensor.target] = made
    _, stats = plan.read_rank(list(tensors.values()), threads=threads, direct=direct,
                              progress=progress, **options)
    return tensors, stats
