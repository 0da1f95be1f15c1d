// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Placement validation (docs/planning.md, "Placements" and "Placement
// validation").
#include <doctest/doctest.h>

#include "plan/placement.hpp"

using namespace eredu;

TEST_CASE("validates tensor slices") {
  auto slice = tensor_slice_for_shape(std::vector<std::uint64_t>{4, 12}, 1, 2, 3);
  CHECK(slice.value() == IndexRange{8, 12});
  auto uneven = tensor_slice_for_shape(std::vector<std::uint64_t>{4, 11}, 1, 0, 3);
  CHECK(uneven.error().message ==
        "tensor dimension 11 on axis 1 is not nonzero and divisible by 3");
  auto axis = tensor_slice_for_shape(std::vector<std::uint64_t>{4, 12}, 2, 0, 3);
  CHECK(axis.error().message == "tensor axis 2 is outside rank 2 shape [4, 12]");
  auto index = tensor_slice_for_shape(std::vector<std::uint64_t>{4, 12}, 1, 3, 3);
  CHECK(index.error().message == "tensor shard index 3 is outside 3 parts");
  auto parts = tensor_slice_for_shape(std::vector<std::uint64_t>{4, 12}, 1, 0, 0);
  CHECK(parts.error().message == "tensor shard count must be nonzero");
  for (const auto& error : {uneven, axis, index, parts}) {
    CHECK(error.error().code == Status::InvalidTensor);
  }
}

TEST_CASE("replicated, local, omitted and owner placements validate against the world") {
  const std::vector<std::uint64_t> shape{4, 4};
  const PlacementBounds single{1};
  CHECK(validate_placement(TensorPlacement::replicated(), shape, single));
  CHECK(validate_placement(TensorPlacement::local(), shape, single));
  CHECK(validate_placement(TensorPlacement::omit(), shape, single));
  CHECK(validate_placement(TensorPlacement::owner(0), shape, single));
  auto owner = validate_placement(TensorPlacement::owner(1), shape, single);
  CHECK(owner.error().code == Status::InvalidTensor);
  CHECK(owner.error().message == "owner rank 1 is outside world size 1");
}

TEST_CASE("balanced uneven ranges validate and empty ranges do not") {
  const std::vector<std::uint64_t> head{11, 4};
  CHECK(validate_placement(TensorPlacement::range(0, 8, 11), head, {3}));
  auto empty = validate_placement(TensorPlacement::range(0, 0, 0), head, {3});
  CHECK(empty.error().message == "tensor range 0..0 is invalid for dimension 11 on axis 0");
  auto past = validate_placement(TensorPlacement::range(0, 8, 12), head, {3});
  CHECK(past.error().message == "tensor range 8..12 is invalid for dimension 11 on axis 0");
  auto axis = validate_placement(TensorPlacement::range(2, 0, 1), head, {3});
  CHECK(axis.error().message == "tensor range axis 2 is outside rank 2 shape [11, 4]");
}

TEST_CASE("index selections are runs: merged, counted, expanded, validated") {
  const std::vector<IndexRange> runs{{4, 6}, {6, 8}, {10, 12}, {14, 16}};
  auto placement = TensorPlacement::indices(0, runs);
  CHECK(placement.runs == std::vector<IndexRange>{{4, 8}, {10, 12}, {14, 16}});
  CHECK(placement.count == 8);
  CHECK(placement.expanded_indices() == std::vector<std::uint64_t>{4, 5, 6, 7, 10, 11, 14, 15});
  const std::vector<std::uint64_t> shape{16, 8};
  CHECK(validate_placement(placement, shape, {2}));

  auto duplicate = TensorPlacement::indices(0, std::vector<IndexRange>{{4, 8}, {6, 9}});
  CHECK(validate_placement(duplicate, shape, {2}).error().message ==
        "tensor index selection must not contain duplicates");
  auto outside = TensorPlacement::indices(0, std::vector<IndexRange>{{14, 18}});
  CHECK(validate_placement(outside, shape, {2}).error().message ==
        "tensor index 16 is outside dimension 16 on axis 0");
  auto none = TensorPlacement::indices(1, std::vector<IndexRange>{});
  CHECK(validate_placement(none, shape, {2}).error().message ==
        "tensor index selection must be non-empty");
  auto axis = TensorPlacement::indices(3, runs);
  CHECK(validate_placement(axis, shape, {2}).error().message ==
        "tensor index axis 3 is outside rank 2 shape [16, 8]");
}
