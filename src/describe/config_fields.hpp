// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Typed reads of a Hugging Face config.json's fields, with messages naming the
// file and the key (shared by every family describer).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "format/dtype.hpp"

namespace eredu {

/// The parsed config.json of the model folder `folder`. Holds a reference to
/// `config`, which must outlive it.
class ConfigFields {
 public:
  ConfigFields(const nlohmann::json& config, std::string folder)
      : config_(config), folder_(std::move(folder)), file_(folder_ + "/config.json") {}

  /// The model folder, for family metadata files next to config.json.
  const std::string& folder() const { return folder_; }
  /// `<folder>/config.json`, the prefix of every message.
  const std::string& file() const { return file_; }
  /// The value of `key`, or nullptr when absent or null (HF writes nulls for
  /// "not given").
  const nlohmann::json* field(const char* key) const;
  /// The object `key` (a multimodal config's `text_config`,
  /// `vision_config`) as fields of their own, whose messages name it:
  /// `<file> vision_config: required field depth is missing`. Errors: Parse
  /// when it is missing or not an object.
  Result<ConfigFields> section(const char* key) const;
  /// section(key), or nullopt when `key` is absent or null. Errors: Parse
  /// when it is not an object.
  Result<std::optional<ConfigFields>> optional_section(const char* key) const;

  /// A positive integer, or nullopt when not given. Errors: Parse naming the
  /// key and the value.
  Result<std::optional<std::uint64_t>> optional_count(const char* key) const;
  /// An integer from 0, or nullopt when not given (n_shared_experts: 0 is
  /// none). Errors: Parse naming the key and the value.
  Result<std::optional<std::uint64_t>> optional_size(const char* key) const;
  /// A positive integer. Errors: Parse when missing or not one.
  Result<std::uint64_t> required_count(const char* key) const;
  /// An integer that fits 64 signed bits, negative ones too (GPTQ's
  /// `group_size` -1). Errors: Parse when missing or not one.
  Result<std::int64_t> required_integer(const char* key) const;
  /// A boolean, `fallback` when not given. Errors: Parse when not a boolean.
  Result<bool> flag(const char* key, bool fallback) const;
  /// A string, or nullopt when not given. Errors: Parse when not a string.
  Result<std::optional<std::string>> optional_string(const char* key) const;
  /// An array of strings (`ignore`, `exclude_modules`), empty when not
  /// given. Errors: Parse when not an array of strings.
  Result<std::vector<std::string>> string_list(const char* key) const;
  /// The keys of these fields, sorted (a quantization config's
  /// `config_groups`).
  std::vector<std::string> keys() const;
  /// `torch_dtype` (transformers < 4.56) or `dtype`: float32, bfloat16,
  /// float16 as F32, BF16, F16. Errors: UnsupportedModel when neither is
  /// given or the value is another type.
  Result<Dtype> dtype() const;
  /// dtype() when this config gives torch_dtype or dtype, else `nested`'s
  /// (a multimodal config whose text_config carries it). Errors: dtype()'s.
  Result<Dtype> dtype_or(const ConfigFields& nested) const;
  /// The product of `factors` (elements of a tensor axis derived from the
  /// config). Errors: Parse naming `what` when it overflows 64 bits.
  Result<std::uint64_t> product(const char* what,
                                std::initializer_list<std::uint64_t> factors) const;
  /// The sum of `terms`; Parse naming `what` when it overflows 64 bits.
  Result<std::uint64_t> sum(const char* what, std::initializer_list<std::uint64_t> terms) const;

 private:
  ConfigFields(const nlohmann::json& config, std::string folder, std::string file)
      : config_(config), folder_(std::move(folder)), file_(std::move(file)) {}

  const nlohmann::json& config_;
  std::string folder_;
  std::string file_;
};

/// `value` as a message about a count shows it: its JSON text, or a
/// description when nlohmann read it as a float (an integer past 64 bits reads
/// as one, so its text would come out rounded).
std::string shown_count(const nlohmann::json& value);

/// A config declaring more decoder layers than the index has tensors cannot
/// match it (a layer has at least two tensors); failing early bounds the work.
/// Errors: CheckpointMismatch with both counts.
Result<void> check_layer_count(std::uint64_t layers, const std::string& index_file,
                               std::uint64_t index_tensors);

}  // namespace eredu
