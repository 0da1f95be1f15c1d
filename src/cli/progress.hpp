// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Progress of long whole-world runs on a terminal (docs/interchange.md, the
// command).
#pragma once

#include <chrono>
#include <cstdint>

#include "eredu/eredu.h"

namespace eredu::cli {

/// One `planning ranks: N/M` line on stderr, only when stderr is a terminal,
/// fed by the library's progress callback (eredu_plan_options.progress);
/// erased when the object goes away, so output and errors start clean.
/// Redrawn only when the percentage changes, so thousands of ranks stay
/// cheap.
class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// `options` with this line's progress callback when stderr is a
  /// terminal. Valid while this object lives.
  eredu_plan_options options(eredu_plan_options options);

 private:
  static int32_t callback(uint64_t planned, uint64_t ranks, void* line);
  void show(std::uint64_t planned, std::uint64_t ranks);

  bool terminal_ = false;
  bool drawn_ = false;
  std::uint64_t percent_ = 0;
};

/// A `reading: 1.20 GiB of 4.00 GiB, 2.31 GB/s, 2 s left` line on stderr,
/// only when stderr is a terminal, fed by eredu_read_options.progress;
/// redrawn at most ten times a second and erased when the object goes away.
class ByteProgress {
 public:
  ByteProgress();
  ~ByteProgress();
  ByteProgress(const ByteProgress&) = delete;
  ByteProgress& operator=(const ByteProgress&) = delete;

  /// `options` with this bar's callback when stderr is a terminal. Valid
  /// while this object lives.
  eredu_read_options options(eredu_read_options options);

 private:
  static int32_t callback(uint64_t done, uint64_t total, void* bar);
  void show(std::uint64_t done, std::uint64_t total);

  bool terminal_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace eredu::cli
