// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_parameter_bank_key_unit_id and eredu_expert_pass_parameter_bank_access:
// the seed's ParameterBankKey::unit_id and ExpertPass::parameter_bank_access.
#include <cstring>
#include <string>

#include "firewall.hpp"
#include "outputs.hpp"
#include "residency/parameter_bank.hpp"

namespace eredu::capi {

// The C constants are the core's enum values.
static_assert(EREDU_EXPERT_PASS_PREFILL == static_cast<int>(ExpertPass::Prefill));
static_assert(EREDU_EXPERT_PASS_DECODE == static_cast<int>(ExpertPass::Decode));
static_assert(EREDU_PARAMETER_BANK_ACCESS_BULK == static_cast<int>(ParameterBankAccess::Bulk));
static_assert(EREDU_PARAMETER_BANK_ACCESS_INCREMENTAL ==
              static_cast<int>(ParameterBankAccess::Incremental));

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_parameter_bank_key_unit_id(uint64_t unit, uint64_t member, char* buffer,
                                              size_t capacity, size_t* required,
                                              eredu_error** error) {
  // `required` reports the needed size on EREDU_E_BUFFER_TOO_SMALL.
  if (required != nullptr) *required = 0;
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require_array(buffer, capacity, "buffer"));
    EREDU_TRY(require(required, "required"));
    const OffloadUnitId id = ParameterBankKey(unit, member).unit_id();
    const std::string& text = id.as_str();
    *required = text.size() + 1;
    if (capacity < text.size() + 1) {
      return failf(Status::BufferTooSmall, "the unit id needs {} bytes, the buffer holds {}",
                   text.size() + 1, capacity);
    }
    std::memcpy(buffer, text.c_str(), text.size() + 1);
    return outcome::success();
  });
}

eredu_status eredu_expert_pass_parameter_bank_access(eredu_expert_pass pass,
                                                     eredu_parameter_bank_access* out,
                                                     eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(value, enum_argument(expert_pass_from_value(pass), pass, "pass"));
        return value_out(out,
                         static_cast<eredu_parameter_bank_access>(parameter_bank_access(value)));
      },
      out);
}

}  // extern "C"
