// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Loading `eredu.groups.v1` model descriptions (docs/interchange.md).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "model/model.hpp"

namespace eredu {

/// Loads an `eredu.groups.v1` document, streaming (no DOM of the document
/// is built). Errors, in the fixed order of docs/interchange.md ("Load
/// errors"), independent of the key order in the text:
/// 1. Parse: invalid UTF-8, JSON syntax anywhere (also inside unknown
///    fields), a duplicate key in any object, trailing content, nesting of
///    unknown content deeper than 1024 levels;
/// 2. Parse when `schema` is missing or not a string;
///    UnsupportedVersion for `eredu.groups.v<N>` other than v1; Parse for
///    any other schema string;
/// 3. Parse for structure: unknown top-level fields first, then `model`,
///    then `groups` in array order; inside each object unknown fields come
///    first, then the fields in the documented order. Covers wrong types,
///    missing required fields, unknown enum words, integers that are not
///    plain non-negative tokens fitting 64 bits, `layers: 0`, a scope `{}`,
///    a sharding `axis`/`segments` or a `format` field missing or not
///    allowed for its kind. The message starts with the JSON pointer
///    (`/groups/3/members/0/sharding/kind`);
/// 4. group by group: ParameterGroupSpec construction (InvalidGroup), the
///    scope against the model (InvalidGroup), each `format`'s construction
///    (InvalidFormat), then ModelBuilder::add_group (InvalidGroup for a
///    target of an earlier group, InvalidTensor for 64-bit overflow).
/// OutOfMemory when simdjson cannot allocate its buffers. `null` for an
/// optional field is the same as leaving it out; `experts: 0` means absent.
Result<std::shared_ptr<const ModelDescription>> load_groups_json(std::string_view text);

/// load_groups_json on the contents of the file at `path` ("-" is not
/// special). Io naming the path and the reason when the file cannot be
/// read; OutOfMemory when it does not fit in memory; then as
/// load_groups_json.
Result<std::shared_ptr<const ModelDescription>> load_groups_json_file(const std::string& path);

}  // namespace eredu
