#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>

namespace eredu {
namespace {

// The line on stderr; erased when the object goes away.
class TerminalLine {
 public:
  TerminalLine() = default;
  ~TerminalLine() {
    if (drawn_) std::fputs("\r\x1b[K", stderr);
  }
  TerminalLine(const TerminalLine&) = delete;
  TerminalLine& operator=(const TerminalLine&) = delete;

  void show(std::uint64_t planned, std::uint64_t ranks) {
    // Redraw only when the percentage changes: thousands of ranks stay cheap.
    const std::uint64_t percent = planned * 100 / ranks;
    if (drawn_ && percent == percent_) return;
    percent_ = percent;
    drawn_ = true;
    std::fprintf(stderr, "\rplanning ranks: %llu/%llu", static_cast<unsigned long long>(planned),
                 static_cast<unsigned long long>(ranks));
  }

 private:
  bool drawn_ = false;
  std::uint64_t percent_ = 0;
};

}  // namespace

Result<WorldPlan> plan_world_showing_progress(const std::shared_ptr<const ModelDescription>& model,
                                              const ParallelTopology& topology,
                                              ShardingPolicy policy) {
  if (isatty(STDERR_FILENO) == 0) return plan_world(model, topology, policy);
  TerminalLine line;
  return plan_world(
      model, topology, policy, 0,
      [&line](std::uint64_t planned, std::uint64_t ranks) { line.show(planned, ranks); });
}

}  // namespace eredu
