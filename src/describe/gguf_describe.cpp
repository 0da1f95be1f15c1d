// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "describe/gguf_describe.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <utility>

#include "checkpoint/gguf.hpp"
#include "core/checked.hpp"
#include "core/text.hpp"
#include "describe/checkpoint_check.hpp"
#include "describe/checkpoint_headers.hpp"
#include "describe/family.hpp"
#include "model/expand.hpp"
#include "model/vocab_padding.hpp"

namespace eredu {
namespace {

constexpr std::array<std::string_view, 3> kArchitectures = {"llama", "qwen2", "qwen3"};

struct GgufDecoder {
  std::uint64_t layers = 0;
  std::uint64_t hidden = 0;
  std::uint64_t intermediate = 0;
  std::uint64_t heads = 0;
  std::uint64_t kv_heads = 0;
  std::uint64_t head_dim = 0;
  std::uint64_t vocab = 0;
};

// `<arch>.<name>`: a positive integer, or `fallback` when absent and given.
Result<std::uint64_t> metadata_size(const GgufHeader& header, const std::string& path,
                                    const std::string& arch, const std::string& name,
                                    std::optional<std::uint64_t> fallback = std::nullopt) {
  const std::string key = arch + "." + name;
  const GgufValue* value = header.find(key);
  if (value == nullptr && fallback) return *fallback;
  const std::optional<std::uint64_t> size = value ? value->as_unsigned() : std::nullopt;
  if (!size || *size == 0) {
    return failf(Status::Parse, "{}: metadata key {} must be a positive integer", path, key);
  }
  return *size;
}

Result<GgufDecoder> read_decoder(const GgufHeader& header, const Checkpoint& checkpoint,
                                 const std::string& path, const std::string& arch) {
  EREDU_TRY(layers, metadata_size(header, path, arch, "block_count"));
  EREDU_TRY(hidden, metadata_size(header, path, arch, "embedding_length"));
  EREDU_TRY(intermediate, metadata_size(header, path, arch, "feed_forward_length"));
  EREDU_TRY(heads, metadata_size(header, path, arch, "attention.head_count"));
  EREDU_TRY(kv_heads, metadata_size(header, path, arch, "attention.head_count_kv", heads));
  EREDU_TRY(head_dim, metadata_size(header, path, arch, "attention.key_length", hidden / heads));
  if (heads % kv_heads != 0) {
    return failf(Status::UnsupportedModel, "{}: {} query heads are not a multiple of {} KV heads",
                 path, heads, kv_heads);
  }
  const CheckpointTensor* embedding = checkpoint.find("token_embd.weight");
  if (embedding == nullptr || embedding->shape.size() != 2) {
    return failf(Status::CheckpointMismatch, "{}: no two-axis token_embd.weight", path);
  }
  // Every product below is one of the file's tensors' element counts or
  // a sum of them, unless the metadata lies: the shape check then refuses.
  if (!checked_mul(heads, head_dim) || !checked_mul(embedding->shape[0], hidden)) {
    return failf(Status::Parse, "{}: head and vocabulary sizes overflow", path);
  }
  return GgufDecoder{layers, hidden, intermediate, heads, kv_heads, head_dim, embedding->shape[0]};
}

Result<std::vector<ParameterGroupSpec>> layer_groups(const GgufDecoder& decoder,
                                                     const WeightIndex& index,
                                                     const std::string& prefix, GroupScope scope) {
  const std::uint64_t q_rows = decoder.heads * decoder.head_dim;
  const std::uint64_t kv_rows = decoder.kv_heads * decoder.head_dim;
  Members attention(Dtype::F32);
  attention.add(prefix + "attn_q.weight", {q_rows, decoder.hidden}, MemberSharding::partitioned(0));
  attention.add(prefix + "attn_k.weight", {kv_rows, decoder.hidden},
                MemberSharding::partitioned(0).kv_head());
  attention.add(prefix + "attn_v.weight", {kv_rows, decoder.hidden},
                MemberSharding::partitioned(0).kv_head());
  attention.add(prefix + "attn_output.weight", {decoder.hidden, q_rows},
                MemberSharding::partitioned(1));
  attention.add_present(index, prefix + "attn_q.bias", {q_rows}, MemberSharding::partitioned(0));
  for (const char* name : {"attn_k.bias", "attn_v.bias"}) {
    attention.add_present(index, prefix + name, {kv_rows},
                          MemberSharding::partitioned(0).kv_head());
  }
  EREDU_TRY(attention_group, ParameterGroupSpec::partitioned(
                                 prefix + "attn", ParameterRole::AttentionHeads, decoder.kv_heads,
                                 attention.take(), scope, decoder.heads));
  Members norms(Dtype::F32);
  norms.add(prefix + "attn_norm.weight", {decoder.hidden}, MemberSharding::replicated());
  norms.add(prefix + "ffn_norm.weight", {decoder.hidden}, MemberSharding::replicated());
  for (const char* name : {"attn_q_norm.weight", "attn_k_norm.weight"}) {
    norms.add_present(index, prefix + name, {decoder.head_dim}, MemberSharding::replicated());
  }
  EREDU_TRY(norms_group, ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated,
                                                    norms.take(), scope));
  Members mlp(Dtype::F32);
  mlp.add(prefix + "ffn_gate.weight", {decoder.intermediate, decoder.hidden},
          MemberSharding::partitioned(0));
  mlp.add(prefix + "ffn_up.weight", {decoder.intermediate, decoder.hidden},
          MemberSharding::partitioned(0));
  mlp.add(prefix + "ffn_down.weight", {decoder.hidden, decoder.intermediate},
          MemberSharding::partitioned(1));
  EREDU_TRY(mlp_group,
            ParameterGroupSpec::partitioned(prefix + "ffn", ParameterRole::FeedForwardIntermediate,
                                            decoder.intermediate, mlp.take(), scope));
  return std::vector{std::move(attention_group), std::move(norms_group), std::move(mlp_group)};
}

// Block-typed tensors become gguf linear formats of their ggml type.
Result<std::vector<ParameterGroupSpec>> expand_block_types(std::vector<ParameterGroupSpec> groups,
                                                           const Checkpoint& checkpoint) {
  return expand_linear_format_parameter_groups(
      std::move(groups),
      [&](const ParameterMemberSpec& member) -> Result<std::optional<LinearFormatSpec>> {
        const CheckpointTensor* stored = checkpoint.find(member.target());
        if (stored == nullptr || stored->dtype || !stored->ggml_type) return std::nullopt;
        EREDU_TRY(spec, LinearFormatSpec::unscaled(LinearFormat::gguf(*stored->ggml_type)));
        return std::optional(std::move(spec));
      });
}

}  // namespace

