// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// LinearFormatKind selects a LinearFormat variant (EREDU_LINEAR_FORMAT_*).
type LinearFormatKind uint32

// LinearFormatKind values.
const (
	LinearFormatDense    LinearFormatKind = C.EREDU_LINEAR_FORMAT_DENSE
	LinearFormatAffine   LinearFormatKind = C.EREDU_LINEAR_FORMAT_AFFINE
	LinearFormatMXFP4    LinearFormatKind = C.EREDU_LINEAR_FORMAT_MXFP4
	LinearFormatGGUF     LinearFormatKind = C.EREDU_LINEAR_FORMAT_GGUF
	LinearFormatBlockFP8 LinearFormatKind = C.EREDU_LINEAR_FORMAT_BLOCK_FP8
)

// BlockFp8ScaleEncoding is the block-FP8 inverse-scale encoding (seed
// BlockFp8ScaleEncoding; EREDU_BLOCK_FP8_SCALE_*).
type BlockFp8ScaleEncoding uint32

// BlockFp8ScaleEncoding values.
const (
	BlockFp8ScaleFloat BlockFp8ScaleEncoding = C.EREDU_BLOCK_FP8_SCALE_FLOAT
	BlockFp8ScaleUE8M0 BlockFp8ScaleEncoding = C.EREDU_BLOCK_FP8_SCALE_UE8M0
)

// LinearFormat is a linear-matrix encoding (seed LinearFormat with
// AffineQuantization, GgufIQuant, BlockFp8Format); only the fields of Kind
// are used. DefaultLinearFormat gives the defaults (affine 64/4, block
// 128x128 float).
type LinearFormat struct {
	Kind            LinearFormatKind
	AffineGroupSize int32
	AffineBits      int32
	GgmlType        uint32
	BlockRows       int32
	BlockColumns    int32
	ScaleEncoding   BlockFp8ScaleEncoding
}

// DefaultLinearFormat returns eredu_linear_format_init's values (kind
// Dense).
func DefaultLinearFormat() LinearFormat {
	if checkVersion() != nil {
		return LinearFormat{}
	}
	var f C.eredu_linear_format
	C.eredu_linear_format_init(&f, C.sizeof_eredu_linear_format, nil)
	return LinearFormat{Kind: LinearFormatKind(f.kind), AffineGroupSize: int32(f.affine_group_size),
		AffineBits: int32(f.affine_bits), GgmlType: uint32(f.ggml_type), BlockRows: int32(f.block_rows),
		BlockColumns: int32(f.block_columns), ScaleEncoding: BlockFp8ScaleEncoding(f.scale_encoding)}
}

// AffineFormat returns an affine format of groupSize values and bits bits.
func AffineFormat(groupSize, bits int32) LinearFormat {
	f := DefaultLinearFormat()
	f.Kind, f.AffineGroupSize, f.AffineBits = LinearFormatAffine, groupSize, bits
	return f
}

// BlockFp8Format returns an E4M3 block-FP8 format of rows x columns blocks.
func BlockFp8Format(rows, columns int32, encoding BlockFp8ScaleEncoding) LinearFormat {
	f := DefaultLinearFormat()
	f.Kind, f.BlockRows, f.BlockColumns, f.ScaleEncoding = LinearFormatBlockFP8, rows, columns, encoding
	return f
}

// GGUFFormat returns the checkpoint-native GGML block format of ggmlType.
func GGUFFormat(ggmlType uint32) LinearFormat {
	f := DefaultLinearFormat()
	f.Kind, f.GgmlType = LinearFormatGGUF, ggmlType
	return f
}

// Validate checks the format (seed LinearFormat::validate):
// ErrInvalidFormat with the seed's message.
func (f LinearFormat) Validate() error {
	if err := checkVersion(); err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	cf, err := mem.linearFormat(f)
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	return takeError(C.eredu_linear_format_validate(cf, &cerr), cerr)
}

// LinearFormatSpec is a format with its companions' checkpoint targets
// (seed LinearFormatSpec) and an optional companion dtype.
type LinearFormatSpec struct {
	Format LinearFormat
	// Scale is the scale companion's target, "" for none.
	Scale string
	// AffineBias is the affine-bias companion's target, "" for none.
	AffineBias        string
	CompanionDType    DType
	HasCompanionDType bool
	// Raw takes the spec as is, like the seed's expansion of an unvalidated
	// declaration (mistakes are then ErrInvalidGroup / ErrInvalidTensor).
	Raw bool
}

