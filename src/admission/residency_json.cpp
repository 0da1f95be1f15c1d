// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/residency_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "admission/policy.hpp"
#include "core/text.hpp"
#include "core/unique_key_json.hpp"

namespace eredu {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kSchemaPrefix = "eredu.residency.v";

// Every field a policy object may hold, in the documented order.
constexpr std::array<std::string_view, 12> kPolicyFields = {
    "schema",
    "kind",
    "device_budget_bytes",
    "host_budget_bytes",
    "prefetch_depth",
    "host_lookahead",
    "background_queue_capacity",
    "eviction_policy",
    "max_cached_shards",
    "sample_backend_memory",
    "sample_process_memory",
    "parameter_bank_cache",
};

constexpr std::array<std::string_view, 6> kBankFields = {
    "device_budget_bytes", "host_budget_bytes",          "prefetch_depth",
    "eviction_policy",     "compact_bank_scratch_bytes", "prefill_compact_bank_target_bytes",
};

// Whether a policy of `kind` has an option named `field` (schema, kind and
// parameter_bank_cache belong to every kind).
bool has_option(ExecutionResidency kind, std::string_view field) {
  constexpr std::array<std::string_view, 6> kCommon = {
      "device_budget_bytes", "host_budget_bytes",     "eviction_policy",
      "max_cached_shards",   "sample_backend_memory", "sample_process_memory"};
  if (field == "schema" || field == "kind" || field == "parameter_bank_cache") return true;
  if (kind == ExecutionResidency::FullyResident) return false;
  if (std::find(kCommon.begin(), kCommon.end(), field) != kCommon.end()) return true;
  if (kind == ExecutionResidency::LayerwiseHost) return field == "prefetch_depth";
  return field == "host_lookahead" || field == "background_queue_capacity";
}

// Parses `text`; a repeated key in any object is an error, since it would
// silently keep one of its values.
Result<Json> parse_text(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) {
    return fail(Status::Parse, "invalid JSON: a byte-order mark is not accepted");
  }
  return parse_unique_key_json<Json>(
      text,
      [](const std::string& key) {
        return fmt::format("invalid JSON: repeated key {}", debug_quoted(key));
      },
      [](const char* what) { return fmt::format("invalid JSON: {}", what); });
}

std::string_view describe(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_null()) return "null";
  return "a number";
}

// What a value that is not a uint64 is, for messages. nlohmann keeps no
// token text: an integer past 64 bits reads as a float, and -0 as 0.
std::string found_instead_of_uint(const Json& value) {
  if (value.is_number_integer()) {
    return value.get<std::int64_t>() == 0 ? "-0" : value.dump();
  }
  if (value.is_number_float()) return "a fraction, an exponent or an integer past 64 bits";
  return std::string(describe(value));
}

// RFC 6901 pointer of `key` inside the object at `parent`.
std::string pointer(std::string_view parent, std::string_view key) {
  std::string out(parent);
  out += '/';
  append_pointer_token(out, key);
  return out;
}

// Typed reads of one object's fields; `null` reads as absent.
class Fields {
 public:
  Fields(const Json& object, std::string path) : object_(object), path_(std::move(path)) {}

  template <std::size_t N>
  Result<void> reject_unknown(const std::array<std::string_view, N>& known) const {
    for (const auto& [key, value] : object_.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        return failf(Status::Parse, "{}: unknown field", at(key));
      }
    }
    return outcome::success();
  }

  const Json* find(std::string_view name) const {
    const auto it = object_.find(std::string(name));
    if (it == object_.end() || it->is_null()) return nullptr;
    return &*it;
  }

  std::string at(std::string_view name) const { return pointer(path_, name); }

  Result<std::optional<std::uint64_t>> uint(std::string_view name) const {
    const Json* value = find(name);
    if (value == nullptr) return std::optional<std::uint64_t>{};
    if (!value->is_number_unsigned()) {
      return failf(Status::Parse, "{}: expected a non-negative integer that fits 64 bits, found {}",
                   at(name), found_instead_of_uint(*value));
    }
    return std::optional<std::uint64_t>{value->get<std::uint64_t>()};
  }

  Result<std::optional<bool>> boolean(std::string_view name) const {
    const Json* value = find(name);
    if (value == nullptr) return std::optional<bool>{};
    if (!value->is_boolean()) {
      return failf(Status::Parse, "{}: expected a boolean, found {}", at(name), describe(*value));
    }
    return std::optional<bool>{value->get<bool>()};
  }

  Result<std::optional<std::string>> string(std::string_view name) const {
    const Json* value = find(name);
    if (value == nullptr) return std::optional<std::string>{};
    if (!value->is_string()) {
      return failf(Status::Parse, "{}: expected a string, found {}", at(name), describe(*value));
    }
    return std::optional<std::string>{value->get<std::string>()};
  }

  Result<std::optional<CacheEvictionPolicy>> eviction(std::string_view name) const {
    EREDU_TRY(word, string(name));
    if (!word) return std::optional<CacheEvictionPolicy>{};
    if (auto policy = parse_cache_eviction_policy(*word)) return policy;
    return failf(Status::Parse,
                 "{}: unknown eviction policy {}; use least_recently_used or "
                 "least_frequently_used",
                 at(name), debug_quoted(*word));
  }

 private:
  const Json& object_;
  std::string path_;
};

