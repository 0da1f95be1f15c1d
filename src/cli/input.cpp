// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/input.hpp"

#include <cstdio>

namespace eredu::cli {

ModelCounts model_counts(const eredu_model& model) {
  eredu_model_info info = EREDU_MODEL_INFO_INIT;
  // Cannot fail: the model and the struct are valid.
  (void)eredu_model_get_info(&model, &info, nullptr);
  ModelCounts counts;
  if (info.has_layers != 0) counts.layers = info.layers;
  if (info.has_experts != 0) counts.experts = info.experts;
  return counts;
}

Result<Model> load_description(const std::string& source) {
  EREDU_TRY(text, read_file(source, kMaxDescriptionBytes));
  eredu_model* model = nullptr;
  EREDU_TRY(check([&](eredu_error** error) {
    return eredu_model_from_json(text.bytes.get(), text.length, &model, error);
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
