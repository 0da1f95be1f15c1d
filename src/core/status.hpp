// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Status codes (docs/status.md); numbers are stable forever.
#pragma once

#include <cstdint>
#include <string_view>

namespace eredu {

/// Every status of include/eredu/status.h, the one source of the table
/// (status_codes.inc is generated from it at build time).
enum class Status : std::int32_t {
#define EREDU_STATUS(enumerator, value, name) enumerator = value,
#include "status_codes.inc"  // generated: build directory of src/core
#undef EREDU_STATUS
};

/// The stable symbolic name ("EREDU_E_INVALID_GROUP"), or "EREDU_E_UNKNOWN"
/// for a value this library does not know. Never null; static storage.
std::string_view status_name(std::int32_t code) noexcept;

}  // namespace eredu
