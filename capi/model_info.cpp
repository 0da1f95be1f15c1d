// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_parallel_model_info_*: the seed's ParallelModelInfo behind a handle.
#include <string>
#include <utility>
#include <vector>

#include "firewall.hpp"
#include "outputs.hpp"
#include "plan/model_info.hpp"

struct eredu_parallel_model_info {
  eredu::ParallelModelInfo info;
};

namespace eredu::capi {
namespace {

Result<std::vector<std::string>> strings_argument(const char* const* strings, std::size_t count) {
  EREDU_TRY(require_array(strings, count, "owned_tensors"));
  EREDU_TRY(count_argument(count, sizeof(const char*), sizeof(std::string), "owned_tensor_count"));
  std::vector<std::string> values;
  values.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    EREDU_TRY(text, text_argument(strings[i], ArgumentName("owned_tensors", i)));
    values.emplace_back(text);
  }
  return values;
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_parallel_model_summary_init(eredu_parallel_model_summary* info, size_t size,
                                               eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_parallel_model_info_new(
    const eredu_topology* topology, const char* effective_model_type,
    const char* const* owned_tensors, size_t owned_tensor_count, uint64_t local_parameter_bytes,
    uint64_t global_parameter_bytes, uint64_t pinned_device_parameter_bytes,
    uint64_t maximum_device_parameter_bytes, eredu_parallel_model_info** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(sizes, read_sized(topology, SizedDefaults<eredu_topology>::value(), "topology"));
        EREDU_TRY(model_type, text_argument(effective_model_type, "effective_model_type"));
        EREDU_TRY(owned, strings_argument(owned_tensors, owned_tensor_count));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(parallel,
                  ParallelTopology::create(sizes.tensor, sizes.pipeline, sizes.expert, sizes.data));
        *out = new eredu_parallel_model_info{ParallelModelInfo(
            parallel, std::string(model_type), std::move(owned), local_parameter_bytes,
            global_parameter_bytes, pinned_device_parameter_bytes, maximum_device_parameter_bytes)};
        return outcome::success();
      },
      out);
}

void eredu_parallel_model_info_free(eredu_parallel_model_info* info) { delete info; }

eredu_status eredu_parallel_model_info_topology(const eredu_parallel_model_info* info,
                                                eredu_topology* out, eredu_error** error) {
  return handle_call(
      info, "info", error,
      [&](const eredu_parallel_model_info& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        const ParallelTopology& sizes = handle.info.topology();
        eredu_topology topology{};
        topology.tensor = sizes.tensor();
        topology.pipeline = sizes.pipeline();
        topology.expert = sizes.expert();
        topology.data = sizes.data();
        write_sized(out, topology);
        return outcome::success();
      },
      out);
}

eredu_status eredu_parallel_model_info_get_summary(const eredu_parallel_model_info* info,
                                                   eredu_parallel_model_summary* out,
                                                   eredu_error** error) {
  return handle_call(
      info, "info", error,
      [&](const eredu_parallel_model_info& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        const ParallelModelInfo& value = handle.info;
        eredu_parallel_model_summary fields{};
        fields.effective_model_type = value.effective_model_type().c_str();
        fields.effective_model_type_length = value.effective_model_type().size();
        fields.owned_tensor_count = value.owned_tensors().size();
        fields.local_parameter_bytes = value.local_parameter_bytes();
        fields.global_parameter_bytes = value.global_parameter_bytes();
        fields.pinned_device_parameter_bytes = value.pinned_device_parameter_bytes();
        fields.maximum_device_parameter_bytes = value.maximum_device_parameter_bytes();
        write_sized(out, fields);
        return outcome::success();
      },
      out);
}

size_t eredu_parallel_model_info_owned_tensor_count(const eredu_parallel_model_info* info) {
  return info == nullptr ? 0 : info->info.owned_tensors().size();
}

eredu_status eredu_parallel_model_info_owned_tensor(const eredu_parallel_model_info* info,
                                                    size_t index, const char** out, size_t* length,
                                                    eredu_error** error) {
  return handle_call(
      info, "info", error,
      [&](const eredu_parallel_model_info& handle) -> Result<void> {
        EREDU_TRY(index_argument(index, handle.info.owned_tensors().size(), "index"));
        return string_out(handle.info.owned_tensors()[index], out, length);
      },
      out, length);
}

}  // extern "C"
