// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "admission/fit_figures.hpp"

#include <algorithm>
#include <utility>

#include "admission/admission.hpp"
#include "core/checked.hpp"
#include "plan/planner.hpp"

namespace eredu {
namespace {

bool is_layer_scope(const GroupScope& scope) {
  return scope.kind == GroupScope::Kind::Indexed && scope.layer.has_value();
}

}  // namespace

FitFigures::FitFigures(std::shared_ptr<const ModelDescription> model, ShardingPolicy policy,
                       AdmissionPolicy admission)
    : model_(std::move(model)), policy_(policy), admission_(std::move(admission)) {
  const bool experts_apart = admission_.expert_cache().has_value();
  const auto& groups = model_->groups();
  const std::vector<std::uint32_t>& class_of = model_->group_classes();
  std::map<std::uint64_t, std::map<std::uint32_t, LayerClass>> layers;
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    const ParameterGroupSpec& group = groups[g];
    const std::uint32_t id = class_of[g];
    if (id == classes_.size()) {
      GroupClass added{g, group.stacks_experts(), {}};
      for (const ParameterMemberSpec& member : group.members()) {
        const bool routed = group.scope().expert || member.sharding().expert_axis;
        added.counted.push_back(!(experts_apart && routed));
      }
      classes_.push_back(std::move(added));
    }
    if (!is_layer_scope(group.scope())) {
      static_groups_.push_back(g);
      continue;
    }
    LayerClass& entry = layers[*group.scope().layer][id];
    entry.group_class = id;
    if (group.scope().expert) {
      entry.experts.push_back(*group.scope().expert);
    } else {
      ++entry.plain;
    }
  }
  for (auto& [layer, entries] : layers) {
    layers_.push_back(layer);
    std::vector<LayerClass>& out = layer_classes_.emplace_back();
    for (auto& [id, entry] : entries) {
      std::sort(entry.experts.begin(), entry.experts.end());
      out.push_back(std::move(entry));
    }
  }
}

const FitFigures::ClassBytes& FitFigures::class_bytes(std::uint32_t group_class,
                                                      const ParallelRankTopology& rank,
                                                      const LocalRanges& ranges) {
  const GroupClass& info = classes_[group_class];
  IndexRange experts{0, 0};
  if (info.stacks_experts && ranges.experts) experts = *ranges.experts;
  const ClassKey key{group_class, rank.tensor_parallel_size(), rank.tensor_parallel_rank(),
                     experts.start, experts.end};
  if (auto found = class_memo_.find(key); found != class_memo_.end()) return found->second;
  ClassBytes answer;
  auto bytes = owned_group_bytes(*model_, info.representative, rank, ranges, policy_);
  if (bytes) {
    bool held = false;
    std::uint64_t sum = 0;
    bool overflow = false;
    for (std::size_t i = 0; i < bytes.value().size(); ++i) {
      if (!info.counted[i]) continue;
      held = true;
      const auto added = checked_add(sum, bytes.value()[i].value_or(0));
      if (!added) overflow = true;
      sum = added.value_or(0);
    }
    if (!overflow) answer = std::pair{held, sum};
  }
  return class_memo_.emplace(key, answer).first->second;
}

