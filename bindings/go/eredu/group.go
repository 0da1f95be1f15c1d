// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "runtime"

// Range is a half-open range [Start, End) of elements (or logical units).
type Range struct {
	Start, End uint64
}

// Len returns End-Start (0 for an inverted range).
func (r Range) Len() uint64 {
	if r.End < r.Start {
		return 0
	}
	return r.End - r.Start
}

// MemberSharding is the rank-local selection rule of one physical tensor
// (seed MemberSharding). Build it with ShardingReplicated, ShardingEqual,
// ShardingBalanced, ShardingPartitioned, ShardingPartitionedSegments or
// ShardingSegmented.
type MemberSharding struct {
	Kind ShardingKind
	// Axis is the source tensor axis (0 for Replicated).
	Axis uint64
	// Segments are the ordered half-open element ranges on Axis of
	// PartitionedSegments and Segmented; empty for the other kinds.
	Segments []Range
}

// ShardingReplicated materializes the complete member on every rank.
func ShardingReplicated() MemberSharding {
	return MemberSharding{Kind: ShardingKindReplicated}
}

// ShardingEqual splits axis into equal contiguous shards.
func ShardingEqual(axis uint64) MemberSharding {
	return MemberSharding{Kind: ShardingKindEqual, Axis: axis}
}

// ShardingBalanced splits axis into balanced, possibly uneven ranges.
func ShardingBalanced(axis uint64) MemberSharding {
	return MemberSharding{Kind: ShardingKindBalanced, Axis: axis}
}

// ShardingPartitioned maps the group's logical partition onto axis.
func ShardingPartitioned(axis uint64) MemberSharding {
	return MemberSharding{Kind: ShardingKindPartitioned, Axis: axis}
}

// ShardingPartitionedSegments maps the group's logical range into each
// segment of axis.
func ShardingPartitionedSegments(axis uint64, segments []Range) MemberSharding {
	return MemberSharding{Kind: ShardingKindPartitionedSegments, Axis: axis,
		Segments: append([]Range(nil), segments...)}
}

// ShardingSegmented balances each segment of axis independently.
func ShardingSegmented(axis uint64, segments []Range) MemberSharding {
	return MemberSharding{Kind: ShardingKindSegmented, Axis: axis,
		Segments: append([]Range(nil), segments...)}
}

// ParameterMemberSpec is one physical checkpoint tensor of a group (seed
// ParameterMemberSpec) with this project's optional dtype.
type ParameterMemberSpec struct {
	// Target is the checkpoint tensor name (non-blank).
	Target string
	// GlobalShape is the complete source shape in elements, outermost first.
	GlobalShape []uint64
	Sharding    MemberSharding
	// DType is the element type when HasDType; without one the member's
	// bytes are unknown.
	DType    DType
	HasDType bool
	// PerKVHead marks a member per KV head (eredu_member_desc.per_kv_head):
	// the k and v projections of a grouped-query group, their biases and
	// companions. Under KV-head replication (a tensor size T above the
	// group's H KV heads, see GroupDesc.QueryUnits) each of its units, one KV
	// head, is held whole by T/H tensor ranks; the other partitioned members
	// split their query heads. Only for ShardingKindPartitioned and
	// ShardingKindPartitionedSegments members of a group with query units;
	// any other group with it is ErrInvalidGroup.
	PerKVHead bool
	// ExpertAxis is the axis on which the member stacks its layer's routed
	// experts, when HasExpertAxis (eredu_member_desc.expert_axis, Stacked
	// experts, docs/planning.md): its extent there is the model's routed
	// experts, and each expert rank holds its balanced range of them
	// (LocalTensorLayout.ExpertRange) on top of the sharding's split of
	// another axis. The sharding's own axis, or a group scoped to an
	// expert, is ErrInvalidGroup; an axis outside the shape or an extent
	// other than the model's experts is ErrInvalidTensor when a rank is
	// planned.
	ExpertAxis    uint64
	HasExpertAxis bool
}

// NewParameterMemberSpec mirrors the seed's ParameterMemberSpec::new (no
// dtype); add one with WithDType.
func NewParameterMemberSpec(target string, globalShape []uint64, sharding MemberSharding) ParameterMemberSpec {
	return ParameterMemberSpec{Target: target, GlobalShape: append([]uint64(nil), globalShape...),
		Sharding: sharding}
}

