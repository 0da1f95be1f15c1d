// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Progress of long whole-world runs on a terminal (docs/interchange.md, the
// command).
#pragma once

#include <cstdint>

#include "world/world.hpp"

namespace eredu {

/// One `planning ranks: N/M` line on stderr, only when stderr is a terminal,
/// fed by the WorldOptions it hands out; erased when the object goes away,
/// so output and errors start clean. Redrawn only when the percentage
/// changes, so thousands of ranks stay cheap.
class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Every core, and this line's progress callback when stderr is a
  /// terminal. Valid while this object lives.
  WorldOptions options();

 private:
  void show(std::uint64_t planned, std::uint64_t ranks);

  bool terminal_ = false;
  bool drawn_ = false;
  std::uint64_t percent_ = 0;
};

}  // namespace eredu
