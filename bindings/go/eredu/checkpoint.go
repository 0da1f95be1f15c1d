// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import (
	"runtime"
	"strings"
	"unsafe"
)

// DescribeOptions is how DescribeModel describes a model
// (eredu_describe_options); the zero value reads the checkpoint's files and
// pads nothing.
type DescribeOptions struct {
	// ConfigOnly describes a folder from config.json alone, reading no index
	// or shard; a GGUF file is always described from its own header.
	ConfigOnly bool
	// PadVocab pads the vocabulary groups' rows to a multiple of PadVocab
	// times the tensor size; 0: no padding.
	PadVocab uint64
}

func (opts DescribeOptions) raw() C.eredu_describe_options {
	return C.eredu_describe_options{
		struct_size:        C.sizeof_eredu_describe_options,
		config_only:        cbool(opts.ConfigOnly),
		pad_vocab_multiple: C.uint64_t(opts.PadVocab),
	}
}

// DescribeModel describes the model at path as `eredu describe` does
// (eredu_model_describe): a .gguf file from its metadata and tensor infos,
// or a model folder from its config.json, checked against its weight index
// and, when they are on disk, its shards' headers (shapes and dtypes).
// Errors: *VersionError; ErrInvalidArgument (a path that is not UTF-8 or
// holds a NUL byte), ErrIO (a file that cannot be read), ErrParse (a
// malformed config.json, index or header), ErrUnsupportedModel (a model
// type or quantization eredu does not describe), ErrCheckpointMismatch
// (tensors not described exactly once, byte totals, a stored shape that
// differs from the configuration's), ErrInvalidFormat, ErrInvalidTensor,
// ErrInvalidGroup (the quantized-format expansion, the padding),
// ErrOutOfMemory.
func DescribeModel(path string, opts DescribeOptions) (*ModelDescription, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cpath, err := mem.cstring(path, "path")
	if err != nil {
		return nil, err
	}
	options := opts.raw()
	var out *C.eredu_model
	var cerr *C.eredu_error
	if err := takeError(C.eredu_model_describe(cpath, &options, &out, &cerr), cerr); err != nil {
		return nil, err
	}
	return newModel(out), nil
}

// ModelTypes lists the config.json model_type values DescribeModel
// supports (eredu_model_types), in the order of docs/describe.md's table.
// Errors: *VersionError.
func ModelTypes() ([]string, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	return strings.Split(C.GoString(C.eredu_model_types()), ", "), nil
}

// Warnings lists what DescribeModel could not verify about the model
// (eredu_model_warning_count, eredu_model_warning), such as a weight index
// without metadata.total_size; empty for most models and for a closed
// description.
func (m *ModelDescription) Warnings() []string {
	h, err := m.handle()
	if err != nil {
		return nil
	}
	count := int(C.eredu_model_warning_count(h))
	warnings := make([]string, 0, count)
	for i := 0; i < count; i++ {
		warnings = append(warnings, C.GoString(C.eredu_model_warning(h, C.size_t(i))))
	}
	runtime.KeepAlive(m)
	return warnings
}

// Checkpoint is the table of the tensors a checkpoint stores (an
// eredu_checkpoint): for each, its file, byte range, element type and
// shape, read from the headers when it is opened; no file stays open. Safe
// for concurrent readers; Close releases it (read plans made from it stay
// valid).
type Checkpoint struct {
	ptr *C.eredu_checkpoint
}

// OpenCheckpoint opens the checkpoint at path and reads its tensor headers
// (eredu_checkpoint_open): a .gguf or .safetensors file, or a folder with
// model.safetensors.index.json and its shards, or with model.safetensors.
// Errors: *VersionError; ErrInvalidArgument (a path that is not UTF-8 or
// holds a NUL byte), ErrIO (nothing to read, a missing shard), ErrParse (a
// malformed index or header, naming the file and tensor),
// ErrCheckpointMismatch (an index and shards that disagree, a tensor stored
// twice), ErrOutOfMemory.
func OpenCheckpoint(path string) (*Checkpoint, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cpath, err := mem.cstring(path, "path")
	if err != nil {
		return nil, err
	}
	var out *C.eredu_checkpoint
	var cerr *C.eredu_error
	if err := takeError(C.eredu_checkpoint_open(cpath, &out, &cerr), cerr); err != nil {
		return nil, err
	}
	c := &Checkpoint{ptr: out}
	runtime.SetFinalizer(c, (*Checkpoint).Close)
	return c, nil
}

