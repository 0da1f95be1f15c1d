// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// A DeepSeek-V3-scale model description for benchmarks: the geometry of
// ../shared/data/models/deepseek-r1/config.json (61 decoder layers, the first
// 3 dense, 256 routed experts per MoE layer, block-FP8 weights with 128×128
// `weight_scale_inv` companions), about 90,000 tensors, layer- and
// expert-scoped.
#pragma once

#include <memory>

#include "model/model.hpp"

namespace eredu::bench {

/// Builds the description; aborts the benchmark on an internal error.
std::shared_ptr<const ModelDescription> deepseek_v3_description();

}  // namespace eredu::bench
