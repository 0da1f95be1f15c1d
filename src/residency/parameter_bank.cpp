// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "residency/parameter_bank.hpp"

#include <fmt/format.h>

#include "core/enum_words.hpp"

namespace eredu {

std::optional<ExpertPass> expert_pass_from_value(std::uint32_t value) {
  return enum_from_value<ExpertPass>(value, kExpertPassCount);
}

OffloadUnitId ParameterBankKey::unit_id() const {
  // Never blank, so creation cannot fail.
  return OffloadUnitId::create(fmt::format("bank.unit.{:05}.member.{:05}", unit_, member_)).value();
}

}  // namespace eredu
