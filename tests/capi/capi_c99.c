// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * The C API from a translation unit compiled as C99 (-std=c99 -pedantic
 * -Werror): proves the header is C, and plans a rank through it.
 */
#include <eredu/eredu.h>

#include <stdio.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

#define EXPECT(condition)                                                      \
  do {                                                                         \
    if (condition) {                                                           \
      ++passed;                                                                \
    } else {                                                                   \
      ++failed;                                                                \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #condition); \
    }                                                                          \
  } while (0)

static eredu_member_desc member(const char *target, const uint64_t *shape, size_t ndim,
                                eredu_sharding_kind sharding, uint64_t axis) {
  eredu_member_desc desc = EREDU_MEMBER_DESC_INIT;
  desc.target = target;
  desc.shape = shape;
  desc.ndim = ndim;
  desc.has_dtype = 1;
  desc.dtype = EREDU_DTYPE_F32;
  desc.sharding = sharding;
  desc.axis = axis;
  return desc;
}

/* eredu_group_new with the group's fields as arguments. */
static eredu_status group_new(const char *name, eredu_role role, uint8_t has_units, uint64_t units,
                              const eredu_member_desc *const *members, size_t count,
                              eredu_group **out, eredu_error **error) {
  eredu_group_desc desc = EREDU_GROUP_DESC_INIT;
  desc.name = name;
  desc.role = role;
  desc.has_partition_units = has_units;
  desc.partition_units = units;
  return eredu_group_new(&desc, members, count, out, error);
}

static void test_status_and_version(void) {
  EXPECT(strcmp(eredu_status_name(EREDU_E_INVALID_GROUP), "EREDU_E_INVALID_GROUP") == 0);
  EXPECT(strcmp(eredu_status_name(EREDU_OK), "EREDU_OK") == 0);
  EXPECT(strcmp(eredu_status_name(-7), "EREDU_E_UNKNOWN") == 0);
  EXPECT(eredu_version_number() == EREDU_VERSION_NUMBER);
  EXPECT(strcmp(eredu_version_string(), EREDU_VERSION_STRING) == 0);
  EXPECT(eredu_error_code(NULL) == EREDU_OK);
  EXPECT(strcmp(eredu_error_message(NULL), "") == 0);
}

static void test_group_errors(void) {
  static const uint64_t shape[] = {8, 8};
  eredu_member_desc first = member("q.weight", shape, 2, EREDU_SHARDING_REPLICATED, 0);
  eredu_member_desc second = first;
  const eredu_member_desc *members[2];
  eredu_group *group = NULL;
  eredu_error *error = NULL;
  members[0] = &first;
  members[1] = &second;

  EXPECT(group_new("attention", EREDU_ROLE_ATTENTION_HEADS, 0, 0, members, 2, &group, &error) ==
         EREDU_E_INVALID_GROUP);
  EXPECT(group == NULL);
  EXPECT(eredu_error_code(error) == EREDU_E_INVALID_GROUP);
  EXPECT(strstr(eredu_error_message(error), "repeats tensor target") != NULL);
  eredu_error_free(error);

  error = NULL;
  EXPECT(group_new(NULL, EREDU_ROLE_ATTENTION_HEADS, 0, 0, members, 1, &group, &error) ==
         EREDU_E_NULL_ARGUMENT);
  EXPECT(eredu_error_code(error) == EREDU_E_NULL_ARGUMENT);
  eredu_error_free(error);

  EXPECT(group_new("attention", 42, 0, 0, members, 1, &group, NULL) == EREDU_E_INVALID_ARGUMENT);
}

