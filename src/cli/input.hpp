// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading the description named on the command line: an `eredu.groups.v1`
// file, or a model folder to describe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cli/library.hpp"
#include "cli/result.hpp"

namespace eredu::cli {

/// The `model` object of a description (eredu_model_get_info): its
/// decoder layers and routed experts per layer, nullopt when absent.
struct ModelCounts {
  std::optional<std::uint64_t> layers;
  std::optional<std::uint64_t> experts;
};
ModelCounts model_counts(const eredu_model& model);

/// The most bytes of a description the command reads (--groups): the
/// 4294967295 of eredu_model_from_json.
inline constexpr std::size_t kMaxDescriptionBytes = 0xFFFFFFFF;
/// The most bytes of a residency policy it reads (--policy): the 256 MiB
/// the library reads of any JSON file it parses into a tree.
inline constexpr std::size_t kMaxPolicyBytes = std::size_t{256} << 20;

/// The description in file `source`, or on standard input for "-".
/// Errors: EREDU_E_IO (unreadable), then eredu_model_from_json's.
Result<Model> load_description(const std::string& source);

/// `model` with its vocabulary padded to `multiple` (eredu_model_pad_vocab),
/// or as it is without one. Errors: eredu_model_pad_vocab's (0 is
/// EREDU_E_INVALID_ARGUMENT).
Result<Model> pad_vocab(Model model, std::optional<std::uint64_t> multiple);

/// The model folder or GGUF file `dir` described (eredu_model_describe) with
/// `--pad-vocab` and `--config-only`; with the latter, a note on standard
/// error says the description is not verified against a checkpoint.
/// Errors: eredu_model_describe's, then pad_vocab's.
Result<Model> describe_folder(const std::string& dir, std::optional<std::uint64_t> pad_vocab,
                              bool config_only);

/// The model whose checkpoint is `checkpoint`, opened from `path`, described
/// from it (eredu_checkpoint_describe: its index and headers are not read
/// again) with `--pad-vocab`. Errors: eredu_checkpoint_describe's, then
/// pad_vocab's.
Result<Model> describe_checkpoint(const eredu_checkpoint& checkpoint, const std::string& path,
                                  std::optional<std::uint64_t> pad_vocab);

}  // namespace eredu::cli
