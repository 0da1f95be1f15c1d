// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Out-parameter writers shared by the getters of every handle.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

#include "firewall.hpp"

namespace eredu::capi {

/// Stores `value` in the required out-parameter `out` (EREDU_E_NULL_ARGUMENT
/// "argument out is NULL" when it is NULL).
template <class T, class Value>
Result<void> value_out(T* out, const Value& value) {
  EREDU_TRY(require(out, "out"));
  *out = value;
  return outcome::success();
}

/// A borrowed string getter: `*out` points into `value`, which the handle
/// owns; `length` (bytes, without the NUL) is optional.
inline Result<void> string_out(const std::string& value, const char** out, std::size_t* length) {
  EREDU_TRY(require(out, "out"));
  *out = value.c_str();
  if (length != nullptr) *length = value.size();
  return outcome::success();
}

/// Hands `text` to the caller as a malloc'ed NUL-terminated copy (paired
/// with eredu_buffer_free) through the required `out`; `length` (bytes,
/// without the NUL) is optional.
inline Result<void> buffer_out(const std::string& text, char** out, std::size_t* length) {
  EREDU_TRY(require(out, "out"));
  auto* buffer = static_cast<char*>(std::malloc(text.size() + 1));
  if (buffer == nullptr) return fail(Status::OutOfMemory, "out of memory");
  std::memcpy(buffer, text.c_str(), text.size() + 1);
  *out = buffer;
  if (length != nullptr) *length = text.size();
  return outcome::success();
}

}  // namespace eredu::capi
