// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "planfile/fingerprint.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include "interchange/groups_write.hpp"
#include "planfile/little_endian.hpp"

namespace eredu {

std::string Fingerprint::hex() const { return fmt::format("{:016x}{:016x}", high, low); }

Fingerprint plan_fingerprint(const ModelDescription& model, const ParallelTopology& topology,
                             ShardingPolicy policy, std::string_view library_version) {
  std::string bytes;
  const std::string groups = groups_to_json(model);
  append_u64(bytes, groups.size());
  bytes += groups;
  for (std::uint64_t size :
       {topology.tensor(), topology.pipeline(), topology.expert(), topology.data()}) {
    append_u64(bytes, size);
  }
  append_u64(bytes, topology.pipeline_layers().size());
  for (std::uint64_t layers : topology.pipeline_layers()) append_u64(bytes, layers);
  append_u32(bytes, static_cast<std::uint32_t>(policy));
  append_u64(bytes, library_version.size());
  bytes += library_version;
  const XXH128_hash_t hash = XXH3_128bits(bytes.data(), bytes.size());
  return Fingerprint{hash.high64, hash.low64};
}

}  // namespace eredu
