// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Status names, error objects, versions and caller buffers.
#include <fmt/format.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include "core/status.hpp"
#include "core/text.hpp"
#include "firewall.hpp"

namespace eredu::capi {
namespace {

// Returned when even the error object cannot be allocated; never freed.
constinit eredu_error out_of_memory_error{EREDU_E_OUT_OF_MEMORY, "out of memory", nullptr};

}  // namespace

eredu_status report_out_of_memory(eredu_error** error) noexcept {
  if (error != nullptr) *error = &out_of_memory_error;
  return EREDU_E_OUT_OF_MEMORY;
}

eredu_status report(eredu_error** error, Status code, std::string_view message) noexcept {
  if (code == Status::OutOfMemory) return report_out_of_memory(error);
  if (error == nullptr) return to_c(code);
  // Messages are UTF-8 (status.h): one that carries outside bytes the
  // library did not escape has each ill-formed byte replaced by U+FFFD.
  std::string repaired;
  if (!is_valid_utf8(message)) {
    try {
      repaired = to_valid_utf8(message);
    } catch (const std::bad_alloc&) {
      return report_out_of_memory(error);
    }
    message = repaired;
  }
  auto text = std::unique_ptr<char[]>(new (std::nothrow) char[message.size() + 1]);
  auto object =
      std::unique_ptr<eredu_error>(new (std::nothrow) eredu_error{to_c(code), nullptr, nullptr});
  if (!text || !object) return report_out_of_memory(error);
  std::memcpy(text.get(), message.data(), message.size());
  text[message.size()] = '\0';
  object->message = text.release();
  *error = object.release();
  return to_c(code);
}

eredu_status report(eredu_error** error, const Error& failure) noexcept {
  const eredu_status status = report(error, failure.code, failure.message);
  if (error == nullptr || failure.entries.empty() || *error == &out_of_memory_error) return status;
  try {
    (*error)->entries = new std::vector<ErrorEntry>(failure.entries);
  } catch (const std::bad_alloc&) {
    eredu_error_free(*error);
    return report_out_of_memory(error);
  }
  return status;
}

std::string ArgumentName::text() const {
  if (!index_) return std::string(base_) + field_;
  return fmt::format("{}[{}]{}", base_, *index_, field_);
}

Result<void> require(const void* pointer, const ArgumentName& name) {
  if (pointer == nullptr) return failf(Status::NullArgument, "argument {} is NULL", name.text());
  return outcome::success();
}

Result<std::string_view> text_argument(const char* text, const ArgumentName& name) {
  EREDU_TRY(require(text, name));
  std::string_view view(text);
  if (!is_valid_utf8(view)) {
    return failf(Status::InvalidArgument, "argument {} is not valid UTF-8", name.text());
  }
  return view;
}

Result<void> require_array(const void* pointer, std::size_t count, const ArgumentName& name) {
  if (pointer == nullptr && count != 0) {
    return failf(Status::NullArgument, "argument {} is NULL but its count is {}", name.text(),
                 count);
  }
  return outcome::success();
}

Result<std::string_view> json_argument(const char* text, std::size_t length,
                                       const ArgumentName& name) {
  constexpr std::size_t kMaxJsonBytes = 0xFFFFFFFF;
  EREDU_TRY(require_array(text, length, name));
  if (length > kMaxJsonBytes) {
    return failf(Status::InvalidArgument,
                 "{} is {} bytes long, more than the {} of a JSON document eredu parses",
                 name.text(), length, kMaxJsonBytes);
  }
  return length == 0 ? std::string_view() : std::string_view(text, length);
}

Result<void> count_argument(std::size_t count, std::size_t element_size, std::size_t copy_size,
                            const ArgumentName& name) {
  constexpr auto kMaxArrayBytes =
      static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  if (element_size != 0 && count > kMaxArrayBytes / element_size) {
    return failf(Status::InvalidArgument,
                 "{} is too large: {} elements of {} bytes are more than any array can hold",
                 name.text(), count, element_size);
  }
  if (copy_size != 0 && count > kMaxCopyBytes / copy_size) {
    return failf(Status::OutOfMemory,
                 "{} is too large: copying {} elements of {} bytes needs more than the {} bytes "
                 "eredu allocates at once",
                 name.text(), count, copy_size, kMaxCopyBytes);
  }
  return outcome::success();
}

Result<bool> flag_argument(std::uint8_t flag, const ArgumentName& name) {
  if (flag > 1) {
    return failf(Status::InvalidArgument, "flag {} is {}, expected 0 or 1", name.text(), flag);
  }
  return flag == 1;
}

Result<void> index_argument(std::size_t index, std::size_t count, const ArgumentName& name) {
  if (index >= count) {
    return failf(Status::InvalidArgument, "{} {} is out of range (count {})", name.text(), index,
                 count);
  }
  return outcome::success();
}

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

const char* eredu_status_name(eredu_status status) {
  // The core's names are NUL-terminated literals.
  return status_name(status).data();
}

eredu_status eredu_error_code(const eredu_error* error) {
  return error == nullptr ? EREDU_OK : error->code;
}

const char* eredu_error_message(const eredu_error* error) {
  return error == nullptr ? "" : error->message;
}

size_t eredu_error_count(const eredu_error* error) {
  if (error == nullptr) return 0;
  return error->entries == nullptr ? 1 : error->entries->size();
}

bool eredu_error_is_planning_failure(const eredu_error* error) {
  return error != nullptr && error->entries != nullptr;
}

eredu_status eredu_error_entry_init(eredu_error_entry* entry, size_t size, eredu_error** error) {
  return init_sized(entry, size, "entry", error);
}

eredu_status eredu_error_get_entry(const eredu_error* error, size_t index, eredu_error_entry* out,
                                   eredu_error** out_error) {
  return firewall(
      out_error,
      [&]() -> Result<void> {
        EREDU_TRY(require(error, "error"));
        EREDU_TRY(sized_out(out, "out"));
        EREDU_TRY(index_argument(index, eredu_error_count(error), "entry index"));
        eredu_error_entry entry{};
        entry.struct_size = sizeof entry;
        if (error->entries == nullptr) {
          entry.code = error->code;
          entry.message = error->message;
          entry.message_length = std::strlen(error->message);
        } else {
          const ErrorEntry& problem = (*error->entries)[index];
          entry.code = to_c(problem.code);
          if (!problem.group.empty()) {
            entry.group = problem.group.c_str();
            entry.group_length = problem.group.size();
          }
          if (!problem.tensor.empty()) {
            entry.tensor = problem.tensor.c_str();
            entry.tensor_length = problem.tensor.size();
          }
          entry.message = problem.message.c_str();
          entry.message_length = problem.message.size();
        }
        write_sized(out, entry);
        return outcome::success();
      },
      out);
}

void eredu_error_free(eredu_error* error) {
  if (error == nullptr || error == &out_of_memory_error) return;
  delete[] error->message;
  delete error->entries;
  delete error;
}

uint32_t eredu_version_number(void) { return EREDU_VERSION_NUMBER; }

const char* eredu_version_string(void) { return EREDU_VERSION_STRING; }

void eredu_buffer_free(void* buffer) { std::free(buffer); }

}  // extern "C"
