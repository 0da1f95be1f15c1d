#include "describe/describe.hpp"

#include <filesystem>
#include <utility>

#include "describe/checkpoint_check.hpp"
#include "describe/decoder_config.hpp"
#include "describe/llama_family.hpp"
#include "describe/weight_index.hpp"

namespace eredu {
namespace {

// "models/qwen3-1.7b/" and "." name the folder itself, not "" or ".".
std::string folder_name(const std::string& dir) {
  std::error_code ignored;
  std::filesystem::path path = std::filesystem::absolute(dir, ignored).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();
  return path.filename().string();
}

}  // namespace

Result<std::shared_ptr<const ModelDescription>> describe_model_dir(const std::string& dir) {
  EREDU_TRY(config, read_decoder_config(dir));
  EREDU_TRY(index, read_weight_index(dir));
  // A layer has at least nine tensors, so a config with more layers than the
  // index has tensors cannot match it; failing early bounds the work.
  if (config.num_hidden_layers > index.names.size()) {
    return failf(Status::CheckpointMismatch,
                 "config.json declares {} layers but {} lists only {} tensors",
                 config.num_hidden_layers, index.file, index.names.size());
  }
  EREDU_TRY(builder, ModelBuilder::create(
                         ModelInfo{folder_name(dir), config.num_hidden_layers, std::nullopt}));
  EREDU_TRY(add_llama_groups(builder, config, index));
  EREDU_TRY(model, std::move(builder).finish());
  EREDU_TRY(check_checkpoint(*model, index));
  return model;
}

}  // namespace eredu
