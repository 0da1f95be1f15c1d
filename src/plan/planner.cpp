#include "plan/planner.hpp"

#include "core/checked.hpp"
#include "core/text.hpp"
#include "plan/resolve.hpp"

namespace eredu {
namespace {

// Whether this rank's pipeline stage and expert rank own a group's scope
// (interchange §1). Ranges come from the preflight report.
bool owns_scope(const GroupScope& scope, const ParallelRankTopology& rank,
                const TopologyPreflightReport& report) {
  switch (scope.kind) {
    case GroupScope::Kind::All:
      return true;
    case GroupScope::Kind::Embedding:
      return rank.owns_embedding();
    case GroupScope::Kind::OutputHead:
      return rank.owns_output_head();
    case GroupScope::Kind::TiedEmbedding:
      return rank.owns_embedding() || rank.owns_output_head();
    case GroupScope::Kind::Indexed:
      break;
  }
  if (scope.layer && rank.pipeline_parallel_size() > 1 &&
      !report.local_layer_range->contains(*scope.layer)) {
    return false;
  }
  if (scope.layer && rank.pipeline_parallel_size() == 1 && rank.pipeline_parallel_rank() != 0) {
    return false;
  }
  if (scope.expert && rank.expert_parallel_size() > 1 &&
      !report.local_expert_range->contains(*scope.expert)) {
    return false;
  }
  return true;
}

class RankPlanner {
 public:
  RankPlanner(const ModelDescription& model, const ParallelRankTopology& rank,
              const TopologyPreflightReport& report, ShardingPolicy policy,
              LocalModelLayout& layout)
      : model_(model), rank_(rank), report_(report), policy_(policy), layout_(layout) {}

  Result<void> plan_group(std::uint32_t group_index, std::uint32_t first_flat) {
    const ParameterGroupSpec& group = model_.groups()[group_index];
    const auto& members = group.members();
    const std::uint64_t parts = rank_.tensor_parallel_size();
    const std::uint64_t tp_rank = rank_.tensor_parallel_rank();

    resolved_.clear();
    bool fell_back = false;
    for (const ParameterMemberSpec& member : members) {
      auto resolved = resolve_member(member, group.partition_units(), parts, tp_rank);
      if (!resolved) {
        if (policy_ == ShardingPolicy::Require) {
          return failf(Status::InvalidTensor, "logical parameter {}: {}",
                       debug_quoted(group.logical_name()), resolved.error().message);
        }
        fell_back = true;
        break;
      }
      resolved_.push_back(std::move(resolved).value());
    }
    if (fell_back) {
      resolved_.assign(members.size(), ResolvedMember{TensorPlacement::replicated(), 0});
      layout_.fell_back_groups.push_back(group_index);
    }

    std::optional<IndexRange> logical_range;
    if (auto units = group.partition_units()) {
      if (fell_back) {
        logical_range = IndexRange{0, *units};
      } else {
        auto range = balanced_contiguous_range(*units, parts, tp_rank, false);
        if (!range) return fail(Status::InvalidTensor, range.error().message);
        logical_range = range.value();
      }
    }

    const PlacementBounds bounds{rank_.world_size()};
    for (std::size_t i = 0; i < members.size(); ++i) {
      auto valid = validate_placement(resolved_[i].placement, members[i].global_shape(), bounds);
      if (!valid) {
        if (policy_ == ShardingPolicy::Require) {
          return failf(Status::InvalidTensor, "logical parameter {}: {}",
                       debug_quoted(group.logical_name()), valid.error().message);
        }
        return failf(Status::InvalidTensor, "placement for tensor {}: {}", members[i].target(),
                     valid.error().message);
      }
    }

    const bool owned = owns_scope(group.scope(), rank_, report_);
    for (std::size_t i = 0; i < members.size(); ++i) {
      const std::uint32_t flat = first_flat + static_cast<std::uint32_t>(i);
      LocalTensorLayout& entry = layout_.tensors[model_.position_of()[flat]];
      entry.group = &group;
      entry.member = &members[i];
      entry.fell_back_to_replication = fell_back;
      if (!owned) {
        entry.placement = TensorPlacement::omit();
        entry.local_bytes = 0;
        layout_.totals.omitted_tensors += 1;
        continue;
      }
      entry.local_shape = resolved_[i].local_shape(members[i]);
      entry.placement = std::move(resolved_[i].placement);
      entry.logical_range = logical_range;
      layout_.totals.materialized_tensors += 1;
      if (auto dtype = members[i].dtype()) {
        // Local shapes never exceed the global one, whose bytes fit 64 bits.
        std::uint64_t bytes = dtype_size(*dtype);
        for (std::uint64_t dimension : entry.local_shape) bytes *= dimension;
        entry.local_bytes = bytes;
        layout_.totals.local_bytes += bytes;
      }
    }
    return outcome::success();
  }

 private:
  const ModelDescription& model_;
  const ParallelRankTopology& rank_;
  const TopologyPreflightReport& report_;
  ShardingPolicy policy_;
  LocalModelLayout& layout_;
  std::vector<ResolvedMember> resolved_;
};

}  // namespace

Result<LocalModelLayout> plan_rank(const std::shared_ptr<const ModelDescription>& model,
                                   const ParallelTopology& topology, std::uint64_t rank,
                                   ShardingPolicy policy) {
  EREDU_TRY(rank_topology, ParallelRankTopology::create(topology, rank));
  EREDU_TRY(report, rank_topology.preflight(model->info().layers, model->info().experts));

  LocalModelLayout layout;
  layout.model = model;
  layout.topology = rank_topology.topology();
  layout.rank = rank;
  layout.coordinates = rank_topology.coordinates();
  layout.policy = policy;
  layout.tensors.resize(model->tensor_count());
  layout.totals.global_bytes = model->global_bytes();
  layout.totals.unknown_bytes_tensors = model->unknown_bytes_tensors();

  RankPlanner planner(*model, rank_topology, report, policy, layout);
  std::uint32_t first_flat = 0;
  const auto& groups = model->groups();
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    EREDU_TRY(planner.plan_group(g, first_flat));
    first_flat += static_cast<std::uint32_t>(groups[g].members().size());
  }
  return layout;
}

}  // namespace eredu
