// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

/*
#include <eredu/eredu.h>
*/
import "C"

import "fmt"

// ParameterRole is the semantic role of a parameter group (seed
// ParameterRole; EREDU_ROLE_*).
type ParameterRole uint32

// ParameterRole values.
const (
	RoleReplicated              ParameterRole = C.EREDU_ROLE_REPLICATED
	RoleColumnProjection        ParameterRole = C.EREDU_ROLE_COLUMN_PROJECTION
	RoleRowProjection           ParameterRole = C.EREDU_ROLE_ROW_PROJECTION
	RoleVocabulary              ParameterRole = C.EREDU_ROLE_VOCABULARY
	RoleAttentionHeads          ParameterRole = C.EREDU_ROLE_ATTENTION_HEADS
	RoleFeedForwardIntermediate ParameterRole = C.EREDU_ROLE_FEED_FORWARD_INTERMEDIATE
	RoleExpertIntermediate      ParameterRole = C.EREDU_ROLE_EXPERT_INTERMEDIATE
	RoleChannels                ParameterRole = C.EREDU_ROLE_CHANNELS
	RoleSegmented               ParameterRole = C.EREDU_ROLE_SEGMENTED
)

var roleWords = []string{"replicated", "column_projection", "row_projection", "vocabulary",
	"attention_heads", "feed_forward_intermediate", "expert_intermediate", "channels", "segmented"}

// String returns the eredu.groups.v1 word ("attention_heads").
func (r ParameterRole) String() string { return word(roleWords, uint32(r), "ParameterRole") }

// ShardingKind selects a MemberSharding variant (EREDU_SHARDING_*).
type ShardingKind uint32

// ShardingKind values.
const (
	ShardingKindReplicated          ShardingKind = C.EREDU_SHARDING_REPLICATED
	ShardingKindEqual               ShardingKind = C.EREDU_SHARDING_EQUAL
	ShardingKindBalanced            ShardingKind = C.EREDU_SHARDING_BALANCED
	ShardingKindPartitioned         ShardingKind = C.EREDU_SHARDING_PARTITIONED
	ShardingKindPartitionedSegments ShardingKind = C.EREDU_SHARDING_PARTITIONED_SEGMENTS
	ShardingKindSegmented           ShardingKind = C.EREDU_SHARDING_SEGMENTED
)

var shardingWords = []string{"replicated", "equal", "balanced", "partitioned",
	"partitioned_segments", "segmented"}

// String returns the eredu.groups.v1 word ("partitioned_segments").
func (k ShardingKind) String() string { return word(shardingWords, uint32(k), "ShardingKind") }

// DType is a safetensors element type (EREDU_DTYPE_*).
type DType uint32

// DType values.
const (
	DTypeBool   DType = C.EREDU_DTYPE_BOOL
	DTypeU8     DType = C.EREDU_DTYPE_U8
	DTypeI8     DType = C.EREDU_DTYPE_I8
	DTypeI16    DType = C.EREDU_DTYPE_I16
	DTypeU16    DType = C.EREDU_DTYPE_U16
	DTypeF16    DType = C.EREDU_DTYPE_F16
	DTypeBF16   DType = C.EREDU_DTYPE_BF16
	DTypeI32    DType = C.EREDU_DTYPE_I32
	DTypeU32    DType = C.EREDU_DTYPE_U32
	DTypeF32    DType = C.EREDU_DTYPE_F32
	DTypeF64    DType = C.EREDU_DTYPE_F64
	DTypeI64    DType = C.EREDU_DTYPE_I64
	DTypeU64    DType = C.EREDU_DTYPE_U64
	DTypeF8E4M3 DType = C.EREDU_DTYPE_F8_E4M3
	DTypeF8E5M2 DType = C.EREDU_DTYPE_F8_E5M2
	DTypeF8E8M0 DType = C.EREDU_DTYPE_F8_E8M0
)

var dtypeWords = []string{"BOOL", "U8", "I8", "I16", "U16", "F16", "BF16", "I32", "U32", "F32",
	"F64", "I64", "U64", "F8_E4M3", "F8_E5M2", "F8_E8M0"}

// String returns the safetensors name ("BF16").
func (d DType) String() string { return word(dtypeWords, uint32(d), "DType") }

// ScopeKind selects which pipeline stages and expert ranks own a group
// (EREDU_SCOPE_*).
type ScopeKind uint32

// ScopeKind values.
const (
	ScopeKindAll           ScopeKind = C.EREDU_SCOPE_ALL
	ScopeKindEmbedding     ScopeKind = C.EREDU_SCOPE_EMBEDDING
	ScopeKindOutputHead    ScopeKind = C.EREDU_SCOPE_OUTPUT_HEAD
	ScopeKindTiedEmbedding ScopeKind = C.EREDU_SCOPE_TIED_EMBEDDING
	ScopeKindIndexed       ScopeKind = C.EREDU_SCOPE_INDEXED
)

var scopeWords = []string{"all", "embedding", "output_head", "tied_embedding", "indexed"}

// String returns the scope's word ("tied_embedding").
func (k ScopeKind) String() string { return word(scopeWords, uint32(k), "ScopeKind") }

// ShardingPolicy is the planner's behaviour for a member that cannot be
// sharded (seed ShardingPolicy; EREDU_POLICY_*).
type ShardingPolicy uint32

// ShardingPolicy values; Require is the seed's default.
const (
	// PolicyRequire rejects the plan (EREDU_E_INVALID_TENSOR).
	PolicyRequire ShardingPolicy = C.EREDU_POLICY_REQUIRE
	// PolicyReplicateUnsupported replicates the whole group instead.
	PolicyReplicateUnsupported ShardingPolicy = C.EREDU_POLICY_REPLICATE_UNSUPPORTED
	// PolicyRequireEven is PolicyRequire, and every split must be exact.
	PolicyRequireEven ShardingPolicy = C.EREDU_POLICY_REQUIRE_EVEN
)

var policyWords = []string{"require", "replicate_unsupported", "require_even"}

// String returns the eredu.layout.v1 word ("replicate_unsupported").
func (p ShardingPolicy) String() string { return word(policyWords, uint32(p), "ShardingPolicy") }

// PlacementKind selects a TensorPlacement variant (EREDU_PLACEMENT_*).
type PlacementKind uint32

// PlacementKind values.
const (
	PlacementReplicated PlacementKind = C.EREDU_PLACEMENT_REPLICATED
	PlacementLocal      PlacementKind = C.EREDU_PLACEMENT_LOCAL
	PlacementOmit       PlacementKind = C.EREDU_PLACEMENT_OMIT
	PlacementRank       PlacementKind = C.EREDU_PLACEMENT_RANK
	PlacementShard      PlacementKind = C.EREDU_PLACEMENT_SHARD
	PlacementRange      PlacementKind = C.EREDU_PLACEMENT_RANGE
	PlacementIndices    PlacementKind = C.EREDU_PLACEMENT_INDICES
)

var placementWords = []string{"replicated", "local", "omit", "rank", "shard", "range", "indices"}

// String returns the eredu.layout.v1 word ("range").
func (k PlacementKind) String() string { return word(placementWords, uint32(k), "PlacementKind") }

// word names value v from words, or "Type(v)" for a value this package
// does not know (a newer library may append values).
func word(words []string, v uint32, typ string) string {
	if int(v) < len(words) {
		return words[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}
