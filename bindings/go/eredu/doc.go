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
//	PKG_CONFIG_PATH=/path/to/build/meson-uninstalled \
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
// Descriptors (members, scopes, model info) are built in C memory for the
// duration of one call, since cgo forbids passing Go memory that holds Go
// pointers. The bulk path (ModelFromJSON, PlanWorldJSON, CheckJSON,
// LocalModelLayout.JSON) exchanges whole documents as text.
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