Result<void> check_schema(const Json& root) {
  const auto it = root.find("schema");
  if (it == root.end() || !it->is_string()) {
    return fail(Status::Parse, "/schema: required string field is missing or not a string");
  }
  const std::string& schema = it->get_ref<const std::string&>();
  if (schema == kResidencySchema) return outcome::success();
  const bool versioned =
      schema.size() > kSchemaPrefix.size() && schema.starts_with(kSchemaPrefix) &&
      std::all_of(schema.begin() + static_cast<std::ptrdiff_t>(kSchemaPrefix.size()), schema.end(),
                  [](char c) { return c >= '0' && c <= '9'; });
  if (versioned) {
    return failf(Status::UnsupportedVersion, "unsupported schema {}; this version reads {}",
                 debug_quoted(schema), debug_quoted(kResidencySchema));
  }
  return failf(Status::Parse, "/schema: unknown schema {}", debug_quoted(schema));
}

Result<ExecutionResidency> read_kind(const Fields& fields) {
  EREDU_TRY(word, fields.string("kind"));
  if (!word)
    return failf(Status::Parse, "{}: required field is missing or null", fields.at("kind"));
  if (auto kind = parse_execution_residency(*word)) return *kind;
  return failf(Status::Parse,
               "{}: unknown residency kind {}; use fully_resident, layerwise_host or "
               "dense_disk_stream",
               fields.at("kind"), debug_quoted(*word));
}

// The options of a policy object, as written (absent: nullopt).
struct PolicyFields {
  ExecutionResidency kind = ExecutionResidency::FullyResident;
  std::optional<std::uint64_t> device_budget;
  std::optional<std::uint64_t> host_budget;
  std::optional<std::uint64_t> prefetch_depth;
  std::optional<std::uint64_t> host_lookahead;
  std::optional<std::uint64_t> queue_capacity;
  std::optional<CacheEvictionPolicy> eviction;
  std::optional<std::uint64_t> max_cached_shards;
  std::optional<bool> sample_backend;
  std::optional<bool> sample_process;
  const Json* bank = nullptr;
};

Result<PolicyFields> read_policy_fields(const Fields& fields) {
  PolicyFields out;
  EREDU_TRY(kind, read_kind(fields));
  out.kind = kind;
  for (std::string_view name : kPolicyFields) {
    if (fields.find(name) != nullptr && !has_option(kind, name)) {
      return failf(Status::Parse, "{}: not allowed for a {} policy", fields.at(name),
                   execution_residency_name(kind));
    }
  }
  EREDU_TRY(device, fields.uint("device_budget_bytes"));
  EREDU_TRY(host, fields.uint("host_budget_bytes"));
  EREDU_TRY(depth, fields.uint("prefetch_depth"));
  EREDU_TRY(lookahead, fields.uint("host_lookahead"));
  EREDU_TRY(queue, fields.uint("background_queue_capacity"));
  EREDU_TRY(eviction, fields.eviction("eviction_policy"));
  EREDU_TRY(shards, fields.uint("max_cached_shards"));
  EREDU_TRY(backend, fields.boolean("sample_backend_memory"));
  EREDU_TRY(process, fields.boolean("sample_process_memory"));
  out.device_budget = device;
  out.host_budget = host;
  out.prefetch_depth = depth;
  out.host_lookahead = lookahead;
  out.queue_capacity = queue;
  out.eviction = eviction;
  out.max_cached_shards = shards;
  out.sample_backend = backend;
  out.sample_process = process;
  out.bank = fields.find("parameter_bank_cache");
  if (out.bank != nullptr && !out.bank->is_object()) {
    return failf(Status::Parse, "{}: expected an object, found {}",
                 fields.at("parameter_bank_cache"), describe(*out.bank));
  }
  return out;
}

// The options of a `parameter_bank_cache` object, as written.
struct BankFields {
  std::optional<std::uint64_t> device_budget;
  std::optional<std::uint64_t> host_budget;
  std::optional<std::uint64_t> prefetch_depth;
  std::optional<CacheEvictionPolicy> eviction;
  std::optional<std::uint64_t> scratch;
  std::optional<std::uint64_t> prefill_target;
};

