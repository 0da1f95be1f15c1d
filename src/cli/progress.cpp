// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/byte_units.hpp"

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

ByteProgress::ByteProgress()
    : terminal_(isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}

ByteProgress::~ByteProgress() {
  if (drawn_) std::fputs("\r\x1b[K", stderr);
}

eredu_read_options ByteProgress::options(eredu_read_options options) {
  if (terminal_) {
    options.progress = &ByteProgress::callback;
    options.progress_data = this;
  }
  return options;
}

int32_t ByteProgress::callback(uint64_t done, uint64_t total, void* bar) {
  static_cast<ByteProgress*>(bar)->show(done, total);
  return 0;
}

void ByteProgress::show(std::uint64_t done, std::uint64_t total) {
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done != total) return;
  last_ = now;
  drawn_ = true;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  std::string left;
  if (rate > 0 && done < total) {
    left = ", " +
           std::to_string(static_cast<std::uint64_t>(static_cast<double>(total - done) / rate)) +
           " s left";
  }
  std::fprintf(stderr, "\r\x1b[Kreading: %s of %s, %.2f GB/s%s", human_bytes(done).c_str(),
               human_bytes(total).c_str(), rate / 1e9, left.c_str());
}

}  // namespace eredu::cli
