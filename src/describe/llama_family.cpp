#include "describe/llama_family.hpp"

#include <string>
#include <utility>
#include <vector>

#include "core/checked.hpp"

namespace eredu {
namespace {

// Shapes of one model, derived once from the config.
struct Dimensions {
  std::uint64_t hidden = 0;
  std::uint64_t q_rows = 0;   // heads × head_dim
  std::uint64_t kv_rows = 0;  // kv heads × head_dim
  std::uint64_t head_dim = 0;
  std::uint64_t intermediate = 0;
  std::uint64_t vocab = 0;
};

Result<Dimensions> dimensions(const DecoderConfig& config) {
  auto q_rows = checked_mul(config.num_attention_heads, config.head_dim);
  auto kv_rows = checked_mul(config.num_key_value_heads, config.head_dim);
  if (!q_rows || !kv_rows) {
    return failf(Status::Parse, "config.json: attention heads × head_dim {} overflow 64 bits",
                 config.head_dim);
  }
  return Dimensions{config.hidden_size,       *q_rows,          *kv_rows, config.head_dim,
                    config.intermediate_size, config.vocab_size};
}

// Members of one group, with the model's dtype.
class Members {
 public:
  explicit Members(Dtype dtype) : dtype_(dtype) {}

  void add(std::string target, std::vector<std::uint64_t> shape, MemberSharding sharding) {
    members_.emplace_back(std::move(target), std::move(shape), std::move(sharding), dtype_);
  }
  std::vector<ParameterMemberSpec> take() { return std::move(members_); }

 private:
  Dtype dtype_;
  std::vector<ParameterMemberSpec> members_;
};

Result<void> add_embedding(ModelBuilder& builder, const DecoderConfig& config,
                           const Dimensions& dims, bool tied) {
  Members members(config.dtype);
  members.add("model.embed_tokens.weight", {dims.vocab, dims.hidden}, MemberSharding::balanced(0));
  EREDU_TRY(group, ParameterGroupSpec::create(
                       "embed", ParameterRole::Vocabulary, members.take(),
                       tied ? GroupScope::tied_embedding() : GroupScope::embedding()));
  return builder.add_group(std::move(group));
}

Result<void> add_attention(ModelBuilder& builder, const DecoderConfig& config,
                           const WeightIndex& index, const Dimensions& dims,
                           const std::string& prefix, GroupScope scope) {
  const std::string attn = prefix + "self_attn.";
  Members members(config.dtype);
  members.add(attn + "q_proj.weight", {dims.q_rows, dims.hidden}, MemberSharding::partitioned(0));
  members.add(attn + "k_proj.weight", {dims.kv_rows, dims.hidden}, MemberSharding::partitioned(0));
  members.add(attn + "v_proj.weight", {dims.kv_rows, dims.hidden}, MemberSharding::partitioned(0));
  members.add(attn + "o_proj.weight", {dims.hidden, dims.q_rows}, MemberSharding::partitioned(1));
  const std::pair<const char*, std::uint64_t> biases[] = {
      {"q_proj.bias", dims.q_rows}, {"k_proj.bias", dims.kv_rows}, {"v_proj.bias", dims.kv_rows}};
  for (const auto& [name, rows] : biases) {
    if (index.contains(attn + name)) {
      members.add(attn + name, {rows}, MemberSharding::partitioned(0));
    }
  }
  if (index.contains(attn + "o_proj.bias")) {
    members.add(attn + "o_proj.bias", {dims.hidden}, MemberSharding::replicated());
  }
  EREDU_TRY(group,
            ParameterGroupSpec::partitioned(prefix + "self_attn", ParameterRole::AttentionHeads,
                                            config.num_key_value_heads, members.take(), scope));
  return builder.add_group(std::move(group));
}

Result<void> add_norms(ModelBuilder& builder, const DecoderConfig& config, const WeightIndex& index,
                       const Dimensions& dims, const std::string& prefix, GroupScope scope) {
  Members members(config.dtype);
  members.add(prefix + "input_layernorm.weight", {dims.hidden}, MemberSharding::replicated());
  members.add(prefix + "post_attention_layernorm.weight", {dims.hidden},
              MemberSharding::replicated());
  for (const char* name : {"self_attn.q_norm.weight", "self_attn.k_norm.weight"}) {
    if (index.contains(prefix + name)) {
      members.add(prefix + name, {dims.head_dim}, MemberSharding::replicated());
    }
  }
  EREDU_TRY(group, ParameterGroupSpec::create(prefix + "norms", ParameterRole::Replicated,
                                              members.take(), scope));
  return builder.add_group(std::move(group));
}

Result<void> add_mlp(ModelBuilder& builder, const DecoderConfig& config, const Dimensions& dims,
                     const std::string& prefix, GroupScope scope) {
  const std::string mlp = prefix + "mlp.";
  Members members(config.dtype);
  members.add(mlp + "gate_proj.weight", {dims.intermediate, dims.hidden},
              MemberSharding::partitioned(0));
  members.add(mlp + "up_proj.weight", {dims.intermediate, dims.hidden},
              MemberSharding::partitioned(0));
  members.add(mlp + "down_proj.weight", {dims.hidden, dims.intermediate},
              MemberSharding::partitioned(1));
  EREDU_TRY(group,
            ParameterGroupSpec::partitioned(prefix + "mlp", ParameterRole::FeedForwardIntermediate,
                                            config.intermediate_size, members.take(), scope));
  return builder.add_group(std::move(group));
}

Result<void> add_head(ModelBuilder& builder, const DecoderConfig& config, const Dimensions& dims,
                      bool tied) {
  Members members(config.dtype);
  members.add("model.norm.weight", {dims.hidden}, MemberSharding::replicated());
  if (!tied) {
    members.add("lm_head.weight", {dims.vocab, dims.hidden}, MemberSharding::balanced(0));
  }
  EREDU_TRY(group, ParameterGroupSpec::create("head", ParameterRole::Vocabulary, members.take(),
                                              GroupScope::output_head()));
  return builder.add_group(std::move(group));
}

}  // namespace

Result<void> add_llama_groups(ModelBuilder& builder, const DecoderConfig& config,
                              const WeightIndex& index) {
  EREDU_TRY(dims, dimensions(config));
  // Without its own lm_head.weight a tied model reuses the embedding as head.
  const bool tied = config.tie_word_embeddings && !index.contains("lm_head.weight");
  EREDU_TRY(add_embedding(builder, config, dims, tied));
  for (std::uint64_t layer = 0; layer < config.num_hidden_layers; ++layer) {
    const std::string prefix = fmt::format("model.layers.{}.", layer);
    const GroupScope scope = GroupScope::indexed(layer, std::nullopt);
    EREDU_TRY(add_attention(builder, config, index, dims, prefix, scope));
    EREDU_TRY(add_norms(builder, config, index, dims, prefix, scope));
    EREDU_TRY(add_mlp(builder, config, dims, prefix, scope));
  }
  return add_head(builder, config, dims, tied);
}

}  // namespace eredu
