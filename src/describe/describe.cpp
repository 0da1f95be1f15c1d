// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/describe.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>

#include "checkpoint/open.hpp"
#include "checkpoint/weight_index.hpp"
#include "core/json_file.hpp"
#include "describe/checkpoint_check.hpp"
#include "describe/checkpoint_headers.hpp"
#include "describe/compressed_tensors.hpp"
#include "describe/config_defaults.hpp"
#include "describe/gguf_describe.hpp"
#include "describe/gptq_quantization.hpp"
#include "describe/mlx_quantization.hpp"
#include "describe/modelopt_quantization.hpp"
#include "describe/quantization_refusal.hpp"
#include "describe/registry.hpp"
#include "model/vocab_padding.hpp"

namespace eredu {
namespace {

// "models/qwen3-1.7b/" and "." name the folder itself, not "" or ".".
std::string folder_name(const std::string& dir) {
  std::error_code ignored;
  std::filesystem::path path = std::filesystem::absolute(dir, ignored).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();
  return path.filename().string();
}

// What a folder's description is checked against: its checkpoint, when its
// files are on disk, and its weight index.
struct FolderFiles {
  const Checkpoint* opened = nullptr;  // the caller's
  std::optional<Checkpoint> own;       // opened here
  std::shared_ptr<const WeightIndex> index;

