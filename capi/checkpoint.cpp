// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu/checkpoint.h: describing a model from its files, checkpoints and
// read plans.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint/open.hpp"
#include "describe/describe.hpp"
#include "describe/registry.hpp"
#include "firewall.hpp"
#include "handles.hpp"
#include "outputs.hpp"
#include "readplan/read_plan.hpp"
#include "readplan/read_plan_json.hpp"
#include "readplan/read_rank.hpp"
#include "readplan/read_tensor.hpp"
#include "sized_defaults.hpp"

struct eredu_checkpoint {
  eredu::Checkpoint checkpoint;
};

/// A read plan, with its extents in the C layout and its files' paths
/// joined once, before the handle is published.
struct eredu_read_plan {
  eredu::ReadPlan plan;
  std::vector<std::vector<eredu_read_extent>> extents;  // per tensor
  std::vector<std::string> paths;                       // per file
};

/// The tensors eredu_read_plan_load read.
struct eredu_rank_data {
  eredu::RankBuffers buffers;
};

namespace eredu::capi {
namespace {

Result<DescribeOptions> describe_options_argument(const eredu_describe_options* given) {
  DescribeOptions options;
  if (given == nullptr) return options;
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_describe_options>::value(), "options"));
  EREDU_TRY(config_only, flag_argument(read.config_only, "options->config_only"));
  options.config_only = config_only;
  if (read.pad_vocab_multiple != 0) options.vocab_pad_multiple = read.pad_vocab_multiple;
  return options;
}

std::unique_ptr<eredu_read_plan> make_read_plan_handle(ReadPlan planned) {
  auto handle = std::make_unique<eredu_read_plan>();
  for (const TensorReadPlan& tensor : planned.tensors) {
    std::vector<eredu_read_extent>& extents = handle->extents.emplace_back();
    for (const ReadExtent& extent : tensor.extents) {
      extents.push_back({extent.file, extent.offset, extent.length, extent.count, extent.stride,
                         extent.dest, extent.dest_stride});
    }
  }
  for (const std::string& file : planned.files) {
    handle->paths.push_back(planned.root.empty() ? file : planned.root + "/" + file);
  }
  handle->plan = std::move(planned);
  return handle;
}

eredu_read_tensor_info read_tensor_info(const eredu_read_plan& handle, std::size_t index) {
  const TensorReadPlan& tensor = handle.plan.tensors[index];
  const std::vector<eredu_read_extent>& extents = handle.extents[index];
  eredu_read_tensor_info info{};
  info.target = tensor.target.c_str();
  info.dtype = tensor.dtype.c_str();
  info.local_shape = tensor.local_shape.empty() ? nullptr : tensor.local_shape.data();
  info.ndim = tensor.local_shape.size();
  info.local_bytes = tensor.local_bytes;
  info.read_bytes = tensor.read_bytes;
  info.padding_rows = tensor.padding_rows;
  info.extents = extents.empty() ? nullptr : extents.data();
  info.extent_count = extents.size();
  return info;
}

Result<ReadRankOptions> read_options_argument(const eredu_read_options* given) {
  ReadRankOptions options;
  if (given == nullptr) return options;
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_read_options>::value(), "options"));
  EREDU_TRY(direct, flag_argument(read.direct, ArgumentName::field("options", "->direct")));
  options.threads = read.threads;
  options.request_bytes = read.request_bytes;
  options.max_gap_bytes = read.max_gap_bytes;
  options.direct = direct;
  if (read.progress != nullptr) {
    options.progress = [progress = read.progress, data = read.progress_data](std::uint64_t done,
                                                                             std::uint64_t total) {
      return progress(done, total, data) == 0;
    };
  }
  return options;
}

void write_read_stats(eredu_read_stats* out, const ReadRankStats& stats) {
  if (out == nullptr) return;
  eredu_read_stats value{};
  value.struct_size = sizeof(eredu_read_stats);
  value.threads = stats.threads;
  value.bytes_read = stats.bytes_read;
  value.bytes_kept = stats.bytes_kept;
  value.tensors = stats.tensors;
  value.requests = stats.requests;
  value.direct = stats.direct ? 1 : 0;
  write_sized(out, value);
}

Result<void> stats_argument(eredu_read_stats* stats) {
  if (stats == nullptr) return outcome::success();
  return check_struct_size<eredu_read_stats>(stats->struct_size, "stats");
}

