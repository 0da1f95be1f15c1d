// Seed 000 linear-format expansion, projection helpers and ParallelModelInfo
// through the C API only (eredu/format.h, eredu/projection.h), plus misuse.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstring>
#include <string>
#include <vector>

#include "capi_support.hpp"

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

std::vector<Member> read(const eredu_member_list* list) {
  std::size_t count = 0;
  REQUIRE(eredu_member_list_count(list, &count, nullptr) == EREDU_OK);
  std::vector<Member> members;
  for (std::size_t i = 0; i < count; ++i) {
    eredu_member_desc desc;
    eredu_member_desc_init(&desc, nullptr);
    REQUIRE(eredu_member_list_get(list, i, &desc, nullptr) == EREDU_OK);
    Member member;
    member.target = desc.target;
    member.shape.assign(desc.shape, desc.shape + desc.ndim);
    if (desc.has_dtype == 1) member.dtype = desc.dtype;
    member.sharding = desc.sharding;
    member.axis = desc.axis;
    member.segments.assign(desc.segments, desc.segments + 2 * desc.segment_count);
    members.push_back(std::move(member));
  }
  return members;
}

std::vector<Member> members_of(const eredu_group* group) {
  eredu_member_list* list = nullptr;
  REQUIRE(eredu_group_members(group, &list, nullptr) == EREDU_OK);
  MemberList owned(list);
  return read(owned.get());
}

Member expected(std::string target, Shape shape, std::optional<eredu_dtype> dtype,
                eredu_sharding_kind sharding = EREDU_SHARDING_REPLICATED, std::uint64_t axis = 0,
                std::vector<std::uint64_t> segments = {}) {
  return Member{std::move(target), std::move(shape), dtype, sharding, axis, std::move(segments)};
}

eredu_linear_format format_of(eredu_linear_format_kind kind) {
  eredu_linear_format format;
  eredu_linear_format_init(&format, nullptr);
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
  eredu_linear_format_spec spec;
  eredu_linear_format_spec_init(&spec, nullptr);
  spec.format = format;
  spec.scale = scale;
  spec.affine_bias = bias;
  return spec;
}