const std::optional<std::vector<FitFigures::LayerFigure>>& FitFigures::layer_figures(
    const ParallelRankTopology& rank, const LocalRanges& ranges) {
  const RankKey key{rank.tensor_parallel_size(), rank.tensor_parallel_rank(),
                    rank.expert_parallel_size(), rank.expert_parallel_rank()};
  if (auto found = layer_memo_.find(key); found != layer_memo_.end()) return found->second;
  auto& answer = layer_memo_[key];
  // A group that does not plan fails its rank whether the rank owns it or not.
  for (std::uint32_t c = 0; c < classes_.size(); ++c) {
    if (!class_bytes(c, rank, ranges)) return answer;
  }
  const bool expert_split = rank.expert_parallel_size() > 1;
  if (expert_split && !ranges.experts) return answer;
  std::vector<LayerFigure> figures(layers_.size());
  for (std::size_t p = 0; p < layers_.size(); ++p) {
    for (const LayerClass& entry : layer_classes_[p]) {
      std::uint64_t owned = entry.plain + entry.experts.size();
      if (expert_split) {
        const auto first =
            std::lower_bound(entry.experts.begin(), entry.experts.end(), ranges.experts->start);
        const auto last = std::lower_bound(first, entry.experts.end(), ranges.experts->end);
        owned = entry.plain + static_cast<std::uint64_t>(last - first);
      }
      if (owned == 0) continue;
      const auto& [held, bytes] = *class_bytes(entry.group_class, rank, ranges);
      const auto product = checked_mul(owned, bytes);
      const auto sum = product ? checked_add(figures[p].bytes, *product) : std::nullopt;
      if (!sum) return answer;
      figures[p].bytes = *sum;
      figures[p].held = figures[p].held || held;
    }
  }
  answer = std::move(figures);
  return answer;
}

std::optional<std::uint64_t> FitFigures::static_bytes(const ParallelRankTopology& rank,
                                                      const LocalRanges& ranges) {
  std::uint64_t total = 0;
  for (std::uint32_t g : static_groups_) {
    if (!owns_scope(model_->groups()[g].scope(), rank, ranges)) continue;
    const auto sum =
        checked_add(total, class_bytes(model_->group_classes()[g], rank, ranges)->second);
    if (!sum) return std::nullopt;
    total = *sum;
  }
  return total;
}

std::optional<Error> FitFigures::first_group_error(const ParallelRankTopology& rank,
                                                   const LocalRanges& ranges) {
  for (std::uint32_t g = 0; g < model_->groups().size(); ++g) {
    if (class_bytes(model_->group_classes()[g], rank, ranges)) continue;
    auto exact = owned_group_bytes(*model_, g, rank, ranges, policy_);
    if (exact) return std::nullopt;  // its class overflowed, it did not fail
    return Error{exact.error().code, exact.error().message};
  }
  return std::nullopt;
}

std::optional<FitTopology> FitFigures::row(const ParallelTopology& topology) {
  FitTopology row{topology, true, true, std::uint64_t{0}, std::nullopt};
  const auto& info = model_->info();
  // The error of a world is its lowest failing rank's: its preflight's, else
  // its first group's in document order.
  const auto failed = [&](Error error) {
    return FitTopology{topology, false, false, std::nullopt, std::move(error)};
  };
  for (std::uint64_t r = 0; r < topology.world_size(); ++r) {
    auto rank = ParallelRankTopology::create(topology, r);
    if (!rank) return std::nullopt;
    auto ranges = rank.value().local_ranges(info.layers, info.experts);
    if (!ranges) return failed(Error{ranges.error().code, ranges.error().message});
    const auto& layers = layer_figures(rank.value(), ranges.value());
    if (!layers) {
      if (auto error = first_group_error(rank.value(), ranges.value())) return failed(*error);
      return std::nullopt;
    }
    const auto static_total = static_bytes(rank.value(), ranges.value());
    if (!static_total) return std::nullopt;
    RankUnits units;
    units.static_bytes = *static_total;
    for (std::size_t p = 0; p < layers_.size(); ++p) {
      if (!(*layers)[p].held ||
          !owns_scope(GroupScope::indexed(layers_[p], std::nullopt), rank.value(), ranges.value()))
        continue;
      units.layer_units.push_back({layers_[p], (*layers)[p].bytes});
      const auto sum = checked_add(units.layer_bytes, (*layers)[p].bytes);
      if (!sum) return std::nullopt;
      units.layer_bytes = *sum;
    }
    auto figures = admission_figures(units, admission_);
    if (!figures) return std::nullopt;
    row.device_peak_bytes = std::max(*row.device_peak_bytes, figures.value().device_bytes);
    row.fits = row.fits && figures.value().fits();
  }
  return row;
}

}  // namespace eredu
