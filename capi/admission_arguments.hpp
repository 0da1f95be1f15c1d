// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The eredu_check_options argument of eredu_check_json and eredu_fit_json.
#pragma once

#include <optional>
#include <string_view>

#include "admission/policy.hpp"
#include "firewall.hpp"
#include "sized.hpp"

namespace eredu::capi {

/// A caller's eredu_check_options named `name` ("options", "check"), or the
/// defaults for NULL: its struct_size, then a NULL residency_json with a
/// nonzero length.
inline Result<eredu_check_options> check_options_argument(const eredu_check_options* options,
                                                          const char* name) {
  eredu_check_options chosen = SizedDefaults<eredu_check_options>::value();
  if (options == nullptr) return chosen;
  EREDU_TRY(read, read_sized(options, chosen, name));
  // The length is checked before anything is read: a NULL document is the
  // default, any other is at most the 4 GiB - 1 bytes a JSON document may be.
  EREDU_TRY(json_argument(read.residency_json, read.residency_json_length,
                          ArgumentName::field(name, "->residency_json")));
  return read;
}

/// The admission policy of the options (AdmissionPolicy::
/// from_residency_document); `name` as for check_options_argument.
inline Result<AdmissionPolicy> admission_argument(const eredu_check_options& options,
                                                  const char* name) {
  EREDU_TRY(has_budget, flag_argument(options.has_device_budget,
                                      ArgumentName::field(name, "->has_device_budget")));
  std::optional<std::string_view> document;
  if (options.residency_json != nullptr) {
    document = std::string_view(options.residency_json, options.residency_json_length);
  }
  return AdmissionPolicy::from_residency_document(
      document,
      has_budget ? std::optional<std::uint64_t>(options.device_budget_bytes) : std::nullopt);
}

}  // namespace eredu::capi