// WithDType returns a copy of m with element type d.
func (m ParameterMemberSpec) WithDType(d DType) ParameterMemberSpec {
	m.DType, m.HasDType = d, true
	return m
}

// WithExpertAxis returns a copy of m stacking routed experts on axis
// (ExpertAxis).
func (m ParameterMemberSpec) WithExpertAxis(axis uint64) ParameterMemberSpec {
	m.ExpertAxis, m.HasExpertAxis = axis, true
	return m
}

// WithPerKVHead returns a copy of m marked per KV head (PerKVHead).
func (m ParameterMemberSpec) WithPerKVHead() ParameterMemberSpec {
	m.PerKVHead = true
	return m
}

// GroupScope is the pipeline/expert ownership of a group (eredu.groups.v1
// `scope`, docs/interchange.md). The zero value is ScopeKindAll.
type GroupScope struct {
	Kind      ScopeKind
	Layer     uint64
	HasLayer  bool
	Expert    uint64
	HasExpert bool
}

// ScopeLayer owns a group on the pipeline stage holding decoder layer l.
func ScopeLayer(l uint64) GroupScope {
	return GroupScope{Kind: ScopeKindIndexed, Layer: l, HasLayer: true}
}

// ScopeExpert owns a group on the expert rank holding routed expert x.
func ScopeExpert(x uint64) GroupScope {
	return GroupScope{Kind: ScopeKindIndexed, Expert: x, HasExpert: true}
}

// ScopeLayerExpert owns a group as ScopeLayer(l) and ScopeExpert(x) do.
func ScopeLayerExpert(l, x uint64) GroupScope {
	return GroupScope{Kind: ScopeKindIndexed, Layer: l, HasLayer: true, Expert: x, HasExpert: true}
}

// GroupDesc is the complete input of eredu_group_new.
type GroupDesc struct {
	// Name is the logical name (non-blank).
	Name string
	Role ParameterRole
	// PartitionUnits is the logical-unit count shared by the partitioned
	// members when Partitioned (seed ParameterGroupSpec::partitioned).
	PartitionUnits uint64
	Partitioned    bool
	Scope          GroupScope
	// QueryUnits is the query-head count of a grouped-query attention group
	// whose PartitionUnits are its KV heads, when HasQueryUnits; it must be
	// a positive multiple of PartitionUnits and needs Partitioned (else
	// ErrInvalidGroup). At a tensor size T up to the H KV heads the group
	// plans as without it; above, T must be a multiple of H that divides
	// QueryUnits (KV-head replication, docs/planning.md): tensor rank t
	// then holds KV head t/(T/H) whole in its PerKVHead members and query
	// heads [t*QueryUnits/T, (t+1)*QueryUnits/T) in the other partitioned
	// members; any other T is ErrInvalidTensor when a rank is planned.
	QueryUnits    uint64
	HasQueryUnits bool
	// VocabPadMultiple pads the vocabulary rows of a RoleVocabulary group's
	// Balanced members to a multiple of it, when HasVocabPadMultiple
	// (Vocabulary padding, docs/planning.md): at tensor size T the V rows
	// are padded to P = ceil(V/(M*T))*M*T and each tensor rank allocates P/T
	// of them, reading its part of the checkpoint's V and reporting the rest
	// as LocalTensorLayout.PaddingRows. A multiple of 0, another role, no
	// Balanced member or Balanced members with different extents on their
	// axes is ErrInvalidGroup.
	VocabPadMultiple    uint64
	HasVocabPadMultiple bool
	Members             []ParameterMemberSpec
}

// ParameterGroupSpec is an immutable, validated logical parameter and all
// of its physical checkpoint members (seed ParameterGroupSpec), owning an
// eredu_group. Safe for concurrent readers; Close releases it.
type ParameterGroupSpec struct {
	ptr *C.eredu_group
}

// NewParameterGroupSpec builds a group without a logical partition (seed
// ParameterGroupSpec::new).
func NewParameterGroupSpec(name string, role ParameterRole, members []ParameterMemberSpec) (*ParameterGroupSpec, error) {
	return BuildParameterGroupSpec(GroupDesc{Name: name, Role: role, Members: members})
}

