// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/output.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/library.hpp"

namespace eredu::cli {

int exit_code_for(eredu_status status) {
  switch (status) {
    case EREDU_E_IO:
      return kExitIo;
    case EREDU_E_INTERNAL:
    case EREDU_E_OUT_OF_MEMORY:
      return kExitInternal;
    default:
      return kExitInvalidInput;
  }
}

Result<void> write_stdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return fail(EREDU_E_IO, "cannot write to standard output");
  }
  return outcome::success();
}

namespace {

// `error[NAME]: message` on stderr, written with its length: a message is
// never cut at a NUL byte.
void write_error_line(eredu_status code, const std::string& message) {
  const std::string_view name = status_name(code);
  std::fprintf(stderr, "error[%.*s]: ", static_cast<int>(name.size()), name.data());
  std::fwrite(message.data(), 1, message.size(), stderr);
  std::fputc('\n', stderr);
}

// A string, or null when empty.
nlohmann::ordered_json string_or_null(const std::string& text) {
  return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text);
}

std::string error_json(const Error& error) {
  nlohmann::ordered_json object;
  object["code"] = status_name(error.code);
  object["status"] = static_cast<std::uint64_t>(error.code);
  object["message"] = error.message;
  if (!error.entries.empty()) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const ErrorEntry& entry : error.entries) {
      nlohmann::ordered_json item;
      item["code"] = status_name(entry.code);
      item["status"] = static_cast<std::uint64_t>(entry.code);
      item["group"] = string_or_null(entry.group);
      item["tensor"] = string_or_null(entry.tensor);
      item["message"] = entry.message;
      entries.push_back(std::move(item));
    }
    object["errors"] = std::move(entries);
  }
  nlohmann::ordered_json document;
  document["error"] = std::move(object);
  // Ill-formed UTF-8 (a path, a message from another library) is written
  // with U+FFFD in its place: the output is always valid JSON.
  return document.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n';
}

}  // namespace

int report_error(const Error& error, bool json) {
  // One line per problem of a planning failure, in their order; else one.
  if (error.entries.size() > 1) {
    for (const ErrorEntry& entry : error.entries) write_error_line(entry.code, entry.message);
  } else {
    write_error_line(error.code, error.message);
  }
  // The exit status already says what went wrong; a failed write adds nothing.
  if (json) (void)write_stdout(error_json(error));
  return exit_code_for(error.code);
}

}  // namespace eredu::cli
