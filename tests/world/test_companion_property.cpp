// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Property: over random formats × shardings × tensor sizes, the planner
// returns only plans that keep every quantized matrix whole (checked by a
// brute-force oracle value by value, independent of the library's rule),
// refuses only what the oracle refuses, and the coverage proof rejects
// hand-broken layouts of the plans it returned.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/ggml.hpp"
#include "model/expand.hpp"
#include "plan/planner.hpp"
#include "plan/resolve.hpp"
#include "world/coverage.hpp"

using namespace eredu;

namespace {

std::uint64_t pick(std::mt19937_64& random, std::uint64_t low, std::uint64_t high) {
  return std::uniform_int_distribution<std::uint64_t>(low, high)(random);
}

template <class T>
T choose(std::mt19937_64& random, const std::vector<T>& values) {
  return values[pick(random, 0, values.size() - 1)];
}

// How one physical member stores one logical value v of the sharded axis:
// the physical indices that hold any of its bits.
struct Storage {
  enum class Kind { Identity, Blocks, Bits } kind = Kind::Identity;
  std::uint64_t width = 1;  // Blocks: values per block
  std::uint64_t bytes = 1;  // Blocks: physical units per block
  std::uint64_t bits = 0;   // Bits: bits per value, 32-bit words

  std::pair<std::uint64_t, std::uint64_t> of(std::uint64_t v) const {
    switch (kind) {
      case Kind::Identity:
        return {v, v + 1};
      case Kind::Blocks:
        return {v / width * bytes, v / width * bytes + bytes};
      case Kind::Bits:
        return {v * bits / 32, ((v + 1) * bits + 31) / 32};
    }
    return {v, v + 1};
  }
};

struct Case {
  std::string text;  // for CAPTURE
  std::uint64_t tp = 1;
  std::uint64_t axis = 0;
  std::uint64_t logical_extent = 0;
  ParameterGroupSpec group;
  std::vector<Storage> storage;       // per physical member, on `axis`
  std::vector<std::uint64_t> widths;  // per physical member: 1, or its block/group width
};

std::optional<Case> random_case(std::mt19937_64& random) {
  Case out;
  out.tp = pick(random, 1, 8);
  const bool column = pick(random, 0, 1) == 1;
  const int kind = static_cast<int>(pick(random, 0, 3));
  LinearFormat format;
  Result<LinearFormatSpec> spec = LinearFormatSpec::unscaled(LinearFormat::dense());
  std::uint64_t row_align = 1;
  std::uint64_t column_align = 1;
  Storage weight;
  std::vector<Storage> companions;
  std::uint64_t companion_width = 1;
  std::string what;
  if (kind == 0) {
    const auto bits = choose<std::int32_t>(random, {2, 3, 4, 5, 6, 8});
    const auto group = choose<std::int32_t>(random, {16, 32, 64});
    format = LinearFormat::affine({group, bits});
    spec = LinearFormatSpec::affine(format, "w.s", "w.b");
    column_align =
        std::lcm<std::uint64_t>(static_cast<std::uint64_t>(group), 32 / std::gcd(32, bits));
    if (column) {
      weight = {Storage::Kind::Bits, 1, 1, static_cast<std::uint64_t>(bits)};
      companions = {{Storage::Kind::Blocks, static_cast<std::uint64_t>(group), 1, 0},
                    {Storage::Kind::Blocks, static_cast<std::uint64_t>(group), 1, 0}};
      companion_width = static_cast<std::uint64_t>(group);
    } else {
      companions = {Storage{}, Storage{}};
    }
    what = fmt::format("affine {}/{}", group, bits);
  } else if (kind == 1) {
    format = LinearFormat::mxfp4();
    spec = LinearFormatSpec::scaled(format, "w.s");
    column_align = 32;
    if (column) {
      weight = {Storage::Kind::Bits, 1, 1, 4};
      companions = {{Storage::Kind::Blocks, 32, 1, 0}};
      companion_width = 32;
    } else {
      companions = {Storage{}};
    }
    what = "mxfp4";
  } else if (kind == 2) {
    const std::uint32_t code = choose<std::uint32_t>(random, {1, 2, 8, 12, 14, 39});
    const GgmlTypeInfo block = ggml_type_info(code).value();
    format = LinearFormat::gguf(code);
    spec = LinearFormatSpec::unscaled(format);
    column_align = block.block_values;
    if (column) weight = {Storage::Kind::Blocks, block.block_values, block.block_bytes, 0};
    what = fmt::format("gguf {}", block.name);
  } else {
    const auto rows = choose<std::int32_t>(random, {1, 16, 32, 128});
    const auto columns = choose<std::int32_t>(random, {1, 16, 64});
    format = LinearFormat::block_fp8({rows, columns, BlockFp8ScaleEncoding::Ue8m0});
    spec = LinearFormatSpec::scaled(format, "w.s");
    const auto width = static_cast<std::uint64_t>(column ? columns : rows);
    companions = {{Storage::Kind::Blocks, width, 1, 0}};
    companion_width = width;
    what = fmt::format("block-fp8 {}x{}", rows, columns);
  }
  const std::uint64_t align = column ? column_align : row_align;
  // Extents that expansion accepts: whole format cells, sometimes plus a
  // partial block-FP8 tail.
  std::uint64_t sharded = align * pick(random, 1, 12);
  if (kind == 3 && pick(random, 0, 2) == 0) sharded += pick(random, 1, companion_width);
  const std::uint64_t other = (column ? row_align : column_align) * pick(random, 1, 3);
  const std::vector<std::uint64_t> shape =
      column ? std::vector{other, sharded} : std::vector{sharded, other};
  const std::uint64_t axis = column ? 1 : 0;

  const int sharding_kind = static_cast<int>(pick(random, 0, 4));
  MemberSharding sharding;
  std::optional<std::uint64_t> units;
  auto segments = [&] {
    // Two segments cut at a cell boundary of every member.
    const std::uint64_t cell = kind == 3 ? std::max<std::uint64_t>(1, companion_width) : align;
    const std::uint64_t cells = sharded / cell;
    const std::uint64_t cut = cells > 1 ? cell * pick(random, 1, cells - 1) : sharded;
    std::vector<IndexRange> ranges{{0, cut}};
    if (cut < sharded) ranges.push_back({cut, sharded});
    return ranges;
  };
  switch (sharding_kind) {
    case 0:
      sharding = MemberSharding::partitioned(axis);
      units = pick(random, 1, 32);
      break;
    case 1:
      sharding = MemberSharding::partitioned_segments(axis, segments());
      units = pick(random, 1, 32);
      break;
    case 2:
      sharding = MemberSharding::segmented(axis, segments());
      break;
    case 3:
      sharding = MemberSharding::balanced(axis);
      break;
    default:
      sharding = MemberSharding::equal(axis);
      break;
  }
  const ParameterMemberSpec source("w", shape, sharding, Dtype::BF16);
  auto group =
      units ? ParameterGroupSpec::partitioned("g", ParameterRole::RowProjection, *units, {source})
            : ParameterGroupSpec::create("g", ParameterRole::RowProjection, {source});
  if (!group) return std::nullopt;
  const LinearFormatSpec declared = spec.value();
  auto expanded = expand_linear_format_group(
      group.value(), [&](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
        return std::optional(declared);
      });
  if (!expanded) return std::nullopt;  // a segment expansion refuses, or units vanish
  out.text = fmt::format("{} [{}, {}] axis {} sharding {} units {} tp {}", what, shape[0], shape[1],
                         axis, sharding_kind, units.value_or(0), out.tp);
  out.axis = axis;
  out.logical_extent = sharded;
  out.group = std::move(expanded).value();
  out.storage.push_back(weight);
  out.widths.push_back(1);
  for (const Storage& storage : companions) {
    out.storage.push_back(storage);
    out.widths.push_back(storage.kind == Storage::Kind::Blocks ? companion_width : 1);
  }
  REQUIRE(out.group.members().size() == out.storage.size());
  return out;
}

std::set<std::uint64_t> indices(const TensorPlacement& placement,
                                std::span<const std::uint64_t> shape, std::uint64_t axis) {
  std::set<std::uint64_t> out;
  for (const IndexRange& range : selection_on_axis(placement, shape, axis)) {
    for (std::uint64_t i = range.start; i < range.end; ++i) out.insert(i);
  }
  return out;
}

// The rule, value by value: the values whose every weight unit is selected
// are the ones held; the weight selects exactly their units; their runs
// start and end on every companion's blocks; each companion selects exactly
// their blocks.
bool oracle_holds(const Case& tested, const std::vector<const TensorPlacement*>& placements) {
  const auto& members = tested.group.members();
  std::vector<std::set<std::uint64_t>> selected;
  for (std::size_t m = 0; m < members.size(); ++m) {
    selected.push_back(indices(*placements[m], members[m].global_shape(), tested.axis));
  }
  std::vector<std::uint64_t> held;
  for (std::uint64_t v = 0; v < tested.logical_extent; ++v) {
    const auto [first, end] = tested.storage[0].of(v);
    bool all = true;
    for (std::uint64_t i = first; i < end; ++i) all = all && selected[0].count(i) == 1;
    if (all) held.push_back(v);
  }
  for (std::size_t m = 0; m < members.size(); ++m) {
    std::set<std::uint64_t> needed;
    for (std::uint64_t v : held) {
      const auto [first, end] = tested.storage[m].of(v);
      for (std::uint64_t i = first; i < end; ++i) needed.insert(i);
    }
    if (needed != selected[m]) return false;
    const std::uint64_t width = tested.widths[m];
    for (std::size_t k = 0; k < held.size(); ++k) {
      const bool starts = k == 0 || held[k - 1] + 1 != held[k];
      const bool ends = k + 1 == held.size() || held[k + 1] != held[k] + 1;
      if (starts && held[k] % width != 0) return false;
      if (ends && (held[k] + 1) % width != 0 && held[k] + 1 != tested.logical_extent) return false;
    }
  }
  return true;
}

std::vector<const TensorPlacement*> pointers(const std::vector<TensorPlacement>& placements) {
  std::vector<const TensorPlacement*> out;
  for (const TensorPlacement& placement : placements) out.push_back(&placement);
  return out;
}

// A copy of `placement` that selects one index less on its axis, or nullopt.
std::optional<TensorPlacement> shrunk(const TensorPlacement& placement) {
  TensorPlacement out = placement;
  if (placement.kind == PlacementKind::Range && placement.end - placement.start > 1) {
    out.end -= 1;
    return out;
  }
  if (placement.kind == PlacementKind::Indices && placement.count > 1) {
    std::vector<IndexRange> runs = placement.runs;
    runs.back().end -= 1;
    if (runs.back().end == runs.back().start) runs.pop_back();
    return TensorPlacement::indices(placement.axis, runs);
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("property: plans keep every quantized matrix whole, refusals are needed") {
  std::mt19937_64 random(20261201);  // deterministic
  int planned = 0;
  int refused = 0;
  int broken = 0;
  for (int iteration = 0; iteration < 1500; ++iteration) {
    CAPTURE(iteration);
    auto tested = random_case(random);
    if (!tested) continue;
    CAPTURE(tested->text);
    auto builder = ModelBuilder::create({}).value();
    REQUIRE(builder.add_group(tested->group));
    auto model = std::move(builder).finish().value();
    const auto topology = ParallelTopology::create(tested->tp, 1, 1, 1).value();

    std::vector<LocalModelLayout> layouts;
    std::optional<Error> error;
    for (std::uint64_t rank = 0; rank < tested->tp; ++rank) {
      auto layout = plan_rank(model, topology, rank, ShardingPolicy::Require);
      if (!layout) {
        error = layout.error();
        break;
      }
      layouts.push_back(std::move(layout).value());
    }
    const ParameterGroupSpec& group = model->groups()[0];
    if (error) {
      CHECK(error->code == Status::InvalidTensor);
      // Refused: either a member does not resolve, or the oracle finds a
      // rank whose unchecked resolution breaks the rule.
      bool needed = false;
      for (std::uint64_t t = 0; t < tested->tp && !needed; ++t) {
        std::vector<TensorPlacement> resolved;
        for (const ParameterMemberSpec& member : group.members()) {
          auto one = resolve_member(group, member, tested->tp, t);
          if (!one) {
            needed = true;
            break;
          }
          resolved.push_back(one.value().placement);
        }
        if (!needed) needed = !oracle_holds(*tested, pointers(resolved));
      }
      CHECK_MESSAGE(needed, error->message);
      ++refused;
      continue;
    }
    ++planned;
    std::vector<CoverageProblem> problems;
    REQUIRE(check_tensor_parallel_group(*model, topology, layouts, problems));
    CHECK(problems.empty());
    for (const LocalModelLayout& layout : layouts) {
      std::vector<const TensorPlacement*> placements;
      for (const ParameterMemberSpec& member : group.members()) {
        placements.push_back(&layout.tensor(member.target())->placement);
      }
      CHECK(oracle_holds(*tested, placements));
    }
    // Break one member of one rank: the coverage proof must notice.
    const std::size_t rank = pick(random, 0, layouts.size() - 1);
    const std::size_t which = pick(random, 0, group.members().size() - 1);
    auto& tensors = layouts[rank].tensors;
    auto entry = std::find_if(tensors.begin(), tensors.end(), [&](const LocalTensorLayout& t) {
      return t.target() == group.members()[which].target();
    });
    REQUIRE(entry != tensors.end());
    TensorPlacement& placement = entry->placement;
    if (auto smaller = shrunk(placement)) {
      placement = *smaller;
      problems.clear();
      REQUIRE(check_tensor_parallel_group(*model, topology, layouts, problems));
      CHECK_FALSE(problems.empty());
      ++broken;
    }
  }
  MESSAGE("planned ", planned, ", refused ", refused, ", broken ", broken);
  CHECK(planned > 300);
  CHECK(refused > 300);
  CHECK(broken > 200);
}
