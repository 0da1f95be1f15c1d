// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/output.hpp"

#include <cstdio>
#include <string>

#include "interchange/json_writer.hpp"

namespace eredu {

int exit_code_for(Status status) {
  switch (status) {
    case Status::Io:
      return kExitIo;
    case Status::Internal:
    case Status::OutOfMemory:
      return kExitInternal;
    default:
      return kExitInvalidInput;
  }
}

Result<void> write_stdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return fail(Status::Io, "cannot write to standard output");
  }
  return outcome::success();
}

namespace {

// `error[NAME]: message` on stderr, written with its length: a message is
// never cut at a NUL byte.
void write_error_line(Status code, const std::string& message) {
  const std::string_view name = status_name(static_cast<std::int32_t>(code));
  std::fprintf(stderr, "error[%.*s]: ", static_cast<int>(name.size()), name.data());
  std::fwrite(message.data(), 1, message.size(), stderr);
  std::fputc('\n', stderr);
}

}  // namespace

int report_error(const Error& error, bool json) {
  const auto code = static_cast<std::int32_t>(error.code);
  const std::string_view name = status_name(code);
  // One line per problem of a planning failure, in their order; else one.
  if (error.entries.size() > 1) {
    for (const ErrorEntry& entry : error.entries) write_error_line(entry.code, entry.message);
  } else {
    write_error_line(error.code, error.message);
  }
  if (json) {
    std::string out;
    JsonWriter writer(out);
    writer.begin_object().key("error").begin_object();
    writer.key("code").string(name);
    writer.key("status").uint(static_cast<std::uint64_t>(code));
    writer.key("message").string(error.message);
    if (!error.entries.empty()) {
      writer.key("errors").begin_array();
      for (const ErrorEntry& entry : error.entries) {
        const auto entry_code = static_cast<std::int32_t>(entry.code);
        writer.begin_object();
        writer.key("code").string(status_name(entry_code));
        writer.key("status").uint(static_cast<std::uint64_t>(entry_code));
        writer.key("group");
        entry.group.empty() ? writer.null() : writer.string(entry.group);
        writer.key("tensor");
        entry.tensor.empty() ? writer.null() : writer.string(entry.tensor);
        writer.key("message").string(entry.message);
        writer.end_object();
      }
      writer.end_array();
    }
    writer.end_object().end_object();
    out += '\n';
    // The exit status already says what went wrong; a failed write adds nothing.
    (void)write_stdout(out);
  }
  return exit_code_for(error.code);
}

}  // namespace eredu
