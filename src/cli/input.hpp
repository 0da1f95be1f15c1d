// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Reading the description named on the command line: an `eredu.groups.v1`
// file, or a model folder to describe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "model/model.hpp"

namespace eredu {

/// The description in file `source`, or on standard input for "-".
/// Errors: Io (unreadable), then load_groups_json's.
Result<std::shared_ptr<const ModelDescription>> load_description(const std::string& source);

/// The model folder `dir` described (describe_model_dir) with `--pad-vocab`
/// and `--config-only`; with the latter, a note on standard error says the
/// description is not verified against a checkpoint. Errors:
/// describe_model_dir's.
Result<std::shared_ptr<const ModelDescription>> describe_folder(
    const std::string& dir, std::optional<std::uint64_t> pad_vocab, bool config_only);

}  // namespace eredu
