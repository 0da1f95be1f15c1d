// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_plan_file_*: every rank's layout of one world in a compressed plan
// file (docs/plan-files.md).
#include <string>

#include "firewall.hpp"
#include "handles.hpp"
#include "outputs.hpp"
#include "plan_arguments.hpp"
#include "planfile/plan_file.hpp"
#include "planfile/write.hpp"
#include "world_options.hpp"

struct eredu_plan_file {
  eredu::PlanFile file;
};

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_plan_file_write(const eredu_model* model, const eredu_topology* topology,
                                   const eredu_plan_options* options, const char* path,
                                   eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require(model, "model"));
    EREDU_TRY(require(topology, "topology"));
    EREDU_TRY(plan, plan_options_argument(options));
    EREDU_TRY(where, text_argument(path, "path"));
    EREDU_TRY(sizes, planned_topology(topology, plan));
    return write_plan_file(model->description, sizes, plan.policy, world_options(plan),
                           std::string(where));
  });
}

eredu_status eredu_plan_file_open(const char* path, eredu_plan_file** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(where, text_argument(path, "path"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(file, PlanFile::open(std::string(where)));
        *out = new eredu_plan_file{std::move(file)};
        return outcome::success();
      },
      out);
}

void eredu_plan_file_free(eredu_plan_file* file) { delete file; }

eredu_status eredu_plan_file_info_init(eredu_plan_file_info* info, size_t size,
                                       eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_plan_file_get_info(const eredu_plan_file* file, eredu_plan_file_info* out,
                                      eredu_error** error) {
  return handle_call(
      file, "file", error,
      [&](const eredu_plan_file& handle) -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        const PlanFileHeader& header = handle.file.header();
        const ParallelTopology& topology = header.topology;
        eredu_plan_file_info fields{};
        fields.format_version = header.format_version;
        fields.world_size = topology.world_size();
        fields.tensor = topology.tensor();
        fields.pipeline = topology.pipeline();
        fields.expert = topology.expert();
        fields.data = topology.data();
        if (!topology.pipeline_layers().empty()) {
          fields.pipeline_layers = topology.pipeline_layers().data();
          fields.pipeline_layer_count = topology.pipeline_layers().size();
        }
        fields.policy = static_cast<eredu_policy>(header.policy);
        fields.coverage_ok = header.coverage_ok ? 1 : 0;
        fields.library_version = header.library_version.c_str();
        fields.library_version_length = header.library_version.size();
        fields.fingerprint_high = header.fingerprint.high;
        fields.fingerprint_low = header.fingerprint.low;
        fields.file_bytes = handle.file.file_bytes();
        write_sized(out, fields);
        return outcome::success();
      },
      out);
}

eredu_status eredu_plan_file_rank_bytes(const eredu_plan_file* file, uint64_t rank,
                                        uint64_t* compressed, uint64_t* uncompressed,
                                        eredu_error** error) {
  return handle_call(
      file, "file", error,
      [&](const eredu_plan_file& handle) -> Result<void> {
        const auto& frames = handle.file.frames();
        if (rank >= frames.size()) {
          return failf(Status::RankOutOfRange, "rank {} is outside a plan file of {} ranks", rank,
                       frames.size());
        }
        if (compressed != nullptr) *compressed = frames[rank].compressed;
        if (uncompressed != nullptr) *uncompressed = frames[rank].uncompressed;
        return outcome::success();
      },
      compressed, uncompressed);
}

eredu_status eredu_plan_file_rank_json(const eredu_plan_file* file, uint64_t rank, char** out,
                                       size_t* length, eredu_error** error) {
  return handle_call(
      file, "file", error,
      [&](const eredu_plan_file& handle) -> Result<void> {
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(text, handle.file.rank_json(rank));
        return buffer_out(text, out, length);
      },
      out, length);
}

eredu_status eredu_plan_file_verify(const eredu_plan_file* file, const eredu_model* model,
                                    const eredu_topology* topology,
                                    const eredu_plan_options* options, eredu_error** error) {
  return handle_call(file, "file", error, [&](const eredu_plan_file& handle) -> Result<void> {
    EREDU_TRY(require(model, "model"));
    EREDU_TRY(require(topology, "topology"));
    EREDU_TRY(plan, plan_options_argument(options));
    EREDU_TRY(sizes, planned_topology(topology, plan));
    return handle.file.verify(*model->description, sizes, plan.policy);
  });
}

}  // extern "C"