// Close releases the checkpoint. Idempotent; always returns nil.
func (c *Checkpoint) Close() error {
	if c == nil || c.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(c, nil)
	C.eredu_checkpoint_free(c.ptr)
	c.ptr = nil
	return nil
}

func (c *Checkpoint) handle() (*C.eredu_checkpoint, error) {
	if c == nil || c.ptr == nil {
		return nil, closedError("Checkpoint")
	}
	return c.ptr, nil
}

// TensorCount returns the number of tensors the checkpoint stores
// (eredu_checkpoint_tensor_count, which cannot fail); 0 for a closed
// checkpoint.
func (c *Checkpoint) TensorCount() int {
	h, err := c.handle()
	if err != nil {
		return 0
	}
	n := C.eredu_checkpoint_tensor_count(h)
	runtime.KeepAlive(c)
	return int(n)
}

// Describe describes the model whose checkpoint this is, as DescribeModel
// does for the path it was opened from, without reading its weight index or
// headers again (eredu_checkpoint_describe): only a folder's config.json is
// read. With ConfigOnly the checkpoint's tensors are not used. Errors:
// ErrClosed; ErrParse for a .safetensors file opened directly (no
// configuration describes it); otherwise DescribeModel's.
func (c *Checkpoint) Describe(opts DescribeOptions) (*ModelDescription, error) {
	h, err := c.handle()
	if err != nil {
		return nil, err
	}
	options := opts.raw()
	var out *C.eredu_model
	var cerr *C.eredu_error
	status := C.eredu_checkpoint_describe(h, &options, &out, &cerr)
	runtime.KeepAlive(c)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newModel(out), nil
}

// ReadExtent is one byte extent of a read plan (eredu_read_extent): for i
// in [0, Count), copy Length bytes at offset Offset+i*Stride of file File
// (an index into ReadPlan.Files) to offset Dest+i*DestStride of the
// tensor's local buffer. A single extent has Count 1 and Stride =
// DestStride = Length.
type ReadExtent struct {
	File, Offset, Length, Count, Stride, Dest, DestStride uint64
}

// ReadTensor is a copy of one tensor of a read plan
// (eredu_read_tensor_info).
type ReadTensor struct {
	Target string
	// DType is the stored element type: a safetensors dtype ("BF16") or a
	// ggml type name ("Q4_K").
	DType string
	// LocalShape is outermost first, in elements, except the row
	// (innermost) axis of a GGUF block type, which counts bytes.
	LocalShape []uint64
	// LocalBytes is the size of the local buffer, padding rows included;
	// ReadBytes the bytes the extents read (the sum of Length*Count).
	LocalBytes, ReadBytes uint64
	// PaddingRows are the rows of the local buffer past the checkpoint's
	// (vocabulary padding): allocated at the end of the padded axis, not
	// read.
	PaddingRows uint64
	// Extents are in ascending destination order; nil for an empty
	// selection.
	Extents []ReadExtent
}

// ReadPlan is the read plan of one planned rank over a checkpoint (an
// eredu_read_plan; canonical text eredu.readplan.v1): for every tensor the
// rank materializes, in target order, the extents of the checkpoint's files
// that fill its local buffer, each byte read exactly once. Safe for
// concurrent readers; Close releases it.
type ReadPlan struct {
	ptr *C.eredu_read_plan
}

