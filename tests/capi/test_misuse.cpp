// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// API misuse: NULL pointers, unknown enum values, bad flags, wrong
// struct_size, bad UTF-8, out-of-range indices; out-parameters zeroed on
// failure, `*error` cleared on success; status names and versions.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

eredu_member_desc equal_member(const char* target, const std::uint64_t* shape, std::size_t ndim) {
  eredu_member_desc desc = EREDU_MEMBER_DESC_INIT;
  desc.target = target;
  desc.shape = shape;
  desc.ndim = ndim;
  desc.sharding = EREDU_SHARDING_EQUAL;
  desc.axis = 0;
  return desc;
}

/// eredu_group_new with one member; returns the status and checks the
/// out-parameter and error slot.
eredu_status group_with(const eredu_member_desc& desc, const eredu_group_scope* scope = nullptr,
                        eredu_role role = EREDU_ROLE_COLUMN_PROJECTION, std::uint8_t has_units = 0,
                        const char* name = "g") {
  const eredu_member_desc* members[] = {&desc};
  eredu_group* group = garbage<eredu_group>();
  eredu_error* error = nullptr;
  const eredu_status status =
      group_new_with(name, role, has_units, 4, scope, members, 1, &group, &error);
  if (status == EREDU_OK) {
    CHECK(error == nullptr);
    eredu_group_free(group);
  } else {
    CHECK(group == nullptr);
    CHECK(eredu_error_code(error) == status);
    CHECK(std::strlen(eredu_error_message(error)) > 0);
  }
  eredu_error_free(error);
  return status;
}

struct Planned {
  Made<Model> model;
  Made<Layout> layout;
};

Planned planned_down() {
  const std::uint64_t shape[] = {8, 16};
  eredu_member_desc desc = equal_member("down.weight", shape, 2);
  desc.axis = 1;
  const eredu_member_desc* members[] = {&desc};
  eredu_group* group = nullptr;
  REQUIRE(group_new_with("down", EREDU_ROLE_ROW_PROJECTION, 0, 0, nullptr, members, 1, &group,
                         nullptr) == EREDU_OK);
  Group owned(group);
  Planned planned{new_model({group}), {}};
  planned.layout = plan_tp(planned.model.handle.get(), 1, 2);
  REQUIRE(planned.layout.status == EREDU_OK);
  return planned;
}

}  // namespace

