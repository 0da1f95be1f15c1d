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

/// `text` quoted as the library quotes names in its messages (eredu_quote).
/// Throws std::bad_alloc when memory runs out, its only failure.
std::string debug_quoted(std::string_view text);

/// Bytes the library allocated, freed with eredu_buffer_free.
struct Buffer {
  std::unique_ptr<char, Freer<eredu_buffer_free>> bytes;
  std::size_t length = 0;

  std::string_view view() const { return {bytes.get(), length}; }
};

/// The bytes of file `path`, or of standard input for "-", at most
/// `max_bytes` (eredu_read_file). Errors: eredu_read_file's.
Result<Buffer> read_file(const std::string& path, std::size_t max_bytes);

}  // namespace eredu::cli
