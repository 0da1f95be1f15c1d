// The opaque handles of the C API: thin owners of immutable core values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/group.hpp"
#include "model/model.hpp"
#include "plan/layout.hpp"

struct eredu_group {
  eredu::ParameterGroupSpec spec;
};

struct eredu_model {
  std::shared_ptr<const eredu::ModelDescription> description;
};

/// A planned rank. Index runs are flattened here once, before the handle is
/// published, so that getters hand out plain uint64 pairs without copying.
struct eredu_layout {
  eredu::LocalModelLayout layout;
  std::vector<std::uint64_t> run_values;  // {start, end} pairs of every Indices tensor
  std::vector<std::size_t> run_offsets;   // per tensor: first value in run_values
};
