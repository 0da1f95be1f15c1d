// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Checks of the sized-struct rule (docs/abi.md) over the public C API only:
// an _init(ptr, size) function, a function reading an input struct and one
// writing an output struct, each against the sizes a caller may pass.
#pragma once

#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

namespace capi_test {

/// Caller memory for a struct T that claims `extra` bytes past sizeof(T),
/// every byte 0xab unless written.
template <class T, std::size_t extra = 16>
struct Oversized {
  alignas(T) unsigned char bytes[sizeof(T) + extra];
  Oversized() { std::memset(bytes, 0xab, sizeof bytes); }
  T* get() { return reinterpret_cast<T*>(bytes); }
  static constexpr std::size_t size() { return sizeof(T) + extra; }
};

template <class T>
using InitFunction = eredu_status (*)(T*, std::size_t, eredu_error**);

/// The _init(ptr, size) rule: sizes below 4, above 4096 or ending inside a
/// field are EREDU_E_INVALID_ARGUMENT and write nothing; `boundary` (a field
/// boundary below sizeof(T)) initializes only the first `boundary` bytes; a
/// larger size initializes the struct it knows and zeroes the rest.
/// `inside` is a size ending inside a field.
template <class T>
void check_init_sizes(InitFunction<T> init, std::size_t boundary, std::size_t inside) {
  INFO("struct of ", sizeof(T), " bytes");
  REQUIRE(boundary >= 4);
  REQUIRE(boundary < sizeof(T));
  T exact;
  std::memset(&exact, 0xab, sizeof exact);
  REQUIRE(init(&exact, sizeof exact, nullptr) == EREDU_OK);
  CHECK(exact.struct_size == sizeof(T));
  CHECK(init(nullptr, sizeof(T), nullptr) == EREDU_E_NULL_ARGUMENT);

  for (const std::size_t size : {std::size_t{0}, std::size_t{3}, inside, std::size_t{4097}}) {
    INFO("size ", size);
    Oversized<T> memory;
    eredu_error* error = nullptr;
    CHECK(init(memory.get(), size, &error) == EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_error_code(error) == EREDU_E_INVALID_ARGUMENT);
    CHECK(std::string(eredu_error_message(error)).find("size") != std::string::npos);
    eredu_error_free(error);
    CHECK(memory.bytes[0] == 0xab);  // nothing written
  }

  // A caller built against an older header: only its bytes are touched.
  Oversized<T> older;
  REQUIRE(init(older.get(), boundary, nullptr) == EREDU_OK);
  CHECK(older.get()->struct_size == boundary);
  CHECK(std::memcmp(older.bytes + sizeof(std::uint32_t),
                    reinterpret_cast<const unsigned char*>(&exact) + sizeof(std::uint32_t),
                    boundary - sizeof(std::uint32_t)) == 0);
  for (std::size_t i = boundary; i < Oversized<T>::size(); ++i) {
    INFO("byte ", i);
    REQUIRE(older.bytes[i] == 0xab);
  }

  // A caller built against a newer header: the same defaults, zeros past them.
  Oversized<T> newer;
  REQUIRE(init(newer.get(), Oversized<T>::size(), nullptr) == EREDU_OK);
  CHECK(newer.get()->struct_size == Oversized<T>::size());
  CHECK(std::memcmp(newer.bytes + sizeof(std::uint32_t),
                    reinterpret_cast<const unsigned char*>(&exact) + sizeof(std::uint32_t),
                    sizeof(T) - sizeof(std::uint32_t)) == 0);
  for (std::size_t i = sizeof(T); i < Oversized<T>::size(); ++i) {
    INFO("byte ", i);
    REQUIRE(newer.bytes[i] == 0);
  }
}

/// The input rule for a function `use` that accepts `valid`: a larger
/// struct_size with zeros past this library's struct is accepted, a non-zero
/// byte there is EREDU_E_INVALID_ARGUMENT, and so are sizes below 4 or
/// ending inside a field (`inside`).
template <class T>
void check_input_sizes(const T& valid, const std::function<eredu_status(const T*)>& use,
                       std::size_t inside) {
  INFO("struct of ", sizeof(T), " bytes");
  REQUIRE(use(&valid) == EREDU_OK);
  Oversized<T> newer;
  std::memcpy(newer.bytes, &valid, sizeof(T));
  std::memset(newer.bytes + sizeof(T), 0, Oversized<T>::size() - sizeof(T));
  newer.get()->struct_size = static_cast<std::uint32_t>(Oversized<T>::size());
  CHECK(use(newer.get()) == EREDU_OK);
  newer.bytes[sizeof(T) + 5] = 1;  // a field this version does not know
  CHECK(use(newer.get()) == EREDU_E_INVALID_ARGUMENT);

  for (const std::uint32_t size : {std::uint32_t{0}, std::uint32_t{3},
                                   static_cast<std::uint32_t>(inside), std::uint32_t{4097}}) {
    INFO("struct_size ", size);
    T wrong = valid;
    wrong.struct_size = size;
    CHECK(use(&wrong) == EREDU_E_INVALID_ARGUMENT);
  }
}

/// The output rule for a function `get` that fills a T: only the caller's
/// struct_size is written (a smaller `boundary` leaves the bytes past it
/// alone), zeros past this library's struct, struct_size kept; a size below
/// 4 or ending inside a field (`inside`) is EREDU_E_INVALID_ARGUMENT and
/// writes nothing. Returns what a full-size struct receives.
template <class T>
T check_output_sizes(const std::function<eredu_status(T*)>& get, std::size_t boundary,
                     std::size_t inside) {
  INFO("struct of ", sizeof(T), " bytes");
  REQUIRE(boundary >= 4);
  REQUIRE(boundary < sizeof(T));
  Oversized<T, 0> exact_memory;
  T* exact = exact_memory.get();
  exact->struct_size = sizeof(T);
  REQUIRE(get(exact) == EREDU_OK);
  CHECK(exact->struct_size == sizeof(T));

  Oversized<T> older;
  older.get()->struct_size = static_cast<std::uint32_t>(boundary);
  REQUIRE(get(older.get()) == EREDU_OK);
  CHECK(older.get()->struct_size == boundary);
  CHECK(std::memcmp(older.bytes + sizeof(std::uint32_t), exact_memory.bytes + sizeof(std::uint32_t),
                    boundary - sizeof(std::uint32_t)) == 0);
  for (std::size_t i = boundary; i < Oversized<T>::size(); ++i) {
    INFO("byte ", i);
    REQUIRE(older.bytes[i] == 0xab);
  }

  Oversized<T> newer;
  newer.get()->struct_size = static_cast<std::uint32_t>(Oversized<T>::size());
  REQUIRE(get(newer.get()) == EREDU_OK);
  CHECK(newer.get()->struct_size == Oversized<T>::size());
  for (std::size_t i = sizeof(T); i < Oversized<T>::size(); ++i) {
    INFO("byte ", i);
    REQUIRE(newer.bytes[i] == 0);
  }

  for (const std::uint32_t size : {std::uint32_t{0}, std::uint32_t{3},
                                   static_cast<std::uint32_t>(inside), std::uint32_t{4097}}) {
    INFO("struct_size ", size);
    Oversized<T> wrong;
    wrong.get()->struct_size = size;
    CHECK(get(wrong.get()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(wrong.get()->struct_size == size);
    CHECK(wrong.bytes[sizeof(std::uint32_t)] == 0xab);  // nothing written
  }
  return *exact;
}

}  // namespace capi_test