// A new model in `out` from `describe` called with `options` and a list
// that receives its warnings, which the model keeps.
template <class Describe>
Result<void> new_model(DescribeOptions options, eredu_model** out, const Describe& describe) {
  std::vector<std::string> warnings;
  options.warnings = &warnings;
  EREDU_TRY(description, describe(options));
  *out = new eredu_model{std::move(description), std::move(warnings)};
  return outcome::success();
}

}  // namespace
}  // namespace eredu::capi

using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_describe_options_init(eredu_describe_options* options, size_t size,
                                         eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_read_tensor_info_init(eredu_read_tensor_info* info, size_t size,
                                         eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_model_describe(const char* path, const eredu_describe_options* options,
                                  eredu_model** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(where, text_argument(path, "path"));
        EREDU_TRY(describe, describe_options_argument(options));
        EREDU_TRY(require(out, "out"));
        return new_model(describe, out, [&](const DescribeOptions& with_warnings) {
          return describe_model(std::string(where), with_warnings);
        });
      },
      out);
}

const char* eredu_model_types(void) { return supported_model_types().c_str(); }

size_t eredu_model_warning_count(const eredu_model* model) {
  return model == nullptr ? 0 : model->warnings.size();
}

const char* eredu_model_warning(const eredu_model* model, size_t index) {
  if (model == nullptr || index >= model->warnings.size()) return nullptr;
  return model->warnings[index].c_str();
}

eredu_status eredu_checkpoint_open(const char* path, eredu_checkpoint** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(where, text_argument(path, "path"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(checkpoint, open_checkpoint(std::string(where)));
        *out = new eredu_checkpoint{std::move(checkpoint)};
        return outcome::success();
      },
      out);
}

eredu_status eredu_checkpoint_describe(const eredu_checkpoint* checkpoint,
                                       const eredu_describe_options* options, eredu_model** out,
                                       eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(checkpoint, "checkpoint"));
        EREDU_TRY(describe, describe_options_argument(options));
        EREDU_TRY(require(out, "out"));
        return new_model(describe, out, [&](const DescribeOptions& with_warnings) {
          return describe_checkpoint(checkpoint->checkpoint, with_warnings);
        });
      },
      out);
}

void eredu_checkpoint_free(eredu_checkpoint* checkpoint) { delete checkpoint; }

size_t eredu_checkpoint_tensor_count(const eredu_checkpoint* checkpoint) {
  return checkpoint == nullptr ? 0 : checkpoint->checkpoint.tensors.size();
}

eredu_status eredu_read_plan_new(const eredu_layout* layout, const eredu_checkpoint* checkpoint,
                                 eredu_read_plan** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(layout, "layout"));
        EREDU_TRY(require(checkpoint, "checkpoint"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(plan, build_read_plan(layout->layout, checkpoint->checkpoint));
        *out = make_read_plan_handle(std::move(plan)).release();
        return outcome::success();
      },
      out);
}

void eredu_read_plan_free(eredu_read_plan* plan) { delete plan; }

uint64_t eredu_read_plan_rank(const eredu_read_plan* plan) {
  return plan == nullptr ? 0 : plan->plan.rank;
}

uint64_t eredu_read_plan_read_bytes(const eredu_read_plan* plan) {
  return plan == nullptr ? 0 : plan->plan.read_bytes;
}

size_t eredu_read_plan_file_count(const eredu_read_plan* plan) {
  return plan == nullptr ? 0 : plan->plan.files.size();
}

const char* eredu_read_plan_file(const eredu_read_plan* plan, size_t index) {
  if (plan == nullptr || index >= plan->plan.files.size()) return nullptr;
  return plan->plan.files[index].c_str();
}

const char* eredu_read_plan_file_path(const eredu_read_plan* plan, size_t index) {
  if (plan == nullptr || index >= plan->paths.size()) return nullptr;
  return plan->paths[index].c_str();
}

size_t eredu_read_plan_tensor_count(const eredu_read_plan* plan) {
  return plan == nullptr ? 0 : plan->plan.tensors.size();
}

eredu_status eredu_read_plan_tensor_info(const eredu_read_plan* plan, size_t index,
                                         eredu_read_tensor_info* out, eredu_error** error) {
  return handle_call(
      plan, "plan", error,
      [&](const eredu_read_plan& handle) -> Result<void> {
        EREDU_TRY(index_argument(index, handle.plan.tensors.size(), "tensor index"));
        EREDU_TRY(sized_out(out, "out"));
        write_sized(out, read_tensor_info(handle, index));
        return outcome::success();
      },
      out);
}

