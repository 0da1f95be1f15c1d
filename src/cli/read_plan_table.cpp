// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/read_plan_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <span>
#include <vector>

#include "cli/byte_units.hpp"
#include "cli/library.hpp"
#include "cli/table.hpp"
#include "cli/terminal.hpp"

namespace eredu::cli {
namespace {

std::string extent_text(const eredu_read_extent& extent) {
  std::string text = fmt::format("{}@{}+{}", extent.file, extent.offset, extent.length);
  if (extent.count > 1) text += fmt::format("x{}/{}", extent.count, extent.stride);
  return text;
}

Result<std::vector<eredu_read_tensor_info>> tensors_of(const eredu_read_plan& plan) {
  std::vector<eredu_read_tensor_info> tensors(eredu_read_plan_tensor_count(&plan));
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    tensors[i] = EREDU_READ_TENSOR_INFO_INIT;
    EREDU_TRY(check([&](eredu_error** error) {
      return eredu_read_plan_tensor_info(&plan, i, &tensors[i], error);
    }));
  }
  return tensors;
}

}  // namespace

Result<std::string> read_plan_table(const eredu_read_plan& plan, std::uint64_t world_size) {
  EREDU_TRY(tensors, tensors_of(plan));
  std::uint64_t extents = 0;
  std::uint64_t local_bytes = 0;
  for (const eredu_read_tensor_info& tensor : tensors) {
    extents += tensor.extent_count;
    local_bytes += tensor.local_bytes;
  }
  const std::size_t files = eredu_read_plan_file_count(&plan);
  std::string out =
      fmt::format("rank {} of {}: {} tensors, {} extents, reads {} into {} from {} file{}\n",
                  eredu_read_plan_rank(&plan), world_size, tensors.size(), extents,
                  human_bytes(eredu_read_plan_read_bytes(&plan)), human_bytes(local_bytes), files,
                  files == 1 ? "" : "s");
  for (std::size_t i = 0; i < files; ++i) {
    out += fmt::format("  file {}: {}\n", i, eredu_read_plan_file(&plan, i));
  }
  out += '\n';
  TextTable table({{"tensor", TextTable::Align::Left, true},
                   {"dtype"},
                   {"local shape"},
                   {"read", TextTable::Align::Right},
                   {"padding", TextTable::Align::Right},
                   {"extents (file@offset+length[xcount/stride])"}});
  for (const eredu_read_tensor_info& tensor : tensors) {
    std::string extent_cells;
    for (const eredu_read_extent& extent : std::span(tensor.extents, tensor.extent_count)) {
      if (!extent_cells.empty()) extent_cells += ' ';
      extent_cells += extent_text(extent);
    }
    table.add_row({tensor.target, tensor.dtype,
                   fmt::format("[{}]", fmt::join(std::span(tensor.local_shape, tensor.ndim), ", ")),
                   human_bytes(tensor.read_bytes), fmt::to_string(tensor.padding_rows),
                   extent_cells.empty() ? "-" : extent_cells});
  }
  table.sort_naturally(0);
  return out + table.render(terminal_columns());
}

}  // namespace eredu::cli
