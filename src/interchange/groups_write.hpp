// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Canonical `eredu.groups.v1` output (docs/interchange.md, "Writing a
// description").
#pragma once

#include <string>

#include "model/model.hpp"

namespace eredu {

/// `model` as canonical `eredu.groups.v1` text with one trailing newline: keys
/// in the order of docs/interchange.md, absent optional fields left out
/// (`model` itself when it has no field, `experts` when 0, `partition_units`, a
/// scope of all ranks, `dtype`), `axis` only for non-replicated shardings and
/// `segments` only for the segment kinds. load_groups_json of the result
/// reproduces an equal description. Never fails.
std::string groups_to_json(const ModelDescription& model);

}  // namespace eredu
