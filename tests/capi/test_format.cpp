// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The seed's linear-format expansion, projection helpers and
// ParallelModelInfo through the C API only (eredu/format.h,
// eredu/runtime/projection.h), the sized-struct rule of their structs, and misuse.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "capi_support.hpp"
#include "sized_checks.hpp"

using namespace capi_test;

namespace {

struct MemberListFree {
  void operator()(eredu_member_list* list) const { eredu_member_list_free(list); }
};
using MemberList = std::unique_ptr<eredu_member_list, MemberListFree>;
struct InfoFree {
  void operator()(eredu_parallel_model_info* info) const { eredu_parallel_model_info_free(info); }
};
using Info = std::unique_ptr<eredu_parallel_model_info, InfoFree>;

/// A member as read back through eredu_member_list_get.
struct Member {
  std::string target;
  Shape shape;
  std::optional<eredu_dtype> dtype;
  eredu_sharding_kind sharding = EREDU_SHARDING_REPLICATED;
  std::uint64_t axis = 0;
  std::vector<std::uint64_t> segments;
  friend bool operator==(const Member&, const Member&) = default;
};

Member member_of(const eredu_member_desc& desc) {
  Member member;
  member.target = desc.target;
  member.shape.assign(desc.shape, desc.shape + desc.ndim);
  if (desc.has_dtype == 1) member.dtype = desc.dtype;
  member.sharding = desc.sharding;
  member.axis = desc.axis;
  member.segments.assign(desc.segments, desc.segments + 2 * desc.segment_count);
  return member;
}

std::vector<Member> read(const eredu_member_list* list) {
  std::vector<Member> members;
  for (std::size_t i = 0; i < eredu_member_list_count(list); ++i) {
    eredu_member_desc desc = EREDU_MEMBER_DESC_INIT;
    REQUIRE(eredu_member_list_get(list, i, &desc, nullptr) == EREDU_OK);
    members.push_back(member_of(desc));
  }
  return members;
}

eredu_group_info group_info(const eredu_group* group) {
  eredu_group_info info = EREDU_GROUP_INFO_INIT;
  REQUIRE(eredu_group_get_info(group, &info, nullptr) == EREDU_OK);
  return info;
}

std::vector<Member> members_of(const eredu_group* group) {
  std::vector<Member> members;
  for (std::size_t i = 0; i < group_info(group).member_count; ++i) {
    eredu_member_desc desc = EREDU_MEMBER_DESC_INIT;
    REQUIRE(eredu_group_member(group, i, &desc, nullptr) == EREDU_OK);
    members.push_back(member_of(desc));
  }
  return members;
}

/// The group's logical units, or nullopt when it is not partitioned.
std::optional<std::uint64_t> units_of(const eredu_group* group) {
  const eredu_group_info info = group_info(group);
  if (info.has_partition_units == 0) return std::nullopt;
  return info.partition_units;
}

Member expected(std::string target, Shape shape, std::optional<eredu_dtype> dtype,
                eredu_sharding_kind sharding = EREDU_SHARDING_REPLICATED, std::uint64_t axis = 0,
                std::vector<std::uint64_t> segments = {}) {
  return Member{std::move(target), std::move(shape), dtype, sharding, axis, std::move(segments)};
}

eredu_linear_format format_of(eredu_linear_format_kind kind) {
  eredu_linear_format format = EREDU_LINEAR_FORMAT_INIT;
  format.kind = kind;
  return format;
}

eredu_linear_format affine(std::int32_t group, std::int32_t bits) {
  eredu_linear_format format = format_of(EREDU_LINEAR_FORMAT_AFFINE);
  format.affine_group_size = group;
  format.affine_bits = bits;
  return format;
}

eredu_linear_format gguf(std::uint32_t code) {
  eredu_linear_format format = format_of(EREDU_LINEAR_FORMAT_GGUF);
  format.ggml_type = code;
  return format;
}

eredu_linear_format block_fp8(std::int32_t rows, std::int32_t columns,
                              eredu_block_fp8_scale_encoding encoding) {
  eredu_linear_format format = format_of(EREDU_LINEAR_FORMAT_BLOCK_FP8);
  format.block_rows = rows;
  format.block_columns = columns;
  format.scale_encoding = encoding;
  return format;
}

eredu_linear_format_spec spec_of(const eredu_linear_format* format, const char* scale = nullptr,
                                 const char* bias = nullptr) {
  eredu_linear_format_spec spec = EREDU_LINEAR_FORMAT_SPEC_INIT;
  spec.format = format;
  spec.scale = scale;
  spec.affine_bias = bias;
  return spec;
}

/// One member descriptor that owns nothing: the caller keeps the data.
eredu_member_desc desc_of(const MemberSpec& member) {
  eredu_member_desc desc;
  REQUIRE(eredu_member_desc_init(&desc, sizeof desc, nullptr) == EREDU_OK);
  desc.target = member.target.c_str();
  desc.shape = member.shape.data();
  desc.ndim = member.shape.size();
  desc.has_dtype = member.dtype ? 1 : 0;
  desc.dtype = member.dtype.value_or(0);
  desc.sharding = member.sharding;
  desc.axis = member.axis;
  desc.segments = member.segments.data();
  desc.segment_count = member.segments.size() / 2;
  return desc;
}

MemberSpec typed(MemberSpec member, std::optional<eredu_dtype> dtype) {
  member.dtype = dtype;
  return member;
}

Made<MemberList> expand_member(const MemberSpec& member, const eredu_linear_format_spec& spec) {
  const eredu_member_desc desc = desc_of(member);
  Made<MemberList> made;
  eredu_member_list* list = nullptr;
  ErrorSlot error;
  made.status = eredu_expand_linear_format_member(&desc, &spec, &list, error.slot());
  made.handle.reset(list);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

Made<Group> expand_group(const eredu_group* group,
                         const std::vector<const eredu_linear_format_spec*>& specs) {
  Made<Group> made;
  eredu_group* out = nullptr;
  ErrorSlot error;
  made.status =
      eredu_expand_linear_format_group(group, specs.data(), specs.size(), &out, error.slot());
  made.handle.reset(out);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

std::pair<eredu_status, std::string> status_of(eredu_status status, const ErrorSlot& error) {
  return {status, error.message()};
}

std::vector<eredu_module_parameter> parameters(
    const std::vector<std::pair<const char*, const Shape*>>& items) {
  std::vector<eredu_module_parameter> result(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    REQUIRE(eredu_module_parameter_init(&result[i], sizeof result[i], nullptr) == EREDU_OK);
    result[i].id = items[i].first;
    result[i].shape = items[i].second->data();
    result[i].ndim = items[i].second->size();
  }
  return result;
}

std::vector<const eredu_module_parameter*> pointers(const std::vector<eredu_module_parameter>& v) {
  std::vector<const eredu_module_parameter*> result;
  for (const auto& item : v) result.push_back(&item);
  return result;
}

}  // namespace

TEST_SUITE("capi.format") {
  TEST_CASE("seed: fp8 expansion uses architecture-declared companion identity") {
    const auto query =
        new_group("query", EREDU_ROLE_ATTENTION_HEADS, 8,
                  {sharded("opaque_matrix", {256, 256}, EREDU_SHARDING_PARTITIONED, 0)});
    REQUIRE(query.status == EREDU_OK);
    const eredu_linear_format fp8 = block_fp8(128, 128, EREDU_BLOCK_FP8_SCALE_UE8M0);
    const eredu_linear_format_spec spec = spec_of(&fp8, "opaque_scale");
    const auto expanded = expand_group(query.handle.get(), {&spec});
    REQUIRE(expanded.status == EREDU_OK);
    CHECK(units_of(expanded.handle.get()) == 2);
    CHECK(
        members_of(expanded.handle.get()) ==
        std::vector{
            expected("opaque_matrix", {256, 256}, EREDU_DTYPE_F32, EREDU_SHARDING_PARTITIONED, 0),
            expected("opaque_scale", {2, 2}, EREDU_DTYPE_F8_E8M0, EREDU_SHARDING_PARTITIONED, 0)});
    // The input group is unchanged.
    CHECK(members_of(query.handle.get()).size() == 1);
  }

  TEST_CASE("seed: preferred partition units follow every physical companion") {
    const MemberSpec up = sharded("experts.up_proj", {4, 64, 16}, EREDU_SHARDING_PARTITIONED, 1);
    const MemberSpec down = sharded("experts.down_proj", {4, 16, 8}, EREDU_SHARDING_PARTITIONED, 2);
    const MemberSpec scales =
        sharded("experts.down_proj_scales", {4, 16, 2}, EREDU_SHARDING_PARTITIONED, 2);
    const eredu_member_desc descs[] = {desc_of(up), desc_of(down), desc_of(scales)};
    const eredu_member_desc* members[] = {&descs[0], &descs[1], &descs[2]};
    eredu_group* group = nullptr;
    REQUIRE(eredu_partitioned_group_with_preferred_units(
                "experts.intermediate", EREDU_ROLE_EXPERT_INTERMEDIATE, 64, nullptr, members, 3,
                &group, nullptr) == EREDU_OK);
    Group owned(group);
    CHECK(units_of(group) == 2);

    ErrorSlot error;
    const MemberSpec missing = sharded("w", {8}, EREDU_SHARDING_PARTITIONED, 1);
    const eredu_member_desc missing_desc = desc_of(missing);
    const eredu_member_desc* missing_members[] = {&missing_desc};
    group = reinterpret_cast<eredu_group*>(&error);  // must be reset to NULL
    CHECK(status_of(
              eredu_partitioned_group_with_preferred_units(
                  "m", EREDU_ROLE_CHANNELS, 4, nullptr, missing_members, 1, &group, error.slot()),
              error) == std::pair<eredu_status, std::string>{
                            EREDU_E_INVALID_TENSOR, "partitioned parameter w has no axis 1"});
    CHECK(group == nullptr);
  }

  TEST_CASE("seed: segmented projection applies identical ranges to every fused companion") {
    const Shape w{12, 8}, s{12, 2}, dw{8, 6}, ds{8, 2}, db{8};
    const auto fused =
        parameters({{"gate_up.weight", &w}, {"gate_up.scales", &s}, {"gate_up.biases", &s}});
    const auto row = parameters({{"down.weight", &dw}, {"down.scales", &ds}, {"down.bias", &db}});
    const auto fused_pointers = pointers(fused);
    const auto row_pointers = pointers(row);
    const std::uint64_t segments[] = {0, 4, 4, 8, 8, 12};
    eredu_group* group = nullptr;
    REQUIRE(eredu_segmented_projection_group(
                "mlp.projections", EREDU_ROLE_FEED_FORWARD_INTERMEDIATE, nullptr,
                fused_pointers.data(), fused_pointers.size(), row_pointers.data(),
                row_pointers.size(), segments, 3, 2, &group, nullptr) == EREDU_OK);
    Group owned(group);
    CHECK(units_of(group) == 2);
    const std::vector<std::uint64_t> thirds{0, 4, 4, 8, 8, 12};
    const auto seg = EREDU_SHARDING_PARTITIONED_SEGMENTS;
    CHECK(members_of(group) ==
          std::vector{expected("gate_up.weight", {12, 8}, std::nullopt, seg, 0, thirds),
                      expected("gate_up.scales", {12, 2}, std::nullopt, seg, 0, thirds),
                      expected("gate_up.biases", {12, 2}, std::nullopt, seg, 0, thirds),
                      expected("down.weight", {8, 6}, std::nullopt, EREDU_SHARDING_PARTITIONED, 1),
                      expected("down.scales", {8, 2}, std::nullopt, EREDU_SHARDING_PARTITIONED, 1),
                      expected("down.bias", {8}, std::nullopt)});
  }

  TEST_CASE("seed: segmented projection rejects one misaligned companion atomically") {
    const Shape w{12, 8}, s{11, 2}, o{8, 4};
    const auto fused = parameters({{"qkv.weight", &w}, {"qkv.scales", &s}});
    const auto row = parameters({{"output.weight", &o}});
    const auto fused_pointers = pointers(fused);
    const auto row_pointers = pointers(row);
    const std::uint64_t segments[] = {0, 4, 4, 8, 8, 12};
    eredu_group* group = nullptr;
    ErrorSlot error;
    CHECK(eredu_segmented_projection_group("attention.projections", EREDU_ROLE_ATTENTION_HEADS,
                                           nullptr, fused_pointers.data(), 2, row_pointers.data(),
                                           1, segments, 3, 2, &group,
                                           error.slot()) == EREDU_E_INVALID_TENSOR);
    CHECK(group == nullptr);
    CHECK(error.code() == EREDU_E_INVALID_TENSOR);
    CHECK(error.message() ==
          "segmented projection parameter qkv.scales has output dimension 11, expected 12");
  }

  TEST_CASE("seed: parallel model info preserves opaque topology and accounting") {
    const char* owned[] = {"layer.weight"};
    const eredu_topology two = topology_of(2);
    eredu_parallel_model_info* info = nullptr;
    REQUIRE(eredu_parallel_model_info_new(&two, "generic", owned, 1, 10, 20, 4, 8, &info,
                                          nullptr) == EREDU_OK);
    Info held(info);
    eredu_topology topology;
    REQUIRE(eredu_topology_init(&topology, sizeof topology, nullptr) == EREDU_OK);
    REQUIRE(eredu_parallel_model_info_topology(info, &topology, nullptr) == EREDU_OK);
    CHECK(std::vector{topology.tensor, topology.pipeline, topology.expert, topology.data} ==
          std::vector<std::uint64_t>{2, 1, 1, 1});
    eredu_parallel_model_summary fields = EREDU_PARALLEL_MODEL_SUMMARY_INIT;
    REQUIRE(eredu_parallel_model_info_get_summary(info, &fields, nullptr) == EREDU_OK);
    CHECK(fields.struct_size == sizeof(eredu_parallel_model_summary));
    CHECK(std::string(fields.effective_model_type) == "generic");
    CHECK(fields.effective_model_type_length == 7);
    CHECK(fields.owned_tensor_count == 1);
    CHECK(eredu_parallel_model_info_owned_tensor_count(info) == 1);
    const char* tensor = nullptr;
    REQUIRE(eredu_parallel_model_info_owned_tensor(info, 0, &tensor, nullptr, nullptr) == EREDU_OK);
    CHECK(std::string(tensor) == "layer.weight");
    CHECK(std::vector{fields.local_parameter_bytes, fields.global_parameter_bytes,
                      fields.pinned_device_parameter_bytes,
                      fields.maximum_device_parameter_bytes} ==
          std::vector<std::uint64_t>{10, 20, 4, 8});

    CHECK(eredu_parallel_model_info_owned_tensor(info, 1, &tensor, nullptr, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(tensor == nullptr);
    eredu_parallel_model_info* other = nullptr;
    const eredu_topology zero = topology_of(0);
    CHECK(eredu_parallel_model_info_new(&zero, "generic", nullptr, 0, 0, 0, 0, 0, &other,
                                        nullptr) == EREDU_E_ZERO_AXIS);
    const eredu_topology huge = topology_of(UINT64_MAX, 2);
    CHECK(eredu_parallel_model_info_new(&huge, "generic", nullptr, 0, 0, 0, 0, 0, &other,
                                        nullptr) == EREDU_E_WORLD_SIZE_OVERFLOW);
    const eredu_topology one = topology_of(1);
    CHECK(eredu_parallel_model_info_new(&one, nullptr, nullptr, 0, 0, 0, 0, 0, &other, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    const char* holes[] = {"a", nullptr};
    CHECK(eredu_parallel_model_info_new(&one, "x", holes, 2, 0, 0, 0, 0, &other, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    const char* bad[] = {"\xff"};
    CHECK(eredu_parallel_model_info_new(&one, "x", bad, 1, 0, 0, 0, 0, &other, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(other == nullptr);
  }

  TEST_CASE("parallel model info: topology and info structs, sized") {
    const char* owned[] = {"a.weight", "b.weight"};
    const eredu_topology sizes = topology_of(2, 3, 1, 2);
    eredu_parallel_model_info* info = nullptr;
    REQUIRE(eredu_parallel_model_info_new(&sizes, "llama", owned, 2, 1, 2, 3, 4, &info, nullptr) ==
            EREDU_OK);
    Info held(info);

    // An older caller's topology: fields past its struct_size are 1.
    eredu_topology older = topology_of(4, 9, 9, 9);
    older.struct_size = static_cast<std::uint32_t>(offsetof(eredu_topology, pipeline));
    eredu_parallel_model_info* defaults = nullptr;
    REQUIRE(eredu_parallel_model_info_new(&older, "x", nullptr, 0, 0, 0, 0, 0, &defaults,
                                          nullptr) == EREDU_OK);
    Info held_defaults(defaults);
    eredu_topology read = EREDU_TOPOLOGY_INIT;
    REQUIRE(eredu_parallel_model_info_topology(defaults, &read, nullptr) == EREDU_OK);
    CHECK(std::vector{read.tensor, read.pipeline, read.expert, read.data} ==
          std::vector<std::uint64_t>{4, 1, 1, 1});

    // The topology argument follows the input rule.
    check_input_sizes<eredu_topology>(
        sizes,
        [](const eredu_topology* topology) {
          eredu_parallel_model_info* made = nullptr;
          const eredu_status status =
              eredu_parallel_model_info_new(topology, "x", nullptr, 0, 0, 0, 0, 0, &made, nullptr);
          eredu_parallel_model_info_free(made);
          return status;
        },
        offsetof(eredu_topology, tensor) + 1);

    const eredu_topology topology = check_output_sizes<eredu_topology>(
        [&](eredu_topology* out) { return eredu_parallel_model_info_topology(info, out, nullptr); },
        offsetof(eredu_topology, expert), offsetof(eredu_topology, pipeline) + 4);
    CHECK(std::vector{topology.tensor, topology.pipeline, topology.expert, topology.data} ==
          std::vector<std::uint64_t>{2, 3, 1, 2});

    check_init_sizes<eredu_parallel_model_summary>(
        eredu_parallel_model_summary_init,
        offsetof(eredu_parallel_model_summary, owned_tensor_count),
        offsetof(eredu_parallel_model_summary, effective_model_type) + 3);
    const eredu_parallel_model_summary fields = check_output_sizes<eredu_parallel_model_summary>(
        [&](eredu_parallel_model_summary* out) {
          return eredu_parallel_model_info_get_summary(info, out, nullptr);
        },
        offsetof(eredu_parallel_model_summary, local_parameter_bytes),
        offsetof(eredu_parallel_model_summary, global_parameter_bytes) + 1);
    CHECK(std::string(fields.effective_model_type) == "llama");
    CHECK(fields.effective_model_type_length == 5);
    CHECK(fields.owned_tensor_count == 2);
    CHECK(fields.local_parameter_bytes == 1);
    CHECK(fields.global_parameter_bytes == 2);
    CHECK(fields.pinned_device_parameter_bytes == 3);
    CHECK(fields.maximum_device_parameter_bytes == 4);
    const char* second = nullptr;
    std::size_t length = 0;
    REQUIRE(eredu_parallel_model_info_owned_tensor(info, 1, &second, &length, nullptr) == EREDU_OK);
    CHECK(std::string(second) == "b.weight");
    CHECK(length == 8);
  }

  TEST_CASE("derived expansion examples: shapes and dtypes") {
    const eredu_linear_format affine_64_4 = affine(64, 4);
    const eredu_linear_format mxfp4 = format_of(EREDU_LINEAR_FORMAT_MXFP4);
    const eredu_linear_format q4k = gguf(12);
    const eredu_linear_format q80 = gguf(8);
    const eredu_linear_format fp8 = block_fp8(128, 128, EREDU_BLOCK_FP8_SCALE_FLOAT);
    const auto bf16 = [](MemberSpec m) { return typed(std::move(m), EREDU_DTYPE_BF16); };

    auto affine_made = expand_member(bf16(replicated("w", {4096, 4096})),
                                     spec_of(&affine_64_4, "w.scales", "w.biases"));
    REQUIRE(affine_made.status == EREDU_OK);
    CHECK(read(affine_made.handle.get()) ==
          std::vector{expected("w", {4096, 512}, EREDU_DTYPE_U32),
                      expected("w.scales", {4096, 64}, EREDU_DTYPE_BF16),
                      expected("w.biases", {4096, 64}, EREDU_DTYPE_BF16)});

    eredu_linear_format_spec with_dtype = spec_of(&affine_64_4, "s", "b");
    with_dtype.has_companion_dtype = 1;
    with_dtype.companion_dtype = EREDU_DTYPE_F16;
    auto typed_made = expand_member(typed(replicated("w", {8, 128}), std::nullopt), with_dtype);
    CHECK(read(typed_made.handle.get()) == std::vector{expected("w", {8, 16}, EREDU_DTYPE_U32),
                                                       expected("s", {8, 2}, EREDU_DTYPE_F16),
                                                       expected("b", {8, 2}, EREDU_DTYPE_F16)});

    auto mx = expand_member(bf16(replicated("w", {2880, 2880})), spec_of(&mxfp4, "w.scales"));
    CHECK(read(mx.handle.get()) ==
          std::vector{expected("w", {2880, 360}, EREDU_DTYPE_U32),
                      expected("w.scales", {2880, 90}, EREDU_DTYPE_F8_E8M0)});

    auto k = expand_member(bf16(replicated("w", {4096, 4096})), spec_of(&q4k));
    CHECK(read(k.handle.get()) == std::vector{expected("w", {4096, 2304}, EREDU_DTYPE_U8)});
    auto q8 = expand_member(bf16(replicated("w", {10, 64})), spec_of(&q80));
    CHECK(read(q8.handle.get()) == std::vector{expected("w", {10, 68}, EREDU_DTYPE_U8)});

    auto f8 = expand_member(
        typed(sharded("w", {300, 200}, EREDU_SHARDING_BALANCED, 0), EREDU_DTYPE_F8_E4M3),
        spec_of(&fp8, "w.scale_inv"));
    CHECK(
        read(f8.handle.get()) ==
        std::vector{expected("w", {300, 200}, EREDU_DTYPE_F8_E4M3, EREDU_SHARDING_BALANCED, 0),
                    expected("w.scale_inv", {3, 2}, EREDU_DTYPE_F32, EREDU_SHARDING_BALANCED, 0)});
  }

  TEST_CASE("segment remap and its errors through the C API") {
    const eredu_linear_format three_bits = affine(32, 3);
    auto exact =
        expand_member(sharded("w", {4, 320}, EREDU_SHARDING_SEGMENTED, 1, {0, 160, 160, 320}),
                      spec_of(&three_bits, "s", "b"));
    REQUIRE(exact.status == EREDU_OK);
    const auto members = read(exact.handle.get());
    // By exact bits: 160 values are 480 bits, 15 words.
    CHECK(members[0].segments == std::vector<std::uint64_t>{0, 15, 15, 30});
    CHECK(members[1].segments == std::vector<std::uint64_t>{0, 5, 5, 10});

    auto misaligned =
        expand_member(sharded("w", {4, 64}, EREDU_SHARDING_SEGMENTED, 1, {0, 16, 16, 64}),
                      spec_of(&three_bits, "s", "b"));
    CHECK(misaligned.status == EREDU_E_INVALID_TENSOR);
    CHECK(misaligned.handle == nullptr);
    CHECK(misaligned.message == "packed companion w segment 0..16 is not aligned to 32");
  }

  TEST_CASE("expansion errors: validated specs, then the seed's checks") {
    const eredu_linear_format dense = format_of(EREDU_LINEAR_FORMAT_DENSE);
    const eredu_linear_format mxfp4 = format_of(EREDU_LINEAR_FORMAT_MXFP4);
    const eredu_linear_format bad_fp8 = block_fp8(0, 128, EREDU_BLOCK_FP8_SCALE_UE8M0);
    const eredu_linear_format q4k = gguf(12);
    const auto matrix = replicated("w", {8, 64});

    // A validated spec refuses what the seed only catches in expansion.
    auto validated = expand_member(matrix, spec_of(&dense, "s"));
    CHECK(validated.status == EREDU_E_INVALID_FORMAT);
    CHECK(validated.message ==
          "linear format Dense requires scale/bias companions (false, false), got (true, false)");
    auto geometry = expand_member(matrix, spec_of(&bad_fp8, "s"));
    CHECK(geometry.status == EREDU_E_INVALID_FORMAT);
    CHECK(geometry.message == "block-FP8 geometry must be positive, got [0, 128]");

    // Raw specs reach the seed's own branches.
    eredu_linear_format_spec raw_dense = spec_of(&dense, "s");
    raw_dense.raw = 1;
    auto seed_dense = expand_member(replicated("v", {8}), raw_dense);
    CHECK(seed_dense.status == EREDU_E_INVALID_GROUP);
    CHECK(seed_dense.message == "dense linear parameter v declares physical companions");
    eredu_linear_format_spec raw_fp8 = spec_of(&bad_fp8, "s");
    raw_fp8.raw = 1;
    auto seed_fp8 = expand_member(matrix, raw_fp8);
    CHECK(seed_fp8.status == EREDU_E_INVALID_TENSOR);
    CHECK(seed_fp8.message == "block-FP8 geometry must be positive, got [0, 128]");
    eredu_linear_format_spec raw_mx = spec_of(&mxfp4);
    raw_mx.raw = 1;
    auto seed_mx = expand_member(matrix, raw_mx);
    CHECK(seed_mx.status == EREDU_E_INVALID_GROUP);
    CHECK(seed_mx.message == "packed linear parameter w must declare a scale companion");

    auto vector = expand_member(replicated("v", {64}), spec_of(&mxfp4, "s"));
    CHECK(vector.status == EREDU_E_INVALID_TENSOR);
    CHECK(vector.message == "encoded linear parameter v must have at least two dimensions");
    auto gguf_misaligned = expand_member(replicated("w", {4, 100}), spec_of(&q4k));
    CHECK(gguf_misaligned.status == EREDU_E_INVALID_TENSOR);
    CHECK(gguf_misaligned.message == "GGUF matrix w input 100 is not aligned to block 256");
  }

  TEST_CASE("group expansion: per-member specs, scope kept, repeated companion") {
    eredu_group_scope scope = EREDU_GROUP_SCOPE_INIT;
    scope.kind = EREDU_SCOPE_INDEXED;
    scope.has_layer = 1;
    scope.layer = 3;
    const auto mlp = new_group(
        "mlp", EREDU_ROLE_FEED_FORWARD_INTERMEDIATE, std::nullopt,
        {sharded("up", {256, 128}, EREDU_SHARDING_EQUAL, 0), replicated("norm", {128})}, &scope);
    REQUIRE(mlp.status == EREDU_OK);
    const eredu_linear_format affine_64_4 = affine(64, 4);
    const eredu_linear_format_spec spec = spec_of(&affine_64_4, "up.scales", "up.biases");
    const auto expanded = expand_group(mlp.handle.get(), {&spec, nullptr});
    REQUIRE(expanded.status == EREDU_OK);
    const auto members = members_of(expanded.handle.get());
    REQUIRE(members.size() == 4);
    CHECK(members[1] == expected("up.scales", {256, 2}, EREDU_DTYPE_F32, EREDU_SHARDING_EQUAL, 0));
    CHECK(members[3].target == "norm");

    // The scope survives: a model with one layer refuses layer 3.
    eredu_model_info info = EREDU_MODEL_INFO_INIT;
    info.has_layers = 1;
    info.layers = 1;
    const auto model = new_model({expanded.handle.get()}, &info);
    CHECK(model.status == EREDU_E_INVALID_GROUP);
    CHECK(model.message.find("scoped to layer 3") != std::string::npos);

    const eredu_linear_format_spec repeat = spec_of(&affine_64_4, "norm", "up.biases");
    const auto repeated = expand_group(mlp.handle.get(), {&repeat, nullptr});
    CHECK(repeated.status == EREDU_E_INVALID_GROUP);
    CHECK(repeated.message == "parallel parameter group \"mlp\" repeats tensor target \"norm\"");

    const auto count = expand_group(mlp.handle.get(), {&spec});
    CHECK(count.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(count.message == "spec_count is 1, expected one spec per member (2)");
  }

  TEST_CASE("model expansion, then planning every rank") {
    const auto attention = new_group(
        "attn", EREDU_ROLE_ATTENTION_HEADS, 8,
        {typed(sharded("q", {256, 256}, EREDU_SHARDING_PARTITIONED, 0), EREDU_DTYPE_F8_E4M3)});
    const auto norm =
        new_group("norm", EREDU_ROLE_REPLICATED, std::nullopt, {replicated("norm", {256})});
    const auto model = new_model({attention.handle.get(), norm.handle.get()});
    REQUIRE(model.status == EREDU_OK);
    const eredu_linear_format fp8 = block_fp8(128, 128, EREDU_BLOCK_FP8_SCALE_UE8M0);
    const eredu_linear_format_spec spec = spec_of(&fp8, "q.scale_inv");
    const eredu_linear_format_spec* specs[] = {&spec, nullptr};
    eredu_model* expanded = nullptr;
    ErrorSlot error;
    REQUIRE(eredu_expand_linear_format_model(model.handle.get(), specs, 2, &expanded,
                                             error.slot()) == EREDU_OK);
    Model owned(expanded);
    CHECK(eredu_model_tensor_count(expanded) == 3);
    CHECK(eredu_model_global_bytes(expanded) == 256 * 256 + 4 + 256 * 4);
    for (std::uint64_t rank = 0; rank < 2; ++rank) {
      const auto layout = plan_tp(expanded, rank, 2);
      REQUIRE(layout.status == EREDU_OK);
      const auto weight = placement(layout.handle.get(), "q");
      const auto scale = placement(layout.handle.get(), "q.scale_inv");
      CHECK(weight.placement == EREDU_PLACEMENT_RANGE);
      CHECK(scale.placement == EREDU_PLACEMENT_RANGE);
      CHECK(weight.start == rank * 128);
      CHECK(scale.start == rank);
      CHECK(scale.end == rank + 1);
    }

    eredu_model* other = nullptr;
    CHECK(eredu_expand_linear_format_model(model.handle.get(), specs, 1, &other, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    const eredu_linear_format_spec clash = spec_of(&fp8, "norm");
    const eredu_linear_format_spec* clashing[] = {&clash, nullptr};
    CHECK(eredu_expand_linear_format_model(model.handle.get(), clashing, 2, &other, error.slot()) ==
          EREDU_E_INVALID_GROUP);
    CHECK(error.message() == "parallel placement target \"norm\" was registered more than once");
    CHECK(other == nullptr);
  }

  TEST_CASE("formats, specs and the GGML table") {
    eredu_linear_format format;
    REQUIRE(eredu_linear_format_init(&format, sizeof format, nullptr) == EREDU_OK);
    CHECK(format.struct_size == sizeof(eredu_linear_format));
    CHECK(format.kind == EREDU_LINEAR_FORMAT_DENSE);
    CHECK(format.affine_group_size == 64);
    CHECK(format.affine_bits == 4);
    CHECK(format.ggml_type == 0);
    CHECK(format.block_rows == 128);
    CHECK(format.block_columns == 128);
    CHECK(format.scale_encoding == EREDU_BLOCK_FP8_SCALE_FLOAT);
    CHECK(eredu_linear_format_validate(&format, nullptr) == EREDU_OK);
    // The macro holds the same defaults.
    const eredu_linear_format macro = EREDU_LINEAR_FORMAT_INIT;
    CHECK(macro.struct_size == format.struct_size);
    CHECK(macro.kind == format.kind);
    CHECK(macro.affine_group_size == format.affine_group_size);
    CHECK(macro.affine_bits == format.affine_bits);
    CHECK(macro.ggml_type == format.ggml_type);
    CHECK(macro.block_rows == format.block_rows);
    CHECK(macro.block_columns == format.block_columns);
    CHECK(macro.scale_encoding == format.scale_encoding);

    ErrorSlot error;
    const eredu_linear_format bad_group = affine(48, 7);
    CHECK(eredu_linear_format_validate(&bad_group, error.slot()) == EREDU_E_INVALID_FORMAT);
    CHECK(error.message() == "group_size must be 16 or a positive multiple of 32, got 48");
    const eredu_linear_format bad_bits = affine(16, 7);
    CHECK(eredu_linear_format_validate(&bad_bits, error.slot()) == EREDU_E_INVALID_FORMAT);
    CHECK(error.message() == "bits must be one of 2, 3, 4, 5, 6, or 8, got 7");
    const eredu_linear_format removed = gguf(37);
    CHECK(eredu_linear_format_validate(&removed, error.slot()) == EREDU_E_INVALID_FORMAT);
    CHECK(error.message() == "unsupported GGML tensor type 37");

    const eredu_linear_format affine_64_4 = affine(64, 4);
    const eredu_linear_format_spec same = spec_of(&affine_64_4, "x", "x");
    CHECK(eredu_linear_format_spec_validate(&same, error.slot()) == EREDU_E_INVALID_FORMAT);
    CHECK(error.message() == "linear scale and affine-bias companions require distinct identities");
    const eredu_linear_format_spec blank = spec_of(&affine_64_4, " ", "b");
    CHECK(eredu_linear_format_spec_validate(&blank, error.slot()) == EREDU_E_INVALID_FORMAT);
    CHECK(error.message() == "parameter identity must not be empty");
    const eredu_linear_format_spec good = spec_of(&affine_64_4, "s", "b");
    CHECK(eredu_linear_format_spec_validate(&good, error.slot()) == EREDU_OK);
    CHECK(error.get() == nullptr);

    eredu_ggml_type_info info;
    REQUIRE(eredu_ggml_type_info_init(&info, sizeof info, nullptr) == EREDU_OK);
    REQUIRE(eredu_ggml_type_by_code(12, &info, nullptr) == EREDU_OK);
    CHECK(std::string(info.name) == "Q4_K");
    CHECK(info.block_values == 256);
    CHECK(info.block_bytes == 144);
    REQUIRE(eredu_ggml_type_by_name("MXFP4", &info, nullptr) == EREDU_OK);
    CHECK(info.code == 39);
    CHECK(info.block_values == 32);
    CHECK(info.block_bytes == 17);
    for (std::uint32_t code : {4u, 5u, 9u, 15u, 31u, 32u, 33u, 34u, 35u, 36u, 37u, 38u, 40u}) {
      CHECK(eredu_ggml_type_by_code(code, &info, error.slot()) == EREDU_E_INVALID_FORMAT);
      CHECK(error.message() == "unsupported GGML tensor type " + std::to_string(code));
      CHECK(info.name == nullptr);
      CHECK(info.struct_size == sizeof(eredu_ggml_type_info));
    }
    CHECK(eredu_ggml_type_by_name("Q8_K", &info, error.slot()) == EREDU_E_INVALID_FORMAT);
    CHECK(error.message() == "unsupported GGML tensor type 15");
    CHECK(eredu_ggml_type_by_name("Q9_K", &info, error.slot()) == EREDU_E_NOT_FOUND);
    CHECK(error.message() == "no GGML tensor type is named \"Q9_K\"");
  }

  TEST_CASE("format and projection structs follow the sized-struct rule") {
    check_init_sizes<eredu_linear_format>(eredu_linear_format_init,
                                          offsetof(eredu_linear_format, ggml_type),
                                          offsetof(eredu_linear_format, kind) + 2);
    check_init_sizes<eredu_linear_format_spec>(eredu_linear_format_spec_init,
                                               offsetof(eredu_linear_format_spec, scale),
                                               offsetof(eredu_linear_format_spec, format) + 1);
    check_init_sizes<eredu_ggml_type_info>(eredu_ggml_type_info_init,
                                           offsetof(eredu_ggml_type_info, block_values),
                                           offsetof(eredu_ggml_type_info, name) + 4);
    check_init_sizes<eredu_module_parameter>(eredu_module_parameter_init,
                                             offsetof(eredu_module_parameter, ndim),
                                             offsetof(eredu_module_parameter, shape) + 2);
    check_init_sizes<eredu_projection>(eredu_projection_init,
                                       offsetof(eredu_projection, parameters),
                                       offsetof(eredu_projection, parameter_count) + 7);

    const eredu_linear_format affine_64_4 = affine(64, 4);
    check_input_sizes<eredu_linear_format>(
        affine_64_4,
        [](const eredu_linear_format* format) {
          return eredu_linear_format_validate(format, nullptr);
        },
        offsetof(eredu_linear_format, affine_bits) + 1);
    const eredu_linear_format_spec spec = spec_of(&affine_64_4, "s", "b");
    check_input_sizes<eredu_linear_format_spec>(
        spec,
        [](const eredu_linear_format_spec* given) {
          return eredu_linear_format_spec_validate(given, nullptr);
        },
        offsetof(eredu_linear_format_spec, affine_bias) + 1);
    const eredu_ggml_type_info q4k = check_output_sizes<eredu_ggml_type_info>(
        [](eredu_ggml_type_info* out) { return eredu_ggml_type_by_code(12, out, nullptr); },
        offsetof(eredu_ggml_type_info, block_values), offsetof(eredu_ggml_type_info, name) + 1);
    CHECK(q4k.code == 12);
    CHECK(std::string(q4k.name) == "Q4_K");
    CHECK(q4k.block_values == 256);
    CHECK(q4k.block_bytes == 144);

    // A caller's format that ends before the affine fields gets their
    // defaults (64/4), so an AFFINE kind validates.
    eredu_linear_format older = affine(48, 7);
    older.struct_size =
        static_cast<std::uint32_t>(offsetof(eredu_linear_format, affine_group_size));
    CHECK(eredu_linear_format_validate(&older, nullptr) == EREDU_OK);
    older.struct_size = static_cast<std::uint32_t>(offsetof(eredu_linear_format, affine_bits));
    ErrorSlot error;
    CHECK(eredu_linear_format_validate(&older, error.slot()) == EREDU_E_INVALID_FORMAT);
    CHECK(error.message() == "group_size must be 16 or a positive multiple of 32, got 48");
    // A spec ending before its flags ignores whatever lies past it.
    eredu_linear_format_spec short_spec = spec_of(&affine_64_4, "s", "b");
    short_spec.has_companion_dtype = 7;
    short_spec.raw = 9;
    short_spec.struct_size =
        static_cast<std::uint32_t>(offsetof(eredu_linear_format_spec, has_companion_dtype));
    CHECK(eredu_linear_format_spec_validate(&short_spec, nullptr) == EREDU_OK);

    const Shape shape{16, 8};
    const auto module = parameters({{"p.weight", &shape}});
    const auto module_pointers = pointers(module);
    check_input_sizes<eredu_module_parameter>(
        module[0],
        [](const eredu_module_parameter* parameter) {
          const eredu_module_parameter* list[] = {parameter};
          eredu_group* group = nullptr;
          const eredu_status status =
              eredu_projection_parameter_group("p", EREDU_ROLE_COLUMN_PROJECTION, nullptr, list, 1,
                                               EREDU_PROJECTION_COLUMN, &group, nullptr);
          eredu_group_free(group);
          return status;
        },
        offsetof(eredu_module_parameter, ndim) + 1);
    eredu_projection projection = EREDU_PROJECTION_INIT;
    projection.parameters = module_pointers.data();
    projection.parameter_count = 1;
    projection.placement = EREDU_PROJECTION_COLUMN;
    check_input_sizes<eredu_projection>(
        projection,
        [](const eredu_projection* given) {
          const eredu_projection* list[] = {given};
          eredu_group* group = nullptr;
          const eredu_status status = eredu_partitioned_projection_group(
              "c", EREDU_ROLE_COLUMN_PROJECTION, nullptr, list, 1, 4, &group, nullptr);
          eredu_group_free(group);
          return status;
        },
        offsetof(eredu_projection, placement) + 1);
    // A module parameter ending before its dtype fields has none.
    eredu_module_parameter untyped = module[0];
    untyped.has_dtype = 5;
    untyped.struct_size = static_cast<std::uint32_t>(offsetof(eredu_module_parameter, has_dtype));
    const eredu_module_parameter* untyped_list[] = {&untyped};
    eredu_group* group = nullptr;
    REQUIRE(eredu_projection_parameter_group("p", EREDU_ROLE_COLUMN_PROJECTION, nullptr,
                                             untyped_list, 1, EREDU_PROJECTION_COLUMN, &group,
                                             nullptr) == EREDU_OK);
    Group owned(group);
    CHECK(members_of(group) ==
          std::vector{expected("p.weight", {16, 8}, std::nullopt, EREDU_SHARDING_EQUAL, 0)});
  }

  TEST_CASE("projection helpers and aligned units") {
    const Shape w{16, 8}, b{16};
    const auto module = parameters({{"p.weight", &w}, {"p.bias", &b}});
    const auto module_pointers = pointers(module);
    eredu_group* group = nullptr;
    REQUIRE(eredu_projection_parameter_group("p", EREDU_ROLE_ROW_PROJECTION, nullptr,
                                             module_pointers.data(), 2, EREDU_PROJECTION_ROW,
                                             &group, nullptr) == EREDU_OK);
    Group row(group);
    CHECK(members_of(group) ==
          std::vector{expected("p.weight", {16, 8}, std::nullopt, EREDU_SHARDING_EQUAL, 1),
                      expected("p.bias", {16}, std::nullopt)});

    eredu_projection column;
    REQUIRE(eredu_projection_init(&column, sizeof column, nullptr) == EREDU_OK);
    CHECK(column.struct_size == sizeof(eredu_projection));
    CHECK(column.placement == EREDU_PROJECTION_REPLICATED);
    CHECK(column.parameters == nullptr);
    CHECK(column.parameter_count == 0);
    column.parameters = module_pointers.data();
    column.parameter_count = 2;
    column.placement = EREDU_PROJECTION_COLUMN;
    const eredu_projection* projections[] = {&column};
    REQUIRE(eredu_partitioned_projection_group("c", EREDU_ROLE_COLUMN_PROJECTION, nullptr,
                                               projections, 1, 12, &group, nullptr) == EREDU_OK);
    Group partitioned(group);
    CHECK(units_of(group) == 4);

    ErrorSlot error;
    CHECK(eredu_partitioned_projection_group("c", EREDU_ROLE_COLUMN_PROJECTION, nullptr,
                                             projections, 1, 0, &group,
                                             error.slot()) == EREDU_E_INVALID_GROUP);
    CHECK(error.message() == "partitioned projection group has zero preferred units");
    CHECK(group == nullptr);

    std::uint64_t aligned = 0;
    CHECK(eredu_aligned_partition_units("heads", 32, 128, 256, &aligned, nullptr) == EREDU_OK);
    CHECK(aligned == 16);
    CHECK(eredu_aligned_partition_units("heads", 3, 128, 256, &aligned, error.slot()) ==
          EREDU_E_INVALID_GROUP);
    CHECK(aligned == 0);
    CHECK(error.message() ==
          "heads has 3 semantic units of width 128, which cannot form complete alignment-256 "
          "partitions");
  }

  TEST_CASE("misuse: NULLs, enums, struct sizes, flags") {
    ErrorSlot error;
    CHECK(eredu_linear_format_init(nullptr, sizeof(eredu_linear_format), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_linear_format_spec_init(nullptr, sizeof(eredu_linear_format_spec), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_ggml_type_info_init(nullptr, sizeof(eredu_ggml_type_info), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_module_parameter_init(nullptr, sizeof(eredu_module_parameter), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_projection_init(nullptr, sizeof(eredu_projection), nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_linear_format_validate(nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);

    eredu_linear_format format = format_of(EREDU_LINEAR_FORMAT_DENSE);
    format.kind = 5;
    CHECK(eredu_linear_format_validate(&format, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "unknown format->kind value 5");
    format = block_fp8(1, 1, 2);
    CHECK(eredu_linear_format_validate(&format, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "unknown format->scale_encoding value 2");
    format = gguf(12);
    format.scale_encoding = 99;  // ignored by other kinds
    CHECK(eredu_linear_format_validate(&format, nullptr) == EREDU_OK);
    format.struct_size = 6;  // ends inside `kind`
    CHECK(eredu_linear_format_validate(&format, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "format->struct_size 6 ends inside field kind");

    const eredu_linear_format affine_64_4 = affine(64, 4);
    eredu_linear_format_spec spec = spec_of(nullptr);
    CHECK(eredu_linear_format_spec_validate(&spec, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(error.message() == "argument spec->format is NULL");
    spec = spec_of(&affine_64_4, "s", "b");
    spec.has_companion_dtype = 2;
    CHECK(eredu_linear_format_spec_validate(&spec, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    spec.has_companion_dtype = 1;
    spec.companion_dtype = 16;
    CHECK(eredu_linear_format_spec_validate(&spec, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    spec.has_companion_dtype = 0;
    spec.raw = 7;
    CHECK(eredu_linear_format_spec_validate(&spec, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    spec.raw = 0;
    spec.scale = "\xc3";
    CHECK(eredu_linear_format_spec_validate(&spec, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    spec.scale = "s";
    spec.struct_size = 0;
    CHECK(eredu_linear_format_spec_validate(&spec, error.slot()) == EREDU_E_INVALID_ARGUMENT);

    eredu_ggml_type_info info = EREDU_GGML_TYPE_INFO_INIT;
    CHECK(eredu_ggml_type_by_code(0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_ggml_type_by_name(nullptr, &info, nullptr) == EREDU_E_NULL_ARGUMENT);
    info.struct_size = 1;
    CHECK(eredu_ggml_type_by_code(0, &info, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(info.struct_size == 1);  // a foreign-sized struct is never written

    // Expansion entry points.
    const MemberSpec matrix = replicated("w", {8, 64});
    const eredu_member_desc desc = desc_of(matrix);
    const eredu_linear_format_spec good = spec_of(&affine_64_4, "s", "b");
    eredu_member_list* list = nullptr;
    CHECK(eredu_expand_linear_format_member(nullptr, &good, &list, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_expand_linear_format_member(&desc, nullptr, &list, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_expand_linear_format_member(&desc, &good, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    eredu_member_desc bad_desc = desc;
    bad_desc.sharding = 9;
    CHECK(eredu_expand_linear_format_member(&bad_desc, &good, &list, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "unknown member->sharding value 9");
    CHECK(list == nullptr);
    REQUIRE(eredu_expand_linear_format_member(&desc, &good, &list, nullptr) == EREDU_OK);
    MemberList held(list);
    eredu_member_desc out = EREDU_MEMBER_DESC_INIT;
    CHECK(eredu_member_list_get(list, 3, &out, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(out.target == nullptr);
    CHECK(eredu_member_list_get(nullptr, 0, &out, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_member_list_get(list, 0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    out.struct_size = 3;
    CHECK(eredu_member_list_get(list, 0, &out, nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_member_list_count(nullptr) == 0);
    CHECK(eredu_member_list_count(list) == 3);
    eredu_member_list_free(nullptr);

    const auto group = new_group("g", EREDU_ROLE_REPLICATED, std::nullopt, {matrix});
    eredu_group* expanded = nullptr;
    CHECK(eredu_expand_linear_format_group(nullptr, nullptr, 0, &expanded, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_expand_linear_format_group(group.handle.get(), nullptr, 1, &expanded, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    const eredu_linear_format_spec* specs[] = {&good};
    CHECK(eredu_expand_linear_format_group(group.handle.get(), specs, 1, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    // A NULL `out` is an argument error, reported before format validation.
    const eredu_linear_format bits_7 = affine(64, 7);
    const eredu_linear_format_spec invalid = spec_of(&bits_7, "s", "b");
    const eredu_linear_format_spec* invalid_specs[] = {&invalid};
    CHECK(eredu_expand_linear_format_group(group.handle.get(), invalid_specs, 1, nullptr,
                                           nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_expand_linear_format_group(group.handle.get(), invalid_specs, 1, &expanded,
                                           nullptr) == EREDU_E_INVALID_FORMAT);
    eredu_linear_format_spec unsized = good;
    unsized.struct_size = 1;
    const eredu_linear_format_spec* unsized_specs[] = {&unsized};
    CHECK(eredu_expand_linear_format_group(group.handle.get(), unsized_specs, 1, &expanded,
                                           error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() ==
          "specs[0]->struct_size is 1; it must be the caller's sizeof, between 4 and 4096");
    CHECK(expanded == nullptr);
    eredu_model* model = nullptr;
    CHECK(eredu_expand_linear_format_model(nullptr, nullptr, 0, &model, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_expand_linear_format_model(nullptr, nullptr, 0, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);

    // Projection entry points.
    const Shape shape{4, 4};
    auto module = parameters({{"w", &shape}});
    const auto module_pointers = pointers(module);
    eredu_group* out_group = nullptr;
    CHECK(eredu_projection_parameter_group("p", EREDU_ROLE_REPLICATED, nullptr,
                                           module_pointers.data(), 1, 3, &out_group,
                                           error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "unknown placement value 3");
    CHECK(eredu_projection_parameter_group("p", 99, nullptr, module_pointers.data(), 1,
                                           EREDU_PROJECTION_ROW, &out_group,
                                           nullptr) == EREDU_E_INVALID_ARGUMENT);
    CHECK(eredu_projection_parameter_group("p", EREDU_ROLE_REPLICATED, nullptr, nullptr, 1,
                                           EREDU_PROJECTION_ROW, &out_group,
                                           nullptr) == EREDU_E_NULL_ARGUMENT);
    module[0].has_dtype = 3;
    CHECK(eredu_projection_parameter_group("p", EREDU_ROLE_REPLICATED, nullptr,
                                           module_pointers.data(), 1, EREDU_PROJECTION_ROW,
                                           &out_group, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "flag parameters[0]->has_dtype is 3, expected 0 or 1");
    module[0].has_dtype = 0;
    module[0].struct_size = 0;
    CHECK(eredu_projection_parameter_group("p", EREDU_ROLE_REPLICATED, nullptr,
                                           module_pointers.data(), 1, EREDU_PROJECTION_ROW,
                                           &out_group, nullptr) == EREDU_E_INVALID_ARGUMENT);
    module[0].struct_size = sizeof(eredu_module_parameter);
    module[0].id = nullptr;
    CHECK(eredu_projection_parameter_group("p", EREDU_ROLE_REPLICATED, nullptr,
                                           module_pointers.data(), 1, EREDU_PROJECTION_ROW,
                                           &out_group, nullptr) == EREDU_E_NULL_ARGUMENT);
    module[0].id = "w";
    const eredu_projection* null_projection[] = {nullptr};
    CHECK(eredu_partitioned_projection_group("p", EREDU_ROLE_REPLICATED, nullptr, null_projection,
                                             1, 4, &out_group, nullptr) == EREDU_E_NULL_ARGUMENT);
    eredu_projection projection = EREDU_PROJECTION_INIT;
    projection.parameters = module_pointers.data();
    projection.parameter_count = 1;
    projection.placement = 7;
    const eredu_projection* bad_projection[] = {&projection};
    CHECK(eredu_partitioned_projection_group("p", EREDU_ROLE_REPLICATED, nullptr, bad_projection, 1,
                                             4, &out_group,
                                             error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "unknown projections[0]->placement value 7");
    CHECK(eredu_segmented_projection_group("p", EREDU_ROLE_REPLICATED, nullptr,
                                           module_pointers.data(), 1, module_pointers.data(), 1,
                                           nullptr, 2, 4, &out_group,
                                           nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(out_group == nullptr);
    std::uint64_t aligned = 5;
    CHECK(eredu_aligned_partition_units(nullptr, 1, 1, 1, &aligned, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(aligned == 0);
    CHECK(eredu_aligned_partition_units("x", 1, 1, 1, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);

    eredu_parallel_model_info_free(nullptr);
    eredu_topology topology = topology_of(7);
    CHECK(eredu_parallel_model_info_topology(nullptr, &topology, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(topology.tensor == 0);  // zeroed on failure
    eredu_parallel_model_summary fields = EREDU_PARALLEL_MODEL_SUMMARY_INIT;
    fields.owned_tensor_count = 5;
    CHECK(eredu_parallel_model_info_get_summary(nullptr, &fields, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(fields.owned_tensor_count == 0);
    CHECK(eredu_parallel_model_info_owned_tensor_count(nullptr) == 0);
    const char* owned[] = {"t"};
    const eredu_topology one = topology_of(1);
    eredu_parallel_model_info* model_info = nullptr;
    REQUIRE(eredu_parallel_model_info_new(&one, "m", owned, 1, 0, 0, 0, 0, &model_info, nullptr) ==
            EREDU_OK);
    Info held_info(model_info);
    CHECK(eredu_parallel_model_info_topology(model_info, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_parallel_model_info_get_summary(model_info, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    eredu_parallel_model_info* none = nullptr;
    CHECK(eredu_parallel_model_info_new(nullptr, "m", owned, 1, 0, 0, 0, 0, &none, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(error.message() == "argument topology is NULL");
    CHECK(eredu_parallel_model_info_new(&one, "m", owned, 1, 0, 0, 0, 0, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    // Argument errors come before the topology's own rules.
    const eredu_topology zero = topology_of(0);
    CHECK(eredu_parallel_model_info_new(&zero, nullptr, owned, 1, 0, 0, 0, 0, &none, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(none == nullptr);
    const char* text = "x";
    std::size_t length = 3;
    CHECK(eredu_parallel_model_info_owned_tensor(nullptr, 0, &text, &length, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(text == nullptr);
    CHECK(length == 0);
    CHECK(eredu_parallel_model_info_owned_tensor(model_info, 0, nullptr, nullptr, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
  }
}