// Validate checks the spec as the seed's LinearFormatSpec constructors do:
// ErrInvalidFormat with the seed's message.
func (s LinearFormatSpec) Validate() error {
	if err := checkVersion(); err != nil {
		return err
	}
	var mem cMemory
	defer mem.free()
	cs, err := mem.linearFormatSpec(&s)
	if err != nil {
		return err
	}
	var cerr *C.eredu_error
	return takeError(C.eredu_linear_format_spec_validate(cs, &cerr), cerr)
}

func (m *cMemory) linearFormat(f LinearFormat) (*C.eredu_linear_format, error) {
	p, err := m.alloc(C.sizeof_eredu_linear_format)
	if err != nil {
		return nil, err
	}
	cf := (*C.eredu_linear_format)(p)
	C.eredu_linear_format_init(cf, C.sizeof_eredu_linear_format, nil)
	cf.kind = C.eredu_linear_format_kind(f.Kind)
	cf.affine_group_size = C.int32_t(f.AffineGroupSize)
	cf.affine_bits = C.int32_t(f.AffineBits)
	cf.ggml_type = C.uint32_t(f.GgmlType)
	cf.block_rows = C.int32_t(f.BlockRows)
	cf.block_columns = C.int32_t(f.BlockColumns)
	cf.scale_encoding = C.eredu_block_fp8_scale_encoding(f.ScaleEncoding)
	return cf, nil
}

// linearFormatSpec copies s into C memory; nil for a nil spec.
func (m *cMemory) linearFormatSpec(s *LinearFormatSpec) (*C.eredu_linear_format_spec, error) {
	if s == nil {
		return nil, nil
	}
	p, err := m.alloc(C.sizeof_eredu_linear_format_spec)
	if err != nil {
		return nil, err
	}
	cs := (*C.eredu_linear_format_spec)(p)
	C.eredu_linear_format_spec_init(cs, C.sizeof_eredu_linear_format_spec, nil)
	if cs.format, err = m.linearFormat(s.Format); err != nil {
		return nil, err
	}
	if s.Scale != "" {
		if cs.scale, err = m.cstring(s.Scale, "scale companion target"); err != nil {
			return nil, err
		}
	}
	if s.AffineBias != "" {
		if cs.affine_bias, err = m.cstring(s.AffineBias, "affine-bias companion target"); err != nil {
			return nil, err
		}
	}
	cs.has_companion_dtype = cbool(s.HasCompanionDType)
	cs.companion_dtype = C.eredu_dtype(s.CompanionDType)
	cs.raw = cbool(s.Raw)
	return cs, nil
}

// specArray copies specs (nil entries: "not declared") into a C array of
// pointers; nil for no specs.
func (m *cMemory) specArray(specs []*LinearFormatSpec) (**C.eredu_linear_format_spec, error) {
	return pointerArray(m, len(specs), func(i int) (*C.eredu_linear_format_spec, error) {
		return m.linearFormatSpec(specs[i])
	})
}

// GgmlTypeInfo is one row of the GGML block table: BlockValues values are
// stored in BlockBytes bytes.
type GgmlTypeInfo struct {
	Code        uint32
	Name        string
	BlockValues uint64
	BlockBytes  uint64
}

func ggmlInfoFromC(i *C.eredu_ggml_type_info) GgmlTypeInfo {
	return GgmlTypeInfo{Code: uint32(i.code), Name: C.GoString(i.name),
		BlockValues: uint64(i.block_values), BlockBytes: uint64(i.block_bytes)}
}

// GgmlTypeByCode looks a GGML type up by code (seed
// GgmlType::block_and_bytes): ErrInvalidFormat for an unsupported code.
func GgmlTypeByCode(code uint32) (GgmlTypeInfo, error) {
	if err := checkVersion(); err != nil {
		return GgmlTypeInfo{}, err
	}
	info := C.eredu_ggml_type_info{struct_size: C.sizeof_eredu_ggml_type_info}
	var cerr *C.eredu_error
	if err := takeError(C.eredu_ggml_type_by_code(C.uint32_t(code), &info, &cerr), cerr); err != nil {
		return GgmlTypeInfo{}, err
	}
	return ggmlInfoFromC(&info), nil
}

