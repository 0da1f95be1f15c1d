// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Linear-format expansion (seed expand_linear_format_member and
// expand_linear_format_parameter_groups; docs/planning.md, "Expansion"): a
// member declared as a logical dense matrix becomes its physical packed weight
// and every companion, in the same atomic group.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "core/result.hpp"
#include "format/linear_format.hpp"
#include "model/group.hpp"

namespace eredu {

/// Seed `expand_linear_format_member`. `source` describes the logical dense
/// matrix: shape [..., rows, input columns] in elements. Returns the
/// physical members in order [packed weight, scale?, affine bias?]:
///
/// - Dense: the member unchanged, no companions.
/// - Affine(g, b): weight last axis cols·b/32 (U32 words), dtype U32;
///   scale and bias [.., rows, cols/g], dtype companion_dtype else the
///   member's.
/// - MxFp4: weight cols·4/32 (U32 words), U32; scale [.., rows, cols/32],
///   F8_E8M0.
/// - GgufIQuant: weight cols/values·bytes (bytes), U8; no companions.
/// - E4M3BlockFp8(r, c): weight unchanged (the member's dtype); scale
///   [.., ceil(rows/r), ceil(cols/c)], companion_dtype else F32 (float) or
///   F8_E8M0 (ue8m0).
///
/// Shardings are copied, except PartitionedSegments / Segmented on a
/// packed axis, whose bounds become the physical index of the cell they
/// start (format/axis_cells.hpp: affine and MXFP4 weight words by exact
/// bits, companions by the group; GGUF bytes; block-FP8 scale blocks, the
/// axis end mapping to the last, partial block).
///
/// Errors, in the seed's order: Dense with companions (InvalidGroup); fewer
/// than 2 axes (InvalidTensor); per format the companion checks
/// (InvalidGroup), format validation (InvalidTensor with the format's
/// text), alignment (InvalidTensor: `GGUF matrix T input c is not aligned to
/// block b`, `packed matrix T input c is incompatible with group g and b
/// bits`), segment remap (InvalidTensor `packed companion T segment s..e is
/// not aligned to k`). Pure; thread-safe.
Result<std::vector<ParameterMemberSpec>> expand_linear_format_member(
    const ParameterMemberSpec& source, const LinearFormatSpec& declaration);

/// The declaration of one member: a spec, nullopt when the member is not
/// an encoded linear matrix, or an error that stops the expansion.
using LinearFormatDeclaration =
    std::function<Result<std::optional<LinearFormatSpec>>(const ParameterMemberSpec&)>;

/// Expands one group: each member is replaced by its expansion when
/// `declaration` returns a spec. A group where `declaration` returned a
/// spec for at least one member is rebuilt, keeping its name, role and
/// scope: a partitioned group by partitioned_group_with_preferred_units with
/// its old units as preferred, an unpartitioned one by
/// ParameterGroupSpec::create, and records every matrix it expanded (not
/// Dense) as an EncodedMatrix, keeping those of `group` whose members pass
/// through. Other groups are returned unchanged (docs/planning.md,
/// "Expanding a group": only groups with format members are rebuilt).
/// `declaration` is called once per member in member order until an error.
Result<ParameterGroupSpec> expand_linear_format_group(const ParameterGroupSpec& group,
                                                      const LinearFormatDeclaration& declaration);

/// Seed `expand_linear_format_parameter_groups`: expand_linear_format_group
/// for every group in order; the first error wins. `declaration` is called
/// once per member, in group then member order, until an error.
Result<std::vector<ParameterGroupSpec>> expand_linear_format_parameter_groups(
    std::vector<ParameterGroupSpec> groups, const LinearFormatDeclaration& declaration);

}  // namespace eredu