// NewReadPlan builds the read plan of layout's rank over checkpoint
// (eredu_read_plan_new). The plan copies what it needs: both may be closed
// first. Errors: an error wrapping ErrClosed for a nil or closed layout or
// checkpoint; ErrCheckpointMismatch (a tensor the rank materializes that
// the checkpoint does not store, or stores with another shape or element
// type), ErrOutOfMemory.
func NewReadPlan(layout *LocalModelLayout, checkpoint *Checkpoint) (*ReadPlan, error) {
	l, err := layout.handle()
	if err != nil {
		return nil, err
	}
	c, err := checkpoint.handle()
	if err != nil {
		return nil, err
	}
	var out *C.eredu_read_plan
	var cerr *C.eredu_error
	status := C.eredu_read_plan_new(l, c, &out, &cerr)
	runtime.KeepAlive(layout)
	runtime.KeepAlive(checkpoint)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	p := &ReadPlan{ptr: out}
	runtime.SetFinalizer(p, (*ReadPlan).Close)
	return p, nil
}

// Close releases the plan. Idempotent; always returns nil.
func (p *ReadPlan) Close() error {
	if p == nil || p.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(p, nil)
	C.eredu_read_plan_free(p.ptr)
	p.ptr = nil
	return nil
}

func (p *ReadPlan) handle() (*C.eredu_read_plan, error) {
	if p == nil || p.ptr == nil {
		return nil, closedError("ReadPlan")
	}
	return p.ptr, nil
}

// Rank returns the plan's global rank (eredu_read_plan_rank, which cannot
// fail); 0 for a closed plan.
func (p *ReadPlan) Rank() uint64 {
	h, err := p.handle()
	if err != nil {
		return 0
	}
	rank := C.eredu_read_plan_rank(h)
	runtime.KeepAlive(p)
	return uint64(rank)
}

// ReadBytes returns the bytes every extent of the plan reads; 0 for a
// closed plan.
func (p *ReadPlan) ReadBytes() uint64 {
	h, err := p.handle()
	if err != nil {
		return 0
	}
	n := C.eredu_read_plan_read_bytes(h)
	runtime.KeepAlive(p)
	return uint64(n)
}

// Files returns the files the extents use (ReadExtent.File indexes them)
// as eredu.readplan.v1 names them: the path as given for a file opened
// directly, else relative to the model folder.
func (p *ReadPlan) Files() ([]string, error) {
	return p.fileNames(false)
}

// FilePaths returns Files as paths to open: joined to the model folder the
// checkpoint was opened from.
func (p *ReadPlan) FilePaths() ([]string, error) {
	return p.fileNames(true)
}

// fileNames copies every file's name (eredu_read_plan_file), or its path
// (eredu_read_plan_file_path).
func (p *ReadPlan) fileNames(paths bool) ([]string, error) {
	h, err := p.handle()
	if err != nil {
		return nil, err
	}
	names := make([]string, int(C.eredu_read_plan_file_count(h)))
	for i := range names {
		if paths {
			names[i] = C.GoString(C.eredu_read_plan_file_path(h, C.size_t(i)))
		} else {
			names[i] = C.GoString(C.eredu_read_plan_file(h, C.size_t(i)))
		}
	}
	runtime.KeepAlive(p)
	return names, nil
}

// Tensors returns a copy of every tensor, in target order: one library call
// each (eredu_read_plan_tensor_info).
func (p *ReadPlan) Tensors() ([]ReadTensor, error) {
	h, err := p.handle()
	if err != nil {
		return nil, err
	}
	tensors := make([]ReadTensor, int(C.eredu_read_plan_tensor_count(h)))
	for i := range tensors {
		info := C.eredu_read_tensor_info{struct_size: C.sizeof_eredu_read_tensor_info}
		var cerr *C.eredu_error
		status := C.eredu_read_plan_tensor_info(h, C.size_t(i), &info, &cerr)
		if status == C.EREDU_OK {
			tensors[i] = readTensorFromC(&info) // copies what the plan lends
		}
		runtime.KeepAlive(p)
		if err := takeError(status, cerr); err != nil {
			return nil, err
		}
	}
	return tensors, nil
}

