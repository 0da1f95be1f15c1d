// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace eredu::cli {

ProgressLine::ProgressLine() : terminal_(isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() {
  if (drawn_) std::fputs("\r\x1b[K", stderr);
}

eredu_plan_options ProgressLine::options(eredu_plan_options options) {
  if (terminal_) {
    options.progress = &ProgressLine::callback;
    options.progress_data = this;
  }
  return options;
}

int32_t ProgressLine::callback(uint64_t planned, uint64_t ranks, void* line) {
  static_cast<ProgressLine*>(line)->show(planned, ranks);
  return 0;
}

void ProgressLine::show(std::uint64_t planned, std::uint64_t ranks) {
  const std::uint64_t percent = planned * 100 / ranks;
  if (drawn_ && percent == percent_) return;
  percent_ = percent;
  drawn_ = true;
  std::fprintf(stderr, "\rplanning ranks: %llu/%llu", static_cast<unsigned long long>(planned),
               static_cast<unsigned long long>(ranks));
}

}  // namespace eredu::cli
