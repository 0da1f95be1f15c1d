// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/groups_json.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>

#include "core/text.hpp"
#include "interchange/groups_reader.hpp"
#include "interchange/model_assembly.hpp"

namespace eredu {

Result<std::shared_ptr<const ModelDescription>> load_groups_json(std::string_view text) {
  ModelAssembly assembly;
  std::optional<GroupsDocument> document;
  {  // the padded copy and the parser are freed before the model is finished
    PaddedInput padded;
    if (!padded.allocate(text.size())) {
      return fail(Status::OutOfMemory, "out of memory while copying a JSON document");
    }
    if (!text.empty()) std::memcpy(padded.data(), text.data(), text.size());
    EREDU_TRY(read, read_groups_document(padded, assembly));
    document.emplace(std::move(read));
  }
  return std::move(assembly).finish(std::move(*document));
}

Result<std::shared_ptr<const ModelDescription>> load_groups_json_file(const std::string& path) {
  ModelAssembly assembly;
  std::optional<GroupsDocument> document;
  {  // the file's contents are freed before the model is finished
    errno = 0;
    PaddedInput padded;
    if (auto code = read_file(path, padded)) {
      if (code == simdjson::MEMALLOC) {
        return failf(Status::OutOfMemory, "out of memory while reading {}", debug_quoted(path));
      }
      // fopen/fseek/ftell/fread leave the reason in errno, except for a
      // directory, which opens but has no size.
      int reason = errno;
      std::error_code ignored;
      if (reason == 0 && std::filesystem::is_directory(path, ignored)) reason = EISDIR;
      return failf(Status::Io, "cannot read {}: {}", debug_quoted(path),
                   reason != 0                  ? std::generic_category().message(reason)
                   : code == simdjson::CAPACITY ? "it is larger than 4294967295 bytes"
                                                : "a read error");
    }
    EREDU_TRY(read, read_groups_document(padded, assembly));
    document.emplace(std::move(read));
  }
  return std::move(assembly).finish(std::move(*document));
}

}  // namespace eredu