// readTensorFromC copies every field of a read tensor info.
func readTensorFromC(info *C.eredu_read_tensor_info) ReadTensor {
	t := ReadTensor{
		Target:      C.GoString(info.target),
		DType:       C.GoString(info.dtype),
		LocalShape:  borrowedUint64s(info.local_shape, info.ndim),
		LocalBytes:  uint64(info.local_bytes),
		ReadBytes:   uint64(info.read_bytes),
		PaddingRows: uint64(info.padding_rows),
	}
	if info.extent_count > 0 {
		extents := unsafe.Slice(info.extents, int(info.extent_count))
		t.Extents = make([]ReadExtent, len(extents))
		for i, e := range extents {
			t.Extents[i] = ReadExtent{
				File: uint64(e.file), Offset: uint64(e.offset), Length: uint64(e.length),
				Count: uint64(e.count), Stride: uint64(e.stride), Dest: uint64(e.dest),
				DestStride: uint64(e.dest_stride),
			}
		}
	}
	return t
}

// JSON returns the canonical eredu.readplan.v1 text (compact, one trailing
// newline), byte-identical across bindings and `eredu read-plan`.
func (p *ReadPlan) JSON() (string, error) {
	h, err := p.handle()
	if err != nil {
		return "", err
	}
	var text *C.char
	var n C.size_t
	var cerr *C.eredu_error
	status := C.eredu_read_plan_to_json(h, &text, &n, &cerr)
	runtime.KeepAlive(p)
	if err := takeError(status, cerr); err != nil {
		return "", err
	}
	return takeText(text, n), nil
}

// ReadTensor fills buf (at least the tensor's LocalBytes) with tensor i's
// bytes from the checkpoint's files (eredu_read_plan_read_tensor):
// exactly its extents, single ones with pread, strided rows from a
// read-only mapping. Padding rows and bytes past LocalBytes are left as
// they were. Errors: ErrInvalidArgument for an index out of range or a
// short buffer, ErrIO for a file that cannot be read.
func (p *ReadPlan) ReadTensor(i int, buf []byte) error {
	h, err := p.handle()
	if err != nil {
		return err
	}
	var data unsafe.Pointer
	if len(buf) > 0 {
		data = unsafe.Pointer(&buf[0])
	}
	var cerr *C.eredu_error
	status := C.eredu_read_plan_read_tensor(h, index(i), data, C.size_t(len(buf)), &cerr)
	runtime.KeepAlive(p)
	runtime.KeepAlive(buf)
	return takeError(status, cerr)
}

// ReadOptions says how ReadPlan.Load reads (eredu_read_options); the zero
// value is not the default: use DefaultReadOptions.
type ReadOptions struct {
	Threads      uint32 // threads reading, the calling one included; 0: one per hardware thread
	RequestBytes uint64 // the most bytes one read request asks for (4096 to 1 GiB)
	MaxGapBytes  uint64 // rows with gaps of at most this many bytes are read as one span
	Direct       bool   // O_DIRECT reads (buffered where the file system refuses them)
	// Progress, when not nil, is called with the bytes kept so far and the
	// bytes the plan keeps (its ReadBytes): between requests, at least
	// every 50 ms while reading, and at the end, so that the last call of
	// a read that succeeds has both equal; a call comes only when more
	// bytes were kept since the last one. Returning false cancels the read,
	// which then returns an *Error matching ErrCancelled.
	//
	// It is called on the calling goroutine's thread, which reads too (never
	// on one of the library's helper threads); that thread reads nothing
	// while it runs, so Progress should return quickly. A panic inside
	// Progress is recovered and cancels the read; the returned error's
	// message then names the panic value. Progress is not called again
	// once it has cancelled.
	Progress func(done, total uint64) bool
}

// DefaultReadOptions are EREDU_READ_OPTIONS_INIT's: a thread per hardware
// thread, 1 MiB requests, strided rows copied from a mapping (no gap
// read), buffered reads.
func DefaultReadOptions() ReadOptions {
	return ReadOptions{RequestBytes: 1 << 20, MaxGapBytes: 0}
}

