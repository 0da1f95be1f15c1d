// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/read_plan_table.hpp"

#include <fmt/format.h>

#include "cli/byte_units.hpp"
#include "cli/table.hpp"

namespace eredu {
namespace {

std::string extent_text(const ReadExtent& extent) {
  std::string text = fmt::format("{}@{}+{}", extent.file, extent.offset, extent.length);
  if (extent.count > 1) text += fmt::format("x{}/{}", extent.count, extent.stride);
  return text;
}

}  // namespace

std::string read_plan_table(const ReadPlan& plan, std::uint64_t world_size) {
  std::uint64_t extents = 0;
  for (const TensorReadPlan& tensor : plan.tensors) extents += tensor.extents.size();
  std::string out = fmt::format(
      "rank {} of {}: {} tensors, {} extents, reads {} into {} from {} file{}\n", plan.rank,
      world_size, plan.tensors.size(), extents, human_bytes(plan.read_bytes),
      human_bytes(plan.local_bytes), plan.files.size(), plan.files.size() == 1 ? "" : "s");
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    out += fmt::format("  file {}: {}\n", i, plan.files[i]);
  }
  out += '\n';
  TextTable table({{"tensor"},
                   {"dtype"},
                   {"local shape"},
                   {"read", TextTable::Align::Right},
                   {"padding", TextTable::Align::Right},
                   {"extents (file@offset+length[xcount/stride])"}});
  for (const TensorReadPlan& tensor : plan.tensors) {
    std::string extent_cells;
    for (const ReadExtent& extent : tensor.extents) {
      if (!extent_cells.empty()) extent_cells += ' ';
      extent_cells += extent_text(extent);
    }
    table.add_row({tensor.target, tensor.dtype,
                   fmt::format("[{}]", fmt::join(tensor.local_shape, ", ")),
                   human_bytes(tensor.read_bytes), fmt::to_string(tensor.padding_rows),
                   extent_cells.empty() ? "-" : extent_cells});
  }
  return out + table.render();
}

}  // namespace eredu