static void test_plan(void) {
  static const uint64_t weight_shape[] = {8, 16};
  static const uint64_t bias_shape[] = {8};
  static const uint64_t qkv_shape[] = {16, 8};
  static const uint64_t qkv_segments[] = {0, 8, 8, 12, 12, 16};
  static const uint64_t expected_runs[] = {4, 8, 10, 12, 14, 16};
  eredu_member_desc weight = member("down.weight", weight_shape, 2, EREDU_SHARDING_EQUAL, 1);
  eredu_member_desc bias = member("down.bias", bias_shape, 1, EREDU_SHARDING_REPLICATED, 0);
  eredu_member_desc qkv = member("qkv.weight", qkv_shape, 2, EREDU_SHARDING_SEGMENTED, 0);
  const eredu_member_desc *down_members[2];
  const eredu_member_desc *qkv_members[1];
  const eredu_group *groups[2];
  eredu_group *down = NULL;
  eredu_group *attention = NULL;
  eredu_model *model = NULL;
  eredu_layout *layout = NULL;
  eredu_error *error = NULL;
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  eredu_layout_tensor_info info = EREDU_LAYOUT_TENSOR_INFO_INIT;
  eredu_layout_info totals = EREDU_LAYOUT_INFO_INIT;
  size_t index = 0;
  size_t length = 0;
  char *json = NULL;

  qkv.segments = qkv_segments;
  qkv.segment_count = 3;
  down_members[0] = &weight;
  down_members[1] = &bias;
  qkv_members[0] = &qkv;

  EXPECT(group_new("decoder.mlp.down", EREDU_ROLE_ROW_PROJECTION, 0, 0, down_members, 2, &down,
                   &error) == EREDU_OK);
  EXPECT(error == NULL);
  EXPECT(group_new("qkv", EREDU_ROLE_SEGMENTED, 0, 0, qkv_members, 1, &attention, NULL) ==
         EREDU_OK);
  groups[0] = down;
  groups[1] = attention;
  EXPECT(eredu_model_new(NULL, groups, 2, &model, NULL) == EREDU_OK);
  eredu_group_free(down);
  eredu_group_free(attention);

  topology.tensor = 2;
  EXPECT(eredu_plan_rank(model, &topology, 1, NULL, &layout, &error) == EREDU_OK);
  /* The layout keeps the description alive. */
  eredu_model_free(model);
  if (layout == NULL) return;

  EXPECT(eredu_layout_find_tensor(layout, "down.weight", &index, NULL) == EREDU_OK);
  EXPECT(index == 1);
  EXPECT(eredu_layout_get_tensor_info(layout, index, &info, NULL) == EREDU_OK);
  EXPECT(info.placement == EREDU_PLACEMENT_SHARD);
  EXPECT(info.axis == 1 && info.shard_index == 1 && info.shard_parts == 2);
  EXPECT(info.local_ndim == 2 && info.local_shape[0] == 8 && info.local_shape[1] == 8);
  EXPECT(!info.has_logical_units && info.logical_units == 0);
  EXPECT(strcmp(info.target, "down.weight") == 0 && info.target_length == 11);

  EXPECT(eredu_layout_find_tensor(layout, "qkv.weight", &index, NULL) == EREDU_OK);
  EXPECT(eredu_layout_get_tensor_info(layout, index, &info, NULL) == EREDU_OK);
  EXPECT(info.placement == EREDU_PLACEMENT_INDICES);
  EXPECT(info.run_count == 3 && info.index_count == 8);
  EXPECT(info.runs != NULL && memcmp(info.runs, expected_runs, sizeof expected_runs) == 0);

  EXPECT(eredu_layout_find_tensor(layout, "nope", &index, &error) == EREDU_E_NOT_FOUND);
  EXPECT(eredu_error_code(error) == EREDU_E_NOT_FOUND);
  eredu_error_free(error);

  EXPECT(eredu_layout_tensor_count(layout) == 3);
  EXPECT(eredu_layout_get_info(layout, &totals, NULL) == EREDU_OK);
  EXPECT(totals.tensor_count == 3 && totals.rank == 1 && totals.tensor_rank == 1);
  EXPECT(totals.local_bytes == 256 + 32 + 256);
  EXPECT(totals.global_bytes == 512 + 32 + 512);
  EXPECT(totals.materialized_tensors == 3 && totals.omitted_tensors == 0);

  EXPECT(eredu_layout_to_json(layout, &json, &length, NULL) == EREDU_OK);
  EXPECT(json != NULL && strlen(json) == length && json[length - 1] == '\n');
  EXPECT(json != NULL && strstr(json, "\"runs\":[[4,8],[10,12],[14,16]]") != NULL);
  eredu_buffer_free(json);

  eredu_layout_free(layout);
}

static void test_format(void) {
  static const uint64_t shape[] = {256, 256};
  eredu_member_desc weight = member("q.weight", shape, 2, EREDU_SHARDING_PARTITIONED, 0);
  eredu_linear_format format;
  eredu_linear_format_spec spec;
  eredu_member_list *list = NULL;
  eredu_member_desc scale = EREDU_MEMBER_DESC_INIT;
  EXPECT(eredu_linear_format_init(&format, sizeof format, NULL) == EREDU_OK);
  format.kind = EREDU_LINEAR_FORMAT_BLOCK_FP8;
  format.scale_encoding = EREDU_BLOCK_FP8_SCALE_UE8M0;
  EXPECT(eredu_linear_format_spec_init(&spec, sizeof spec, NULL) == EREDU_OK);
  spec.format = &format;
  spec.scale = "q.weight_scale_inv";
  EXPECT(eredu_expand_linear_format_member(&weight, &spec, &list, NULL) == EREDU_OK);
  EXPECT(eredu_member_list_count(list) == 2);
  EXPECT(eredu_member_list_get(list, 1, &scale, NULL) == EREDU_OK);
  EXPECT(strcmp(scale.target, "q.weight_scale_inv") == 0);
  EXPECT(scale.ndim == 2 && scale.shape[0] == 2 && scale.shape[1] == 2);
  EXPECT(scale.has_dtype == 1 && scale.dtype == EREDU_DTYPE_F8_E8M0);
  eredu_member_list_free(list);
}

int main(void) {
  test_status_and_version();
  test_group_errors();
  test_plan();
  test_format();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