// ReadStats is what ReadPlan.Load read (eredu_read_stats).
type ReadStats struct {
	BytesRead uint64 // bytes the read requests returned: BytesKept plus gaps and alignment
	BytesKept uint64 // bytes written to the tensors: the plan's read bytes
	Tensors   uint64
	Requests  uint64 // read system calls
	Threads   uint32
	Direct    bool // every request was an O_DIRECT read
}

// RankData holds every tensor of a read plan in memory the library
// allocated (eredu_rank_data). Close frees it, and only Close: the slices
// Tensor returns point into it, so no finalizer may.
type RankData struct {
	ptr *C.eredu_rank_data
}

func (d *RankData) handle() (*C.eredu_rank_data, error) {
	if d == nil || d.ptr == nil {
		return nil, closedError("RankData")
	}
	return d.ptr, nil
}

// Load reads every tensor of the plan at once into memory the library
// allocates, each tensor 4096-byte aligned and zeroed first
// (eredu_read_plan_load, docs/checkpoints.md "Reading a whole rank").
// Errors: ErrInvalidArgument (options out of range), ErrIO (a file that
// cannot be read or is shorter than the plan), ErrCancelled when
// options.Progress returned false or panicked, ErrOutOfMemory.
func (p *ReadPlan) Load(options ReadOptions) (*RankData, ReadStats, error) {
	h, err := p.handle()
	if err != nil {
		return nil, ReadStats{}, err
	}
	var mem cMemory
	defer mem.free()
	var copts C.eredu_read_options
	C.eredu_read_options_init(&copts, C.sizeof_eredu_read_options, nil)
	copts.threads = C.uint32_t(options.Threads)
	copts.request_bytes = C.uint64_t(options.RequestBytes)
	copts.max_gap_bytes = C.uint64_t(options.MaxGapBytes)
	if options.Direct {
		copts.direct = 1
	}
	progress, err := mem.withReadProgress(&copts, options.Progress)
	if err != nil {
		return nil, ReadStats{}, err
	}
	var stats C.eredu_read_stats
	C.eredu_read_stats_init(&stats, C.sizeof_eredu_read_stats, nil)
	var out *C.eredu_rank_data
	var cerr *C.eredu_error
	status := C.eredu_read_plan_load(h, &copts, &out, &stats, &cerr)
	runtime.KeepAlive(p)
	if err := progress.finish(takeError(status, cerr)); err != nil {
		return nil, ReadStats{}, err
	}
	// No finalizer: the slices Tensor returns point into this memory, and
	// the garbage collector cannot see them; only Close frees it.
	data := &RankData{ptr: out}
	return data, ReadStats{
		BytesRead: uint64(stats.bytes_read), BytesKept: uint64(stats.bytes_kept),
		Tensors: uint64(stats.tensors), Requests: uint64(stats.requests),
		Threads: uint32(stats.threads), Direct: stats.direct != 0,
	}, nil
}

// Len is the number of tensors; 0 once closed.
func (d *RankData) Len() int {
	h, err := d.handle()
	if err != nil {
		return 0
	}
	n := int(C.eredu_rank_data_tensor_count(h))
	runtime.KeepAlive(d)
	return n
}

// Tensor is tensor i's local buffer, in the plan's order: a slice of the
// library's memory, valid until Close. Nil for an index out of range.
func (d *RankData) Tensor(i int) []byte {
	h, err := d.handle()
	if err != nil || i < 0 {
		return nil
	}
	var n C.uint64_t
	data := C.eredu_rank_data_tensor(h, C.size_t(i), &n)
	runtime.KeepAlive(d)
	if data == nil {
		return nil
	}
	return unsafe.Slice((*byte)(data), int(n))
}

// Close frees the tensors; every slice Tensor returned becomes invalid.
func (d *RankData) Close() error {
	if d.ptr != nil {
		C.eredu_rank_data_free(d.ptr)
		d.ptr = nil
	}
	return nil
}
