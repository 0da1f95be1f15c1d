// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/groups_json.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/text.hpp"
#include "interchange/groups_reader.hpp"
#include "interchange/model_assembly.hpp"

namespace eredu {
namespace {

// Step 4, then the memory the reading and building left behind.
Result<std::shared_ptr<const ModelDescription>> build(ModelAssembly& assembly,
                                                      GroupsDocument document,
                                                      std::size_t input_size) {
  auto model = std::move(assembly).finish(std::move(document));
#ifdef __GLIBC__
  // glibc keeps freed heap resident, and freeing the parser's buffers has
  // raised its mmap threshold, so that the builder's scratch would otherwise
  // stay resident as holes in the heap next to the model.
  constexpr std::size_t kTrimFrom = std::size_t{1} << 20;  // bytes of input
  if (input_size >= kTrimFrom) malloc_trim(0);
#else
  (void)input_size;
#endif
  return model;
}

}  // namespace

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
  return build(assembly, std::move(*document), text.size());
}

Result<std::shared_ptr<const ModelDescription>> load_groups_json_file(const std::string& path) {
  ModelAssembly assembly;
  std::optional<GroupsDocument> document;
  std::size_t size = 0;
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
    size = padded.size();
    EREDU_TRY(read, read_groups_document(padded, assembly));
    document.emplace(std::move(read));
  }
  return build(assembly, std::move(*document), size);
}

}  // namespace eredu
