// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/input.hpp"

#include <cstdio>

#include "describe/describe.hpp"
#include "interchange/groups_json.hpp"

namespace eredu {
namespace {

Result<std::string> read_stdin() {
  std::string text;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) text.append(buffer, got);
  if (std::ferror(stdin))
    return fail(Status::Io, "cannot read the description from standard input");
  return text;
}

}  // namespace

Result<std::shared_ptr<const ModelDescription>> load_description(const std::string& source) {
  if (source != "-") return load_groups_json_file(source);
  EREDU_TRY(text, read_stdin());
  return load_groups_json(text);
}

Result<std::shared_ptr<const ModelDescription>> describe_folder(
    const std::string& dir, std::optional<std::uint64_t> pad_vocab, bool config_only) {
  EREDU_TRY(model, describe_model(dir, DescribeOptions{pad_vocab, config_only}));
  if (config_only) {
    std::fprintf(stderr,
                 "note: %s described from config.json alone (--config-only): shapes and bytes are "
                 "not verified against a checkpoint\n",
                 dir.c_str());
  }
  return model;
}

}  // namespace eredu
