// eredu_layerwise_model_metadata_*: seed 003 LayerwiseModelMetadata behind a
// handle.
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "firewall.hpp"
#include "format/linear_format.hpp"
#include "format_arguments.hpp"
#include "outputs.hpp"
#include "residency/layerwise_metadata.hpp"

/// A snapshot changed in place: setters compute the new value first and
/// assign it only on success.
struct eredu_layerwise_model_metadata {
  eredu::LayerwiseModelMetadata metadata;
};

namespace eredu::capi {
namespace {

/// The argument checks of a quantization named "quantization": NULL and
/// DENSE are none; BLOCK_FP8 has no WeightQuantization. Its own rules are
/// checked by quantization_checked.
Result<std::optional<WeightQuantization>> quantization_argument(const eredu_linear_format* format) {
  if (format == nullptr) return std::optional<WeightQuantization>{};
  EREDU_TRY(kind, format_kind_argument(format, "quantization"));
  if (kind == LinearFormatKind::E4M3BlockFp8) {
    return fail(Status::InvalidArgument,
                "quantization->kind is EREDU_LINEAR_FORMAT_BLOCK_FP8, which is not a weight "
                "quantization");
  }
  EREDU_TRY(value, format_argument(format, "quantization"));
  return value.weight_quantization();
}

/// WeightQuantization::validate of a present quantization (InvalidFormat).
Result<void> quantization_checked(const std::optional<WeightQuantization>& quantization) {
  if (!quantization) return outcome::success();
  return quantization->validate();
}

void quantization_out(const WeightQuantization& quantization, eredu_linear_format* out) {
  const WeightQuantization::Variant& value = quantization.variant();
  if (const auto* affine = std::get_if<AffineQuantization>(&value)) {
    out->kind = EREDU_LINEAR_FORMAT_AFFINE;
    out->affine_group_size = affine->group_size;
    out->affine_bits = affine->bits;
  } else if (const auto* gguf = std::get_if<GgufIQuant>(&value)) {
    out->kind = EREDU_LINEAR_FORMAT_GGUF;
    out->ggml_type = gguf->ggml_type;
  } else {
    out->kind = EREDU_LINEAR_FORMAT_MXFP4;
  }
}

/// A getter of one value: checks the handle, then `out`, then stores
/// `read(metadata)` in it.
template <class T, class Read>
eredu_status metadata_value(const eredu_layerwise_model_metadata* metadata, T* out,
                            eredu_error** error, Read&& read) {
  return handle_call(
      metadata, "metadata", error,
      [&](const eredu_layerwise_model_metadata& handle) {
        return value_out(out, read(handle.metadata));
      },
      out);
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_layerwise_model_metadata_new(
    const char* effective_model_type, const eredu_linear_format* quantization, uint64_t layer_count,
    uint64_t static_device_bytes, eredu_execution_residency residency,
    uint64_t layer_parameter_bytes, uint64_t maximum_device_layer_bytes,
    uint64_t maximum_host_layer_bytes, uint64_t device_layer_capacity,
    eredu_layerwise_model_metadata** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(model_type, text_argument(effective_model_type, "effective_model_type"));
        EREDU_TRY(weights, quantization_argument(quantization));
        EREDU_TRY(execution,
                  enum_argument(execution_residency_from_value(residency), residency, "residency"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(quantization_checked(weights));
        *out = new eredu_layerwise_model_metadata{LayerwiseModelMetadata(
            std::string(model_type), std::move(weights), layer_count, static_device_bytes,
            execution, layer_parameter_bytes, maximum_device_layer_bytes, maximum_host_layer_bytes,
            device_layer_capacity)};
        return outcome::success();
      },
      out);
}

void eredu_layerwise_model_metadata_free(eredu_layerwise_model_metadata* metadata) {
  delete metadata;
}

eredu_status eredu_layerwise_model_metadata_set_effective_model_type(
    eredu_layerwise_model_metadata* metadata, const char* effective_model_type,
    eredu_error** error) {
  return handle_call(
      metadata, "metadata", error, [&](eredu_layerwise_model_metadata& handle) -> Result<void> {
        EREDU_TRY(model_type, text_argument(effective_model_type, "effective_model_type"));
        handle.metadata.set_effective_model_type(std::string(model_type));
        return outcome::success();
      });
}

eredu_status eredu_layerwise_model_metadata_set_quantization(
    eredu_layerwise_model_metadata* metadata, const eredu_linear_format* quantization,
    eredu_error** error) {
  return handle_call(metadata, "metadata", error,
                     [&](eredu_layerwise_model_metadata& handle) -> Result<void> {
                       EREDU_TRY(weights, quantization_argument(quantization));
                       EREDU_TRY(quantization_checked(weights));
                       handle.metadata.set_quantization(std::move(weights));
                       return outcome::success();
                     });
}

eredu_status eredu_layerwise_model_metadata_effective_model_type(
    const eredu_layerwise_model_metadata* metadata, const char** out, size_t* length,
    eredu_error** error) {
  return handle_call(
      metadata, "metadata", error,
      [&](const eredu_layerwise_model_metadata& handle) {
        return string_out(handle.metadata.effective_model_type(), out, length);
      },
      out, length);
}

eredu_status eredu_layerwise_model_metadata_quantization(
    const eredu_layerwise_model_metadata* metadata, eredu_linear_format* out, bool* present,
    eredu_error** error) {
  return handle_call(
      metadata, "metadata", error,
      [&](const eredu_layerwise_model_metadata& handle) -> Result<void> {
        EREDU_TRY(sized_argument(out, "out"));
        EREDU_TRY(require(present, "present"));
        const std::optional<WeightQuantization>& quantization = handle.metadata.quantization();
        if (quantization) quantization_out(*quantization, out);
        *present = quantization.has_value();
        return outcome::success();
      },
      out, present);
}

eredu_status eredu_layerwise_model_metadata_layer_count(
    const eredu_layerwise_model_metadata* metadata, uint64_t* out, eredu_error** error) {
  return metadata_value(metadata, out, error,
                        [](const LayerwiseModelMetadata& value) { return value.layer_count(); });
}

eredu_status eredu_layerwise_model_metadata_static_device_bytes(
    const eredu_layerwise_model_metadata* metadata, uint64_t* out, eredu_error** error) {
  return metadata_value(metadata, out, error, [](const LayerwiseModelMetadata& value) {
    return value.static_device_bytes();
  });
}

eredu_status eredu_layerwise_model_metadata_residency(
    const eredu_layerwise_model_metadata* metadata, eredu_execution_residency* out,
    eredu_error** error) {
  return metadata_value(metadata, out, error, [](const LayerwiseModelMetadata& value) {
    return static_cast<eredu_execution_residency>(value.residency());
  });
}

eredu_status eredu_layerwise_model_metadata_layer_parameter_bytes(
    const eredu_layerwise_model_metadata* metadata, uint64_t* out, eredu_error** error) {
  return metadata_value(metadata, out, error, [](const LayerwiseModelMetadata& value) {
    return value.layer_parameter_bytes();
  });
}

eredu_status eredu_layerwise_model_metadata_maximum_device_layer_bytes(
    const eredu_layerwise_model_metadata* metadata, uint64_t* out, eredu_error** error) {
  return metadata_value(metadata, out, error, [](const LayerwiseModelMetadata& value) {
    return value.maximum_device_layer_bytes();
  });
}

eredu_status eredu_layerwise_model_metadata_maximum_host_layer_bytes(
    const eredu_layerwise_model_metadata* metadata, uint64_t* out, eredu_error** error) {
  return metadata_value(metadata, out, error, [](const LayerwiseModelMetadata& value) {
    return value.maximum_host_layer_bytes();
  });
}

eredu_status eredu_layerwise_model_metadata_device_layer_capacity(
    const eredu_layerwise_model_metadata* metadata, uint64_t* out, eredu_error** error) {
  return metadata_value(metadata, out, error, [](const LayerwiseModelMetadata& value) {
    return value.device_layer_capacity();
  });
}

}  // extern "C"
