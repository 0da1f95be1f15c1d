// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_layerwise_model_metadata_*: the seed's LayerwiseModelMetadata behind
// a handle.
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "firewall.hpp"
#include "format/linear_format.hpp"
#include "format_arguments.hpp"
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
  EREDU_TRY(read, format_read(format, "quantization"));
  if (read.kind == LinearFormatKind::E4M3BlockFp8) {
    return fail(Status::InvalidArgument,
                "quantization->kind is EREDU_LINEAR_FORMAT_BLOCK_FP8, which is not a weight "
                "quantization");
  }
  EREDU_TRY(value, format_value(read, "quantization"));
  return value.weight_quantization();
}

/// WeightQuantization::validate of a present quantization (InvalidFormat).
Result<void> quantization_checked(const std::optional<WeightQuantization>& quantization) {
  if (!quantization) return outcome::success();
  return quantization->validate();
}

/// The C format of a present quantization; the fields of other kinds are 0.
eredu_linear_format quantization_fields(const WeightQuantization& quantization) {
  eredu_linear_format out{};
  const WeightQuantization::Variant& value = quantization.variant();
  if (const auto* affine = std::get_if<AffineQuantization>(&value)) {
    out.kind = EREDU_LINEAR_FORMAT_AFFINE;
    out.affine_group_size = affine->group_size;
    out.affine_bits = affine->bits;
  } else if (const auto* gguf = std::get_if<GgufIQuant>(&value)) {
    out.kind = EREDU_LINEAR_FORMAT_GGUF;
    out.ggml_type = gguf->ggml_type;
  } else {
    out.kind = EREDU_LINEAR_FORMAT_MXFP4;
  }
  return out;
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_layerwise_model_metadata_info_init(eredu_layerwise_model_metadata_info* info,
                                                      size_t size, eredu_error** error) {
  return init_sized(info, size, "info", error);
}

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

eredu_status eredu_layerwise_model_metadata_get_info(const eredu_layerwise_model_metadata* metadata,
                                                     eredu_layerwise_model_metadata_info* out,
                                                     eredu_error** error) {
  return handle_call(
      metadata, "metadata", error,
      [&](const eredu_layerwise_model_metadata& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        const LayerwiseModelMetadata& value = handle.metadata;
        eredu_layerwise_model_metadata_info info{};
        info.residency = static_cast<eredu_execution_residency>(value.residency());
        info.effective_model_type = value.effective_model_type().c_str();
        info.effective_model_type_length = value.effective_model_type().size();
        info.layer_count = value.layer_count();
        info.static_device_bytes = value.static_device_bytes();
        info.layer_parameter_bytes = value.layer_parameter_bytes();
        info.maximum_device_layer_bytes = value.maximum_device_layer_bytes();
        info.maximum_host_layer_bytes = value.maximum_host_layer_bytes();
        info.device_layer_capacity = value.device_layer_capacity();
        info.has_quantization = value.quantization().has_value() ? 1 : 0;
        write_sized(out, info);
        return outcome::success();
      },
      out);
}

eredu_status eredu_layerwise_model_metadata_quantization(
    const eredu_layerwise_model_metadata* metadata, eredu_linear_format* out, bool* present,
    eredu_error** error) {
  return handle_call(
      metadata, "metadata", error,
      [&](const eredu_layerwise_model_metadata& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        EREDU_TRY(require(present, "present"));
        const std::optional<WeightQuantization>& quantization = handle.metadata.quantization();
        // Absent: every covered field 0, so the kind reads DENSE.
        write_sized(out, quantization ? quantization_fields(*quantization) : eredu_linear_format{});
        *present = quantization.has_value();
        return outcome::success();
      },
      out, present);
}

}  // extern "C"
