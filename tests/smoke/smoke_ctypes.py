#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Python ctypes smoke test: load liberedu.so.0, build a group through
eredu_group_new, plan a rank and check exact values, as a Python runtime
would without any compiled glue.

usage: smoke_ctypes.py PATH_OF_BUILT_LIBRARY   (liberedu.so.0 is loaded from
that directory, through its SONAME link)
"""
import ctypes
import json
import os
import sys

EREDU_OK = 0
EREDU_E_NULL_ARGUMENT = 1
EREDU_E_INVALID_ARGUMENT = 2
EREDU_E_NOT_FOUND = 5
EREDU_E_INVALID_GROUP = 100
EREDU_E_INVALID_TENSOR = 101
EREDU_ROLE_ROW_PROJECTION = 2
EREDU_ROLE_SEGMENTED = 8
EREDU_SHARDING_REPLICATED = 0
EREDU_SHARDING_EQUAL = 1
EREDU_SHARDING_SEGMENTED = 5
EREDU_DTYPE_F32 = 9
EREDU_PLACEMENT_REPLICATED = 0
EREDU_PLACEMENT_SHARD = 4
EREDU_PLACEMENT_INDICES = 6

u8, u32, u64, size_t = ctypes.c_uint8, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_size_t
status_t = ctypes.c_int32
P = ctypes.POINTER


class MemberDesc(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("target", ctypes.c_char_p),
        ("shape", P(u64)),
        ("ndim", size_t),
        ("has_dtype", u8),
        ("dtype", u32),
        ("sharding", u32),
        ("axis", u64),
        ("segments", P(u64)),
        ("segment_count", size_t),
    ]


class GroupDesc(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("role", u32),
        ("name", ctypes.c_char_p),
        ("has_partition_units", u8),
        ("partition_units", u64),
        ("scope", ctypes.c_void_p),
    ]


class Topology(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("tensor", u64),
        ("pipeline", u64),
        ("expert", u64),
        ("data", u64),
    ]


def topology(tensor, pipeline=1, expert=1, data=1):
    return Topology(ctypes.sizeof(Topology), tensor, pipeline, expert, data)


class TensorInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("role", u32),
        ("target", ctypes.c_char_p),
        ("target_length", size_t),
        ("logical_name", ctypes.c_char_p),
        ("logical_name_length", size_t),
        ("global_shape", P(u64)),
        ("global_ndim", size_t),
        ("local_shape", P(u64)),
        ("local_ndim", size_t),
        ("placement", u32),
        ("has_dtype", u8),
        ("has_logical_units", u8),
        ("has_logical_range", u8),
        ("fell_back_to_replication", u8),
        ("dtype", u32),
        ("has_local_bytes", u8),
        ("axis", u64),
        ("owner_rank", u64),
        ("shard_index", u64),
        ("shard_parts", u64),
        ("start", u64),
        ("end", u64),
        ("runs", P(u64)),
        ("run_count", size_t),
        ("index_count", u64),
        ("logical_units", u64),
        ("logical_start", u64),
        ("logical_end", u64),
        ("local_bytes", u64),
    ]


class LayoutInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("policy", u32),
        ("rank", u64),
        ("tensor_rank", u64),
        ("pipeline_rank", u64),
        ("expert_rank", u64),
        ("data_rank", u64),
        ("tensor_count", size_t),
        ("local_bytes", u64),
        ("global_bytes", u64),
        ("materialized_tensors", u64),
        ("omitted_tensors", u64),
        ("unknown_bytes_tensors", u64),
    ]


class Opaque(ctypes.Structure):
    pass


handle = P(Opaque)
error_slot = P(handle)


def load(path):
    lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(path)), "liberedu.so.0"))
    signatures = {
        "eredu_version_number": (u32, []),
        "eredu_version_string": (ctypes.c_char_p, []),
        "eredu_status_name": (ctypes.c_char_p, [status_t]),
        "eredu_error_code": (status_t, [handle]),
        "eredu_error_message": (ctypes.c_char_p, [handle]),
        "eredu_error_free": (None, [handle]),
        "eredu_member_desc_init": (status_t, [P(MemberDesc), size_t, error_slot]),
        "eredu_group_new": (
            status_t, [P(GroupDesc), P(P(MemberDesc)), size_t, P(handle), error_slot]),
        "eredu_group_free": (None, [handle]),
        "eredu_model_new": (status_t, [ctypes.c_void_p, P(handle), size_t, P(handle), error_slot]),
        "eredu_model_from_json": (status_t, [ctypes.c_char_p, size_t, P(handle), error_slot]),
        "eredu_model_free": (None, [handle]),
        "eredu_plan_rank": (
            status_t, [handle, P(Topology), u64, ctypes.c_void_p, P(handle), error_slot]),
        "eredu_layout_free": (None, [handle]),
        "eredu_layout_tensor_count": (size_t, [handle]),
        "eredu_layout_find_tensor": (status_t, [handle, ctypes.c_char_p, P(size_t), error_slot]),
        "eredu_layout_get_tensor_info": (status_t, [handle, size_t, P(TensorInfo), error_slot]),
        "eredu_layout_get_info": (status_t, [handle, P(LayoutInfo), error_slot]),
        "eredu_layout_to_json": (
            status_t, [handle, P(ctypes.c_void_p), P(size_t), error_slot]
        ),
        "eredu_buffer_free": (None, [ctypes.c_void_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


class Failed(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise Failed(what)


def call(lib, function, *args, expected=EREDU_OK):
    """Calls a fallible function and checks its status and error object."""
    error = handle()
    status = function(*args, ctypes.byref(error))
    try:
        if status != expected:
            message = lib.eredu_error_message(error).decode() if error else ""
            raise Failed(f"{function.__name__}: status {status}, expected {expected}: {message}")
        if status == EREDU_OK:
            expect(not error, f"{function.__name__}: *error not NULL on success")
        else:
            expect(lib.eredu_error_code(error) == status, "error object code")
    finally:
        lib.eredu_error_free(error)


def member(lib, target, shape, sharding, axis=0, segments=()):
    desc = MemberDesc()
    call(lib, lib.eredu_member_desc_init, ctypes.byref(desc), ctypes.sizeof(desc))
    desc._keep = ((u64 * len(shape))(*shape), (u64 * max(1, len(segments)))(*segments))
    desc.target = target.encode()
    desc.shape = desc._keep[0]
    desc.ndim = len(shape)
    desc.has_dtype = 1
    desc.dtype = EREDU_DTYPE_F32
    desc.sharding = sharding
    desc.axis = axis
    desc.segments = desc._keep[1] if segments else None
    desc.segment_count = len(segments) // 2
    return desc


def new_group(lib, name, role, members, expected=EREDU_OK):
    desc = GroupDesc(ctypes.sizeof(GroupDesc), role, name.encode(), 0, 0, None)
    array = (P(MemberDesc) * len(members))(*[ctypes.pointer(m) for m in members])
    group = handle()
    call(lib, lib.eredu_group_new, ctypes.byref(desc), array, len(members), ctypes.byref(group),
         expected=expected)
    return group


def layout_json(lib, layout):
    text = ctypes.c_void_p()
    length = size_t()
    call(lib, lib.eredu_layout_to_json, layout, ctypes.byref(text), ctypes.byref(length))
    try:
        return ctypes.string_at(text, length.value).decode()
    finally:
        lib.eredu_buffer_free(text)


def run(lib):
    major_minor_patch = lib.eredu_version_string().decode().split(".")
    expect(len(major_minor_patch) == 3, "version string")
    major, minor, patch = map(int, major_minor_patch)
    expect(lib.eredu_version_number() == major * 10000 + minor * 100 + patch, "version number")
    expect(lib.eredu_status_name(EREDU_E_INVALID_GROUP) == b"EREDU_E_INVALID_GROUP", "status name")
    expect(lib.eredu_status_name(12345) == b"EREDU_E_UNKNOWN", "unknown status name")

    duplicate = member(lib, "q.weight", [8, 8], EREDU_SHARDING_REPLICATED)
    new_group(lib, "attention", EREDU_ROLE_ROW_PROJECTION, [duplicate, duplicate],
              expected=EREDU_E_INVALID_GROUP)
    new_group(lib, "attention", 99, [duplicate], expected=EREDU_E_INVALID_ARGUMENT)

    down = new_group(lib, "decoder.mlp.down", EREDU_ROLE_ROW_PROJECTION, [
        member(lib, "down.weight", [8, 16], EREDU_SHARDING_EQUAL, 1),
        member(lib, "down.bias", [8], EREDU_SHARDING_REPLICATED),
    ])
    qkv = new_group(lib, "qkv", EREDU_ROLE_SEGMENTED, [
        member(lib, "qkv.weight", [16, 8], EREDU_SHARDING_SEGMENTED, 0, [0, 8, 8, 12, 12, 16]),
    ])
    groups = (handle * 2)(down, qkv)
    model = handle()
    call(lib, lib.eredu_model_new, None, groups, 2, ctypes.byref(model))
    lib.eredu_group_free(down)
    lib.eredu_group_free(qkv)

    layout = handle()
    two = topology(2)
    call(lib, lib.eredu_plan_rank, model, ctypes.byref(two), 2, None, ctypes.byref(layout),
         expected=202)
    expect(not layout, "no layout after a failed plan")
    call(lib, lib.eredu_plan_rank, None, ctypes.byref(two), 0, None, ctypes.byref(layout),
         expected=EREDU_E_NULL_ARGUMENT)
    call(lib, lib.eredu_plan_rank, model, ctypes.byref(two), 1, None, ctypes.byref(layout))
    lib.eredu_model_free(model)  # the layout keeps the description alive

    def info_of(index):
        info = TensorInfo()
        info.struct_size = ctypes.sizeof(info)
        call(lib, lib.eredu_layout_get_tensor_info, layout, index, ctypes.byref(info))
        return info

    count = lib.eredu_layout_tensor_count(layout)
    targets = [info_of(i).target[:info_of(i).target_length].decode() for i in range(count)]
    expect(targets == ["down.bias", "down.weight", "qkv.weight"], f"targets {targets}")

    def placement_of(target):
        index = size_t()
        call(lib, lib.eredu_layout_find_tensor, layout, target.encode(), ctypes.byref(index))
        info = info_of(index)
        return info, [info.local_shape[i] for i in range(info.local_ndim)]

    weight, weight_shape = placement_of("down.weight")
    expect((weight.placement, weight.axis, weight.shard_index, weight.shard_parts)
           == (EREDU_PLACEMENT_SHARD, 1, 1, 2), "down.weight shard")
    expect(weight_shape == [8, 8], f"down.weight local shape {weight_shape}")
    bias, bias_shape = placement_of("down.bias")
    expect(bias.placement == EREDU_PLACEMENT_REPLICATED and bias_shape == [8], "down.bias")
    indices, qkv_shape = placement_of("qkv.weight")
    runs = [indices.runs[i] for i in range(2 * indices.run_count)]
    expect(indices.placement == EREDU_PLACEMENT_INDICES and indices.axis == 0, "qkv kind")
    expect(runs == [4, 8, 10, 12, 14, 16], f"qkv runs {runs}")
    expect(indices.index_count == 8 and qkv_shape == [8, 8], "qkv count and shape")

    index = size_t(7)
    call(lib, lib.eredu_layout_find_tensor, layout, b"missing", ctypes.byref(index),
         expected=EREDU_E_NOT_FOUND)
    expect(index.value == 0, "index zeroed on failure")

    totals = LayoutInfo()
    totals.struct_size = ctypes.sizeof(totals)
    call(lib, lib.eredu_layout_get_info, layout, ctypes.byref(totals))
    expect((totals.local_bytes, totals.global_bytes, totals.materialized_tensors,
            totals.omitted_tensors, totals.tensor_count) == (544, 1056, 3, 0, 3), "totals")
    wrong = LayoutInfo()
    wrong.struct_size = 3
    call(lib, lib.eredu_layout_get_info, layout, ctypes.byref(wrong),
         expected=EREDU_E_INVALID_ARGUMENT)

    document = json.loads(layout_json(lib, layout))
    expect(document["schema"] == "eredu.layout.v1", "schema")
    expect(document["coordinates"]["tensor"] == 1, "coordinates")
    by_target = {tensor["target"]: tensor for tensor in document["tensors"]}
    expect(by_target["qkv.weight"]["placement"]
           == {"kind": "indices", "axis": 0, "runs": [[4, 8], [10, 12], [14, 16]], "count": 8},
           "qkv JSON placement")
    lib.eredu_layout_free(layout)

    # The bulk path gives the same layout.
    text = json.dumps({
        "schema": "eredu.groups.v1",
        "groups": [
            {"name": "decoder.mlp.down", "role": "row_projection", "members": [
                {"target": "down.weight", "shape": [8, 16], "dtype": "F32",
                 "sharding": {"kind": "equal", "axis": 1}},
                {"target": "down.bias", "shape": [8], "dtype": "F32",
                 "sharding": {"kind": "replicated"}}]},
            {"name": "qkv", "role": "segmented", "members": [
                {"target": "qkv.weight", "shape": [16, 8], "dtype": "F32",
                 "sharding": {"kind": "segmented", "axis": 0,
                              "segments": [[0, 8], [8, 12], [12, 16]]}}]},
        ],
    }).encode()
    model = handle()
    call(lib, lib.eredu_model_from_json, text, len(text), ctypes.byref(model))
    layout = handle()
    call(lib, lib.eredu_plan_rank, model, ctypes.byref(two), 1, None, ctypes.byref(layout))
    expect(json.loads(layout_json(lib, layout)) == document, "JSON path layout")
    lib.eredu_layout_free(layout)
    lib.eredu_model_free(model)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        run(load(sys.argv[1]))
    except Failed as failure:
        print(f"smoke_ctypes: FAILED: {failure}", file=sys.stderr)
        return 1
    print("smoke_ctypes: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
