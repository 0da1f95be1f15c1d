// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The command's calls into liberedu (eredu/eredu.h): owned handles, and
// status codes with their error objects turned into Result values.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "cli/result.hpp"
#include "eredu/eredu.h"

namespace eredu::cli {

/// Frees a library handle with its _free function.
template <auto Free>
struct Freer {
  template <class T>
  void operator()(T* handle) const {
    Free(handle);
  }
};

using Model = std::unique_ptr<eredu_model, Freer<eredu_model_free>>;
using Layout = std::unique_ptr<eredu_layout, Freer<eredu_layout_free>>;
using Checkpoint = std::unique_ptr<eredu_checkpoint, Freer<eredu_checkpoint_free>>;
using ReadPlan = std::unique_ptr<eredu_read_plan, Freer<eredu_read_plan_free>>;
using PlanFile = std::unique_ptr<eredu_plan_file, Freer<eredu_plan_file_free>>;

/// The Error of a failed call: its code, its message and, for a planning
/// failure, every problem it lists. Frees `error`.
Error take_error(eredu_status status, eredu_error* error);

/// Runs `call(&error)`, a C API call returning eredu_status; a failure
/// becomes its Error.
template <class Call>
Result<void> check(Call&& call) {
  eredu_error* error = nullptr;
  const eredu_status status = call(&error);
  if (status == EREDU_OK) return outcome::success();
  return outcome::failure(take_error(status, error));
}

/// Runs `call(&text, &length, &error)`, a C API call handing out a buffer,
/// and returns the text, the buffer freed.
template <class Call>
Result<std::string> text_of(Call&& call) {
  char* text = nullptr;
  std::size_t length = 0;
  EREDU_TRY(check([&](eredu_error** error) { return call(&text, &length, error); }));
  std::string out(text, length);
  eredu_buffer_free(text);
  return out;
}

/// The stable name of a status code, "EREDU_E_INVALID_ARGUMENT".
std::string_view status_name(eredu_status status);

}  // namespace eredu::cli
