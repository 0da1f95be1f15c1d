// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's parameter-bank identities: ParameterBankKey and its residency
// unit id, and the ExpertPass -> ParameterBankAccess projection.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "residency/offload.hpp"

namespace eredu {

/// Seed `ParameterBankKey`: one member of an independently addressable bank
/// (execution-unit ordinal, member ordinal). Ordered by unit, then member.
class ParameterBankKey {
 public:
  constexpr ParameterBankKey(std::uint64_t unit, std::uint64_t member)
      : unit_(unit), member_(member) {}

  constexpr std::uint64_t unit() const { return unit_; }
  constexpr std::uint64_t member() const { return member_; }
  /// `bank.unit.{unit:05}.member.{member:05}`, e.g. (3, 7) ->
  /// `bank.unit.00003.member.00007` (wider numbers print in full).
  OffloadUnitId unit_id() const;

  friend auto operator<=>(const ParameterBankKey&, const ParameterBankKey&) = default;

 private:
  std::uint64_t unit_;
  std::uint64_t member_;
};

/// Seed `ExpertPass`: prompt processing or autoregressive decoding.
enum class ExpertPass : std::uint32_t { Prefill = 0, Decode = 1 };
inline constexpr std::size_t kExpertPassCount = 2;
/// The pass numbered `value` (its EREDU_EXPERT_PASS_* value), or nullopt.
std::optional<ExpertPass> expert_pass_from_value(std::uint32_t value);

/// Seed `ParameterBankAccess`: bulk (partitionable) or incremental access.
enum class ParameterBankAccess : std::uint32_t { Bulk = 0, Incremental = 1 };

/// Seed `ExpertPass::parameter_bank_access`: Prefill -> Bulk, Decode ->
/// Incremental.
constexpr ParameterBankAccess parameter_bank_access(ExpertPass pass) {
  return pass == ExpertPass::Prefill ? ParameterBankAccess::Bulk : ParameterBankAccess::Incremental;
}

}  // namespace eredu
