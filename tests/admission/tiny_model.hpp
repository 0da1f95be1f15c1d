// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A small description with every kind of scope, for the admission tests.
#pragma once

#include <cstdint>
#include <memory>

#include "model/model.hpp"
#include "plan/layout.hpp"

namespace eredu::test {

/// 3 layers, 2 experts, F32 unless said: `embed` [10, 4] (embedding, 160
/// bytes), `l0.w` [4, 4] (layer 0, 64), `l0.e1` [2, 4] (layer 0 expert 1,
/// 32), `l1.w` [8, 4] (layer 1, 128), `l2.empty` [0, 4] (layer 2, 0 bytes),
/// `shared.e0` [2, 2] (expert 0 without a layer, 16), `nodtype` [3] (no
/// dtype, no scope), `norm` [4] (output head, 16). Every member replicated.
std::shared_ptr<const ModelDescription> tiny_model();

/// plan_rank of tiny_model() at (tp, pp, ep, 1), rank `rank`, require.
LocalModelLayout tiny_layout(std::uint64_t tp, std::uint64_t pp, std::uint64_t ep,
                             std::uint64_t rank);

}  // namespace eredu::test
