// API misuse: NULL pointers, unknown enum values, bad flags, wrong
// struct_size, bad UTF-8, out-of-range indices; out-parameters zeroed on
// failure, `*error` cleared on success; status names and versions.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

/// A value that no call may leave behind in an out-parameter.
template <class T>
T* garbage() {
  return reinterpret_cast<T*>(std::uintptr_t{0x1234});
}

eredu_member_desc equal_member(const char* target, const std::uint64_t* shape, std::size_t ndim) {
  eredu_member_desc desc;
  eredu_member_desc_init(&desc, nullptr);
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
      eredu_group_new(name, role, has_units, 4, scope, members, 1, &group, &error);
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
  REQUIRE(eredu_group_new("down", EREDU_ROLE_ROW_PROJECTION, 0, 0, nullptr, members, 1, &group,
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
    for (eredu_status unknown : {-1, 12, 98, 211, 1000, INT32_MIN, INT32_MAX}) {
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

  TEST_CASE("error objects") {
    CHECK(eredu_error_code(nullptr) == EREDU_OK);
    CHECK(std::string(eredu_error_message(nullptr)).empty());
    eredu_error_free(nullptr);

    // An error slot left NULL still gets the status.
    CHECK(eredu_group_new(nullptr, 0, 0, 0, nullptr, nullptr, 0, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    // Success clears a stale pointer in the slot.
    eredu_member_desc desc;
    eredu_error* error = garbage<eredu_error>();
    CHECK(eredu_member_desc_init(&desc, &error) == EREDU_OK);
    CHECK(error == nullptr);
  }

  TEST_CASE("init functions") {
    eredu_member_desc desc;
    std::memset(&desc, 0xff, sizeof desc);
    REQUIRE(eredu_member_desc_init(&desc, nullptr) == EREDU_OK);
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
    REQUIRE(eredu_model_info_init(&info, nullptr) == EREDU_OK);
    CHECK(info.struct_size == sizeof(eredu_model_info));
    CHECK(info.name == nullptr);
    CHECK(info.has_layers == 0);
    CHECK(info.has_experts == 0);

    ErrorSlot error;
    CHECK(eredu_member_desc_init(nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_group_scope_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_model_info_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_placement_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_layout_totals_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  }

  TEST_CASE("eredu_group_new rejects misuse") {
    const std::uint64_t shape[] = {8, 8};
    const eredu_member_desc good = equal_member("w", shape, 2);
    REQUIRE(group_with(good) == EREDU_OK);

    SUBCASE("NULL pointers") {
      const eredu_member_desc* members[] = {&good};
      eredu_group* group = garbage<eredu_group>();
      ErrorSlot error;
      CHECK(eredu_group_new(nullptr, 0, 0, 0, nullptr, members, 1, &group, error.slot()) ==
            EREDU_E_NULL_ARGUMENT);
      CHECK(group == nullptr);
      CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
      CHECK(eredu_group_new("g", 0, 0, 0, nullptr, members, 1, nullptr, error.slot()) ==
            EREDU_E_NULL_ARGUMENT);
      group = garbage<eredu_group>();
      CHECK(eredu_group_new("g", 0, 0, 0, nullptr, nullptr, 1, &group, nullptr) ==
            EREDU_E_NULL_ARGUMENT);
      CHECK(group == nullptr);
      const eredu_member_desc* holes[] = {&good, nullptr};
      CHECK(eredu_group_new("g", 0, 0, 0, nullptr, holes, 2, &group, error.slot()) ==
            EREDU_E_NULL_ARGUMENT);
      CHECK(error.message() == "argument members[1] is NULL");

      eredu_member_desc desc = good;
      desc.target = nullptr;
      CHECK(group_with(desc) == EREDU_E_NULL_ARGUMENT);
      const eredu_member_desc* untargeted[] = {&desc};
      CHECK(eredu_group_new("g", 0, 0, 0, nullptr, untargeted, 1, &group, error.slot()) ==
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
      eredu_group_scope scope;
      eredu_group_scope_init(&scope, nullptr);
      scope.kind = 5;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
    }

    SUBCASE("flags are 0 or 1") {
      CHECK(group_with(good, nullptr, EREDU_ROLE_COLUMN_PROJECTION, 2) == EREDU_E_INVALID_ARGUMENT);
      eredu_member_desc desc = good;
      desc.has_dtype = 2;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      eredu_group_scope scope;
      eredu_group_scope_init(&scope, nullptr);
      scope.kind = EREDU_SCOPE_INDEXED;
      scope.has_layer = 3;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
    }

    SUBCASE("struct_size") {
      eredu_member_desc desc = good;
      desc.struct_size = 0;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      desc.struct_size = sizeof(eredu_member_desc) + 8;
      CHECK(group_with(desc) == EREDU_E_INVALID_ARGUMENT);
      eredu_group_scope scope;
      eredu_group_scope_init(&scope, nullptr);
      scope.struct_size = 4;
      CHECK(group_with(good, &scope) == EREDU_E_INVALID_ARGUMENT);
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
      eredu_group_scope scope;
      eredu_group_scope_init(&scope, nullptr);
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
        CHECK(eredu_group_new("g", EREDU_ROLE_COLUMN_PROJECTION, 0, 0, nullptr, members, 1, &group,
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
        CHECK(eredu_group_new("g", EREDU_ROLE_SEGMENTED, 0, 0, nullptr, members, 1, &group,
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
        CHECK(eredu_group_new("g", EREDU_ROLE_COLUMN_PROJECTION, 0, 0, nullptr, members, count,
                              &group, error.slot()) == EREDU_E_INVALID_ARGUMENT);
        CHECK(group == nullptr);
        CHECK(error.message().starts_with("member_count is too large: "));
      }
      // Too many to copy: refused before allocating or reading members[1].
      for (std::size_t count : {static_cast<std::size_t>(PTRDIFF_MAX) / 8, kTooBigToCopy}) {
        CAPTURE(count);
        eredu_group* group = garbage<eredu_group>();
        ErrorSlot error;
        CHECK(eredu_group_new("g", EREDU_ROLE_COLUMN_PROJECTION, 0, 0, nullptr, members, count,
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
      REQUIRE(eredu_group_new("g", 0, 0, 0, nullptr, members, 1, &raw, nullptr) == EREDU_OK);
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
        CHECK(error.message() == "length is too large: " + std::to_string(length) +
                                     " bytes, more than the 4294967295 of a JSON document eredu "
                                     "parses");
      }
      eredu_model* model = garbage<eredu_model>();
      CHECK(eredu_model_from_json(nullptr, SIZE_MAX, &model, nullptr) == EREDU_E_NULL_ARGUMENT);
      CHECK(model == nullptr);
      CHECK(eredu_model_from_json(text, 2, &model, nullptr) == EREDU_E_PARSE);
    }
  }

  TEST_CASE("group getters reject misuse") {
    const std::uint64_t shape[] = {8};
    const eredu_member_desc desc = equal_member("w", shape, 1);
    const eredu_member_desc* members[] = {&desc};
    eredu_group* raw = nullptr;
    REQUIRE(eredu_group_new("g", 0, 0, 0, nullptr, members, 1, &raw, nullptr) == EREDU_OK);
    Group group(raw);

    const char* text = "x";
    std::size_t length = 3;
    CHECK(eredu_group_name(nullptr, &text, &length, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(text == nullptr);
    CHECK(length == 0);
    CHECK(eredu_group_name(group.get(), nullptr, &length, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_role role = 3;
    CHECK(eredu_group_role(nullptr, &role, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(role == 0);
    CHECK(eredu_group_role(group.get(), nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    std::uint64_t units = 3;
    bool present = true;
    CHECK(eredu_group_partition_units(group.get(), &units, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(units == 0);
    CHECK(eredu_group_partition_units(group.get(), nullptr, &present, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK_FALSE(present);
    std::size_t count = 3;
    CHECK(eredu_group_member_count(nullptr, &count, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(count == 0);
    text = "x";
    CHECK(eredu_group_member_target(group.get(), 1, &text, nullptr, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(text == nullptr);
    CHECK(eredu_group_member_target(nullptr, 0, &text, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_group_free(nullptr);
  }

  TEST_CASE("model constructors reject misuse") {
    const std::uint64_t shape[] = {8};
    const eredu_member_desc desc = equal_member("w", shape, 1);
    const eredu_member_desc* members[] = {&desc};
    eredu_group* raw = nullptr;
    REQUIRE(eredu_group_new("g", 0, 0, 0, nullptr, members, 1, &raw, nullptr) == EREDU_OK);
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

    eredu_model_info info;
    eredu_model_info_init(&info, nullptr);
    info.struct_size = 1;
    model = garbage<eredu_model>();
    CHECK(eredu_model_new(&info, groups, 1, &model, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(model == nullptr);
    eredu_model_info_init(&info, nullptr);
    info.has_layers = 2;
    CHECK(eredu_model_new(&info, groups, 1, &model, nullptr) == EREDU_E_INVALID_ARGUMENT);
    eredu_model_info_init(&info, nullptr);
    info.has_experts = 7;
    CHECK(eredu_model_new(&info, groups, 1, &model, nullptr) == EREDU_E_INVALID_ARGUMENT);
    eredu_model_info_init(&info, nullptr);
    info.name = "\xfe";
    CHECK(eredu_model_new(&info, groups, 1, &model, nullptr) == EREDU_E_INVALID_ARGUMENT);
    eredu_model_info_init(&info, nullptr);
    info.has_layers = 1;
    info.layers = 0;
    CHECK(eredu_model_new(&info, groups, 1, &model, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.code() == EREDU_E_INVALID_ARGUMENT);
    CHECK(model == nullptr);

    CHECK(eredu_model_from_json("{}", 2, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_model_free(nullptr);
  }

  TEST_CASE("model getters reject misuse") {
    std::size_t count = 3;
    std::uint64_t bytes = 3;
    CHECK(eredu_model_tensor_count(nullptr, &count, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(count == 0);
    count = 3;
    CHECK(eredu_model_group_count(nullptr, &count, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(count == 0);
    CHECK(eredu_model_global_bytes(nullptr, &bytes, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(bytes == 0);
    const auto empty = new_model({});
    REQUIRE(empty.status == EREDU_OK);
    CHECK(eredu_model_tensor_count(empty.handle.get(), nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_model_group_count(empty.handle.get(), nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_model_global_bytes(empty.handle.get(), nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  }

  TEST_CASE("eredu_plan_rank rejects misuse") {
    const auto model = new_model({});
    REQUIRE(model.status == EREDU_OK);
    eredu_layout* layout = garbage<eredu_layout>();
    ErrorSlot error;
    CHECK(eredu_plan_rank(nullptr, 1, 1, 1, 1, 0, EREDU_POLICY_REQUIRE, &layout, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(layout == nullptr);
    CHECK(error.code() == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_plan_rank(model.handle.get(), 1, 1, 1, 1, 0, EREDU_POLICY_REQUIRE, nullptr,
                          nullptr) == EREDU_E_NULL_ARGUMENT);
    layout = garbage<eredu_layout>();
    CHECK(eredu_plan_rank(model.handle.get(), 1, 1, 1, 1, 0, 2, &layout, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(layout == nullptr);
    CHECK(error.message().find("policy") != std::string::npos);
    // Argument errors come before topology errors.
    CHECK(plan(model.handle.get(), 0, 1, 1, 1, 0, 7).status == EREDU_E_INVALID_ARGUMENT);
    // A failed plan publishes nothing.
    layout = garbage<eredu_layout>();
    CHECK(eredu_plan_rank(model.handle.get(), 1, 1, 1, 1, 1, EREDU_POLICY_REQUIRE, &layout,
                          nullptr) == EREDU_E_RANK_OUT_OF_RANGE);
    CHECK(layout == nullptr);
  }

  TEST_CASE("layout getters reject misuse and zero their outputs") {
    const Planned planned = planned_down();
    const eredu_layout* layout = planned.layout.handle.get();
    std::uint64_t a = 1, b = 1, c = 1, d = 1;
    CHECK(eredu_layout_topology(nullptr, &a, &b, &c, &d, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK((a | b | c | d) == 0);
    a = b = c = d = 1;
    CHECK(eredu_layout_topology(layout, &a, &b, nullptr, &d, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK((a | b | d) == 0);
    a = b = c = d = 1;
    CHECK(eredu_layout_coordinates(layout, &a, &b, &c, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK((a | b | c) == 0);
    CHECK(eredu_layout_rank(layout, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    a = 1;
    CHECK(eredu_layout_rank(nullptr, &a, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(a == 0);
    eredu_policy policy = 1;
    CHECK(eredu_layout_policy(nullptr, &policy, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(policy == 0);
    std::size_t count = 1;
    CHECK(eredu_layout_tensor_count(nullptr, &count, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(count == 0);
    CHECK(eredu_layout_tensor_count(layout, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);

    std::size_t index = 1;
    CHECK(eredu_layout_find_tensor(layout, nullptr, &index, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(index == 0);
    CHECK(eredu_layout_find_tensor(layout, "down.weight", nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_layout_find_tensor(layout, "down\xff", &index, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);

    // Every index getter: index 1 is out of range for one tensor.
    const char* text = "x";
    std::size_t length = 1;
    CHECK(eredu_layout_tensor_target(layout, 1, &text, &length, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(text == nullptr);
    CHECK(length == 0);
    CHECK(eredu_layout_tensor_target(layout, 0, nullptr, &length, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    text = "x";
    CHECK(eredu_layout_tensor_logical_name(layout, 1, &text, nullptr, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(text == nullptr);
    CHECK(eredu_layout_tensor_logical_name(nullptr, 0, &text, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    eredu_role role = 4;
    CHECK(eredu_layout_tensor_role(layout, 1, &role, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(role == 0);
    CHECK(eredu_layout_tensor_role(layout, 0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_dtype dtype = 4;
    bool present = true;
    CHECK(eredu_layout_tensor_dtype(layout, 1, &dtype, &present, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(dtype == 0);
    CHECK_FALSE(present);
    CHECK(eredu_layout_tensor_dtype(layout, 0, &dtype, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    const std::uint64_t* shape = &a;
    std::size_t ndim = 4;
    CHECK(eredu_layout_tensor_global_shape(layout, 1, &shape, &ndim, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(shape == nullptr);
    CHECK(ndim == 0);
    CHECK(eredu_layout_tensor_global_shape(layout, 0, &shape, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    shape = &a;
    CHECK(eredu_layout_tensor_local_shape(layout, 1, &shape, &ndim, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(shape == nullptr);
    CHECK(eredu_layout_tensor_local_shape(layout, 0, nullptr, &ndim, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    a = b = 1;
    present = true;
    CHECK(eredu_layout_tensor_logical_units(layout, 1, &a, &present, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(a == 0);
    CHECK_FALSE(present);
    CHECK(eredu_layout_tensor_logical_units(layout, 0, nullptr, &present, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    a = b = 1;
    present = true;
    CHECK(eredu_layout_tensor_logical_range(layout, 1, &a, &b, &present, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK((a | b) == 0);
    CHECK_FALSE(present);
    CHECK(eredu_layout_tensor_logical_range(layout, 0, &a, &b, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    bool flag = true;
    CHECK(eredu_layout_tensor_fell_back(layout, 1, &flag, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK_FALSE(flag);
    CHECK(eredu_layout_tensor_fell_back(layout, 0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    a = 1;
    present = true;
    CHECK(eredu_layout_tensor_local_bytes(layout, SIZE_MAX, &a, &present, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(a == 0);
    CHECK_FALSE(present);
    CHECK(eredu_layout_tensor_local_bytes(layout, 0, &a, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    char* json = garbage<char>();
    length = 5;
    CHECK(eredu_layout_to_json(nullptr, &json, &length, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(json == nullptr);
    CHECK(length == 0);
    CHECK(eredu_layout_to_json(layout, nullptr, &length, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_layout_free(nullptr);
  }

  TEST_CASE("sized output structs") {
    const Planned planned = planned_down();
    const eredu_layout* layout = planned.layout.handle.get();

    eredu_placement placement;
    REQUIRE(eredu_placement_init(&placement, nullptr) == EREDU_OK);
    CHECK(placement.struct_size == sizeof(eredu_placement));
    CHECK(eredu_layout_tensor_placement(layout, 0, &placement, nullptr) == EREDU_OK);
    CHECK(placement.kind == EREDU_PLACEMENT_SHARD);

    // Failure zeroes the fields and keeps struct_size.
    ErrorSlot error;
    CHECK(eredu_layout_tensor_placement(layout, 1, &placement, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(placement.struct_size == sizeof(eredu_placement));
    CHECK(placement.kind == 0);
    CHECK(placement.parts == 0);
    CHECK(eredu_layout_tensor_placement(layout, 0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);

    // A wrong struct_size is rejected and nothing is written.
    std::memset(&placement, 0x5a, sizeof placement);
    placement.struct_size = sizeof(eredu_placement) - 8;
    CHECK(eredu_layout_tensor_placement(layout, 0, &placement, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message().find("struct_size") != std::string::npos);
    CHECK(placement.struct_size == sizeof(eredu_placement) - 8);
    CHECK(placement.axis == 0x5a5a5a5a5a5a5a5aULL);

    eredu_layout_totals totals;
    std::memset(&totals, 0x5a, sizeof totals);
    totals.struct_size = 0;
    CHECK(eredu_layout_get_totals(layout, &totals, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(totals.local_bytes == 0x5a5a5a5a5a5a5a5aULL);
    eredu_layout_totals_init(&totals, nullptr);
    totals.local_bytes = 9;
    CHECK(eredu_layout_get_totals(nullptr, &totals, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(totals.struct_size == sizeof(eredu_layout_totals));
    CHECK(totals.local_bytes == 0);
    CHECK(eredu_layout_get_totals(layout, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  }
}