Result<BankFields> read_bank_fields(const Json& object) {
  const Fields fields(object, "/parameter_bank_cache");
  EREDU_TRY(fields.reject_unknown(kBankFields));
  EREDU_TRY(device, fields.uint("device_budget_bytes"));
  EREDU_TRY(host, fields.uint("host_budget_bytes"));
  EREDU_TRY(depth, fields.uint("prefetch_depth"));
  EREDU_TRY(eviction, fields.eviction("eviction_policy"));
  EREDU_TRY(scratch, fields.uint("compact_bank_scratch_bytes"));
  EREDU_TRY(target, fields.uint("prefill_compact_bank_target_bytes"));
  return BankFields{device, host, depth, eviction, scratch, target};
}

Result<LayerWeightResidency> build_layers(const PolicyFields& in) {
  const CacheEvictionPolicy eviction = in.eviction.value_or(CacheEvictionPolicy::LeastRecentlyUsed);
  const bool backend = in.sample_backend.value_or(false);
  const bool process = in.sample_process.value_or(false);
  switch (in.kind) {
    case ExecutionResidency::FullyResident:
      return LayerWeightResidency::fully_resident();
    case ExecutionResidency::LayerwiseHost: {
      EREDU_TRY(offload, OffloadConfig::create(in.device_budget, in.host_budget,
                                               in.prefetch_depth.value_or(1)));
      const LayerwiseLoadOptions options =
          LayerwiseLoadOptions(offload.with_eviction_policy(eviction))
              .with_max_cached_shards(in.max_cached_shards.value_or(DEFAULT_MAX_CACHED_SHARDS))
              .with_memory_sampling(backend, process);
      return LayerWeightResidency::layerwise_host(options);
    }
    case ExecutionResidency::DenseDiskStream:
      break;
  }
  const DenseDiskStreamLoadOptions defaults;
  const std::uint64_t host = in.host_budget.value_or(defaults.host_budget_bytes());
  const bool direct = host == 0;  // direct disk-to-device loading has no host controls
  EREDU_TRY(options,
            DenseDiskStreamLoadOptions::create(
                in.device_budget.value_or(defaults.device_budget_bytes()), host,
                in.host_lookahead.value_or(direct ? 0 : defaults.host_lookahead()),
                in.queue_capacity.value_or(direct ? 0 : defaults.background_queue_capacity())));
  return LayerWeightResidency::dense_disk_stream(
      options.with_eviction_policy(eviction)
          .with_max_cached_shards(in.max_cached_shards.value_or(DEFAULT_MAX_CACHED_SHARDS))
          .with_memory_sampling(backend, process));
}

Result<ParameterBankLoadOptions> build_bank(const BankFields& in) {
  const ParameterBankLoadOptions defaults;
  EREDU_TRY(offload,
            OffloadConfig::create(in.device_budget, in.host_budget, in.prefetch_depth.value_or(1)));
  return ParameterBankLoadOptions::create(
      offload.with_eviction_policy(in.eviction.value_or(CacheEvictionPolicy::LeastRecentlyUsed)),
      in.scratch.value_or(defaults.compact_bank_scratch_bytes()),
      in.prefill_target.value_or(defaults.prefill_compact_bank_target_bytes()));
}

OrdinaryWeightResidency ordinary(const LayerWeightResidency& layers) {
  if (auto options = layers.layerwise()) return OrdinaryWeightResidency::layerwise_host(*options);
  if (auto options = layers.dense()) return OrdinaryWeightResidency::dense_disk_stream(*options);
  return OrdinaryWeightResidency::fully_resident();
}

}  // namespace

Result<WeightResidency> load_residency_json(std::string_view text) {
  EREDU_TRY(root, parse_text(text));
  if (!root.is_object()) {
    return fail(Status::Parse, "an eredu.residency.v1 document must be a JSON object");
  }
  EREDU_TRY(check_schema(root));
  const Fields fields(root, "");
  EREDU_TRY(fields.reject_unknown(kPolicyFields));
  EREDU_TRY(policy, read_policy_fields(fields));
  std::optional<BankFields> bank;
  if (policy.bank != nullptr) {
    EREDU_TRY(read, read_bank_fields(*policy.bank));
    bank = read;
  }
  EREDU_TRY(layers, build_layers(policy));
  if (!bank) return WeightResidency::with_layers(layers);
  EREDU_TRY(cache, build_bank(*bank));
  return WeightResidency::with_independent_parameter_banks(ordinary(layers), cache);
}

}  // namespace eredu
