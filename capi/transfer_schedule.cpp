// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_dense_transfer_schedule_*: the seed's DenseTransferSchedule over
// opaque uint64 tokens.
#include <optional>
#include <span>

#include "firewall.hpp"
#include "residency/transfer_schedule.hpp"

struct eredu_dense_transfer_schedule {
  eredu::DenseTransferSchedule<std::uint64_t> schedule;
};

namespace eredu::capi {
namespace {

using Schedule = DenseTransferSchedule<std::uint64_t>;

Result<void> publish(Result<Schedule> created, eredu_dense_transfer_schedule** out) {
  EREDU_TRY(schedule, std::move(created));
  *out = new eredu_dense_transfer_schedule{std::move(schedule)};
  return outcome::success();
}

/// Checks the schedule, then hands it to `body`.
template <class Handle, class Body, class... Outs>
eredu_status schedule_call(Handle* schedule, eredu_error** error, Body&& body, Outs*... outs) {
  return handle_call(
      schedule, "schedule", error, [&](auto& handle) { return body(handle.schedule); }, outs...);
}

}  // namespace
}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_dense_transfer_schedule_new(const uint64_t* pending, size_t pending_count,
                                               size_t capacity, eredu_dense_transfer_schedule** out,
                                               eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require_array(pending, pending_count, "pending"));
        // At worst one run of two indices per pending index.
        EREDU_TRY(count_argument(pending_count, sizeof(std::uint64_t), 2 * sizeof(std::uint64_t),
                                 "pending_count"));
        EREDU_TRY(require(out, "out"));
        const std::span<const std::uint64_t> indices(pending,
                                                     pending == nullptr ? 0 : pending_count);
        return publish(Schedule::create(indices, capacity), out);
      },
      out);
}

eredu_status eredu_dense_transfer_schedule_new_range(uint64_t start, uint64_t end, size_t capacity,
                                                     eredu_dense_transfer_schedule** out,
                                                     eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(out, "out"));
        return publish(Schedule::create(IndexRange{start, end}, capacity), out);
      },
      out);
}

void eredu_dense_transfer_schedule_free(eredu_dense_transfer_schedule* schedule) {
  delete schedule;
}

eredu_status eredu_dense_transfer_schedule_admit(eredu_dense_transfer_schedule* schedule,
                                                 uint64_t index, uint64_t token,
                                                 eredu_error** error) {
  return schedule_call(schedule, error,
                       [&](Schedule& cursor) { return cursor.admit(index, token); });
}

eredu_status eredu_dense_transfer_schedule_pop_ready(eredu_dense_transfer_schedule* schedule,
                                                     uint64_t* index, uint64_t* token, bool* popped,
                                                     eredu_error** error) {
  return schedule_call(
      schedule, error,
      [&](Schedule& cursor) -> Result<void> {
        EREDU_TRY(require(index, "index"));
        EREDU_TRY(require(token, "token"));
        EREDU_TRY(require(popped, "popped"));
        auto ready = cursor.pop_ready();
        *popped = ready.has_value();
        if (ready) {
          *index = ready->first;
          *token = ready->second;
        }
        return outcome::success();
      },
      index, token, popped);
}

eredu_status eredu_dense_transfer_schedule_desired_indices(
    const eredu_dense_transfer_schedule* schedule, size_t lookahead, uint64_t* buffer,
    size_t capacity, size_t* count, eredu_error** error) {
  // `count` is not a zeroed-on-failure output: EREDU_E_BUFFER_TOO_SMALL
  // reports the needed capacity through it.
  if (count != nullptr) *count = 0;
  return schedule_call(schedule, error, [&](const Schedule& cursor) -> Result<void> {
    EREDU_TRY(require_array(buffer, capacity, "buffer"));
    EREDU_TRY(require(count, "count"));
    // Never above lookahead, so it fits size_t.
    const auto needed = static_cast<std::size_t>(cursor.desired_count(lookahead));
    *count = needed;
    if (capacity < needed) {
      return failf(Status::BufferTooSmall,
                   "the desired indices need {} entries, the buffer holds {}", needed, capacity);
    }
    cursor.write_desired_indices(std::span<std::uint64_t>(buffer, needed));
    return outcome::success();
  });
}

bool eredu_dense_transfer_schedule_can_admit(const eredu_dense_transfer_schedule* schedule) {
  return schedule != nullptr && schedule->schedule.can_admit();
}

bool eredu_dense_transfer_schedule_has_ready(const eredu_dense_transfer_schedule* schedule) {
  return schedule != nullptr && schedule->schedule.has_ready();
}

bool eredu_dense_transfer_schedule_is_exhausted(const eredu_dense_transfer_schedule* schedule) {
  return schedule != nullptr && schedule->schedule.is_exhausted();
}

eredu_status eredu_dense_transfer_schedule_next_pending(
    const eredu_dense_transfer_schedule* schedule, uint64_t* index, bool* present,
    eredu_error** error) {
  return schedule_call(
      schedule, error,
      [&](const Schedule& cursor) -> Result<void> {
        EREDU_TRY(require(index, "index"));
        EREDU_TRY(require(present, "present"));
        const std::optional<std::uint64_t> next = cursor.next_pending();
        *present = next.has_value();
        *index = next.value_or(0);
        return outcome::success();
      },
      index, present);
}

}  // extern "C"
