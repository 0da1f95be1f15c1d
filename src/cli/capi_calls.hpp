// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The command's side of the C API: owners of its handles and buffers, its
// status and error object as a Result.
#pragma once

#include <eredu/eredu.h>

#include <memory>
#include <string>

#include "core/result.hpp"

namespace eredu {

struct FreeModel {
  void operator()(eredu_model* model) const { eredu_model_free(model); }
};
struct FreePlanFile {
  void operator()(eredu_plan_file* file) const { eredu_plan_file_free(file); }
};
struct FreeBuffer {
  void operator()(char* buffer) const { eredu_buffer_free(buffer); }
};
using ModelHandle = std::unique_ptr<eredu_model, FreeModel>;
using PlanFileHandle = std::unique_ptr<eredu_plan_file, FreePlanFile>;
using BufferHandle = std::unique_ptr<char, FreeBuffer>;

/// OK for EREDU_OK, else the failure `status` and `error` (freed here)
/// report. `error` is a reference so that it is read after the call that
/// fills it, whatever the order its arguments are evaluated in.
Result<void> capi_result(eredu_status status, eredu_error*& error);

/// The eredu.groups.v1 description in `source` (a file, or "-" for standard
/// input), built by eredu_model_from_json. Errors: Io (unreadable), then
/// those of eredu_model_from_json.
Result<ModelHandle> load_model(const std::string& source);

/// eredu_plan_file_open of `path`.
Result<PlanFileHandle> open_plan_file(const std::string& path);

/// The header of an open plan file.
Result<eredu_plan_file_info> plan_file_info(const eredu_plan_file& file);

/// Rank `rank`'s eredu.layout.v1 text.
Result<std::string> plan_file_rank_json(const eredu_plan_file& file, std::uint64_t rank);

/// "require", "replicate_unsupported" or "require_even", as eredu.layout.v1
/// names a policy.
std::string policy_word(eredu_policy policy);

}  // namespace eredu