Result<std::shared_ptr<const ModelDescription>> describe_gguf(const Checkpoint& checkpoint,
                                                              const DescribeOptions& options) {
  const std::string& path = checkpoint.files.front();
  const GgufHeader& header = *checkpoint.gguf;

  const GgufValue* architecture = header.find("general.architecture");
  if (architecture == nullptr || architecture->type != GgufType::String) {
    return failf(Status::UnsupportedModel, "{}: no general.architecture string", path);
  }
  const std::string& arch = architecture->text;
  if (std::find(kArchitectures.begin(), kArchitectures.end(), arch) == kArchitectures.end()) {
    return failf(Status::UnsupportedModel,
                 "{}: GGUF architecture {} is not supported; supported: llama, qwen2, qwen3", path,
                 debug_quoted(arch));
  }
  EREDU_TRY(decoder, read_decoder(header, checkpoint, path, arch));
  const WeightIndex index = index_from_checkpoint(checkpoint, path);
  const DecoderOutline outline{decoder.layers,
                               decoder.vocab,
                               decoder.hidden,
                               Dtype::F32,
                               !index.contains("output.weight"),
                               "token_embd.weight",
                               "blk.",
                               {"output_norm.weight"},
                               "output.weight"};
  const LayerDescriber layer = [&](const std::string& prefix, GroupScope scope) {
    return layer_groups(decoder, index, prefix, scope);
  };
  EREDU_TRY(described, decoder_groups(outline, layer));
  EREDU_TRY(typed, adopt_stored_dtypes(std::move(described.groups), checkpoint));
  EREDU_TRY(groups, expand_block_types(std::move(typed), checkpoint));
  const std::string name = std::filesystem::path(path).stem().string();
  EREDU_TRY(builder, ModelBuilder::create(ModelInfo{name, decoder.layers, std::nullopt}));
  for (ParameterGroupSpec& group : groups) {
    EREDU_TRY(builder.add_group(std::move(group)));
  }
  EREDU_TRY(model, std::move(builder).finish());
  EREDU_TRY(check_checkpoint(*model, index));
  EREDU_TRY(check_stored_shapes(*model, checkpoint));
  if (options.vocab_pad_multiple) return pad_vocabulary(*model, *options.vocab_pad_multiple);
  return model;
}

}  // namespace eredu
