// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/groups_json.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/text.hpp"
#include "interchange/groups_reader.hpp"
#include "interchange/json_path.hpp"
#include "model/expand.hpp"

namespace eredu {
namespace {

// Step 4 for group `index`, which has `format` members: its scope, then
// every format's construction in member order (the message locates the
// format by its JSON pointer), then the expansion into physical members.
Result<ParameterGroupSpec> expand_formats(const ModelBuilder& builder, std::size_t index,
                                          ParameterGroupSpec group,
                                          std::vector<MemberFormat> formats) {
  EREDU_TRY(builder.check_scope(group));
  std::vector<std::optional<LinearFormatSpec>> specs(group.members().size());
  for (const MemberFormat& format : formats) {
    auto spec = construct_linear_format(format.declaration);
    if (!spec) {
      const json::Path root;
      const json::Path groups = root.field("groups");
      const json::Path group_at = groups.item(index);
      const json::Path members = group_at.field("members");
      const json::Path member = members.item(format.member);
      return failf(Status::InvalidFormat, "{}: {}", member.field("format").str(),
                   spec.error().message);
    }
    specs[format.member] = std::move(spec).value();
  }
  std::size_t position = 0;
  return expand_linear_format_group(
      group, [&](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
        return specs[position++];
      });
}

// Step 4: the groups in order, then the construction error that stopped
// reading them.
Result<std::shared_ptr<const ModelDescription>> build_model(GroupsDocument& document) {
  EREDU_TRY(builder, ModelBuilder::create(std::move(document.info)));
  std::size_t members = 0;
  for (const ParameterGroupSpec& group : document.groups) members += group.members().size();
  builder.reserve(document.groups.size(), members);
  auto formats = document.formats.begin();
  for (std::size_t index = 0; index < document.groups.size(); ++index) {
    ParameterGroupSpec& group = document.groups[index];
    if (formats != document.formats.end() && formats->first == index) {
      EREDU_TRY(expanded,
                expand_formats(builder, index, std::move(group), std::move(formats->second)));
      ++formats;
      EREDU_TRY(builder.add_group(std::move(expanded)));
    } else {
      EREDU_TRY(builder.add_group(std::move(group)));
    }
  }
  if (document.group_error) return outcome::failure(std::move(*document.group_error));
  return std::move(builder).finish();
}

Result<std::shared_ptr<const ModelDescription>> build(GroupsDocument document,
                                                      std::size_t input_size) {
  auto model = build_model(document);
  std::vector<ParameterGroupSpec>().swap(document.groups);
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
  std::optional<GroupsDocument> document;
  {  // the padded copy and the parser are freed before the model is built
    PaddedInput padded;
    if (!padded.allocate(text.size())) {
      return fail(Status::OutOfMemory, "out of memory while copying a JSON document");
    }
    if (!text.empty()) std::memcpy(padded.data(), text.data(), text.size());
    EREDU_TRY(read, read_groups_document(padded));
    document.emplace(std::move(read));
  }
  return build(std::move(*document), text.size());
}

Result<std::shared_ptr<const ModelDescription>> load_groups_json_file(const std::string& path) {
  std::optional<GroupsDocument> document;
  std::size_t size = 0;
  {  // the file's contents are freed before the model is built
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
    EREDU_TRY(read, read_groups_document(padded));
    document.emplace(std::move(read));
  }
  return build(std::move(*document), size);
}

}  // namespace eredu