  const Checkpoint* checkpoint() const {
    return opened != nullptr ? opened : own ? &*own : nullptr;
  }
};

// The folder's index and checkpoint, each read once: the index a checkpoint
// was opened through is not read again; without an index file, the single
// `model.safetensors` stands for one.
Result<FolderFiles> folder_files(const std::string& dir, const DescribeOptions& options,
                                 const Checkpoint* opened) {
  FolderFiles files;
  if (options.config_only) {
    files.index = std::make_shared<const WeightIndex>(config_only_index());
    return files;
  }
  files.opened = opened;
  if (opened != nullptr) files.index = opened->index;
  if (!files.index && has_weight_index(dir)) {
    EREDU_TRY(read, read_weight_index(dir));
    files.index = std::make_shared<const WeightIndex>(std::move(read));
  }
  if (opened == nullptr) {
    EREDU_TRY(own, open_folder_checkpoint(dir, files.index));
    files.own = std::move(own);
  }
  const Checkpoint* checkpoint = files.checkpoint();
  if (!files.index && checkpoint != nullptr) {
    files.index = std::make_shared<const WeightIndex>(
        index_from_checkpoint(*checkpoint, "model.safetensors"));
  }
  if (!files.index) {
    auto none = read_weight_index(dir);  // reports that the folder has none
    if (!none) return std::move(none).error();
    files.index = std::make_shared<const WeightIndex>(std::move(none).value());
  }
  if (files.index->total_size_malformed) {
    return failf(Status::Parse, "{}/{}: metadata.total_size must be an integer byte count", dir,
                 files.index->file);
  }
  return files;
}

Result<std::shared_ptr<const ModelDescription>> describe_folder(const std::string& dir,
                                                                const DescribeOptions& options,
                                                                const Checkpoint* opened) {
  const std::string file = dir + "/config.json";
  EREDU_TRY(document, read_json_file(file));
  if (!document.is_object()) return failf(Status::Parse, "{}: not a JSON object", file);
  EREDU_TRY(family, find_family(ConfigFields(document, dir)));
  fill_config_defaults(document, family->defaults);
  const ConfigFields config(document, dir);
  std::optional<MlxQuantization> mlx;
  std::optional<PackedQuantization> packed;
  std::optional<CompressedTensorsQuantization> compressed;
  std::optional<NvFp4Quantization> nvfp4;
  if (family->quantization == Quantization::Mlx) {
    EREDU_TRY(read, read_mlx_quantization(config));
    mlx = std::move(read);
    if (!mlx) {
      EREDU_TRY(read_packed, read_packed_quantization(config));
      packed = read_packed;
    }
    if (!mlx && !packed) {
      EREDU_TRY(read_compressed, read_compressed_tensors(config));
      compressed = std::move(read_compressed);
    }
    if (!mlx && !packed && !compressed) {
      EREDU_TRY(read_nvfp4, read_modelopt_quantization(config));
      nvfp4 = std::move(read_nvfp4);
    }
    if (!mlx && !packed && !compressed && !nvfp4) {
      EREDU_TRY(refuse_quantization_config(config));
    }
  } else {
    EREDU_TRY(refuse_mlx_quantization(config, std::string(family->model_type)));
    if (family->quantization == Quantization::None) {
      EREDU_TRY(refuse_quantization_config(config));
    }
  }
  EREDU_TRY(files, folder_files(dir, options, opened));
  const Checkpoint* checkpoint = files.checkpoint();
  const WeightIndex& index = *files.index;
  EREDU_TRY(described, describe_family(*family, config, index));
  if (checkpoint) {
    EREDU_TRY(typed, adopt_stored_dtypes(std::move(described.groups), *checkpoint));
    described.groups = std::move(typed);
  }
  const std::string name = folder_name(dir);
  std::vector<ParameterGroupSpec> groups = std::move(described.groups);
  if (mlx) {
    EREDU_TRY(expanded, expand_mlx_groups(std::move(groups), *mlx, index));
    groups = std::move(expanded);
  }
  if (packed) {
    EREDU_TRY(expanded, expand_packed_groups(std::move(groups), *packed, index));
    groups = std::move(expanded);
  }
  if (compressed) {
    EREDU_TRY(expanded, expand_compressed_tensors_groups(std::move(groups), *compressed, index));
    groups = std::move(expanded);
  }
  if (nvfp4) {
    EREDU_TRY(expanded, expand_nvfp4_groups(std::move(groups), *nvfp4, index));
    groups = std::move(expanded);
  }
  EREDU_TRY(builder, ModelBuilder::create(ModelInfo{name, described.layers, described.experts}));
  for (ParameterGroupSpec& group : groups) {
    EREDU_TRY(builder.add_group(std::move(group)));
  }
  EREDU_TRY(model, std::move(builder).finish());
  if (!options.config_only) {
    EREDU_TRY(check_checkpoint(*model, index));
    if (!index.total_size && options.warnings != nullptr) {
      options.warnings->push_back(fmt::format(
          "{}/{} gives no metadata.total_size: the tensors are checked, their bytes ({}) are not",
          dir, index.file, model->global_bytes()));
    }
  }
  if (checkpoint) {
    EREDU_TRY(check_stored_shapes(*model, *checkpoint));
  }
  if (options.vocab_pad_multiple) return pad_vocabulary(*model, *options.vocab_pad_multiple);
  return model;
}

}  // namespace

Result<std::shared_ptr<const ModelDescription>> describe_model_dir(const std::string& dir,
                                                                   const DescribeOptions& options) {
  return describe_folder(dir, options, nullptr);
}

Result<std::shared_ptr<const ModelDescription>> describe_checkpoint(
    const Checkpoint& checkpoint, const DescribeOptions& options) {
  if (checkpoint.gguf) return describe_gguf(checkpoint, options);
  if (checkpoint.root.empty()) {
    return failf(Status::Parse,
                 "{}: a safetensors file holds no configuration to describe its model; describe "
                 "the model's folder, or load a description of it (eredu.groups.v1)",
                 checkpoint.files.front());
  }
  return describe_folder(checkpoint.root, options, &checkpoint);
}

Result<std::shared_ptr<const ModelDescription>> describe_model(const std::string& path,
                                                               const DescribeOptions& options) {
  std::error_code ignored;
  if (std::filesystem::is_regular_file(path, ignored)) {
    if (!is_gguf_file(path)) {
      return failf(Status::Parse,
                   "{}: not a GGUF file (it does not start with \"GGUF\") and not a model folder",
                   path);
    }
    EREDU_TRY(checkpoint, open_checkpoint(path));
    return describe_gguf(checkpoint, options);
  }
  return describe_model_dir(path, options);
}

}  // namespace eredu