TEST_SUITE("capi.misuse") {
  TEST_CASE("status names are stable") {
#define EREDU_CHECK_NAME(code) CHECK(std::string(eredu_status_name(code)) == #code)
    EREDU_CHECK_NAME(EREDU_OK);
    EREDU_CHECK_NAME(EREDU_E_NULL_ARGUMENT);
    EREDU_CHECK_NAME(EREDU_E_INVALID_ARGUMENT);
    EREDU_CHECK_NAME(EREDU_E_OUT_OF_MEMORY);
    EREDU_CHECK_NAME(EREDU_E_BUFFER_TOO_SMALL);
    EREDU_CHECK_NAME(EREDU_E_NOT_FOUND);
    EREDU_CHECK_NAME(EREDU_E_PARSE);
    EREDU_CHECK_NAME(EREDU_E_CORRUPT_DATA);
    EREDU_CHECK_NAME(EREDU_E_UNSUPPORTED_VERSION);
    EREDU_CHECK_NAME(EREDU_E_IO);
    EREDU_CHECK_NAME(EREDU_E_UNSUPPORTED_MODEL);
    EREDU_CHECK_NAME(EREDU_E_CHECKPOINT_MISMATCH);
    EREDU_CHECK_NAME(EREDU_E_CANCELLED);
    EREDU_CHECK_NAME(EREDU_E_PLAN_FILE_MISMATCH);
    EREDU_CHECK_NAME(EREDU_E_INTERNAL);
    EREDU_CHECK_NAME(EREDU_E_INVALID_GROUP);
    EREDU_CHECK_NAME(EREDU_E_INVALID_TENSOR);
    EREDU_CHECK_NAME(EREDU_E_ZERO_AXIS);
    EREDU_CHECK_NAME(EREDU_E_WORLD_SIZE_OVERFLOW);
    EREDU_CHECK_NAME(EREDU_E_RANK_OUT_OF_RANGE);
    EREDU_CHECK_NAME(EREDU_E_COORDINATE_OUT_OF_RANGE);
    EREDU_CHECK_NAME(EREDU_E_SUBGROUP_IDENTITY);
    EREDU_CHECK_NAME(EREDU_E_MISSING_LAYER_COUNT);
    EREDU_CHECK_NAME(EREDU_E_MISSING_EXPERT_COUNT);
    EREDU_CHECK_NAME(EREDU_E_ZERO_PARTITIONS);
    EREDU_CHECK_NAME(EREDU_E_PARTITION_OUT_OF_RANGE);
    EREDU_CHECK_NAME(EREDU_E_EMPTY_PARTITION);
    EREDU_CHECK_NAME(EREDU_E_PARTITION_OVERFLOW);
    EREDU_CHECK_NAME(EREDU_E_WORLD_SIZE_MISMATCH);
    EREDU_CHECK_NAME(EREDU_E_UNSUPPORTED_SCHEMA_VERSION);
    EREDU_CHECK_NAME(EREDU_E_EMPTY_UNIT_ID);
    EREDU_CHECK_NAME(EREDU_E_ZERO_SIZED_UNIT);
    EREDU_CHECK_NAME(EREDU_E_DUPLICATE_UNIT_ID);
    EREDU_CHECK_NAME(EREDU_E_BYTE_TOTAL_OVERFLOW);
    EREDU_CHECK_NAME(EREDU_E_BUDGET_EXCEEDED);
    EREDU_CHECK_NAME(EREDU_E_CONTRADICTORY_ASSIGNMENT);
    EREDU_CHECK_NAME(EREDU_E_ZERO_PREFETCH_DEPTH);
    EREDU_CHECK_NAME(EREDU_E_ZERO_HOST_LOOKAHEAD);
    EREDU_CHECK_NAME(EREDU_E_ZERO_QUEUE_CAPACITY);
    EREDU_CHECK_NAME(EREDU_E_HOST_DISABLED_CONTROLS);
    EREDU_CHECK_NAME(EREDU_E_ZERO_PARAMETER_BANK_SCRATCH_LIMIT);
    EREDU_CHECK_NAME(EREDU_E_ZERO_PARAMETER_BANK_PREFILL_TARGET);
    EREDU_CHECK_NAME(EREDU_E_PARAMETER_BANK_PREFILL_TARGET_EXCEEDS_SCRATCH);
    EREDU_CHECK_NAME(EREDU_E_ZERO_CAPACITY);
    EREDU_CHECK_NAME(EREDU_E_UNORDERED_PENDING);
    EREDU_CHECK_NAME(EREDU_E_CAPACITY_EXCEEDED);
    EREDU_CHECK_NAME(EREDU_E_NO_PENDING_UNIT);
    EREDU_CHECK_NAME(EREDU_E_OUT_OF_ORDER);
    EREDU_CHECK_NAME(EREDU_E_ZERO_CACHED_SHARDS);
    EREDU_CHECK_NAME(EREDU_E_INVALID_INVOCATION_LIMITS);
    EREDU_CHECK_NAME(EREDU_E_REPLICATED_PARALLEL_TOPOLOGY);
    EREDU_CHECK_NAME(EREDU_E_CONFLICTING_COMPLETION_POLICY);
    EREDU_CHECK_NAME(EREDU_E_ORPHANED_MODEL_COMPLETION);
    EREDU_CHECK_NAME(EREDU_E_ZERO_EMBEDDED_DRAFT_CAPACITY);
    EREDU_CHECK_NAME(EREDU_E_UNSUPPORTED_DRAFTING_PLAN);
    EREDU_CHECK_NAME(EREDU_E_COMPLETION);
    EREDU_CHECK_NAME(EREDU_E_QUANTIZATION);
    EREDU_CHECK_NAME(EREDU_E_INVALID_FORMAT);
    EREDU_CHECK_NAME(EREDU_E_INVALID_BINDING_NAME);
    EREDU_CHECK_NAME(EREDU_E_INVALID_CHECKPOINT_KEY);
    EREDU_CHECK_NAME(EREDU_E_ZERO_SIZED_BINDING);
    EREDU_CHECK_NAME(EREDU_E_INVALID_COMPLETION_POLICY);
#undef EREDU_CHECK_NAME
    CHECK(EREDU_E_INVALID_GROUP == 100);
    CHECK(EREDU_E_INVALID_COMPLETION_POLICY == 900);
    for (eredu_status unknown : {-1, 14, 98, 212, 1000, INT32_MIN, INT32_MAX}) {
      CHECK(std::string(eredu_status_name(unknown)) == "EREDU_E_UNKNOWN");
    }
  }

  TEST_CASE("versions agree with the header") {
    CHECK(eredu_version_number() == EREDU_VERSION_NUMBER);
    CHECK(EREDU_VERSION_NUMBER ==
          EREDU_VERSION_MAJOR * 10000 + EREDU_VERSION_MINOR * 100 + EREDU_VERSION_PATCH);
    CHECK(std::string(eredu_version_string()) == EREDU_VERSION_STRING);
    CHECK(std::string(eredu_version_string()) == std::to_string(EREDU_VERSION_MAJOR) + "." +
                                                     std::to_string(EREDU_VERSION_MINOR) + "." +
                                                     std::to_string(EREDU_VERSION_PATCH));
  }

  TEST_CASE("dependency versions name every library, in order, once") {
    const std::string text = eredu_dependency_versions();
    CHECK(eredu_dependency_versions() == eredu_dependency_versions());  // static storage
    std::size_t at = 0;
    for (const char* name :
         {"fmt ", ", simdjson ", ", nlohmann_json ", ", boost ", ", zstd ", ", xxhash "}) {
      const std::size_t found = text.find(name, at);
      REQUIRE(found != std::string::npos);
      CHECK(found >= at);
      CHECK(std::isdigit(static_cast<unsigned char>(text[found + std::strlen(name)])));
      at = found + 1;
    }
    CHECK(text.starts_with("fmt "));
  }

  TEST_CASE("model types: the registry's supported list, in static storage") {
    const std::string types = eredu_model_types();
    CHECK(eredu_model_types() == eredu_model_types());
    CHECK(types.starts_with("llama, mistral, qwen2, qwen3, phi3, "));
    CHECK(types.find(", falcon, gpt_oss, qwen2_moe, ") != std::string::npos);
    CHECK(types.find(", qwen2_vl, ") != std::string::npos);
    CHECK(types.ends_with(", deepseek_v2, deepseek_v3, mistral3"));
  }

  TEST_CASE("model warnings: none for NULL, NULL out of range") {
    CHECK(eredu_model_warning_count(nullptr) == 0);
    CHECK(eredu_model_warning(nullptr, 0) == nullptr);
  }

  TEST_CASE("error objects") {
    CHECK(eredu_error_code(nullptr) == EREDU_OK);
    CHECK(std::string(eredu_error_message(nullptr)).empty());
    eredu_error_free(nullptr);

    // An error slot left NULL still gets the status.
    CHECK(group_new_with(nullptr, 0, 0, 0, nullptr, nullptr, 0, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    // Success clears a stale pointer in the slot.
    eredu_member_desc desc;
    eredu_error* error = garbage<eredu_error>();
    CHECK(eredu_member_desc_init(&desc, sizeof desc, &error) == EREDU_OK);
    CHECK(error == nullptr);
  }

  TEST_CASE("init functions") {
    eredu_member_desc desc;
    std::memset(&desc, 0xff, sizeof desc);
    REQUIRE(eredu_member_desc_init(&desc, sizeof desc, nullptr) == EREDU_OK);
    CHECK(desc.struct_size == sizeof(eredu_member_desc));
    CHECK(desc.target == nullptr);
    CHECK(desc.shape == nullptr);
    CHECK(desc.ndim == 0);
    CHECK(desc.has_dtype == 0);
    CHECK(desc.sharding == EREDU_SHARDING_REPLICATED);
    CHECK(desc.axis == 0);
    CHECK(desc.segments == nullptr);
    CHECK(desc.segment_count == 0);

    eredu_model_info info;
    std::memset(&info, 0xff, sizeof info);
    REQUIRE(eredu_model_info_init(&info, sizeof info, nullptr) == EREDU_OK);
    CHECK(info.struct_size == sizeof(eredu_model_info));
    CHECK(info.name == nullptr);
    CHECK(info.has_layers == 0);
    CHECK(info.has_experts == 0);

    eredu_topology topology;
    std::memset(&topology, 0xff, sizeof topology);
    REQUIRE(eredu_topology_init(&topology, sizeof topology, nullptr) == EREDU_OK);
    CHECK(topology.struct_size == sizeof topology);
    CHECK(topology.tensor == 1);
    CHECK(topology.pipeline == 1);
    CHECK(topology.expert == 1);
    CHECK(topology.data == 1);

    eredu_plan_options options;
    std::memset(&options, 0xff, sizeof options);
    REQUIRE(eredu_plan_options_init(&options, sizeof options, nullptr) == EREDU_OK);
    CHECK(options.struct_size == sizeof options);
    CHECK(options.policy == EREDU_POLICY_REQUIRE);
    CHECK(options.threads == 0);
    CHECK((options.progress == nullptr));
    CHECK(options.progress_data == nullptr);

    ErrorSlot error;
    CHECK(eredu_member_desc_init(nullptr, sizeof desc, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_group_scope_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_model_info_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_group_info_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_layout_info_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_layout_tensor_info_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_topology_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_plan_options_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_check_options_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_read_options_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_read_stats_init(nullptr, 8, nullptr) == EREDU_E_NULL_ARGUMENT);

    eredu_read_options read;
    std::memset(&read, 0xff, sizeof read);
    REQUIRE(eredu_read_options_init(&read, sizeof read, nullptr) == EREDU_OK);
    CHECK(read.struct_size == sizeof read);
    CHECK(read.threads == 0);
    CHECK(read.request_bytes == 1048576);
    CHECK(read.max_gap_bytes == 0);
    CHECK(read.direct == 0);
    CHECK((read.progress == nullptr));
    CHECK(read.progress_data == nullptr);
    eredu_read_stats stats;
    std::memset(&stats, 0xff, sizeof stats);
    REQUIRE(eredu_read_stats_init(&stats, sizeof stats, nullptr) == EREDU_OK);
    CHECK(stats.struct_size == sizeof stats);
    CHECK(stats.bytes_read == 0);
    CHECK(stats.direct == 0);
  }

  TEST_CASE("whole-rank reads reject a NULL plan, out or buffers") {
    ErrorSlot error;
    eredu_tensor_buffer buffer = {nullptr, 0};
    CHECK(eredu_read_plan_read_rank(nullptr, &buffer, 1, nullptr, nullptr, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
    eredu_rank_data* data = nullptr;
    CHECK(eredu_read_plan_load(nullptr, nullptr, &data, nullptr, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(data == nullptr);
    CHECK(eredu_rank_data_tensor_count(nullptr) == 0);
    uint64_t bytes = 7;
    CHECK(eredu_rank_data_tensor(nullptr, 0, &bytes) == nullptr);
    CHECK(bytes == 0);
    CHECK(eredu_rank_data_tensor(nullptr, 0, nullptr) == nullptr);
    eredu_rank_data_free(nullptr);
  }

  TEST_CASE("init with the caller's size: smaller, inside a field, larger") {
    // A size that covers only the first fields initializes only those.
    eredu_topology topology;
    std::memset(&topology, 0xff, sizeof topology);
    const std::size_t two_axes = offsetof(eredu_topology, expert);
    REQUIRE(eredu_topology_init(&topology, two_axes, nullptr) == EREDU_OK);
    CHECK(topology.struct_size == two_axes);
    CHECK(topology.tensor == 1);
    CHECK(topology.pipeline == 1);
    CHECK(topology.expert == UINT64_MAX);  // past the caller's size: untouched
    CHECK(topology.data == UINT64_MAX);

    ErrorSlot error;
    CHECK(eredu_topology_init(&topology, 3, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() ==
          "topology->struct_size is 3; it must be the caller's sizeof, between 4 and 4096");
    CHECK(eredu_topology_init(&topology, offsetof(eredu_topology, tensor) + 4, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "topology->struct_size " +
                                 std::to_string(offsetof(eredu_topology, tensor) + 4) +
                                 " ends inside field tensor");
    CHECK(eredu_topology_init(&topology, 5000, error.slot()) == EREDU_E_INVALID_ARGUMENT);

    // A larger caller struct: zeroes past this library's fields.
    struct Larger {
      eredu_topology topology;
      std::uint64_t later_field;
    } larger;
    std::memset(&larger, 0xff, sizeof larger);
    REQUIRE(eredu_topology_init(&larger.topology, sizeof larger, nullptr) == EREDU_OK);
    CHECK(larger.topology.struct_size == sizeof larger);
    CHECK(larger.topology.tensor == 1);
    CHECK(larger.later_field == 0);
  }

  TEST_CASE("eredu_group_new rejects misuse") {
    const std::uint64_t shape[] = {8, 8};
    const eredu_member_desc good = equal_member("w", shape, 2);
    REQUIRE(group_with(good) == EREDU_OK);

    SUBCASE("NULL pointers") {
      const eredu_member_desc* members[] = {&good};
      eredu_group* group = garbage<eredu_group>();
      ErrorSlot error;
      CHECK(group_new_with(nullptr, 0, 0, 0, nullptr, members, 1, &group, error.slot()) ==
            EREDU_E_NULL_ARGUMENT);
      CHECK(group == nullptr);
      CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
      CHECK(group_new_with("g", 0, 0, 0, nullptr, members, 1, nullptr, error.slot()) ==
            EREDU_E_NULL_ARGUMENT);
      group = garbage<eredu_group>();
      CHECK(group_new_with("g", 0, 0, 0, nullptr, nullptr, 1, &group, nullptr) ==
            EREDU_E_NULL_ARGUMENT);
      CHECK(group == nullptr);
      const eredu_member_desc* holes[] = {&good, nullptr};
      CHECK(group_new_with("g", 0, 0, 0, nullptr, holes, 2, &group, error.slot()) ==
            EREDU_E_NULL_ARGUMENT);
      CHECK(error.message() == "argument members[1] is NULL");

      eredu_member_desc desc = good;
      desc.target = nullptr;
      CHECK(group_with(desc) == EREDU_E_NULL_ARGUMENT);
      const eredu_member_desc* untargeted[] = {&desc};
      CHECK(group_new_with("g", 0, 0, 0, nullptr, untargeted, 1, &group, error.slot()) ==
            EREDU_E_NULL_ARGUMENT);
      CHECK(error.message() == "argument members[0]->target is NULL");
      desc = good;
      desc.shape = nullptr;
      CHECK(group_with(desc) == EREDU_E_NULL_ARGUMENT);
      desc.ndim = 0;  // a scalar may have a NULL shape
      desc.sharding = EREDU_SHARDING_REPLICATED;
      CHECK(group_with(desc) == EREDU_OK);
      desc = good;
      desc.sharding = EREDU_SHARDING_SEGMENTED;
      desc.segment_count = 1;
      CHECK(group_with(desc) == EREDU_E_NULL_ARGUMENT);
    }

    SUBCASE("unknown enum values") {
      CHECK(group_with(good, nullptr, 9) == EREDU_E_INVALID_ARGUMENT);
      CHECK(group_with(good, nullptr, 0xffffffffu) == EREDU_E_INVALID_ARGUMENT);
      eredu_member_desc desc = good;
      desc.sharding = 6;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      desc = good;
      desc.has_dtype = 1;
      desc.dtype = 16;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      desc.dtype = EREDU_DTYPE_F8_E8M0;
      CHECK(group_with(desc) == EREDU_OK);
      desc.has_dtype = 0;
      desc.dtype = 16;  // ignored without the flag
      CHECK(group_with(desc) == EREDU_OK);
      eredu_group_scope scope = EREDU_GROUP_SCOPE_INIT;
      scope.kind = 5;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
    }

    SUBCASE("flags are 0 or 1") {
      CHECK(group_with(good, nullptr, EREDU_ROLE_COLUMN_PROJECTION, 2) == EREDU_E_INVALID_ARGUMENT);
      eredu_member_desc desc = good;
      desc.has_dtype = 2;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      eredu_group_scope scope = EREDU_GROUP_SCOPE_INIT;
      scope.kind = EREDU_SCOPE_INDEXED;
      scope.has_layer = 3;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
    }

    SUBCASE("struct_size") {
      eredu_member_desc desc = good;
      desc.struct_size = 0;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      desc.struct_size = 4097;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      desc.struct_size = offsetof(eredu_member_desc, target) + 2;  // inside a field
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      // A size that ends before `target` leaves it NULL: the member's own
      // NULL-argument check.
      desc.struct_size = offsetof(eredu_member_desc, target);
      CHECK(group_with(desc) == EREDU_E_NULL_ARGUMENT);
      // A scope of only struct_size is EREDU_SCOPE_ALL.
      eredu_group_scope scope = EREDU_GROUP_SCOPE_INIT;
      scope.kind = EREDU_SCOPE_EMBEDDING;
      scope.struct_size = 4;
      CHECK(group_with(good, &scope) == EREDU_OK);
    }

    SUBCASE("UTF-8") {
      CHECK(group_with(good, nullptr, EREDU_ROLE_COLUMN_PROJECTION, 0, "bad\xff") ==
            EREDU_E_INVALID_ARGUMENT);
      eredu_member_desc desc = good;
      desc.target = "w\xc3";
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      desc.target = "w\xc3\xa9";
      CHECK(group_with(desc) == EREDU_OK);
    }

    SUBCASE("fields a sharding kind does not take") {
      eredu_member_desc desc = good;
      desc.sharding = EREDU_SHARDING_REPLICATED;
      desc.axis = 1;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      const std::uint64_t segments[] = {0, 4, 4, 8};
      desc = good;
      desc.segments = segments;
      desc.segment_count = 2;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      desc.sharding = EREDU_SHARDING_SEGMENTED;
      CHECK(group_with(desc) == EREDU_OK);
    }

    SUBCASE("scope flags must match the kind") {
      eredu_group_scope scope = EREDU_GROUP_SCOPE_INIT;
      scope.has_layer = 1;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
      scope.kind = EREDU_SCOPE_TIED_EMBEDDING;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
      scope.has_layer = 0;
      CHECK(group_with(good, &scope) == EREDU_OK);
      scope.kind = EREDU_SCOPE_INDEXED;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
      scope.has_expert = 1;
      CHECK(group_with(good, &scope) == EREDU_OK);
    }
  }

  TEST_CASE("counts too large for memory are argument errors, never INTERNAL") {
    const std::uint64_t shape[] = {8, 8};
    const eredu_member_desc good = equal_member("w", shape, 2);
    // Bytes that no array can hold (more than PTRDIFF_MAX), and the first
    // count whose copy would need more than the 1 TiB eredu allocates at once.
    constexpr std::size_t kNoArray = static_cast<std::size_t>(PTRDIFF_MAX) / 16 + 1;
    constexpr std::size_t kTooBigToCopy = (std::size_t{1} << 40) / 16 + 1;

    SUBCASE("ndim") {
      for (std::size_t ndim : {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 4, SIZE_MAX / 8 + 1,
                               std::size_t{1} << 32, std::size_t{EREDU_MAX_NDIM} + 1}) {
        CAPTURE(ndim);
        eredu_member_desc desc = good;
        desc.ndim = ndim;  // the shape pointer is not NULL and is never read
        CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
        const eredu_member_desc* members[] = {&desc};
        eredu_group* group = garbage<eredu_group>();
        ErrorSlot error;
        CHECK(group_new_with("g", EREDU_ROLE_COLUMN_PROJECTION, 0, 0, nullptr, members, 1, &group,
                             error.slot()) == EREDU_E_INVALID_ARGUMENT);
        CHECK(group == nullptr);
        CHECK(error.message() == "members[0]->ndim is too large: " + std::to_string(ndim) +
                                     " axes, more than the 1024 eredu accepts");
      }
      // A NULL shape is reported first.
      eredu_member_desc desc = good;
      desc.shape = nullptr;
      desc.ndim = SIZE_MAX;
      CHECK(group_with(desc) == EREDU_E_NULL_ARGUMENT);
      // EREDU_MAX_NDIM axes are fine.
      const std::vector<std::uint64_t> ones(EREDU_MAX_NDIM, 1);
      desc = equal_member("w", ones.data(), ones.size());
      desc.sharding = EREDU_SHARDING_REPLICATED;
      CHECK(group_with(desc) == EREDU_OK);
    }

    SUBCASE("segment_count") {
      const std::uint64_t segments[] = {0, 4, 4, 8};
      eredu_member_desc desc = good;
      desc.sharding = EREDU_SHARDING_SEGMENTED;
      desc.segments = segments;
      for (std::size_t count : {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 4, SIZE_MAX / 16, kNoArray}) {
        CAPTURE(count);
        desc.segment_count = count;
        CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
        const eredu_member_desc* members[] = {&desc};
        eredu_group* group = garbage<eredu_group>();
        ErrorSlot error;
        CHECK(group_new_with("g", EREDU_ROLE_SEGMENTED, 0, 0, nullptr, members, 1, &group,
                             error.slot()) == EREDU_E_INVALID_ARGUMENT);
        CHECK(group == nullptr);
        CHECK(error.message().starts_with("members[0]->segment_count is too large: "));
      }
      for (std::size_t count : {kNoArray - 1, kTooBigToCopy}) {
        CAPTURE(count);
        desc.segment_count = count;
        CHECK(group_with(desc) == EREDU_E_OUT_OF_MEMORY);
      }
      desc.segment_count = 2;
      CHECK(group_with(desc) == EREDU_OK);
      // A NULL array with a huge count is reported as NULL first.
      desc.segments = nullptr;
      desc.segment_count = SIZE_MAX;
      CHECK(group_with(desc) == EREDU_E_NULL_ARGUMENT);
    }

    SUBCASE("member_count") {
      const eredu_member_desc* members[] = {&good};
      for (std::size_t count : {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 4, SIZE_MAX / 8,
                                static_cast<std::size_t>(PTRDIFF_MAX) / 8 + 1}) {
        CAPTURE(count);
        eredu_group* group = garbage<eredu_group>();
        ErrorSlot error;
        CHECK(group_new_with("g", EREDU_ROLE_COLUMN_PROJECTION, 0, 0, nullptr, members, count,
                             &group, error.slot()) == EREDU_E_INVALID_ARGUMENT);
        CHECK(group == nullptr);
        CHECK(error.message().starts_with("member_count is too large: "));
      }
      // Too many to copy: refused before allocating or reading members[1].
      for (std::size_t count : {static_cast<std::size_t>(PTRDIFF_MAX) / 8, kTooBigToCopy}) {
        CAPTURE(count);
        eredu_group* group = garbage<eredu_group>();
        ErrorSlot error;
        CHECK(group_new_with("g", EREDU_ROLE_COLUMN_PROJECTION, 0, 0, nullptr, members, count,
                             &group, error.slot()) == EREDU_E_OUT_OF_MEMORY);
        CHECK(group == nullptr);
        CHECK(error.code() == EREDU_E_OUT_OF_MEMORY);
      }
    }

    SUBCASE("group_count") {
      const std::uint64_t one[] = {8};
      const eredu_member_desc desc = equal_member("w", one, 1);
      const eredu_member_desc* members[] = {&desc};
      eredu_group* raw = nullptr;
      REQUIRE(group_new_with("g", 0, 0, 0, nullptr, members, 1, &raw, nullptr) == EREDU_OK);
      Group group(raw);
      const eredu_group* groups[] = {group.get()};
      for (std::size_t count :
           {SIZE_MAX, SIZE_MAX / 4, SIZE_MAX / 8, static_cast<std::size_t>(PTRDIFF_MAX) / 8 + 1}) {
        CAPTURE(count);
        eredu_model* model = garbage<eredu_model>();
        ErrorSlot error;
        CHECK(eredu_model_new(nullptr, groups, count, &model, error.slot()) ==
              EREDU_E_INVALID_ARGUMENT);
        CHECK(model == nullptr);
        CHECK(error.message().starts_with("group_count is too large: "));
      }
    }

    SUBCASE("JSON length") {
      const char text[] = "{}";
      for (std::size_t length : {SIZE_MAX, SIZE_MAX / 2, std::size_t{1} << 32}) {
        CAPTURE(length);
        eredu_model* model = garbage<eredu_model>();
        ErrorSlot error;
        CHECK(eredu_model_from_json(text, length, &model, error.slot()) ==
              EREDU_E_INVALID_ARGUMENT);
        CHECK(model == nullptr);
        CHECK(error.message() == "text is " + std::to_string(length) +
                                     " bytes long, more than the 4294967295 of a JSON document "
                                     "eredu parses");
      }
      eredu_model* model = garbage<eredu_model>();
      CHECK(eredu_model_from_json(nullptr, SIZE_MAX, &model, nullptr) == EREDU_E_NULL_ARGUMENT);
      CHECK(model == nullptr);
      CHECK(eredu_model_from_json(text, 2, &model, nullptr) == EREDU_E_PARSE);
      // The residency document's length is checked the same way, before a
      // byte is read.
      ErrorSlot error;
      CHECK(eredu_residency_from_json(text, SIZE_MAX, 8, nullptr, error.slot()) ==
            EREDU_E_INVALID_ARGUMENT);
      CHECK(error.message() == "text is " + std::to_string(SIZE_MAX) +
                                   " bytes long, more than the 4294967295 of a JSON document "
                                   "eredu parses");
    }
  }

  TEST_CASE("group getters reject misuse") {
    const std::uint64_t shape[] = {8};
    const eredu_member_desc desc = equal_member("w", shape, 1);
    const eredu_member_desc* members[] = {&desc};
    eredu_group* raw = nullptr;
    REQUIRE(group_new_with("g", 0, 0, 0, nullptr, members, 1, &raw, nullptr) == EREDU_OK);
    Group group(raw);

    eredu_group_info info = EREDU_GROUP_INFO_INIT;
    info.member_count = 3;
    CHECK(eredu_group_get_info(nullptr, &info, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(info.member_count == 0);
    CHECK(info.struct_size == sizeof info);
    CHECK(eredu_group_get_info(group.get(), nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_member_desc member = EREDU_MEMBER_DESC_INIT;
    member.target = "x";
    CHECK(eredu_group_member(group.get(), 1, &member, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(member.target == nullptr);
    CHECK(eredu_group_member(nullptr, 0, &member, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_group_member(group.get(), 0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_group_free(nullptr);
  }

  TEST_CASE("model constructors reject misuse") {
    const std::uint64_t shape[] = {8};
    const eredu_member_desc desc = equal_member("w", shape, 1);
    const eredu_member_desc* members[] = {&desc};
    eredu_group* raw = nullptr;
    REQUIRE(group_new_with("g", 0, 0, 0, nullptr, members, 1, &raw, nullptr) == EREDU_OK);
    Group group(raw);
    const eredu_group* groups[] = {group.get()};

    eredu_model* model = garbage<eredu_model>();
    ErrorSlot error;
    CHECK(eredu_model_new(nullptr, groups, 1, nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_model_new(nullptr, nullptr, 1, &model, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(model == nullptr);
    const eredu_group* holes[] = {group.get(), nullptr};
    CHECK(eredu_model_new(nullptr, holes, 2, &model, nullptr) == EREDU_E_NULL_ARGUMENT);

    // An empty model from a NULL array is fine.
    CHECK(eredu_model_new(nullptr, nullptr, 0, &model, error.slot()) == EREDU_OK);
    CHECK(error.get() == nullptr);
    REQUIRE(model != nullptr);
    eredu_model_free(model);

    eredu_model_info info = EREDU_MODEL_INFO_INIT;
    info.struct_size = 1;
    model = garbage<eredu_model>();
    CHECK(eredu_model_new(&info, groups, 1, &model, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(model == nullptr);
    info = EREDU_MODEL_INFO_INIT;
    info.has_layers = 2;
    CHECK(eredu_model_new(&info, groups, 1, &model, nullptr) == EREDU_E_INVALID_ARGUMENT);
    info = EREDU_MODEL_INFO_INIT;
    info.has_experts = 7;
    CHECK(eredu_model_new(&info, groups, 1, &model, nullptr) == EREDU_E_INVALID_ARGUMENT);
    info = EREDU_MODEL_INFO_INIT;
    info.name = "\xfe";
    CHECK(eredu_model_new(&info, groups, 1, &model, nullptr) == EREDU_E_INVALID_ARGUMENT);
    info = EREDU_MODEL_INFO_INIT;
    info.has_layers = 1;
    info.layers = 0;
    CHECK(eredu_model_new(&info, groups, 1, &model, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.code() == EREDU_E_INVALID_ARGUMENT);
    CHECK(model == nullptr);

    CHECK(eredu_model_from_json("{}", 2, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_model_free(nullptr);
  }

  TEST_CASE("model accessors of a NULL model are 0") {
    CHECK(eredu_model_tensor_count(nullptr) == 0);
    CHECK(eredu_model_group_count(nullptr) == 0);
    CHECK(eredu_model_global_bytes(nullptr) == 0);
    CHECK(eredu_layout_tensor_count(nullptr) == 0);
  }

  TEST_CASE("eredu_plan_rank rejects misuse") {
    const auto model = new_model({});
    REQUIRE(model.status == EREDU_OK);
    const eredu_topology single = EREDU_TOPOLOGY_INIT;
    eredu_layout* layout = garbage<eredu_layout>();
    ErrorSlot error;
    CHECK(eredu_plan_rank(nullptr, &single, 0, nullptr, &layout, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(layout == nullptr);
    CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_plan_rank(model.handle.get(), nullptr, 0, nullptr, &layout, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(error.message() == "argument topology is NULL");
    CHECK(eredu_plan_rank(model.handle.get(), &single, 0, nullptr, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    layout = garbage<eredu_layout>();
    const eredu_plan_options bad_policy = options_of(3);
    CHECK(eredu_plan_rank(model.handle.get(), &single, 0, &bad_policy, &layout, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(layout == nullptr);
    CHECK(error.message() == "unknown options->policy value 3");
    // Argument errors come before topology errors.
    CHECK(plan(model.handle.get(), 0, 1, 1, 1, 0, 7).status == EREDU_E_INVALID_ARGUMENT);
    eredu_topology bad_size = single;
    bad_size.struct_size = 2;
    CHECK(eredu_plan_rank(model.handle.get(), &bad_size, 0, nullptr, &layout, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message().find("topology->struct_size is 2") == 0);
    // A failed plan publishes nothing.
    layout = garbage<eredu_layout>();
    CHECK(eredu_plan_rank(model.handle.get(), &single, 1, nullptr, &layout, nullptr) ==
          EREDU_E_RANK_OUT_OF_RANGE);
    CHECK(layout == nullptr);
  }

  TEST_CASE("layout getters reject misuse and zero their outputs") {
    const Planned planned = planned_down();
    const eredu_layout* layout = planned.layout.handle.get();
    eredu_topology topology = EREDU_TOPOLOGY_INIT;
    CHECK(eredu_layout_topology(nullptr, &topology, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK((topology.tensor | topology.pipeline | topology.expert | topology.data) == 0);
    CHECK(topology.struct_size == sizeof topology);
    CHECK(eredu_layout_topology(layout, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_layout_info info = EREDU_LAYOUT_INFO_INIT;
    info.rank = 3;
    CHECK(eredu_layout_get_info(nullptr, &info, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(info.rank == 0);
    CHECK(eredu_layout_get_info(layout, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);

    std::size_t index = 1;
    CHECK(eredu_layout_find_tensor(layout, nullptr, &index, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(index == 0);
    CHECK(eredu_layout_find_tensor(layout, "down.weight", nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_layout_find_tensor(layout, "down\xff", &index, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);

    // Index 1 is out of range for one tensor; every covered field is zeroed.
    eredu_layout_tensor_info tensor = EREDU_LAYOUT_TENSOR_INFO_INIT;
    tensor.target = "x";
    tensor.local_ndim = 4;
    tensor.has_dtype = 1;
    ErrorSlot error;
    CHECK(eredu_layout_get_tensor_info(layout, 1, &tensor, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "tensor index 1 is out of range (count 1)");
    CHECK(tensor.target == nullptr);
    CHECK(tensor.local_ndim == 0);
    CHECK(tensor.has_dtype == 0);
    CHECK(tensor.struct_size == sizeof tensor);
    CHECK(eredu_layout_get_tensor_info(layout, SIZE_MAX, &tensor, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_layout_get_tensor_info(nullptr, 0, &tensor, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_layout_get_tensor_info(layout, 0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);

    char* json = garbage<char>();
    std::size_t length = 5;
    CHECK(eredu_layout_to_json(nullptr, &json, &length, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(json == nullptr);
    CHECK(length == 0);
    CHECK(eredu_layout_to_json(layout, nullptr, &length, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_layout_free(nullptr);
  }

  TEST_CASE("sized output structs: written only up to the caller's size") {
    const Planned planned = planned_down();
    const eredu_layout* layout = planned.layout.handle.get();

    eredu_layout_tensor_info info = EREDU_LAYOUT_TENSOR_INFO_INIT;
    CHECK(eredu_layout_get_tensor_info(layout, 0, &info, nullptr) == EREDU_OK);
    CHECK(info.placement == EREDU_PLACEMENT_SHARD);
    CHECK(info.shard_parts == 2);

    // An invalid struct_size is rejected and nothing is written.
    ErrorSlot error;
    std::memset(&info, 0x5a, sizeof info);
    info.struct_size = 2;
    CHECK(eredu_layout_get_tensor_info(layout, 0, &info, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message().find("struct_size") != std::string::npos);
    CHECK(info.struct_size == 2);
    CHECK(info.axis == 0x5a5a5a5a5a5a5a5aULL);

    // A caller struct that ends before `placement` gets the fields before it
    // only; the bytes past its size are never touched.
    std::memset(&info, 0x5a, sizeof info);
    info.struct_size = offsetof(eredu_layout_tensor_info, placement);
    CHECK(eredu_layout_get_tensor_info(layout, 0, &info, nullptr) == EREDU_OK);
    CHECK(std::string(info.target) == "down.weight");
    CHECK(info.local_ndim == 2);
    CHECK(info.placement == 0x5a5a5a5aU);
    CHECK(info.axis == 0x5a5a5a5a5a5a5a5aULL);

    // A larger caller struct gets zeros past this library's fields.
    struct Larger {
      eredu_layout_info info;
      std::uint64_t later_field;
    } larger;
    std::memset(&larger, 0x5a, sizeof larger);
    larger.info.struct_size = sizeof larger;
    CHECK(eredu_layout_get_info(layout, &larger.info, nullptr) == EREDU_OK);
    CHECK(larger.info.struct_size == sizeof larger);
    CHECK(larger.info.tensor_count == 1);
    CHECK(larger.later_field == 0);
  }
}
