# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""eredu: Python bindings (ctypes, standard library only) of liberedu, the
parameter-placement planner. Names mirror the seeds' Rust API in Python
casing: ParameterGroupSpec, ParameterMemberSpec, MemberSharding,
ParameterRole, ModelDescription, plan_rank -> LocalModelLayout, ...

Importing loads liberedu.so.0 (EREDU_LIBRARY, else a copy in this package's
directory, else the system library path) and refuses a library of another
major version (IncompatibleLibraryError, an ImportError).

Quick start (an eredu.groups.v1 file, e.g. from `eredu describe`):

    import pathlib, eredu
    text = pathlib.Path("model.groups.json").read_bytes()  # the text, not the path
    with eredu.ModelDescription.from_json(text) as model, \
            eredu.plan_rank(model, eredu.ParallelTopology(tensor=2), rank=1) as layout:
        for target, tensor in layout.tensors():
            print(target, tensor.placement, tensor.local_shape, tensor.local_bytes)
        print(layout.to_json())  # canonical eredu.layout.v1

From the model's own files (a .gguf file, or a folder with config.json
and its shards), a rank's bytes on disk:

    with eredu.describe_model("model.gguf") as model, \
            eredu.Checkpoint.open("model.gguf") as checkpoint, \
            eredu.plan_rank(model, eredu.ParallelTopology(tensor=2), rank=1) as layout, \
            eredu.read_plan(layout, checkpoint) as plan:
        for tensor in plan.tensors:  # ReadTensor: target, local_shape, extents, ...
            print(tensor.target, tensor.local_shape, tensor.extents)
        data = plan.read_into("blk.0.attn_q.weight")  # the local buffer's bytes

Main entry points (see help() of each): ModelDescription (from_json,
from_groups), describe_model (from a model folder or a .gguf file),
ParameterGroupSpec, ParameterMemberSpec, MemberSharding, ParallelTopology,
plan_rank -> LocalModelLayout (tensor, tensors, placement, local_shape,
totals, to_json), plan_world_json and check_json (threads, a progress
callable that can cancel, and pipeline_layers, the decoder layers of each
pipeline stage, which plan_rank takes too), fit_json (which topologies up
to max_world plan and fit), launch_env -> LaunchEnv (this process's rank
and world size from torchrun, Open MPI, PMI or Slurm; check(topology)),
Checkpoint.open and read_plan -> ReadPlan
(rank, read_bytes, files, file_paths, tensors: ReadTensor with its
ReadExtents, read_into, to_json: eredu.readplan.v1), the formats
(LinearFormatSpec, expand_linear_format_model), residency (OffloadPlan,
WeightResidency, DenseTransferSchedule) and NormalizedLoadRequest; errors
in eredu.errors, status codes in eredu.status.

Every failing call raises EreduError (code, name, message, problems);
arguments of the wrong type or range raise TypeError / ValueError before
any C call.
Objects owning a library handle have close(), are context managers and
are freed by the garbage collector otherwise; use after close() raises
ClosedError; they cannot be copied or pickled.
"""
from . import status
from ._library import SUPPORTED_MAJOR, IncompatibleLibraryError, lib as _lib
from .errors import (ClosedError, CompletionPolicyError, DenseTransferScheduleError, EreduError,
                     GeneralError, LinearFormatError, NormalizedLoadRequestError, OffloadError,
                     ParallelPlanError, Problem, TopologyError, WeightBindingError,
                     WeightResidencyPolicyError, error_class, status_name)
from .group import (Dtype, GroupScope, MemberSharding, ParameterGroupSpec, ParameterMemberSpec,
                    ParameterRole, ScopeKind, ShardingKind, aligned_partition_units,
                    partitioned_group_with_preferred_units)
from .model import ModelDescription
from .plan import (ExpertRange, LayoutTotals, LocalModelLayout, LocalTensorLayout,
                   ParallelCoordinates, ParallelTopology, PlacementKind, ShardingPolicy,
                   TensorPlacement, plan_rank)
from .world import DEFAULT_MAX_WORLD, check_json, fit_json, plan_world_json
from .launch import LaunchEnv, Launcher, launch_env
from .checkpoint import (Checkpoint, ReadExtent, ReadPlan, ReadTensor, describe_model,
                         model_types, read_plan)
from .format import (BlockFp8ScaleEncoding, GgmlTypeInfo, LinearFormat, LinearFormatKind,
                     LinearFormatSpec, expand_linear_format_group, expand_linear_format_member,
                     expand_linear_format_model, ggml_type_by_code, ggml_type_by_name)
from .projection import (ModuleParameter, ParallelModelInfo, ProjectionSharding,
                         partitioned_projection_group, projection_parameter_group,
                         segmented_projection_group)
from .residency import (DEFAULT_MAX_CACHED_SHARDS, DENSE_TRANSFER_WINDOW, CacheEvictionPolicy,
                        DenseTransferSchedule, ExpertPass, MemoryTier, OffloadConfig, OffloadPlan,
                        OffloadUnitSpec, ParameterBankAccess, ResidencyPolicy, SelectionKind,
                        StaticUnitBindings, TensorSelection, WeightBinding, parameter_bank_access,
                        parameter_bank_unit_id)
from .weight_residency import (DenseDiskStreamLoadOptions, ExecutionResidency,
                               LayerwiseLoadOptions, ParameterBankLoadOptions, ResidencyRequest,
                               ResidencySummary, WeightResidency, residency_from_json)
from .layerwise_metadata import LayerwiseModelMetadata
from .request import (SESSION_CAPABILITIES_MASK, CacheResidency, CommunicationCompletionPolicy,
                      CompletionCancellationMode, DraftingKind, DraftingPlan, DraftingPlanKind,
                      NormalizedLoadRequest, ParallelLoadRequest, PipelineActivationDtype,
                      PreparationPolicy, QuantizationKind, QuantizationRequest)


def version_number():
    """The loaded library's major * 10000 + minor * 100 + patch."""
    return _lib.eredu_version_number()


def version_string():
    """The loaded library's "major.minor.patch"."""
    return _lib.eredu_version_string().decode("ascii")


def library_path():
    """The path (or bare name) the library was loaded from."""
    return _lib.path
