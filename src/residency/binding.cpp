// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "residency/binding.hpp"

#include "core/text.hpp"

namespace eredu {
namespace {

Result<void> check_binding_name(std::string_view name) {
  if (is_blank(name))
    return fail(Status::InvalidBindingName, "weight binding names must not be empty");
  return outcome::success();
}

}  // namespace

Result<WeightBinding> WeightBinding::create(std::string name, std::string checkpoint_key,
                                            TensorSelection selection,
                                            std::uint64_t expected_bytes) {
  EREDU_TRY(check_binding_name(name));
  if (is_blank(checkpoint_key)) {
    return failf(Status::InvalidCheckpointKey, "weight binding {} has an empty checkpoint key",
                 debug_quoted(name));
  }
  if (expected_bytes == 0) {
    return failf(Status::ZeroSizedBinding, "weight binding {} must contain at least one byte",
                 debug_quoted(name));
  }
  return WeightBinding(std::move(name), std::move(checkpoint_key), std::move(selection),
                       expected_bytes);
}

Result<WeightBinding> WeightBinding::with_logical_target(std::string target) const {
  EREDU_TRY(check_binding_name(target));
  WeightBinding binding = *this;
  binding.logical_target_ = std::move(target);
  return binding;
}

Result<StaticUnitBindings> StaticUnitBindings::create(std::string id,
                                                      std::vector<WeightBinding> bindings) {
  EREDU_TRY(unit_id, OffloadUnitId::create(std::move(id)));
  return StaticUnitBindings(std::move(unit_id), std::move(bindings));
}

}  // namespace eredu
