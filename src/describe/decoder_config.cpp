#include "describe/decoder_config.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

#include "core/text.hpp"
#include "describe/json_file.hpp"

namespace eredu {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 4> kFamilies = {"llama", "mistral", "qwen2", "qwen3"};

// An absent key and an explicit null both mean "not given" (HF writes nulls).
const json* field(const json& config, const char* key) {
  auto it = config.find(key);
  if (it == config.end() || it->is_null()) return nullptr;
  return &*it;
}

Result<std::optional<std::uint64_t>> optional_count(const json& config, const std::string& file,
                                                    const char* key) {
  const json* value = field(config, key);
  if (value == nullptr) return std::optional<std::uint64_t>{};
  if (!value->is_number_unsigned() || value->get<std::uint64_t>() == 0) {
    return failf(Status::Parse, "{}: {} must be a positive integer, got {}", file, key,
                 value->dump());
  }
  return std::optional<std::uint64_t>{value->get<std::uint64_t>()};
}

Result<std::uint64_t> required_count(const json& config, const std::string& file, const char* key) {
  EREDU_TRY(value, optional_count(config, file, key));
  if (!value) return failf(Status::Parse, "{}: required field {} is missing", file, key);
  return *value;
}

// Names a quantized checkpoint the way users know it ("bitsandbytes int8").
std::string quantization_label(const json& quantization) {
  const json* method = field(quantization, "quant_method");
  if (method == nullptr || !method->is_string()) {
    return fmt::format("quantization_config {}", quantization.dump());
  }
  std::string name = method->get<std::string>();
  if (name == "bitsandbytes") {
    const json* int8 = field(quantization, "load_in_8bit");
    bool eight_bit = int8 != nullptr && int8->is_boolean() && int8->get<bool>();
    return eight_bit ? "bitsandbytes int8 (LLM.int8) quantization"
                     : "bitsandbytes 4-bit quantization";
  }
  return fmt::format("{} quantization (quantization_config.quant_method)", debug_quoted(name));
}

Result<void> check_supported(const json& config, const std::string& file) {
  const json* type = field(config, "model_type");
  if (type == nullptr || !type->is_string()) {
    return failf(Status::UnsupportedModel,
                 "{}: no model_type; supported: llama, mistral, qwen2, qwen3", file);
  }
  const std::string name = type->get<std::string>();
  if (std::find(kFamilies.begin(), kFamilies.end(), name) == kFamilies.end()) {
    return failf(Status::UnsupportedModel,
                 "{}: model_type {} is not supported; supported: llama, mistral, qwen2, qwen3",
                 file, debug_quoted(name));
  }
  // MLX writes `quantization` (and often a copy in quantization_config).
  if (const json* mlx = field(config, "quantization")) {
    return failf(Status::UnsupportedModel,
                 "{}: MLX quantized checkpoint (quantization {}) is not supported yet", file,
                 mlx->dump());
  }
  if (const json* quantization = field(config, "quantization_config")) {
    return failf(Status::UnsupportedModel, "{}: {} is not supported", file,
                 quantization_label(*quantization));
  }
  return outcome::success();
}

// torch_dtype (transformers < 4.56) or dtype (later), as safetensors names.
Result<Dtype> read_dtype(const json& config, const std::string& file) {
  const json* value = field(config, "torch_dtype");
  if (value == nullptr) value = field(config, "dtype");
  if (value == nullptr) {
    return failf(Status::UnsupportedModel,
                 "{}: neither torch_dtype nor dtype is given, so tensor bytes are unknown", file);
  }
  if (value->is_string()) {
    std::string name = value->get<std::string>();
    if (name == "float32") return Dtype::F32;
    if (name == "bfloat16") return Dtype::BF16;
    if (name == "float16") return Dtype::F16;
  }
  return failf(Status::UnsupportedModel,
               "{}: dtype {} is not supported; supported: float32, bfloat16, float16", file,
               value->dump());
}

Result<bool> read_tied(const json& config, const std::string& file) {
  const json* value = field(config, "tie_word_embeddings");
  if (value == nullptr) return false;  // the default of every supported family
  if (!value->is_boolean()) {
    return failf(Status::Parse, "{}: tie_word_embeddings must be a boolean, got {}", file,
                 value->dump());
  }
  return value->get<bool>();
}

}  // namespace

Result<DecoderConfig> read_decoder_config(const std::string& dir) {
  const std::string file = dir + "/config.json";
  EREDU_TRY(config, read_json_file(file));
  if (!config.is_object()) return failf(Status::Parse, "{}: not a JSON object", file);
  EREDU_TRY(check_supported(config, file));

  EREDU_TRY(dtype, read_dtype(config, file));
  EREDU_TRY(hidden, required_count(config, file, "hidden_size"));
  EREDU_TRY(intermediate, required_count(config, file, "intermediate_size"));
  EREDU_TRY(layers, required_count(config, file, "num_hidden_layers"));
  EREDU_TRY(heads, required_count(config, file, "num_attention_heads"));
  EREDU_TRY(kv_heads, optional_count(config, file, "num_key_value_heads"));
  EREDU_TRY(head_dim, optional_count(config, file, "head_dim"));
  EREDU_TRY(vocab, required_count(config, file, "vocab_size"));
  EREDU_TRY(tied, read_tied(config, file));
  if (!head_dim && hidden % heads != 0) {
    return failf(Status::Parse,
                 "{}: hidden_size {} is not divisible by num_attention_heads {} and head_dim is "
                 "not given",
                 file, hidden, heads);
  }
  return DecoderConfig{hidden,
                       intermediate,
                       layers,
                       heads,
                       kv_heads.value_or(heads),
                       head_dim.value_or(hidden / heads),
                       vocab,
                       tied,
                       dtype};
}

}  // namespace eredu
