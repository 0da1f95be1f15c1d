// eredu_parallel_model_info_*: seed 000 ParallelModelInfo behind a handle.
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

eredu_status eredu_parallel_model_info_new(
    uint64_t tensor, uint64_t pipeline, uint64_t expert, uint64_t data,
    const char* effective_model_type, const char* const* owned_tensors, size_t owned_tensor_count,
    uint64_t local_parameter_bytes, uint64_t global_parameter_bytes,
    uint64_t pinned_device_parameter_bytes, uint64_t maximum_device_parameter_bytes,
    eredu_parallel_model_info** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(model_type, text_argument(effective_model_type, "effective_model_type"));
        EREDU_TRY(owned, strings_argument(owned_tensors, owned_tensor_count));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(topology, ParallelTopology::create(tensor, pipeline, expert, data));
        *out = new eredu_parallel_model_info{ParallelModelInfo(
            topology, std::string(model_type), std::move(owned), local_parameter_bytes,
            global_parameter_bytes, pinned_device_parameter_bytes, maximum_device_parameter_bytes)};
        return outcome::success();
      },
      out);
}

void eredu_parallel_model_info_free(eredu_parallel_model_info* info) { delete info; }

eredu_status eredu_parallel_model_info_topology(const eredu_parallel_model_info* info,
                                                uint64_t* tensor, uint64_t* pipeline,
                                                uint64_t* expert, uint64_t* data,
                                                eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(info, "info"));
        EREDU_TRY(require(tensor, "tensor"));
        EREDU_TRY(require(pipeline, "pipeline"));
        EREDU_TRY(require(expert, "expert"));
        EREDU_TRY(require(data, "data"));
        const ParallelTopology& topology = info->info.topology();
        *tensor = topology.tensor();
        *pipeline = topology.pipeline();
        *expert = topology.expert();
        *data = topology.data();
        return outcome::success();
      },
      tensor, pipeline, expert, data);
}

eredu_status eredu_parallel_model_info_effective_model_type(const eredu_parallel_model_info* info,
                                                            const char** out, size_t* length,
                                                            eredu_error** error) {
  return handle_call(
      info, "info", error,
      [&](const eredu_parallel_model_info& handle) {
        return string_out(handle.info.effective_model_type(), out, length);
      },
      out, length);
}

eredu_status eredu_parallel_model_info_owned_tensor_count(const eredu_parallel_model_info* info,
                                                          size_t* out, eredu_error** error) {
  return handle_call(
      info, "info", error,
      [&](const eredu_parallel_model_info& handle) {
        return value_out(out, handle.info.owned_tensors().size());
      },
      out);
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

eredu_status eredu_parallel_model_info_bytes(const eredu_parallel_model_info* info,
                                             uint64_t* local_parameter_bytes,
                                             uint64_t* global_parameter_bytes,
                                             uint64_t* pinned_device_parameter_bytes,
                                             uint64_t* maximum_device_parameter_bytes,
                                             eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(info, "info"));
        EREDU_TRY(require(local_parameter_bytes, "local_parameter_bytes"));
        EREDU_TRY(require(global_parameter_bytes, "global_parameter_bytes"));
        EREDU_TRY(require(pinned_device_parameter_bytes, "pinned_device_parameter_bytes"));
        EREDU_TRY(require(maximum_device_parameter_bytes, "maximum_device_parameter_bytes"));
        *local_parameter_bytes = info->info.local_parameter_bytes();
        *global_parameter_bytes = info->info.global_parameter_bytes();
        *pinned_device_parameter_bytes = info->info.pinned_device_parameter_bytes();
        *maximum_device_parameter_bytes = info->info.maximum_device_parameter_bytes();
        return outcome::success();
      },
      local_parameter_bytes, global_parameter_bytes, pinned_device_parameter_bytes,
      maximum_device_parameter_bytes);
}

}  // extern "C"
