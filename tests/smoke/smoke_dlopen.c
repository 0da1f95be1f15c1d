// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * A foreign runtime's view of liberedu: nothing linked, the library opened
 * with dlopen("liberedu.so.0") and every function resolved with dlsym.
 *
 * usage: smoke_dlopen PATH_OF_BUILT_LIBRARY   (liberedu.so.0 is opened from
 * that directory, through its SONAME link)
 */
#include <eredu/eredu.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef uint32_t (*version_number_fn)(void);
typedef const char *(*status_name_fn)(eredu_status);
typedef const char *(*error_message_fn)(const eredu_error *);
typedef void (*error_free_fn)(eredu_error *);
typedef eredu_status (*model_from_json_fn)(const char *, size_t, eredu_model **, eredu_error **);
typedef void (*model_free_fn)(eredu_model *);
typedef eredu_status (*plan_rank_fn)(const eredu_model *, const eredu_topology *, uint64_t,
                                     const eredu_plan_options *, eredu_layout **, eredu_error **);
typedef eredu_status (*find_tensor_fn)(const eredu_layout *, const char *, size_t *,
                                       eredu_error **);
typedef eredu_status (*tensor_info_fn)(const eredu_layout *, size_t, eredu_layout_tensor_info *,
                                       eredu_error **);
typedef eredu_status (*to_json_fn)(const eredu_layout *, char **, size_t *, eredu_error **);
typedef void (*buffer_free_fn)(void *);
typedef void (*layout_free_fn)(eredu_layout *);

static const char kModel[] =
    "{\"schema\":\"eredu.groups.v1\",\"groups\":["
    "{\"name\":\"decoder.mlp.down\",\"role\":\"row_projection\",\"members\":["
    "{\"target\":\"down.weight\",\"shape\":[8,16],\"dtype\":\"F32\","
    "\"sharding\":{\"kind\":\"equal\",\"axis\":1}},"
    "{\"target\":\"down.bias\",\"shape\":[8],\"dtype\":\"F32\","
    "\"sharding\":{\"kind\":\"replicated\"}}]},"
    "{\"name\":\"qkv\",\"role\":\"segmented\",\"members\":["
    "{\"target\":\"qkv.weight\",\"shape\":[16,8],\"dtype\":\"BF16\","
    "\"sharding\":{\"kind\":\"segmented\",\"axis\":0,\"segments\":[[0,8],[8,12],[12,16]]}}]}]}";

static int failures = 0;

#define EXPECT(condition)                                                      \
  do {                                                                         \
    if (!(condition)) {                                                        \
      ++failures;                                                              \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #condition); \
    }                                                                          \
  } while (0)

/* dlsym returns an object pointer; copying its bytes into a function
 * pointer is the ISO C way to convert it. */
static int resolve(void *library, const char *name, void *function, size_t size) {
  void *symbol = dlsym(library, name);
  if (symbol == NULL) {
    fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
    return 0;
  }
  memcpy(function, &symbol, size);
  return 1;
}

#define RESOLVE(library, name, variable) resolve((library), (name), &(variable), sizeof(variable))

int main(int argc, char **argv) {
  char path[4096];
  const char *slash;
  void *library;
  version_number_fn version_number;
  status_name_fn status_name;
  error_message_fn error_message;
  error_free_fn error_free;
  model_from_json_fn model_from_json;
  model_free_fn model_free;
  plan_rank_fn plan_rank;
  find_tensor_fn find_tensor;
  tensor_info_fn tensor_info;
  to_json_fn to_json;
  buffer_free_fn buffer_free;
  layout_free_fn layout_free;
  eredu_model *model = NULL;
  eredu_layout *layout = NULL;
  eredu_error *error = NULL;
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  eredu_layout_tensor_info info = EREDU_LAYOUT_TENSOR_INFO_INIT;
  size_t index = 0;
  char *json = NULL;
  size_t length = 0;
  static const uint64_t expected_runs[] = {4, 8, 10, 12, 14, 16};

  if (argc != 2) {
    fprintf(stderr, "usage: %s PATH_OF_BUILT_LIBRARY\n", argv[0]);
    return 2;
  }
  slash = strrchr(argv[1], '/');
  snprintf(path, sizeof path, "%.*sliberedu.so.0", slash == NULL ? 0 : (int)(slash - argv[1] + 1),
           argv[1]);
  library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "dlopen(%s): %s\n", path, dlerror());
    return 1;
  }
  if (!RESOLVE(library, "eredu_version_number", version_number) ||
      !RESOLVE(library, "eredu_status_name", status_name) ||
      !RESOLVE(library, "eredu_error_message", error_message) ||
      !RESOLVE(library, "eredu_error_free", error_free) ||
      !RESOLVE(library, "eredu_model_from_json", model_from_json) ||
      !RESOLVE(library, "eredu_model_free", model_free) ||
      !RESOLVE(library, "eredu_plan_rank", plan_rank) ||
      !RESOLVE(library, "eredu_layout_find_tensor", find_tensor) ||
      !RESOLVE(library, "eredu_layout_get_tensor_info", tensor_info) ||
      !RESOLVE(library, "eredu_layout_to_json", to_json) ||
      !RESOLVE(library, "eredu_buffer_free", buffer_free) ||
      !RESOLVE(library, "eredu_layout_free", layout_free)) {
    return 1;
  }
  EXPECT(version_number() == EREDU_VERSION_NUMBER);
  EXPECT(strcmp(status_name(EREDU_E_RANK_OUT_OF_RANGE), "EREDU_E_RANK_OUT_OF_RANGE") == 0);

  EXPECT(model_from_json(kModel, sizeof kModel - 1, &model, &error) == EREDU_OK);
  if (error != NULL) fprintf(stderr, "%s\n", error_message(error));
  if (model == NULL) return 1;

  topology.tensor = 2;
  EXPECT(plan_rank(model, &topology, 2, NULL, &layout, &error) == EREDU_E_RANK_OUT_OF_RANGE);
  EXPECT(layout == NULL);
  EXPECT(strstr(error_message(error), "2") != NULL);
  error_free(error);
  error = NULL;

  EXPECT(plan_rank(model, &topology, 1, NULL, &layout, &error) == EREDU_OK);
  model_free(model);
  if (layout == NULL) return 1;

  EXPECT(find_tensor(layout, "down.weight", &index, NULL) == EREDU_OK);
  EXPECT(tensor_info(layout, index, &info, NULL) == EREDU_OK);
  EXPECT(info.placement == EREDU_PLACEMENT_SHARD);
  EXPECT(info.axis == 1 && info.shard_index == 1 && info.shard_parts == 2);
  EXPECT(info.local_ndim == 2 && info.local_shape[0] == 8 && info.local_shape[1] == 8);

  EXPECT(find_tensor(layout, "qkv.weight", &index, NULL) == EREDU_OK);
  EXPECT(tensor_info(layout, index, &info, NULL) == EREDU_OK);
  EXPECT(info.placement == EREDU_PLACEMENT_INDICES && info.index_count == 8);
  EXPECT(info.run_count == 3 && memcmp(info.runs, expected_runs, sizeof expected_runs) == 0);

  EXPECT(to_json(layout, &json, &length, NULL) == EREDU_OK);
  EXPECT(json != NULL && strstr(json,
                                "\"placement\":{\"kind\":\"shard\",\"axis\":1,"
                                "\"index\":1,\"parts\":2}") != NULL);
  EXPECT(json != NULL && length > 0 && json[length - 1] == '\n');
  buffer_free(json);
  layout_free(layout);
  dlclose(library);

  printf("smoke_dlopen: %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