// GgmlTypeByName looks a GGML type up by ggml's exact name ("Q4_K"):
// ErrNotFound for a name ggml does not define, ErrInvalidFormat for one
// eredu does not support.
func GgmlTypeByName(name string) (GgmlTypeInfo, error) {
	if err := checkVersion(); err != nil {
		return GgmlTypeInfo{}, err
	}
	var mem cMemory
	defer mem.free()
	cname, err := mem.cstring(name, "GGML type name")
	if err != nil {
		return GgmlTypeInfo{}, err
	}
	info := C.eredu_ggml_type_info{struct_size: C.sizeof_eredu_ggml_type_info}
	var cerr *C.eredu_error
	if err := takeError(C.eredu_ggml_type_by_name(cname, &info, &cerr), cerr); err != nil {
		return GgmlTypeInfo{}, err
	}
	return ggmlInfoFromC(&info), nil
}

// ExpandLinearFormatMember expands one logical dense member into its packed
// weight and companions, in order [weight, scale, bias] (seed
// expand_linear_format_member).
func ExpandLinearFormatMember(member ParameterMemberSpec, spec LinearFormatSpec) ([]ParameterMemberSpec, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cm, err := mem.member(member)
	if err != nil {
		return nil, err
	}
	cs, err := mem.linearFormatSpec(&spec)
	if err != nil {
		return nil, err
	}
	var list *C.eredu_member_list
	var cerr *C.eredu_error
	if err := takeError(C.eredu_expand_linear_format_member(cm, cs, &list, &cerr), cerr); err != nil {
		return nil, err
	}
	defer C.eredu_member_list_free(list)
	return readMemberList(list)
}

// ExpandLinearFormat expands the group's members: member i by specs[i]
// when it is not nil (seed expand_linear_format_parameter_groups for one
// group). len(specs) must equal the member count.
func (g *ParameterGroupSpec) ExpandLinearFormat(specs []*LinearFormatSpec) (*ParameterGroupSpec, error) {
	h, err := g.handle()
	if err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	array, err := mem.specArray(specs)
	if err != nil {
		return nil, err
	}
	var out *C.eredu_group
	var cerr *C.eredu_error
	status := C.eredu_expand_linear_format_group(h, array, C.size_t(len(specs)), &out, &cerr)
	runtime.KeepAlive(g)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newGroup(out), nil
}

// ExpandLinearFormat expands the description's tensors: tensor i (document
// order, group by group) by specs[i] when it is not nil (seed
// expand_linear_format_parameter_groups). len(specs) must equal
// TensorCount().
func (m *ModelDescription) ExpandLinearFormat(specs []*LinearFormatSpec) (*ModelDescription, error) {
	h, err := m.handle()
	if err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	array, err := mem.specArray(specs)
	if err != nil {
		return nil, err
	}
	var out *C.eredu_model
	var cerr *C.eredu_error
	status := C.eredu_expand_linear_format_model(h, array, C.size_t(len(specs)), &out, &cerr)
	runtime.KeepAlive(m)
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newModel(out), nil
}

// AlignedPartitionUnits returns the finest logical-unit count whose
// partitions hold whole blocks of requiredAlignment elements (seed
// aligned_partition_units); ErrInvalidGroup naming `name` otherwise.
func AlignedPartitionUnits(name string, semanticUnits, elementsPerUnit, requiredAlignment uint64) (uint64, error) {
	if err := checkVersion(); err != nil {
		return 0, err
	}
	var mem cMemory
	defer mem.free()
	cname, err := mem.cstring(name, "partition name")
	if err != nil {
		return 0, err
	}
	var out C.uint64_t
	var cerr *C.eredu_error
	status := C.eredu_aligned_partition_units(cname, C.uint64_t(semanticUnits), C.uint64_t(elementsPerUnit),
		C.uint64_t(requiredAlignment), &out, &cerr)
	return uint64(out), takeError(status, cerr)
}

// PartitionedGroupWithPreferredUnits builds a partitioned group whose units
// are preferredUnits reduced by gcd with every partitioned dimension and
// segment length (seed partitioned_group_with_preferred_units).
func PartitionedGroupWithPreferredUnits(name string, role ParameterRole, preferredUnits uint64, scope GroupScope, members []ParameterMemberSpec) (*ParameterGroupSpec, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	cname, cscope, err := mem.groupHead(name, scope)
	if err != nil {
		return nil, err
	}
	array, err := mem.memberArray(members)
	if err != nil {
		return nil, err
	}
	var out *C.eredu_group
	var cerr *C.eredu_error
	status := C.eredu_partitioned_group_with_preferred_units(cname, C.eredu_role(role), C.uint64_t(preferredUnits),
		cscope, array, C.size_t(len(members)), &out, &cerr)
	return groupResult(status, out, cerr)
}
