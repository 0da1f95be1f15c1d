// `eredu describe`: a model folder (config.json + weight index) as an
// eredu.groups.v1 description (interchange §7).
#pragma once

#include <memory>
#include <string>

#include "core/result.hpp"
#include "model/model.hpp"

namespace eredu {

/// Describes the llama-style decoder (model_type llama, mistral, qwen2,
/// qwen3) in folder `dir`: `model.name` is the folder's name, `layers` is
/// num_hidden_layers, the groups are interchange §7's. Errors: Io (a file
/// cannot be read, no weight index); Parse (malformed config or index);
/// UnsupportedModel (another family, a quantized checkpoint, no dtype);
/// CheckpointMismatch (index tensors not described exactly once, or described
/// bytes != metadata.total_size).
Result<std::shared_ptr<const ModelDescription>> describe_model_dir(const std::string& dir);

}  // namespace eredu