// NewPartitionedParameterGroupSpec builds a group whose partitioned members
// share `units` logical units (seed ParameterGroupSpec::partitioned).
func NewPartitionedParameterGroupSpec(name string, role ParameterRole, units uint64, members []ParameterMemberSpec) (*ParameterGroupSpec, error) {
	return BuildParameterGroupSpec(GroupDesc{Name: name, Role: role, PartitionUnits: units,
		Partitioned: true, Members: members})
}

// BuildParameterGroupSpec builds a group from a complete description
// (eredu_group_new with an eredu_group_desc). Errors: *VersionError;
// ErrNullArgument, ErrInvalidArgument (also for a NUL byte inside a
// string), ErrInvalidGroup (the seed's construction rules, in the seed's
// order), ErrOutOfMemory.
func BuildParameterGroupSpec(desc GroupDesc) (*ParameterGroupSpec, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	var mem cMemory
	defer mem.free()
	name, scope, err := mem.groupHead(desc.Name, desc.Scope)
	if err != nil {
		return nil, err
	}
	p, err := mem.alloc(C.sizeof_eredu_group_desc)
	if err != nil {
		return nil, err
	}
	cdesc := (*C.eredu_group_desc)(p)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_group_desc_init(cdesc, C.sizeof_eredu_group_desc, &cerr), cerr); err != nil {
		return nil, err
	}
	cdesc.role = C.eredu_role(desc.Role)
	cdesc.name = name
	cdesc.has_partition_units = cbool(desc.Partitioned)
	cdesc.partition_units = C.uint64_t(desc.PartitionUnits)
	cdesc.scope = scope
	cdesc.has_query_units = cbool(desc.HasQueryUnits)
	cdesc.query_units = C.uint64_t(desc.QueryUnits)
	cdesc.has_vocab_pad_multiple = cbool(desc.HasVocabPadMultiple)
	cdesc.vocab_pad_multiple = C.uint64_t(desc.VocabPadMultiple)
	members, err := mem.memberArray(desc.Members)
	if err != nil {
		return nil, err
	}
	var out *C.eredu_group
	status := C.eredu_group_new(cdesc, members, C.size_t(len(desc.Members)), &out, &cerr)
	return groupResult(status, out, cerr)
}

// groupHead copies a group builder's name and scope into C memory.
func (m *cMemory) groupHead(name string, scope GroupScope) (*C.char, *C.eredu_group_scope, error) {
	cname, err := m.cstring(name, "group name")
	if err != nil {
		return nil, nil, err
	}
	cscope, err := m.scope(scope)
	if err != nil {
		return nil, nil, err
	}
	return cname, cscope, nil
}

// groupResult wraps the out-parameter of a group builder.
func groupResult(status C.eredu_status, out *C.eredu_group, cerr *C.eredu_error) (*ParameterGroupSpec, error) {
	if err := takeError(status, cerr); err != nil {
		return nil, err
	}
	return newGroup(out), nil
}

func newGroup(p *C.eredu_group) *ParameterGroupSpec {
	g := &ParameterGroupSpec{ptr: p}
	runtime.SetFinalizer(g, (*ParameterGroupSpec).Close)
	return g
}

// Close releases the group; models built from it keep their own copy.
// Idempotent; always returns nil.
func (g *ParameterGroupSpec) Close() error {
	if g == nil || g.ptr == nil {
		return nil
	}
	runtime.SetFinalizer(g, nil)
	C.eredu_group_free(g.ptr)
	g.ptr = nil
	return nil
}

func (g *ParameterGroupSpec) handle() (*C.eredu_group, error) {
	if g == nil || g.ptr == nil {
		return nil, closedError("ParameterGroupSpec")
	}
	return g.ptr, nil
}

// GroupInfo is what a group is besides its members (eredu_group_info).
type GroupInfo struct {
	// Name is the stable logical name.
	Name string
	Role ParameterRole
	// MemberCount is the number of physical members.
	MemberCount int
	// PartitionUnits is the shared logical-unit count when Partitioned.
	PartitionUnits uint64
	Partitioned    bool
	Scope          GroupScope
	// QueryUnits is the query-head count of a grouped-query group (whose
	// PartitionUnits are its KV heads) when HasQueryUnits.
	QueryUnits    uint64
	HasQueryUnits bool
	// VocabPadMultiple is the vocabulary padding multiple of a padded
	// vocabulary group when HasVocabPadMultiple.
	VocabPadMultiple    uint64
	HasVocabPadMultiple bool
}

