// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "core/status.hpp"

namespace eredu {

std::string_view status_name(std::int32_t code) noexcept {
  switch (static_cast<Status>(code)) {
#define EREDU_STATUS(enumerator, value, name) \
  case Status::enumerator:                    \
    return name;
#include "status_codes.inc"  // generated: build directory of src/core
#undef EREDU_STATUS
  }
  return "EREDU_E_UNKNOWN";
}

}  // namespace eredu
