// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * Structs that can grow (docs/abi.md), from the caller's side: a program
 * compiled against an older header (a struct without its later fields) and
 * one compiled against a newer header (a struct with fields this library
 * does not know) both work, and the library never reads or writes past the
 * caller's struct_size. Run under AddressSanitizer too.
 */
#include <eredu/eredu.h>

#include <stdio.h>
#include <string.h>

static int failed = 0;

#define EXPECT(condition)                                                      \
  do {                                                                         \
    if (!(condition)) {                                                        \
      ++failed;                                                                \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #condition); \
    }                                                                          \
  } while (0)

/* eredu_plan_options as an older header would have it: before the progress
 * callback was added. */
struct older_plan_options {
  uint32_t struct_size;
  eredu_policy policy;
  uint32_t threads;
};

/* eredu_topology as a newer header might have it: one more axis. */
struct newer_topology {
  eredu_topology known;
  uint64_t context;
};

/* eredu_layout_tensor_info as an older header would have it: up to the
 * local shape, and guard bytes the library must never touch after it. */
struct older_tensor_info {
  uint32_t struct_size;
  eredu_role role;
  const char *target;
  size_t target_length;
  const char *logical_name;
  size_t logical_name_length;
  const uint64_t *global_shape;
  size_t global_ndim;
  const uint64_t *local_shape;
  size_t local_ndim;
};
struct guarded_tensor_info {
  struct older_tensor_info info;
  unsigned char guard[64];
};

/* eredu_layout_info as a newer header might have it. */
struct newer_layout_info {
  eredu_layout_info known;
  uint64_t future_total;
};

static const char kModel[] =
    "{\"schema\":\"eredu.groups.v1\",\"groups\":[{\"name\":\"m\",\"role\":\"row_projection\","
    "\"members\":[{\"target\":\"w\",\"shape\":[8,10],\"dtype\":\"F32\","
    "\"sharding\":{\"kind\":\"equal\",\"axis\":1}}]}]}";

static eredu_model *load(void) {
  eredu_model *model = NULL;
  EXPECT(eredu_model_from_json(kModel, sizeof kModel - 1, &model, NULL) == EREDU_OK);
  return model;
}

static void older_input(const eredu_model *model) {
  struct older_plan_options older;
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  char *json = NULL;
  memset(&older, 0, sizeof older);
  older.struct_size = sizeof older;
  older.policy = EREDU_POLICY_REPLICATE_UNSUPPORTED;
  older.threads = 1;
  topology.tensor = 3; /* 10 columns do not split 3 ways: the group falls back */
  EXPECT(eredu_plan_world_json(model, &topology, (const eredu_plan_options *)&older, &json, NULL,
                               NULL) == EREDU_OK);
  EXPECT(json != NULL && strstr(json, "\"policy\":\"replicate_unsupported\"") != NULL);
  eredu_buffer_free(json);
  /* Its _init writes only what it has. */
  memset(&older, 0xAB, sizeof older);
  EXPECT(eredu_plan_options_init((eredu_plan_options *)&older, sizeof older, NULL) == EREDU_OK);
  EXPECT(older.struct_size == sizeof older && older.policy == 0 && older.threads == 0);
}

static void newer_input(const eredu_model *model) {
  struct newer_topology newer;
  eredu_layout *layout = NULL;
  eredu_error *error = NULL;
  memset(&newer, 0, sizeof newer);
  newer.known.struct_size = sizeof newer;
  newer.known.tensor = 2;
  newer.known.pipeline = newer.known.expert = newer.known.data = 1;
  /* A newer field left at its default (zero) is accepted. */
  EXPECT(eredu_plan_rank(model, &newer.known, 1, NULL, &layout, NULL) == EREDU_OK);
  eredu_layout_free(layout);
  layout = NULL;
  /* A newer field set to something this library cannot honour is refused. */
  newer.context = 2;
  EXPECT(eredu_plan_rank(model, &newer.known, 1, NULL, &layout, &error) ==
         EREDU_E_INVALID_ARGUMENT);
  EXPECT(layout == NULL);
  EXPECT(error != NULL && strstr(eredu_error_message(error), "does not know") != NULL);
  eredu_error_free(error);
}

static void older_output(const eredu_layout *layout) {
  struct guarded_tensor_info guarded;
  size_t i;
  memset(&guarded, 0x5A, sizeof guarded);
  guarded.info.struct_size = sizeof guarded.info;
  EXPECT(eredu_layout_get_tensor_info(layout, 0, (eredu_layout_tensor_info *)&guarded.info, NULL) ==
         EREDU_OK);
  EXPECT(guarded.info.struct_size == sizeof guarded.info);
  EXPECT(strcmp(guarded.info.target, "w") == 0 && guarded.info.target_length == 1);
  EXPECT(guarded.info.local_ndim == 2 && guarded.info.local_shape[1] == 5);
  for (i = 0; i < sizeof guarded.guard; ++i) EXPECT(guarded.guard[i] == 0x5A);
  /* A failure zeroes only the older fields too. */
  EXPECT(eredu_layout_get_tensor_info(layout, 9, (eredu_layout_tensor_info *)&guarded.info, NULL) ==
         EREDU_E_INVALID_ARGUMENT);
  EXPECT(guarded.info.target == NULL && guarded.info.local_ndim == 0);
  for (i = 0; i < sizeof guarded.guard; ++i) EXPECT(guarded.guard[i] == 0x5A);
}

static void newer_output(const eredu_layout *layout) {
  struct newer_layout_info newer;
  memset(&newer, 0xAA, sizeof newer);
  newer.known.struct_size = sizeof newer;
  EXPECT(eredu_layout_get_info(layout, &newer.known, NULL) == EREDU_OK);
  EXPECT(newer.known.struct_size == sizeof newer);
  EXPECT(newer.known.rank == 1 && newer.known.tensor_count == 1);
  EXPECT(newer.known.local_bytes == 160 && newer.known.global_bytes == 320);
  EXPECT(newer.future_total == 0); /* what this library does not know is zero */
}

int main(void) {
  eredu_model *model = load();
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  eredu_layout *layout = NULL;
  if (model == NULL) return 1;
  older_input(model);
  newer_input(model);
  topology.tensor = 2;
  EXPECT(eredu_plan_rank(model, &topology, 1, NULL, &layout, NULL) == EREDU_OK);
  if (layout != NULL) {
    older_output(layout);
    newer_output(layout);
  }
  eredu_layout_free(layout);
  eredu_model_free(model);
  printf("struct_versions: %s\n", failed == 0 ? "ok" : "FAILED");
  return failed == 0 ? 0 : 1;
}
