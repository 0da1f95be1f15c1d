// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// What every fuzz target checks after each call (docs/fuzzing.md): the
// promises of eredu/status.h and eredu/eredu.h about errors and strings. A
// broken promise is __builtin_trap(), which libFuzzer reports as a crash.
#pragma once

#include <eredu/eredu.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace eredu_fuzz {

inline void require(bool condition) {
  if (!condition) __builtin_trap();
}

// Well-formed UTF-8 (RFC 3629): shortest forms, no surrogates, at most
// U+10FFFF.
inline bool valid_utf8(const char* text, std::size_t length) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text);
  std::size_t i = 0;
  while (i < length) {
    const unsigned char lead = bytes[i];
    std::size_t extra = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead < 0x80) {
      ++i;
      continue;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      extra = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      extra = 2;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      extra = 3;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (length - i <= extra) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      const unsigned char byte = bytes[i + k];
      if (byte < (k == 1 ? low : 0x80) || byte > (k == 1 ? high : 0xBF)) return false;
    }
    i += extra + 1;
  }
  return true;
}

// A string the library hands out with its length: NUL-terminated, that
// length, UTF-8.
inline void check_text(const char* text, std::size_t length) {
  require(text != nullptr);
  require(std::strlen(text) == length);
  require(valid_utf8(text, length));
}

// A NUL-terminated UTF-8 string the library hands out without a length.
inline void check_text(const char* text) {
  require(text != nullptr);
  require(valid_utf8(text, std::strlen(text)));
}

inline bool known_status(eredu_status status) {
  return std::strcmp(eredu_status_name(status), "EREDU_E_UNKNOWN") != 0;
}

// Checks the outcome of one call and frees its error; true on success.
inline bool ok(eredu_status status, eredu_error* error) {
  require(known_status(status));
  require(status != EREDU_E_INTERNAL);
  if (status == EREDU_OK) {
    require(error == nullptr);
    return true;
  }
  require(error != nullptr);
  require(eredu_error_code(error) == status);
  check_text(eredu_error_message(error));
  const std::size_t count = eredu_error_count(error);
  require(count >= 1);
  for (std::size_t i = 0; i < count; ++i) {
    eredu_error_entry entry = EREDU_ERROR_ENTRY_INIT;
    require(eredu_error_get_entry(error, i, &entry, nullptr) == EREDU_OK);
    require(known_status(entry.code) && entry.code != EREDU_OK);
    check_text(entry.message, entry.message_length);
    if (entry.group != nullptr) check_text(entry.group, entry.group_length);
    if (entry.tensor != nullptr) check_text(entry.tensor, entry.tensor_length);
  }
  eredu_error_free(error);
  return false;
}

// A buffer the library allocated for its output text: checked and freed.
inline void check_buffer(char* text, std::size_t length) {
  check_text(text, length);
  eredu_buffer_free(text);
}

// Every name of a layout, then the layout's JSON; frees the layout.
inline void check_layout(eredu_layout* layout) {
  const std::size_t count = eredu_layout_tensor_count(layout);
  for (std::size_t i = 0; i < count; ++i) {
    eredu_layout_tensor_info info;
    require(eredu_layout_tensor_info_init(&info, sizeof info, nullptr) == EREDU_OK);
    require(eredu_layout_get_tensor_info(layout, i, &info, nullptr) == EREDU_OK);
    check_text(info.target, info.target_length);
    check_text(info.logical_name, info.logical_name_length);
  }
  char* json = nullptr;
  std::size_t length = 0;
  eredu_error* error = nullptr;
  if (ok(eredu_layout_to_json(layout, &json, &length, &error), error)) check_buffer(json, length);
  eredu_layout_free(layout);
}

// Plans `rank` of `topology` on the calling thread and checks the layout.
inline void plan_rank(const eredu_model* model, const eredu_topology& topology, uint64_t rank,
                      eredu_policy policy) {
  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.policy = policy;
  options.threads = 1;
  eredu_layout* layout = nullptr;
  eredu_error* error = nullptr;
  if (ok(eredu_plan_rank(model, &topology, rank, &options, &layout, &error), error)) {
    check_layout(layout);
  } else {
    require(layout == nullptr);
  }
}

// A folder of this process, made once and removed at exit, for the
// targets whose entry points read files.
inline const std::filesystem::path& temp_folder() {
  static const std::filesystem::path folder = [] {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/eredu-fuzz-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(temp_folder(), ignored);
    });
    return std::filesystem::path(pattern);
  }();
  return folder;
}

// Writes `size` bytes to `name` in temp_folder(), replacing it; its path.
inline std::string write_file(const char* name, const uint8_t* data, std::size_t size) {
  const std::filesystem::path path = temp_folder() / name;
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  file.close();
  if (!file) std::abort();
  return path.string();
}

}  // namespace eredu_fuzz
