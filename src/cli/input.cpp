// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cli/quoted.hpp"

namespace eredu::cli {
namespace {

enum class Read { Whole, Failed, TooLarge };

// Appends all of `stream` to `text`, at most `max_bytes` in all.
Read read_stream(std::FILE* stream, std::string& text, std::size_t max_bytes) {
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, stream)) > 0) {
    if (got > max_bytes - text.size()) return Read::TooLarge;
    text.append(buffer, got);
  }
  return std::ferror(stream) == 0 ? Read::Whole : Read::Failed;
}

Result<std::string> too_large(std::string_view source, std::size_t max_bytes) {
  return failf(EREDU_E_INVALID_ARGUMENT, "{} holds more than {} bytes, the most eredu reads there",
               source, max_bytes);
}

}  // namespace

ModelCounts model_counts(const eredu_model& model) {
  eredu_model_info info = EREDU_MODEL_INFO_INIT;
  // Cannot fail: the model and the struct are valid.
  (void)eredu_model_get_info(&model, &info, nullptr);
  ModelCounts counts;
  if (info.has_layers != 0) counts.layers = info.layers;
  if (info.has_experts != 0) counts.experts = info.experts;
  return counts;
}

Result<std::string> read_input(const std::string& path, std::string_view what,
                               std::string_view directory, std::size_t max_bytes) {
  std::string text;
  if (path == "-") {
    switch (read_stream(stdin, text, max_bytes)) {
      case Read::Whole:
        return text;
      case Read::TooLarge:
        return too_large(fmt::format("standard input ({})", what), max_bytes);
      case Read::Failed:
        break;
    }
    return failf(EREDU_E_IO, "cannot read {} from standard input", what);
  }
  // A directory opens as a stream on Linux and then reads as empty text.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    return failf(EREDU_E_IO, "cannot read {}: {}", debug_quoted(path), directory);
  }
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  const Read read = file != nullptr ? read_stream(file, text, max_bytes) : Read::Failed;
  const int reason = errno;
  if (file != nullptr) std::fclose(file);
  if (read == Read::Whole) return text;
  if (read == Read::TooLarge) return too_large(debug_quoted(path), max_bytes);
  return failf(EREDU_E_IO, "cannot read {}: {}", debug_quoted(path), std::strerror(reason));
}

Result<Model> load_description(const std::string& source) {
  EREDU_TRY(text,
            read_input(source, "the description", std::strerror(EISDIR), kMaxDescriptionBytes));
  eredu_model* model = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_model_from_json(text.data(), text.size(), &model, error);
  }));
  return Model(model);
}

Result<Model> pad_vocab(Model model, std::optional<std::uint64_t> multiple) {
  if (!multiple) return model;
  eredu_model* padded = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_model_pad_vocab(model.get(), *multiple, &padded, error);
  }));
  return Model(padded);
}

namespace {

// `model` described from `source`, padded, with its warnings printed and,
// for `config_only`, the note that nothing verified it.
Result<Model> finish_described(Model model, const std::string& source,
                               std::optional<std::uint64_t> pad_vocab_multiple, bool config_only) {
  EREDU_TRY(padded, pad_vocab(std::move(model), pad_vocab_multiple));
  for (std::size_t i = 0; i < eredu_model_warning_count(padded.get()); ++i) {
    std::fprintf(stderr, "warning: %s\n", eredu_model_warning(padded.get(), i));
  }
  if (config_only) {
    std::fprintf(stderr,
                 "note: %s described from config.json alone (--config-only): shapes and bytes are "
                 "not verified against a checkpoint\n",
                 source.c_str());
  }
  return padded;
}

}  // namespace

Result<Model> describe_folder(const std::string& dir,
                              std::optional<std::uint64_t> pad_vocab_multiple, bool config_only) {
  eredu_describe_options options = EREDU_DESCRIBE_OPTIONS_INIT;
  options.config_only = config_only ? 1 : 0;
  eredu_model* model = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_model_describe(dir.c_str(), &options, &model, error);
  }));
  return finish_described(Model(model), dir, pad_vocab_multiple, config_only);
}

Result<Model> describe_checkpoint(const eredu_checkpoint& checkpoint, const std::string& path,
                                  std::optional<std::uint64_t> pad_vocab_multiple) {
  eredu_model* model = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_checkpoint_describe(&checkpoint, nullptr, &model, error);
  }));
  return finish_described(Model(model), path, pad_vocab_multiple, false);
}

}  // namespace eredu::cli
