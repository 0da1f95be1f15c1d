// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading a whole (small) file into memory: the model folder's JSON files
// and `eredu residency --policy FILE`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace eredu {

/// The most bytes read_text_file reads: 256 MiB. Its files are parsed into
/// trees of about four times their size, and the largest real one (the
/// weight index of a 671B mixture of experts) holds about 10 MB. A FIFO or a
/// device that never ends is cut off here too.
inline constexpr std::size_t kMaxTextFileBytes = std::size_t{256} << 20;

/// The bytes of the file at `path`. Errors: Io "cannot read <shown>: it is a
/// directory" or "cannot read <shown>: <strerror>"; InvalidArgument "cannot
/// read <shown>: it holds more than 268435456 bytes, the most eredu reads of
/// a JSON file" (kMaxTextFileBytes), where `shown` is how the caller's
/// messages name the file.
Result<std::string> read_text_file(const std::string& path, std::string_view shown);

}  // namespace eredu