// Info returns the group's name, role, member count, units and scope in
// one call (eredu_group_get_info).
func (g *ParameterGroupSpec) Info() (GroupInfo, error) {
	h, err := g.handle()
	if err != nil {
		return GroupInfo{}, err
	}
	i := C.eredu_group_info{struct_size: C.sizeof_eredu_group_info}
	var cerr *C.eredu_error
	status := C.eredu_group_get_info(h, &i, &cerr)
	var out GroupInfo
	if status == C.EREDU_OK {
		out = GroupInfo{
			Name:           borrowedString(i.name, i.name_length),
			Role:           ParameterRole(i.role),
			MemberCount:    int(i.member_count),
			PartitionUnits: uint64(i.partition_units),
			Partitioned:    i.has_partition_units != 0,
			Scope: GroupScope{Kind: ScopeKind(i.scope_kind), Layer: uint64(i.layer),
				HasLayer: i.has_layer != 0, Expert: uint64(i.expert), HasExpert: i.has_expert != 0},
			QueryUnits:          uint64(i.query_units),
			HasQueryUnits:       i.has_query_units != 0,
			VocabPadMultiple:    uint64(i.vocab_pad_multiple),
			HasVocabPadMultiple: i.has_vocab_pad_multiple != 0,
		}
	}
	runtime.KeepAlive(g)
	if err := takeError(status, cerr); err != nil {
		return GroupInfo{}, err
	}
	return out, nil
}

// LogicalName returns the stable logical name (Info().Name).
func (g *ParameterGroupSpec) LogicalName() (string, error) {
	i, err := g.Info()
	return i.Name, err
}

// Role returns the semantic role (Info().Role).
func (g *ParameterGroupSpec) Role() (ParameterRole, error) {
	i, err := g.Info()
	return i.Role, err
}

// PartitionUnits returns the shared logical-unit count; ok is false when
// the group has no partition.
func (g *ParameterGroupSpec) PartitionUnits() (units uint64, ok bool, err error) {
	i, err := g.Info()
	return i.PartitionUnits, i.Partitioned, err
}

// QueryUnits returns the query-head count of a grouped-query group; ok is
// false when the group has none (Info().QueryUnits).
func (g *ParameterGroupSpec) QueryUnits() (units uint64, ok bool, err error) {
	i, err := g.Info()
	return i.QueryUnits, i.HasQueryUnits, err
}

// VocabPadMultiple returns the vocabulary padding multiple of a padded
// vocabulary group; ok is false when the group is not padded
// (Info().VocabPadMultiple).
func (g *ParameterGroupSpec) VocabPadMultiple() (multiple uint64, ok bool, err error) {
	i, err := g.Info()
	return i.VocabPadMultiple, i.HasVocabPadMultiple, err
}

// Members returns copies of the physical members, in member order
// (eredu_group_get_info, then eredu_group_member for each).
func (g *ParameterGroupSpec) Members() ([]ParameterMemberSpec, error) {
	info, err := g.Info()
	if err != nil {
		return nil, err
	}
	h, err := g.handle()
	if err != nil {
		return nil, err
	}
	members := make([]ParameterMemberSpec, info.MemberCount)
	desc := C.eredu_member_desc{struct_size: C.sizeof_eredu_member_desc}
	var cerr *C.eredu_error
	for i := range members {
		status := C.eredu_group_member(h, C.size_t(i), &desc, &cerr)
		if status == C.EREDU_OK {
			members[i] = memberFromC(&desc)
		}
		runtime.KeepAlive(g)
		if err := takeError(status, cerr); err != nil {
			return nil, err
		}
	}
	return members, nil
}

