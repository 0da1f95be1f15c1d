#include "describe/family.hpp"

namespace eredu {

bool uses_tied_head(bool tie_word_embeddings, const WeightIndex& index) {
  return tie_word_embeddings && !index.contains("lm_head.weight");
}

Result<ParameterGroupSpec> embedding_group(std::string target, std::uint64_t vocab,
                                           std::uint64_t hidden, Dtype dtype, bool tied) {
  Members members(dtype);
  members.add(std::move(target), {vocab, hidden}, MemberSharding::balanced(0));
  return ParameterGroupSpec::create("embed", ParameterRole::Vocabulary, members.take(),
                                    tied ? GroupScope::tied_embedding() : GroupScope::embedding());
}

Result<ParameterGroupSpec> head_group(const std::vector<std::string>& norms, std::uint64_t vocab,
                                      std::uint64_t hidden, Dtype dtype, bool tied) {
  Members members(dtype);
  for (const std::string& norm : norms) members.add(norm, {hidden}, MemberSharding::replicated());
  if (!tied) members.add("lm_head.weight", {vocab, hidden}, MemberSharding::balanced(0));
  return ParameterGroupSpec::create("head", ParameterRole::Vocabulary, members.take(),
                                    GroupScope::output_head());
}

}  // namespace eredu
