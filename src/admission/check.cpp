#include "admission/check.hpp"

#include <algorithm>
#include <utility>

#include "plan/planner.hpp"

namespace eredu {

bool CheckReport::fits() const {
  return std::all_of(ranks.begin(), ranks.end(),
                     [](const RankCheck& rank) { return rank.figures.fits(); });
}

Result<CheckReport> check_world(WorldPlan world, const AdmissionPolicy& policy) {
  std::vector<RankCheck> ranks(world.ranks.size());
  // Data-parallel replicas last: they copy the figures of their data-0 rank.
  for (const bool replicas : {false, true}) {
    for (const RankSummary& summary : world.ranks) {
      const ParallelCoordinates& at = summary.coordinates;
      if ((at.data != 0) != replicas) continue;
      RankCheck& out = ranks[summary.rank];
      out.rank = summary.rank;
      out.coordinates = at;
      if (replicas) {
        ParallelCoordinates first = at;
        first.data = 0;
        EREDU_TRY(source, world.topology.rank_for(first));
        out.figures = ranks[source].figures;
        continue;
      }
      EREDU_TRY(layout, plan_rank(world.model, world.topology, summary.rank, world.policy));
      EREDU_TRY(admission, admit_rank(layout, policy));
      out.figures = std::move(admission.figures);
    }
  }
  return CheckReport{std::move(world), policy, std::move(ranks)};
}

}  // namespace eredu
