// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_model_*: a model description from group handles or eredu.groups.v1.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "firewall.hpp"
#include "handles.hpp"
#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "model/vocab_padding.hpp"
#include "outputs.hpp"

namespace eredu::capi {
namespace {

Result<ModelInfo> info_argument(const eredu_model_info* given) {
  ModelInfo model_info;
  if (given == nullptr) return model_info;
  EREDU_TRY(info, read_sized(given, SizedDefaults<eredu_model_info>::value(), "info"));
  if (info.name != nullptr) {
    EREDU_TRY(name, text_argument(info.name, "info->name"));
    model_info.name = std::string(name);
  }
  EREDU_TRY(has_layers, flag_argument(info.has_layers, "info->has_layers"));
  EREDU_TRY(has_experts, flag_argument(info.has_experts, "info->has_experts"));
  if (has_layers) model_info.layers = info.layers;
  if (has_experts) model_info.experts = info.experts;
  return model_info;
}

}  // namespace

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_model_info_init(eredu_model_info* info, size_t size, eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_model_new(const eredu_model_info* info, const eredu_group* const* groups,
                             size_t group_count, eredu_model** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(model_info, info_argument(info));
        EREDU_TRY(require_array(groups, group_count, "groups"));
        EREDU_TRY(count_argument(group_count, sizeof(const eredu_group*), 0, "group_count"));
        for (std::size_t i = 0; i < group_count; ++i) {
          EREDU_TRY(require(groups[i], ArgumentName("groups", i)));
        }
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(builder, ModelBuilder::create(std::move(model_info)));
        for (std::size_t i = 0; i < group_count; ++i) {
          EREDU_TRY(builder.add_group(groups[i]->spec));
        }
        EREDU_TRY(description, std::move(builder).finish());
        *out = new eredu_model{std::move(description), {}};
        return outcome::success();
      },
      out);
}

eredu_status eredu_model_from_json(const char* text, size_t length, eredu_model** out,
                                   eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(document, json_argument(text, length, "text"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(description, load_groups_json(document));
        *out = new eredu_model{std::move(description), {}};
        return outcome::success();
      },
      out);
}

void eredu_model_free(eredu_model* model) { delete model; }

size_t eredu_model_tensor_count(const eredu_model* model) {
  return model == nullptr ? 0 : model->description->tensor_count();
}

size_t eredu_model_group_count(const eredu_model* model) {
  return model == nullptr ? 0 : model->description->groups().size();
}

uint64_t eredu_model_global_bytes(const eredu_model* model) {
  return model == nullptr ? 0 : model->description->global_bytes();
}

eredu_status eredu_model_get_info(const eredu_model* model, eredu_model_info* out,
                                  eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(sized_out(out, "out"));
        const ModelInfo& stored = model->description->info();
        eredu_model_info info{};
        info.name = stored.name ? stored.name->c_str() : nullptr;
        info.has_layers = stored.layers ? 1 : 0;
        info.layers = stored.layers.value_or(0);
        info.has_experts = stored.experts ? 1 : 0;
        info.experts = stored.experts.value_or(0);
        write_sized(out, info);
        return outcome::success();
      },
      out);
}

eredu_status eredu_model_to_json(const eredu_model* model, char** out, size_t* length,
                                 eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        return buffer_out(groups_to_json(*model->description), out, length);
      },
      out, length);
}

eredu_status eredu_model_pad_vocab(const eredu_model* model, uint64_t multiple, eredu_model** out,
                                   eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(padded, pad_vocabulary(*model->description, multiple));
        *out = new eredu_model{std::move(padded), model->warnings};
        return outcome::success();
      },
      out);
}

}  // extern "C"
