// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Property: after linear-format expansion, every rank's selection of the
// packed weight and of each companion covers the same logical units of the
// declared dense matrix (mapped back through each member's packing factor),
// and the ranks together cover the logical axis exactly once.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "format/ggml.hpp"
#include "model/expand.hpp"
#include "plan/planner.hpp"

using namespace eredu;

namespace {

using Intervals = std::vector<IndexRange>;

/// A physical member of the expansion and how many "fine" units one of its
/// elements on the sharded axis spans; fine units are common to all members.
struct Scaled {
  std::string target;
  std::uint64_t fine_per_element = 1;
};

struct Case {
  std::uint64_t tp = 1;
  std::uint64_t axis = 0;        // sharded axis of the logical matrix
  std::uint64_t fine_total = 0;  // fine units on the sharded axis
  ParameterGroupSpec group;
  std::vector<Scaled> members;
};

std::uint64_t pick(std::mt19937_64& random, std::uint64_t low, std::uint64_t high) {
  return std::uniform_int_distribution<std::uint64_t>(low, high)(random);
}

template <class T>
T choose(std::mt19937_64& random, const std::vector<T>& values) {
  return values[pick(random, 0, values.size() - 1)];
}

Case random_case(std::mt19937_64& random) {
  const std::uint64_t units = pick(random, 1, 8);
  const std::uint64_t tp = pick(random, 1, 4);
  const bool column = pick(random, 0, 1) == 1;
  const std::size_t lead = pick(random, 0, 1);  // optional leading (expert) axis
  const auto kind = static_cast<LinearFormatKind>(pick(random, 0, kLinearFormatKindCount - 1));
  const bool segments = pick(random, 0, 1) == 1;

  LinearFormat format;
  std::uint64_t row_align = 1;
  std::uint64_t column_align = 1;
  switch (kind) {
    case LinearFormatKind::Dense:
      break;
    case LinearFormatKind::Affine: {
      // Segments remap by exact bits, so every width is coherent.
      const std::int32_t bits = choose<std::int32_t>(random, {2, 3, 4, 5, 6, 8});
      const std::int32_t group = choose<std::int32_t>(random, {16, 32, 64, 128});
      format = LinearFormat::affine({group, bits});
      column_align = std::lcm<std::uint64_t>(static_cast<std::uint64_t>(group), 32);
      break;
    }
    case LinearFormatKind::MxFp4:
      format = LinearFormat::mxfp4();
      column_align = 32;
      break;
    case LinearFormatKind::GgufIQuant: {
      const std::uint32_t code = choose<std::uint32_t>(random, {0, 2, 8, 12, 14, 20, 30, 39});
      format = LinearFormat::gguf(code);
      column_align = ggml_type_info(code).value().block_values;
      break;
    }
    case LinearFormatKind::E4M3BlockFp8: {
      const auto rows = static_cast<std::int32_t>(choose<std::uint64_t>(random, {1, 16, 32, 128}));
      const auto columns = static_cast<std::int32_t>(choose<std::uint64_t>(random, {1, 16, 64}));
      format =
          LinearFormat::block_fp8({rows, columns,
                                   choose(random, std::vector{BlockFp8ScaleEncoding::FloatingPoint,
                                                              BlockFp8ScaleEncoding::Ue8m0})});
      row_align = static_cast<std::uint64_t>(rows);
      column_align = static_cast<std::uint64_t>(columns);
      break;
    }
  }

  // One logical unit is a whole number of blocks on the sharded axis; the
  // other axis only needs to be a valid width for the format.
  const std::uint64_t align = column ? column_align : row_align;
  const std::uint64_t unit_width = align * pick(random, 1, 3);
  const std::uint64_t copies = segments ? pick(random, 1, 3) : 1;
  const std::uint64_t sharded = copies * units * unit_width;
  const std::uint64_t other = (column ? row_align : column_align) * pick(random, 1, 4);
  std::vector<std::uint64_t> shape;
  if (lead == 1) shape.push_back(pick(random, 1, 3));
  shape.push_back(column ? other : sharded);
  shape.push_back(column ? sharded : other);
  const std::uint64_t axis = lead + (column ? 1 : 0);

  MemberSharding sharding = MemberSharding::partitioned(axis);
  if (segments) {
    std::vector<IndexRange> ranges;
    for (std::uint64_t i = 0; i < copies; ++i) {
      ranges.push_back({i * units * unit_width, (i + 1) * units * unit_width});
    }
    sharding = MemberSharding::partitioned_segments(axis, std::move(ranges));
  }
  const ParameterMemberSpec source("w", shape, sharding, Dtype::BF16);

  Result<LinearFormatSpec> spec = LinearFormatSpec::unscaled(format);
  std::vector<Scaled> members{{"w", 1}};
  std::uint64_t fine_per_logical = 1;
  if (const auto* affine = format.get_if<AffineQuantization>()) {
    spec = LinearFormatSpec::affine(format, "w.scales", "w.biases");
    if (column) {  // fine unit: one bit of a logical column
      const auto bits = static_cast<std::uint64_t>(affine->bits);
      const auto group = static_cast<std::uint64_t>(affine->group_size);
      fine_per_logical = bits;
      members = {{"w", 32}, {"w.scales", group * bits}, {"w.biases", group * bits}};
    } else {
      members = {{"w", 1}, {"w.scales", 1}, {"w.biases", 1}};
    }
  } else if (format.kind() == LinearFormatKind::MxFp4) {
    spec = LinearFormatSpec::scaled(format, "w.scales");
    if (column) {
      fine_per_logical = 4;
      members = {{"w", 32}, {"w.scales", 32 * 4}};
    } else {
      members = {{"w", 1}, {"w.scales", 1}};
    }
  } else if (const auto* gguf = format.get_if<GgufIQuant>()) {
    if (column) {  // fine unit: 1 / bytes of a logical column
      const GgmlTypeInfo block = ggml_type_info(gguf->ggml_type).value();
      fine_per_logical = block.block_bytes;
      members = {{"w", block.block_values}};
    }
  } else if (const auto* fp8 = format.get_if<BlockFp8Format>()) {
    spec = LinearFormatSpec::scaled(format, "w.scale_inv");
    const std::int32_t block = column ? fp8->block_columns : fp8->block_rows;
    members = {{"w", 1}, {"w.scale_inv", static_cast<std::uint64_t>(block)}};
  }

  auto group =
      ParameterGroupSpec::partitioned("g", ParameterRole::AttentionHeads, units, {source}).value();
  const LinearFormatSpec declared = spec.value();
  auto expanded = expand_linear_format_group(
      group, [&](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
        return std::optional(declared);
      });
  if (expanded.has_error()) FAIL(expanded.error().message);
  return Case{tp, axis, sharded * fine_per_logical, std::move(expanded).value(), members};
}

/// The fine-unit intervals a placement selects on `axis`, merged.
Intervals selected(const LocalTensorLayout& tensor, std::uint64_t axis, std::uint64_t scale) {
  Intervals runs;
  const TensorPlacement& placement = tensor.placement;
  if (placement.kind == PlacementKind::Range) {
    REQUIRE(placement.axis == axis);
    runs.push_back({placement.start, placement.end});
  } else if (placement.kind == PlacementKind::Indices) {
    REQUIRE(placement.axis == axis);
    runs = placement.runs;
  } else {
    FAIL("unexpected placement kind " << static_cast<int>(placement.kind));
  }
  Intervals merged;
  for (const IndexRange& run : runs) {
    const IndexRange fine{run.start * scale, run.end * scale};
    if (!merged.empty() && merged.back().end == fine.start) {
      merged.back().end = fine.end;
    } else {
      merged.push_back(fine);
    }
  }
  return merged;
}

}  // namespace

