// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The boundary between the C ABI and the C++ core: the error object, the
// exception firewall every exported function runs its body through, and the
// argument checks shared by all of them.
#pragma once

#include <eredu/eredu.h>

#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/result.hpp"

/// Plain data, so the static out-of-memory object needs no constructor or
/// destructor at load/unload time.
struct eredu_error {
  eredu_status code;
  const char* message;  // NUL-terminated; owned unless this is the OOM object
  // Every problem of a planning failure (owned), or nullptr for one.
  const std::vector<eredu::ErrorEntry>* entries;
};

namespace eredu::capi {

inline eredu_status to_c(Status status) { return static_cast<eredu_status>(status); }

/// Stores a new error object in `*error` (when error is not null) and returns
/// `code`; falls back to the static out-of-memory object if allocating fails.
eredu_status report(eredu_error** error, Status code, std::string_view message) noexcept;
/// report() of `failure`, keeping its entries (every problem it lists).
eredu_status report(eredu_error** error, const Error& failure) noexcept;
eredu_status report_out_of_memory(eredu_error** error) noexcept;

/// Out-parameters are zeroed before the body runs and again on failure.
template <class T>
void clear_out(T* out) noexcept {
  if (out != nullptr) *out = T{};
}

/// Zeroes the fields of a sized struct up to the caller's struct_size
/// (sized.hpp), and nothing when that size is not one this library accepts.
template <class T>
requires requires(T value) { value.struct_size; }
void clear_sized(T* out) noexcept;

template <class T>
requires requires(T value) { value.struct_size; }
void clear_out(T* out) noexcept { clear_sized(out); }

/// The one adapter between a C++ body and the C ABI: runs `body` (returning
/// Result<void> and writing the out-parameters as its last step), turns a
/// failure into status + error object with every out-parameter zeroed, and
/// stops every exception at the boundary.
template <class Body, class... Outs>
eredu_status firewall(eredu_error** error, Body&& body, Outs*... outs) noexcept {
  if (error != nullptr) *error = nullptr;
  (clear_out(outs), ...);
  try {
    Result<void> result = std::forward<Body>(body)();
    if (result) return EREDU_OK;
    (clear_out(outs), ...);
    return report(error, result.error());
  } catch (const std::bad_alloc&) {
    (clear_out(outs), ...);
    return report_out_of_memory(error);
  } catch (const std::exception& exception) {
    (clear_out(outs), ...);
    return report(error, Status::Internal, exception.what());
  } catch (...) {
    (clear_out(outs), ...);
    return report(error, Status::Internal, "an unknown exception reached the C API");
  }
}

/// Names an argument in messages ("members[2]->target"); only formatted
/// when a check fails, so per-member checks cost nothing on success.
class ArgumentName {
 public:
  ArgumentName(const char* name) : base_(name) {}  // implicit: call sites pass literals
  ArgumentName(const char* base, std::size_t index, const char* field = "")
      : base_(base), index_(index), field_(field) {}

  /// A member of a struct named `base`: "config" and "->prefetch_depth"
  /// give "config->prefetch_depth".
  static ArgumentName field(const char* base, const char* member) {
    ArgumentName name(base);
    name.field_ = member;
    return name;
  }

  std::string text() const;

 private:
  const char* base_;
  std::optional<std::size_t> index_;
  const char* field_ = "";
};

/// EREDU_E_NULL_ARGUMENT naming the argument when `pointer` is null.
Result<void> require(const void* pointer, const ArgumentName& name);

/// A required NUL-terminated UTF-8 string.
Result<std::string_view> text_argument(const char* text, const ArgumentName& name);

/// An input array: NULL is fine when the count is 0.
Result<void> require_array(const void* pointer, std::size_t count, const ArgumentName& name);

/// A caller JSON document of `length` bytes (NULL is fine when the length is
/// 0: an empty document). NullArgument for a NULL `text` with a nonzero
/// length; InvalidArgument when `length` exceeds the 4294967295 bytes of
/// simdjson's SIMDJSON_MAXSIZE_BYTES, checked before the document is read.
Result<std::string_view> json_argument(const char* text, std::size_t length,
                                       const ArgumentName& name);

/// The most bytes eredu allocates at once to copy a caller array: 1 TiB,
/// AddressSanitizer's own limit for one allocation and far beyond any real
/// model description.
inline constexpr std::uint64_t kMaxCopyBytes = std::uint64_t{1} << 40;

/// A caller count of array elements of `element_size` bytes, copied into
/// elements of `copy_size` bytes; checked before anything is allocated or
/// read. InvalidArgument ("{name} is too large") when count × element_size
/// bytes overflow or exceed PTRDIFF_MAX, so no such array can exist;
/// OutOfMemory when the copy would need more than kMaxCopyBytes.
Result<void> count_argument(std::size_t count, std::size_t element_size, std::size_t copy_size,
                            const ArgumentName& name);

/// A `has_x` flag: exactly 0 or 1.
Result<bool> flag_argument(std::uint8_t flag, const ArgumentName& name);

/// An index into `count` items.
Result<void> index_argument(std::size_t index, std::size_t count, const ArgumentName& name);

/// An enum value checked by the core's `from_value`.
template <class Enum>
Result<Enum> enum_argument(std::optional<Enum> value, std::uint32_t raw, const ArgumentName& name) {
  if (!value) return failf(Status::InvalidArgument, "unknown {} value {}", name.text(), raw);
  return *value;
}

/// The body of a function on a handle: EREDU_E_NULL_ARGUMENT naming `name`
/// when `handle` is NULL, else `body(*handle)` (returning Result<void>), all
/// through firewall() with `outs`.
template <class Handle, class Body, class... Outs>
eredu_status handle_call(Handle* handle, const char* name, eredu_error** error, Body&& body,
                         Outs*... outs) noexcept {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(handle, name));
        return body(*handle);
      },
      outs...);
}

}  // namespace eredu::capi

// clear_sized and the field tables of every sized struct, which the
// firewall's clear_out needs wherever it is instantiated; they build on the
// declarations above.
#include "sized_defaults.hpp"  // IWYU pragma: export
#include "struct_fields.hpp"   // IWYU pragma: export (generated by struct_fields.py)