/// One member descriptor that owns nothing: the caller keeps the data.
eredu_member_desc desc_of(const MemberSpec& member) {
  eredu_member_desc desc;
  eredu_member_desc_init(&desc, nullptr);
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
    eredu_module_parameter_init(&result[i], nullptr);
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
  TEST_CASE("seed 000: fp8 expansion uses architecture-declared companion identity") {
    const auto query =
        new_group("query", EREDU_ROLE_ATTENTION_HEADS, 8,
                  {sharded("opaque_matrix", {256, 256}, EREDU_SHARDING_PARTITIONED, 0)});
    REQUIRE(query.status == EREDU_OK);
    const eredu_linear_format fp8 = block_fp8(128, 128, EREDU_BLOCK_FP8_SCALE_UE8M0);
    const eredu_linear_format_spec spec = spec_of(&fp8, "opaque_scale");
    const auto expanded = expand_group(query.handle.get(), {&spec});
    REQUIRE(expanded.status == EREDU_OK);
    std::uint64_t units = 0;
    bool present = false;
    REQUIRE(eredu_group_partition_units(expanded.handle.get(), &units, &present, nullptr) ==
            EREDU_OK);
    CHECK(present);
    CHECK(units == 2);
    CHECK(
        members_of(expanded.handle.get()) ==
        std::vector{
            expected("opaque_matrix", {256, 256}, EREDU_DTYPE_F32, EREDU_SHARDING_PARTITIONED, 0),
            expected("opaque_scale", {2, 2}, EREDU_DTYPE_F8_E8M0, EREDU_SHARDING_PARTITIONED, 0)});
    // The input group is unchanged.
    CHECK(members_of(query.handle.get()).size() == 1);
  }

  TEST_CASE("seed 000: preferred partition units follow every physical companion") {
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
    std::uint64_t units = 0;
    bool present = false;
    eredu_group_partition_units(group, &units, &present, nullptr);
    CHECK(units == 2);

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

  TEST_CASE("seed 000: segmented projection applies identical ranges to every fused companion") {
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
    std::uint64_t units = 0;
    bool present = false;
    eredu_group_partition_units(group, &units, &present, nullptr);
    CHECK(units == 2);
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

  TEST_CASE("seed 000: segmented projection rejects one misaligned companion atomically") {
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

  TEST_CASE("seed 000: parallel model info preserves opaque topology and accounting") {
    const char* owned[] = {"layer.weight"};
    eredu_parallel_model_info* info = nullptr;
    REQUIRE(eredu_parallel_model_info_new(2, 1, 1, 1, "generic", owned, 1, 10, 20, 4, 8, &info,
                                          nullptr) == EREDU_OK);
    Info held(info);
    std::uint64_t t = 0, p = 0, e = 0, d = 0;
    REQUIRE(eredu_parallel_model_info_topology(info, &t, &p, &e, &d, nullptr) == EREDU_OK);
    CHECK(std::vector{t, p, e, d} == std::vector<std::uint64_t>{2, 1, 1, 1});
    const char* type = nullptr;
    std::size_t length = 0;
    REQUIRE(eredu_parallel_model_info_effective_model_type(info, &type, &length, nullptr) ==
            EREDU_OK);
    CHECK(std::string(type) == "generic");
    CHECK(length == 7);
    std::size_t count = 0;
    REQUIRE(eredu_parallel_model_info_owned_tensor_count(info, &count, nullptr) == EREDU_OK);
    CHECK(count == 1);
    const char* tensor = nullptr;
    REQUIRE(eredu_parallel_model_info_owned_tensor(info, 0, &tensor, nullptr, nullptr) == EREDU_OK);
    CHECK(std::string(tensor) == "layer.weight");
    std::uint64_t local = 0, global = 0, pinned = 0, maximum = 0;
    REQUIRE(eredu_parallel_model_info_bytes(info, &local, &global, &pinned, &maximum, nullptr) ==
            EREDU_OK);
    CHECK(std::vector{local, global, pinned, maximum} == std::vector<std::uint64_t>{10, 20, 4, 8});

    CHECK(eredu_parallel_model_info_owned_tensor(info, 1, &tensor, nullptr, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(tensor == nullptr);
    eredu_parallel_model_info* other = nullptr;
    CHECK(eredu_parallel_model_info_new(0, 1, 1, 1, "generic", nullptr, 0, 0, 0, 0, 0, &other,
                                        nullptr) == EREDU_E_ZERO_AXIS);
    CHECK(eredu_parallel_model_info_new(UINT64_MAX, 2, 1, 1, "generic", nullptr, 0, 0, 0, 0, 0,
                                        &other, nullptr) == EREDU_E_WORLD_SIZE_OVERFLOW);
    CHECK(eredu_parallel_model_info_new(1, 1, 1, 1, nullptr, nullptr, 0, 0, 0, 0, 0, &other,
                                        nullptr) == EREDU_E_NULL_ARGUMENT);
    const char* holes[] = {"a", nullptr};
    CHECK(eredu_parallel_model_info_new(1, 1, 1, 1, "x", holes, 2, 0, 0, 0, 0, &other, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    const char* bad[] = {"\xff"};
    CHECK(eredu_parallel_model_info_new(1, 1, 1, 1, "x", bad, 1, 0, 0, 0, 0, &other, nullptr) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(other == nullptr);
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
    eredu_group_scope scope;
    eredu_group_scope_init(&scope, nullptr);
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
    eredu_model_info info;
    eredu_model_info_init(&info, nullptr);
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
    std::size_t tensors = 0;
    eredu_model_tensor_count(expanded, &tensors, nullptr);
    CHECK(tensors == 3);
    std::uint64_t bytes = 0;
    eredu_model_global_bytes(expanded, &bytes, nullptr);
    CHECK(bytes == 256 * 256 + 4 + 256 * 4);
    for (std::uint64_t rank = 0; rank < 2; ++rank) {
      const auto layout = plan_tp(expanded, rank, 2);
      REQUIRE(layout.status == EREDU_OK);
      const auto weight = placement(layout.handle.get(), "q");
      const auto scale = placement(layout.handle.get(), "q.scale_inv");
      CHECK(weight.kind == EREDU_PLACEMENT_RANGE);
      CHECK(scale.kind == EREDU_PLACEMENT_RANGE);
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
    REQUIRE(eredu_linear_format_init(&format, nullptr) == EREDU_OK);
    CHECK(format.struct_size == sizeof(eredu_linear_format));
    CHECK(format.kind == EREDU_LINEAR_FORMAT_DENSE);
    CHECK(format.affine_group_size == 64);
    CHECK(format.affine_bits == 4);
    CHECK(format.block_rows == 128);
    CHECK(format.block_columns == 128);
    CHECK(eredu_linear_format_validate(&format, nullptr) == EREDU_OK);

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
    REQUIRE(eredu_ggml_type_info_init(&info, nullptr) == EREDU_OK);
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
    REQUIRE(eredu_projection_init(&column, nullptr) == EREDU_OK);
    CHECK(column.placement == EREDU_PROJECTION_REPLICATED);
    column.parameters = module_pointers.data();
    column.parameter_count = 2;
    column.placement = EREDU_PROJECTION_COLUMN;
    const eredu_projection* projections[] = {&column};
    REQUIRE(eredu_partitioned_projection_group("c", EREDU_ROLE_COLUMN_PROJECTION, nullptr,
                                               projections, 1, 12, &group, nullptr) == EREDU_OK);
    Group partitioned(group);
    std::uint64_t units = 0;
    bool present = false;
    eredu_group_partition_units(group, &units, &present, nullptr);
    CHECK(units == 4);

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
    CHECK(eredu_linear_format_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_linear_format_spec_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_ggml_type_info_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_module_parameter_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_projection_init(nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
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
    format.struct_size = 4;
    CHECK(eredu_linear_format_validate(&format, error.slot()) == EREDU_E_INVALID_ARGUMENT);

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

    eredu_ggml_type_info info;
    eredu_ggml_type_info_init(&info, nullptr);
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
    eredu_member_desc out;
    eredu_member_desc_init(&out, nullptr);
    CHECK(eredu_member_list_get(list, 3, &out, error.slot()) == EREDU_E_INVALID_ARGUMENT);
    CHECK(out.target == nullptr);
    CHECK(eredu_member_list_get(nullptr, 0, &out, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_member_list_get(list, 0, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
    out.struct_size = 3;
    CHECK(eredu_member_list_get(list, 0, &out, nullptr) == EREDU_E_INVALID_ARGUMENT);
    std::size_t count = 9;
    CHECK(eredu_member_list_count(nullptr, &count, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(count == 0);
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
    CHECK(error.message() == "specs[0]->struct_size is 1, expected " +
                                 std::to_string(sizeof(eredu_linear_format_spec)));
    CHECK(expanded == nullptr);
    eredu_model* model = nullptr;
    CHECK(eredu_expand_linear_format_model(nullptr, nullptr, 0, &model, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_group_members(nullptr, &list, nullptr) == EREDU_E_NULL_ARGUMENT);

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
    eredu_projection projection;
    eredu_projection_init(&projection, nullptr);
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
    std::uint64_t value = 0;
    CHECK(eredu_parallel_model_info_topology(nullptr, &value, &value, &value, &value, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_parallel_model_info_bytes(nullptr, &value, &value, &value, &value, nullptr) ==
          EREDU_E_NULL_ARGUMENT);
  }
}