TEST_CASE("property: packed weights and companions select the same logical units") {
  std::mt19937_64 random(20240611);  // deterministic
  int planned = 0;
  for (int iteration = 0; iteration < 400; ++iteration) {
    CAPTURE(iteration);
    Case tested = random_case(random);
    auto builder = ModelBuilder::create({}).value();
    REQUIRE(builder.add_group(tested.group));
    auto model = std::move(builder).finish().value();
    const auto topology = ParallelTopology::create(tested.tp, 1, 1, 1).value();
    Intervals covered;
    for (std::uint64_t rank = 0; rank < tested.tp; ++rank) {
      auto layout = plan_rank(model, topology, rank, ShardingPolicy::Require);
      if (layout.has_error()) {
        // Fewer logical units than ranks: every rank fails alike.
        CHECK(tested.group.partition_units().value() < tested.tp);
        break;
      }
      const Intervals weight = selected(*layout.value().tensor(tested.members[0].target),
                                        tested.axis, tested.members[0].fine_per_element);
      REQUIRE_FALSE(weight.empty());
      for (const Scaled& member : tested.members) {
        CAPTURE(member.target);
        CHECK(selected(*layout.value().tensor(member.target), tested.axis,
                       member.fine_per_element) == weight);
      }
      covered.insert(covered.end(), weight.begin(), weight.end());
      if (rank + 1 == tested.tp) ++planned;
    }
    if (tested.group.partition_units().value() >= tested.tp) {
      // The ranks' selections tile the logical axis: no gap, no overlap.
      std::sort(covered.begin(), covered.end(),
                [](const IndexRange& a, const IndexRange& b) { return a.start < b.start; });
      std::uint64_t next = 0;
      for (const IndexRange& run : covered) {
        CHECK(run.start == next);
        next = run.end;
      }
      CHECK(next == tested.fine_total);
    }
  }
  // Most cases plan; the rest exercise the shared failure.
  CHECK(planned > 250);
}
