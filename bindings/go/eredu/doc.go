// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Package eredu binds liberedu, the C ABI of the eredu parameter-placement
// planner, through cgo.
//
// The names mirror the Rust seeds the planner implements
// (ParameterGroupSpec, ParameterMemberSpec, MemberSharding, ParameterRole,
// ModelDescription, ShardingPolicy, ParallelTopology, LocalModelLayout,
// TensorPlacement, ...), in Go casing.
//
// # Building
//
// The package finds the library with pkg-config (`#cgo pkg-config: eredu`).
// Against an uninstalled meson build directory:
//
//	PKG_CONFIG_PATH=/path/to/build/capi \
//	LD_LIBRARY_PATH=/path/to/build/capi go test ./...
//
// # Version check
//
// The binding is written for major version 0 of the library. The first
// call that does not take a handle (any New*/…From* constructor, Validate
// of a value, ParameterBankKey.UnitID, ExpertPass.ParameterBankAccess, ...)
// checks eredu_version_number()/10000 once (sync.Once); against another
// major each of them returns a *VersionError naming both versions, and no
// handle is ever created (so no method of a handle reaches that library
// either). The Default* helpers, which return no error, then return the zero
// value, which every call taking it refuses with the same *VersionError.
// Only LibraryVersion and Status.String call such a library. The headers are
// checked at compile time as well.
//
// # Handles and memory
//
// ParameterGroupSpec, ModelDescription, LocalModelLayout and the other
// handle types own a C object. Close releases it; Close is idempotent and a
// finalizer calls it for a handle that becomes unreachable. Any method of a
// closed handle returns an error wrapping ErrClosed without reaching the
// library. Close must not run concurrently with any other call on the same
// handle, another Close included (two racing Close calls may free the
// object twice): close a shared handle once, after every goroutine using it
// is done, or leave it to the finalizer. Every other method of an immutable
// handle (groups, models, layouts, offload plans) may be called from any
// number of goroutines; the mutable ones (NormalizedLoadRequest,
// DenseTransferSchedule, LayerwiseModelMetadata) say which calls may
// overlap.
//
// Every struct the library reads or fills is sized (docs/abi.md): the
// binding sets its struct_size to the size of the C struct it is compiled
// against (C.sizeof_...), so a newer library reads the fields this package
// knows and defaults the rest. Descriptors that point to other memory
// (members, scopes, model info, group and parallel descriptors) are built
// in C memory for the duration of one call, since cgo forbids passing Go
// memory that holds Go pointers; flat structs (a topology, plan options,
// output structs) are Go values passed by pointer. A record is read by one
// call: LocalModelLayout.TensorAt copies every field of a tensor from one
// eredu_layout_get_tensor_info, and the Info methods read a layout, group,
// offload plan or load request at once. Counts that cannot fail (Len,
// TensorCount, ...) return plain values, 0 for a closed handle. The bulk
// path (ModelFromJSON, PlanWorldJSON, CheckJSON, FitJSON,
// LocalModelLayout.JSON) exchanges whole documents as text.
//
// # From files
//
// DescribeModel describes a model folder or a .gguf file as `eredu
// describe` does; OpenCheckpoint reads a checkpoint's tensor headers, and
// NewReadPlan gives a planned rank's byte extents of its files
// (ReadPlan.Tensors; ReadPlan.JSON is eredu.readplan.v1). ReadPlan.Load
// reads every tensor at once; ReadOptions.Progress, called on the calling
// thread with the bytes kept so far and the plan's ReadBytes, may cancel
// it as a planning Progress function does.
//
// # Planning options and progress
//
// PlanOptions carries the policy, the thread count (1: the calling thread
// only), the pipeline stages' layer counts and an optional Progress
// function, which PlanWorldJSON and CheckJSON call after each planned rank
// and FitJSON after each topology it searches; returning false cancels the
// call with an *Error matching ErrCancelled. The library calls it through
// an exported cgo trampoline, finding the Go function through a cgo.Handle
// kept in C memory for the duration of the call; calls are serialized but
// may come from the library's threads. A panic in it is recovered before it
// reaches the library and cancels the call.
//
// PipelineLayers chooses the pipeline stages' sizes (one decoder layer
// count per stage, summing to the model's layers; nil: balanced); the
// counts are copied into C memory for the call.
//
// # Errors
//
// Every failure of the library is an *Error carrying the status code, its
// stable name (eredu_status_name) and the message. errors.Is compares codes
// with the sentinels of status_gen.go:
//
//	if errors.Is(err, eredu.ErrInvalidTensor) { ... }
package eredu

//go:generate go run mkstatus.go -header ../../../include/eredu/status.h -out status_gen.go
