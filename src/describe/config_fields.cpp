// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/config_fields.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/checked.hpp"

namespace eredu {

using nlohmann::json;

namespace {

// `values` folded from `out` by `step`, a checked operation; Parse naming
// `what` in `file` when a step overflows 64 bits.
Result<std::uint64_t> fold(const std::string& file, const char* what, std::uint64_t out,
                           std::initializer_list<std::uint64_t> values,
                           std::optional<std::uint64_t> (*step)(std::uint64_t, std::uint64_t)) {
  for (std::uint64_t value : values) {
    auto next = step(out, value);
    if (!next) return failf(Status::Parse, "{}: {} overflows 64 bits", file, what);
    out = *next;
  }
  return out;
}

}  // namespace

std::string shown_count(const json& value) {
  return value.is_number_float() ? "a fraction, an exponent or an integer past 64 bits"
                                 : value.dump();
}

const json* ConfigFields::field(const char* key) const {
  auto it = config_.find(key);
  if (it == config_.end() || it->is_null()) return nullptr;
  return &*it;
}

Result<std::optional<ConfigFields>> ConfigFields::optional_section(const char* key) const {
  const json* value = field(key);
  if (value == nullptr) return std::optional<ConfigFields>{};
  if (!value->is_object()) {
    return failf(Status::Parse, "{}: {} must be an object, got {}", file_, key, value->dump());
  }
  return std::optional<ConfigFields>{
      ConfigFields(*value, folder_, fmt::format("{} {}", file_, key))};
}

Result<ConfigFields> ConfigFields::section(const char* key) const {
  EREDU_TRY(found, optional_section(key));
  if (!found) return failf(Status::Parse, "{}: required field {} is missing", file_, key);
  return std::move(*found);
}

Result<std::optional<std::uint64_t>> ConfigFields::optional_count(const char* key) const {
  const json* value = field(key);
  if (value == nullptr) return std::optional<std::uint64_t>{};
  if (!value->is_number_unsigned() || value->get<std::uint64_t>() == 0) {
    return failf(Status::Parse, "{}: {} must be a positive integer that fits 64 bits, got {}",
                 file_, key, shown_count(*value));
  }
  return std::optional<std::uint64_t>{value->get<std::uint64_t>()};
}

Result<std::optional<std::uint64_t>> ConfigFields::optional_size(const char* key) const {
  const json* value = field(key);
  if (value == nullptr) return std::optional<std::uint64_t>{};
  if (!value->is_number_unsigned()) {
    return failf(Status::Parse, "{}: {} must be an integer from 0 that fits 64 bits, got {}", file_,
                 key, shown_count(*value));
  }
  return std::optional<std::uint64_t>{value->get<std::uint64_t>()};
}

Result<std::uint64_t> ConfigFields::required_count(const char* key) const {
  EREDU_TRY(value, optional_count(key));
  if (!value) return failf(Status::Parse, "{}: required field {} is missing", file_, key);
  return *value;
}

Result<std::int64_t> ConfigFields::required_integer(const char* key) const {
  const json* value = field(key);
  if (value == nullptr) return failf(Status::Parse, "{}: required field {} is missing", file_, key);
  if (!value->is_number_integer() ||
      (value->is_number_unsigned() &&
       value->get<std::uint64_t>() >
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
    return failf(Status::Parse, "{}: {} must be an integer that fits 64 bits, got {}", file_, key,
                 shown_count(*value));
  }
  return value->get<std::int64_t>();
}

Result<std::optional<std::string>> ConfigFields::optional_string(const char* key) const {
  const json* value = field(key);
  if (value == nullptr) return std::optional<std::string>{};
  if (!value->is_string()) {
    return failf(Status::Parse, "{}: {} must be a string, got {}", file_, key, value->dump());
  }
  return std::optional<std::string>{value->get<std::string>()};
}

Result<std::vector<std::string>> ConfigFields::string_list(const char* key) const {
  const json* value = field(key);
  std::vector<std::string> out;
  if (value == nullptr) return out;
  const bool strings =
      value->is_array() &&
      std::all_of(value->begin(), value->end(), [](const json& e) { return e.is_string(); });
  if (!strings) {
    return failf(Status::Parse, "{}: {} must be an array of strings, got {}", file_, key,
                 value->dump());
  }
  for (const json& each : *value) out.push_back(each.get<std::string>());
  return out;
}

std::vector<std::string> ConfigFields::keys() const {
  std::vector<std::string> out;
  if (!config_.is_object()) return out;
  for (const auto& [key, value] : config_.items()) out.push_back(key);
  return out;
}

Result<bool> ConfigFields::flag(const char* key, bool fallback) const {
  const json* value = field(key);
  if (value == nullptr) return fallback;
  if (!value->is_boolean()) {
    return failf(Status::Parse, "{}: {} must be a boolean, got {}", file_, key, value->dump());
  }
  return value->get<bool>();
}

Result<Dtype> ConfigFields::dtype() const {
  const json* value = field("torch_dtype");
  if (value == nullptr) value = field("dtype");
  if (value == nullptr) {
    return failf(Status::UnsupportedModel,
                 "{}: neither torch_dtype nor dtype is given, so tensor bytes are unknown", file_);
  }
  if (value->is_string()) {
    const std::string name = value->get<std::string>();
    if (name == "float32") return Dtype::F32;
    if (name == "bfloat16") return Dtype::BF16;
    if (name == "float16") return Dtype::F16;
  }
  return failf(Status::UnsupportedModel,
               "{}: dtype {} is not supported; supported: float32, bfloat16, float16", file_,
               value->dump());
}

Result<Dtype> ConfigFields::dtype_or(const ConfigFields& nested) const {
  if (field("torch_dtype") != nullptr || field("dtype") != nullptr) return dtype();
  return nested.dtype();
}

Result<std::uint64_t> ConfigFields::product(const char* what,
                                            std::initializer_list<std::uint64_t> factors) const {
  return fold(file_, what, 1, factors, checked_mul);
}

Result<std::uint64_t> ConfigFields::sum(const char* what,
                                        std::initializer_list<std::uint64_t> terms) const {
  return fold(file_, what, 0, terms, checked_add);
}

Result<void> check_layer_count(std::uint64_t layers, const std::string& index_file,
                               std::uint64_t index_tensors) {
  if (layers > index_tensors) {
    return failf(Status::CheckpointMismatch,
                 "config.json declares {} layers but {} lists only {} tensors", layers, index_file,
                 index_tensors);
  }
  return outcome::success();
}

}  // namespace eredu
