// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Structs that can grow (docs/abi.md): a caller's struct_size decides which
// fields the library reads and writes. Fields are only ever appended; a field
// is used when it lies wholly inside the caller's struct_size, and takes its
// default otherwise. A caller struct larger than this library's is accepted
// when the bytes this library does not know are zero (nothing it cannot
// honour is asked); output structs are written only up to the caller's size.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>

#include "firewall.hpp"

namespace eredu::capi {

/// One field of a sized struct: where it lies, and its name for messages.
struct FieldSpan {
  std::size_t offset = 0;
  std::size_t size = 0;
  const char* name = "";
};

/// The fields of sized struct T after struct_size, in declaration order:
/// specialized by EREDU_SIZED_STRUCT next to each struct's C functions.
template <class T>
struct SizedFields;

/// The most bytes a caller's struct may claim: far beyond any struct this
/// library will have, so that an uninitialized struct_size is refused
/// before anything past the struct is read.
inline constexpr std::uint32_t kMaxStructSize = 4096;

/// Whether the fields are in order, do not overlap and fill T up to its
/// padding (checked at compile time for every sized struct).
template <class T>
constexpr bool fields_describe_struct() {
  std::size_t end = sizeof(std::uint32_t);  // struct_size comes first
  for (const FieldSpan& field : SizedFields<T>::kFields) {
    if (field.offset < end || field.offset - end >= alignof(std::max_align_t)) return false;
    end = field.offset + field.size;
  }
  return end <= sizeof(T) && sizeof(T) - end < alignof(std::max_align_t);
}

/// InvalidArgument when `size` cannot be a struct T: below struct_size
/// itself, above kMaxStructSize, or ending inside a field this library
/// knows.
template <class T>
Result<void> check_struct_size(std::uint32_t size, const ArgumentName& name) {
  if (size == sizeof(T)) return outcome::success();  // the common case: this library's header
  if (size < sizeof(std::uint32_t) || size > kMaxStructSize) {
    return failf(Status::InvalidArgument,
                 "{}->struct_size is {}; it must be the caller's sizeof, between {} and {}",
                 name.text(), size, sizeof(std::uint32_t), kMaxStructSize);
  }
  for (const FieldSpan& field : SizedFields<T>::kFields) {
    if (field.offset < size && size < field.offset + field.size) {
      return failf(Status::InvalidArgument, "{}->struct_size {} ends inside field {}", name.text(),
                   size, field.name);
    }
  }
  return outcome::success();
}

/// The caller's struct `in` as this library's T: the fields its
/// struct_size covers, `defaults` for the rest. InvalidArgument (after
/// check_struct_size) when the caller's struct is larger than T and a byte
/// past T is not zero: it sets a field this version does not know.
template <class T>
Result<T> read_sized(const T* in, T defaults, const ArgumentName& name) {
  EREDU_TRY(require(in, name));
  const std::uint32_t size = in->struct_size;
  EREDU_TRY(check_struct_size<T>(size, name));
  if (size == sizeof(T)) {
    T copy = *in;
    copy.struct_size = sizeof(T);
    return copy;
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(in);
  for (std::size_t i = sizeof(T); i < size; ++i) {
    if (bytes[i] != 0) {
      return failf(Status::InvalidArgument,
                   "{}->struct_size is {}, larger than this library's {}, and byte {} is set: the "
                   "caller uses a field this version of eredu does not know",
                   name.text(), size, sizeof(T), i);
    }
  }
  auto* out = reinterpret_cast<unsigned char*>(&defaults);
  for (const FieldSpan& field : SizedFields<T>::kFields) {
    if (field.offset + field.size <= size) {
      std::memcpy(out + field.offset, bytes + field.offset, field.size);
    }
  }
  defaults.struct_size = sizeof(T);
  return defaults;
}

/// Writes `value` into the caller's struct `out` up to its struct_size (which
/// check_struct_size accepted): the fields it covers, zeros past this
/// library's T. struct_size stays the caller's.
template <class T>
void write_sized(T* out, const T& value) noexcept {
  const std::uint32_t size = out->struct_size;
  auto* bytes = reinterpret_cast<unsigned char*>(out);
  const auto* from = reinterpret_cast<const unsigned char*>(&value);
  for (const FieldSpan& field : SizedFields<T>::kFields) {
    if (field.offset + field.size <= size) {
      std::memcpy(bytes + field.offset, from + field.offset, field.size);
    }
  }
  if (size > sizeof(T)) std::memset(bytes + sizeof(T), 0, size - sizeof(T));
}

template <class T>
requires requires(T value) { value.struct_size; }
void clear_sized(T* out) noexcept {
  if (out == nullptr || !check_struct_size<T>(out->struct_size, "out")) return;
  T zero{};
  write_sized(out, zero);
}

/// An output struct the caller sized: checked before the body runs.
template <class T>
Result<void> sized_out(T* out, const ArgumentName& name) {
  EREDU_TRY(require(out, name));
  return check_struct_size<T>(out->struct_size, name);
}

/// The struct's defaults with struct_size = sizeof(T): zeros unless a struct
/// specializes SizedDefaults.
template <class T>
struct SizedDefaults {
  static T value() {
    T out{};
    out.struct_size = sizeof(T);
    return out;
  }
};

/// The body of an `_init(value, size)` function: value's first `size` bytes
/// zeroed, the defaults of the fields they cover, struct_size = size.
template <class T>
eredu_status init_sized(T* value, std::size_t size, const char* name,
                        eredu_error** error) noexcept {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require(value, name));
    if (size > kMaxStructSize) {
      return failf(Status::InvalidArgument, "size {} of {} is more than {}", size, name,
                   kMaxStructSize);
    }
    const auto struct_size = static_cast<std::uint32_t>(size);
    EREDU_TRY(check_struct_size<T>(struct_size, name));
    std::memset(static_cast<void*>(value), 0, size);
    value->struct_size = struct_size;
    write_sized(value, SizedDefaults<T>::value());
    return outcome::success();
  });
}

}  // namespace eredu::capi

/// One FieldSpan of SizedFields<T>::kFields:
///   template <> struct SizedFields<eredu_topology> {
///     static constexpr std::array kFields{EREDU_FIELD(eredu_topology, tensor), ...};
///   };
#define EREDU_FIELD(T, field) \
  ::eredu::capi::FieldSpan { offsetof(T, field), sizeof(std::declval<T&>().field), #field }