// readMemberList copies every member of a borrowed list.
func readMemberList(list *C.eredu_member_list) ([]ParameterMemberSpec, error) {
	members := make([]ParameterMemberSpec, int(C.eredu_member_list_count(list)))
	desc := C.eredu_member_desc{struct_size: C.sizeof_eredu_member_desc}
	var cerr *C.eredu_error
	for i := range members {
		if err := takeError(C.eredu_member_list_get(list, C.size_t(i), &desc, &cerr), cerr); err != nil {
			return nil, err
		}
		members[i] = memberFromC(&desc)
	}
	return members, nil
}

// memberFromC copies a member descriptor the library filled.
func memberFromC(desc *C.eredu_member_desc) ParameterMemberSpec {
	flat := borrowedUint64s(desc.segments, 2*desc.segment_count)
	var segments []Range
	for j := 0; j+1 < len(flat); j += 2 {
		segments = append(segments, Range{flat[j], flat[j+1]})
	}
	return ParameterMemberSpec{
		Target:      C.GoString(desc.target),
		GlobalShape: borrowedUint64s(desc.shape, desc.ndim),
		Sharding: MemberSharding{Kind: ShardingKind(desc.sharding), Axis: uint64(desc.axis),
			Segments: segments},
		DType:         DType(desc.dtype),
		HasDType:      desc.has_dtype != 0,
		PerKVHead:     desc.per_kv_head != 0,
		ExpertAxis:    uint64(desc.expert_axis),
		HasExpertAxis: desc.has_expert_axis != 0,
	}
}

// scope copies a GroupScope into C memory.
func (m *cMemory) scope(s GroupScope) (*C.eredu_group_scope, error) {
	p, err := m.alloc(C.sizeof_eredu_group_scope)
	if err != nil {
		return nil, err
	}
	cs := (*C.eredu_group_scope)(p)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_group_scope_init(cs, C.sizeof_eredu_group_scope, &cerr), cerr); err != nil {
		return nil, err
	}
	cs.kind = C.eredu_scope_kind(s.Kind)
	cs.has_layer = cbool(s.HasLayer)
	cs.layer = C.uint64_t(s.Layer)
	cs.has_expert = cbool(s.HasExpert)
	cs.expert = C.uint64_t(s.Expert)
	return cs, nil
}

// member copies one member into a C descriptor.
func (m *cMemory) member(spec ParameterMemberSpec) (*C.eredu_member_desc, error) {
	p, err := m.alloc(C.sizeof_eredu_member_desc)
	if err != nil {
		return nil, err
	}
	d := (*C.eredu_member_desc)(p)
	var cerr *C.eredu_error
	if err := takeError(C.eredu_member_desc_init(d, C.sizeof_eredu_member_desc, &cerr), cerr); err != nil {
		return nil, err
	}
	if d.target, err = m.cstring(spec.Target, "member target"); err != nil {
		return nil, err
	}
	if d.shape, err = m.uint64s(spec.GlobalShape); err != nil {
		return nil, err
	}
	d.ndim = C.size_t(len(spec.GlobalShape))
	d.has_dtype = cbool(spec.HasDType)
	d.dtype = C.eredu_dtype(spec.DType)
	d.sharding = C.eredu_sharding_kind(spec.Sharding.Kind)
	d.axis = C.uint64_t(spec.Sharding.Axis)
	if d.segments, err = m.ranges(spec.Sharding.Segments); err != nil {
		return nil, err
	}
	d.segment_count = C.size_t(len(spec.Sharding.Segments))
	d.per_kv_head = cbool(spec.PerKVHead)
	d.has_expert_axis = cbool(spec.HasExpertAxis)
	d.expert_axis = C.uint64_t(spec.ExpertAxis)
	return d, nil
}

// memberArray copies members into a C array of descriptor pointers; nil for
// no members.
func (m *cMemory) memberArray(members []ParameterMemberSpec) (**C.eredu_member_desc, error) {
	return pointerArray(m, len(members), func(i int) (*C.eredu_member_desc, error) {
		return m.member(members[i])
	})
}

// ranges copies ranges into C memory as flat (start, end) pairs; nil for
// no ranges.
func (m *cMemory) ranges(rs []Range) (*C.uint64_t, error) {
	flat := make([]uint64, 0, 2*len(rs))
	for _, r := range rs {
		flat = append(flat, r.Start, r.End)
	}
	return m.uint64s(flat)
}