eredu_status eredu_read_plan_read_tensor(const eredu_read_plan* plan, size_t index, void* buffer,
                                         size_t capacity, eredu_error** error) {
  return handle_call(plan, "plan", error, [&](const eredu_read_plan& handle) -> Result<void> {
    EREDU_TRY(require_array(buffer, capacity, "buffer"));
    return read_tensor(handle.plan, index,
                       std::span<char>(static_cast<char*>(buffer), buffer ? capacity : 0));
  });
}

eredu_status eredu_read_options_init(eredu_read_options* options, size_t size,
                                     eredu_error** error) {
  return init_sized(options, size, "options", error);
}

eredu_status eredu_read_stats_init(eredu_read_stats* stats, size_t size, eredu_error** error) {
  return init_sized(stats, size, "stats", error);
}

eredu_status eredu_read_plan_read_rank(const eredu_read_plan* plan,
                                       const eredu_tensor_buffer* buffers, size_t buffer_count,
                                       const eredu_read_options* options, eredu_read_stats* stats,
                                       eredu_error** error) {
  return handle_call(plan, "plan", error, [&](const eredu_read_plan& handle) -> Result<void> {
    EREDU_TRY(require_array(buffers, buffer_count, "buffers"));
    EREDU_TRY(read_options, read_options_argument(options));
    EREDU_TRY(stats_argument(stats));
    const std::vector<TensorReadPlan>& tensors = handle.plan.tensors;
    if (buffer_count != tensors.size()) {
      return failf(Status::InvalidArgument, "buffer_count is {}, the plan has {} tensors",
                   buffer_count, tensors.size());
    }
    std::vector<std::span<char>> spans;
    spans.reserve(buffer_count);
    for (std::size_t i = 0; i < buffer_count; ++i) {
      const eredu_tensor_buffer& buffer = buffers[i];
      if (buffer.data == nullptr && tensors[i].local_bytes > 0) {
        return failf(Status::NullArgument, "buffers[{}].data is NULL; tensor {} needs {} bytes", i,
                     tensors[i].target, tensors[i].local_bytes);
      }
      if (buffer.capacity < tensors[i].local_bytes) {
        return failf(Status::InvalidArgument,
                     "buffers[{}].capacity is {}; tensor {} needs {} bytes", i, buffer.capacity,
                     tensors[i].target, tensors[i].local_bytes);
      }
      spans.emplace_back(static_cast<char*>(buffer.data),
                         buffer.data == nullptr ? 0 : static_cast<std::size_t>(buffer.capacity));
    }
    EREDU_TRY(read, read_rank(handle.plan, spans, read_options));
    write_read_stats(stats, read);
    return outcome::success();
  });
}

eredu_status eredu_read_plan_load(const eredu_read_plan* plan, const eredu_read_options* options,
                                  eredu_rank_data** out, eredu_read_stats* stats,
                                  eredu_error** error) {
  return handle_call(
      plan, "plan", error,
      [&](const eredu_read_plan& handle) -> Result<void> {
        EREDU_TRY(read_options, read_options_argument(options));
        EREDU_TRY(stats_argument(stats));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(buffers, RankBuffers::allocate(handle.plan));
        auto data = std::make_unique<eredu_rank_data>(eredu_rank_data{std::move(buffers)});
        EREDU_TRY(read, read_rank(handle.plan, data->buffers.spans(), read_options));
        write_read_stats(stats, read);
        *out = data.release();
        return outcome::success();
      },
      out);
}

void eredu_rank_data_free(eredu_rank_data* data) { delete data; }

size_t eredu_rank_data_tensor_count(const eredu_rank_data* data) {
  return data == nullptr ? 0 : data->buffers.spans().size();
}

void* eredu_rank_data_tensor(eredu_rank_data* data, size_t index, uint64_t* bytes) {
  if (bytes != nullptr) *bytes = 0;
  if (data == nullptr || index >= data->buffers.spans().size()) return nullptr;
  const std::span<char> tensor = data->buffers.spans()[index];
  if (bytes != nullptr) *bytes = tensor.size();
  return tensor.data();
}

eredu_status eredu_read_plan_to_json(const eredu_read_plan* plan, char** out, size_t* length,
                                     eredu_error** error) {
  return handle_call(
      plan, "plan", error,
      [&](const eredu_read_plan& handle) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        return buffer_out(read_plan_to_json(handle.plan), out, length);
      },
      out, length);
}

}  // extern "C"
