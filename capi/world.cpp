// eredu_plan_world_json and eredu_check_json: every rank of a topology in one
// call, as the canonical eredu.world.v1 / eredu.check.v1 text of `eredu plan
// --all-ranks --format json` and `eredu check --format json`.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "admission/check.hpp"
#include "admission/check_json.hpp"
#include "admission/policy.hpp"
#include "firewall.hpp"
#include "handles.hpp"
#include "outputs.hpp"
#include "policy_argument.hpp"
#include "world/world.hpp"
#include "world/world_json.hpp"

namespace eredu::capi {
namespace {

/// Every rank of the topology, planned and proven.
Result<WorldPlan> plan_all(const eredu_model& model, std::uint64_t tensor, std::uint64_t pipeline,
                           std::uint64_t expert, std::uint64_t data, ShardingPolicy policy,
                           std::uint32_t threads) {
  EREDU_TRY(topology, ParallelTopology::create(tensor, pipeline, expert, data));
  return plan_world(model.description, topology, policy, threads);
}

/// The admission policy of the options (AdmissionPolicy::
/// from_residency_document).
Result<AdmissionPolicy> admission_argument(const eredu_check_options& options) {
  EREDU_TRY(has_budget, flag_argument(options.has_device_budget,
                                      ArgumentName::field("options", "->has_device_budget")));
  std::optional<std::string_view> document;
  if (options.residency_json != nullptr) {
    document = std::string_view(options.residency_json, options.residency_json_length);
  }
  return AdmissionPolicy::from_residency_document(
      document,
      has_budget ? std::optional<std::uint64_t>(options.device_budget_bytes) : std::nullopt);
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_check_options_init(eredu_check_options* options, eredu_error** error) {
  return init_sized(options, "options", error);
}

eredu_status eredu_plan_world_json(const eredu_model* model, uint64_t tensor, uint64_t pipeline,
                                   uint64_t expert, uint64_t data, eredu_policy policy,
                                   uint32_t threads, char** out, size_t* length,
                                   eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(sharding_policy, policy_argument(policy));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(world,
                  plan_all(*model, tensor, pipeline, expert, data, sharding_policy, threads));
        return buffer_out(world_to_json(world), out, length);
      },
      out, length);
}

eredu_status eredu_check_json(const eredu_model* model, uint64_t tensor, uint64_t pipeline,
                              uint64_t expert, uint64_t data, eredu_policy policy,
                              const eredu_check_options* options, char** out, size_t* length,
                              eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        EREDU_TRY(sharding_policy, policy_argument(policy));
        eredu_check_options defaults{};
        defaults.struct_size = sizeof defaults;
        if (options != nullptr) {
          EREDU_TRY(sized_argument(options, "options"));
          EREDU_TRY(require_array(options->residency_json, options->residency_json_length,
                                  ArgumentName::field("options", "->residency_json")));
        }
        const eredu_check_options& chosen = options != nullptr ? *options : defaults;
        EREDU_TRY(require(out, "out"));
        // The residency document is judged before anything is planned.
        EREDU_TRY(admission, admission_argument(chosen));
        EREDU_TRY(world, plan_all(*model, tensor, pipeline, expert, data, sharding_policy,
                                  chosen.threads));
        EREDU_TRY(report, check_world(std::move(world), admission));
        return buffer_out(check_to_json(report), out, length);
      },
      out, length);
}

}  // extern "C"
