// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/*
 * The shared test vectors through the public C API (tests/vectors/README.md):
 * runs every case of cases.txt and compares the library's text with
 * expected/<name>.out byte for byte. C99, so it is what a C caller writes.
 *
 * usage: run_vectors VECTORS_DIR
 * Prints one line per failing case with the first differing byte and the
 * text around it on both sides; exits 1 when a case fails or cases.txt is
 * malformed, 0 when every case passes.
 */
#include <eredu/eredu.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PATH 4096
#define MAX_STAGES 64
#define MAX_LINE 4096

typedef struct {
  char name[256];
  char op[16];
  char groups[MAX_PATH];
  char residency[MAX_PATH];
  uint64_t tp, pp, ep, dp, rank, device_budget;
  uint64_t pp_layers[MAX_STAGES];
  size_t pp_layer_count;
  int has_residency, has_device_budget;
  eredu_policy policy;
} vector_case;

typedef struct {
  char *data;
  size_t length;
} text;

static const char *vectors_dir;

/* The whole file `dir/relative`; data NULL when it cannot be read. */
static text read_file(const char *relative) {
  text result = {NULL, 0};
  char path[2 * MAX_PATH + 2];
  FILE *file;
  size_t capacity = 1 << 16;
  size_t got;
  snprintf(path, sizeof path, "%s/%s", vectors_dir, relative);
  file = fopen(path, "rb");
  if (file == NULL) return result;
  result.data = malloc(capacity);
  while (result.data != NULL &&
         (got = fread(result.data + result.length, 1, capacity - result.length, file)) > 0) {
    result.length += got;
    if (result.length == capacity) {
      char *grown = realloc(result.data, capacity * 2);
      if (grown == NULL) free(result.data);
      result.data = grown;
      capacity *= 2;
    }
  }
  if (ferror(file) && result.data != NULL) {
    free(result.data);
    result.data = NULL;
  }
  fclose(file);
  return result;
}

static int parse_number(const char *value, uint64_t *out) {
  char *end = NULL;
  unsigned long long parsed;
  if (*value < '0' || *value > '9') return 0;
  errno = 0;
  parsed = strtoull(value, &end, 10);
  if (errno != 0 || *end != '\0') return 0;
  *out = (uint64_t)parsed;
  return 1;
}

/* "8,8,7,7" into c->pp_layers; 0 for a bad count or more than MAX_STAGES. */
static int parse_counts(const char *value, vector_case *c) {
  char count[32];
  c->pp_layer_count = 0;
  while (*value != '\0') {
    size_t length = strcspn(value, ",");
    if (length == 0 || length >= sizeof count || c->pp_layer_count == MAX_STAGES) return 0;
    memcpy(count, value, length);
    count[length] = '\0';
    if (!parse_number(count, &c->pp_layers[c->pp_layer_count])) return 0;
    c->pp_layer_count += 1;
    value += length;
    if (*value == ',') value += 1;
  }
  return c->pp_layer_count > 0;
}

static int copy_value(char *out, size_t size, const char *value) {
  if (strlen(value) >= size) return 0;
  strcpy(out, value);
  return 1;
}

/* Sets one key of `c`; 0 for an unknown key or a bad value. */
static int set_key(vector_case *c, const char *key, const char *value) {
  if (strcmp(key, "name") == 0) return copy_value(c->name, sizeof c->name, value);
  if (strcmp(key, "op") == 0) return copy_value(c->op, sizeof c->op, value);
  if (strcmp(key, "groups") == 0) return copy_value(c->groups, sizeof c->groups, value);
  if (strcmp(key, "tp") == 0) return parse_number(value, &c->tp);
  if (strcmp(key, "pp") == 0) return parse_number(value, &c->pp);
  if (strcmp(key, "ep") == 0) return parse_number(value, &c->ep);
  if (strcmp(key, "dp") == 0) return parse_number(value, &c->dp);
  if (strcmp(key, "rank") == 0) return parse_number(value, &c->rank);
  if (strcmp(key, "pp_layers") == 0) return parse_counts(value, c);
  if (strcmp(key, "policy") == 0) {
    if (strcmp(value, "require") == 0) {
      c->policy = EREDU_POLICY_REQUIRE;
    } else if (strcmp(value, "replicate-unsupported") == 0) {
      c->policy = EREDU_POLICY_REPLICATE_UNSUPPORTED;
    } else if (strcmp(value, "require-even") == 0) {
      c->policy = EREDU_POLICY_REQUIRE_EVEN;
    } else {
      return 0;
    }
    return 1;
  }
  if (strcmp(key, "residency") == 0) {
    c->has_residency = 1;
    return copy_value(c->residency, sizeof c->residency, value);
  }
  if (strcmp(key, "device_budget") == 0) {
    c->has_device_budget = 1;
    return parse_number(value, &c->device_budget);
  }
  return 0;
}

/* Parses one line; returns 1 for a case, 0 for a blank/comment line, -1 for
 * a malformed one. */
static int parse_line(char *line, vector_case *c) {
  char *token = strtok(line, " \t\r\n");
  int tokens = 0;
  memset(c, 0, sizeof *c);
  c->tp = c->pp = c->ep = c->dp = 1;
  c->policy = EREDU_POLICY_REQUIRE;
  if (token == NULL || token[0] == '#') return 0;
  for (; token != NULL; token = strtok(NULL, " \t\r\n")) {
    char *equals = strchr(token, '=');
    if (equals == NULL) return -1;
    *equals = '\0';
    if (!set_key(c, token, equals + 1)) {
      fprintf(stderr, "bad key or value: %s=%s\n", token, equals + 1);
      return -1;
    }
    ++tokens;
  }
  if (c->name[0] == '\0' || c->groups[0] == '\0') return -1;
  if (strcmp(c->op, "layout") != 0 && strcmp(c->op, "world") != 0 && strcmp(c->op, "check") != 0) {
    return -1;
  }
  return tokens > 0;
}

/* Appends printf output to `out` (data NULL after a failure). */
static void append(text *out, size_t room, const char *format, ...) {
  va_list arguments;
  char *grown;
  int written;
  if (out->data == NULL) return;
  grown = realloc(out->data, out->length + room);
  if (grown == NULL) {
    free(out->data);
    out->data = NULL;
    return;
  }
  out->data = grown;
  va_start(arguments, format);
  written = vsnprintf(out->data + out->length, room, format, arguments);
  va_end(arguments);
  if (written > 0) out->length += (size_t)written;
}

/* README step 3: the error line of a failed step, then one line per problem
 * when it lists several. */
static text error_text(eredu_status status, const eredu_error *error) {
  text result;
  const char *name = eredu_status_name(status);
  const char *message = eredu_error_message(error);
  size_t count = eredu_error_count(error);
  size_t i;
  result.data = malloc(1);
  result.length = 0;
  append(&result, strlen(name) + strlen(message) + 64, "error[%s] %d: %s\n", name, (int)status,
         message);
  for (i = 0; count > 1 && i < count; ++i) {
    eredu_error_entry entry = EREDU_ERROR_ENTRY_INIT;
    if (eredu_error_get_entry(error, i, &entry, NULL) != EREDU_OK) continue;
    append(&result, entry.group_length + entry.tensor_length + entry.message_length + 128,
           "problem %lu: error[%s] %d group %s tensor %s: %s\n", (unsigned long)i,
           eredu_status_name(entry.code), (int)entry.code, entry.group ? entry.group : "-",
           entry.tensor ? entry.tensor : "-", entry.message);
  }
  return result;
}

/* The library's buffer as an owned text. */
static text buffer_text(char *buffer, size_t length) {
  text result;
  result.data = malloc(length + 1);
  result.length = length;
  if (result.data != NULL) memcpy(result.data, buffer, length + 1);
  eredu_buffer_free(buffer);
  return result;
}

/* README steps 1 and 2, then step 3 on failure. */
static text run_case(const vector_case *c, const text *groups, const text *residency) {
  eredu_error *error = NULL;
  eredu_model *model = NULL;
  char *out = NULL;
  size_t length = 0;
  text result;
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  eredu_plan_options plan = EREDU_PLAN_OPTIONS_INIT;
  eredu_status status = eredu_model_from_json(groups->data, groups->length, &model, &error);
  topology.tensor = c->tp;
  topology.pipeline = c->pp;
  topology.expert = c->ep;
  topology.data = c->dp;
  plan.policy = c->policy;
  plan.pipeline_layers = c->pp_layer_count > 0 ? c->pp_layers : NULL;
  plan.pipeline_layer_count = c->pp_layer_count;
  if (status == EREDU_OK && strcmp(c->op, "layout") == 0) {
    eredu_layout *layout = NULL;
    status = eredu_plan_rank(model, &topology, c->rank, &plan, &layout, &error);
    if (status == EREDU_OK) status = eredu_layout_to_json(layout, &out, &length, &error);
    eredu_layout_free(layout);
  } else if (status == EREDU_OK && strcmp(c->op, "world") == 0) {
    status = eredu_plan_world_json(model, &topology, &plan, &out, &length, &error);
  } else if (status == EREDU_OK) {
    eredu_check_options options = EREDU_CHECK_OPTIONS_INIT;
    if (c->has_residency) {
      options.residency_json = residency->data;
      options.residency_json_length = residency->length;
    }
    options.has_device_budget = (uint8_t)c->has_device_budget;
    options.device_budget_bytes = c->device_budget;
    status = eredu_check_json(model, &topology, &plan, &options, &out, &length, &error);
  }
  eredu_model_free(model);
  result = status == EREDU_OK ? buffer_text(out, length) : error_text(status, error);
  eredu_error_free(error);
  return result;
}

/* Prints up to 100 bytes of `t` from `from`, control bytes escaped. */
static void print_excerpt(const char *label, const text *t, size_t from) {
  size_t at;
  printf("  %s ...", label);
  for (at = from; at < t->length && at < from + 100; ++at) {
    unsigned char byte = (unsigned char)t->data[at];
    if (byte == '\n') {
      printf("\\n");
    } else if (byte < 0x20 || byte == 0x7f) {
      printf("\\x%02x", byte);
    } else {
      putchar(byte);
    }
  }
  printf("%s\n", at < t->length ? "..." : "<end>");
}

/* Prints where `actual` first differs from `expected`. */
static void print_difference(const char *name, const text *actual, const text *expected) {
  size_t at = 0;
  size_t from;
  while (at < actual->length && at < expected->length && actual->data[at] == expected->data[at]) {
    ++at;
  }
  from = at > 40 ? at - 40 : 0;
  printf("FAIL %s: %lu bytes, expected %lu; first difference at byte %lu\n", name,
         (unsigned long)actual->length, (unsigned long)expected->length, (unsigned long)at);
  print_excerpt("got:     ", actual, from);
  print_excerpt("expected:", expected, from);
}

/* Runs one case; returns 1 when it passes. */
static int check_case(const vector_case *c) {
  char expected_path[512];
  text groups = read_file(c->groups);
  text residency = {NULL, 0};
  text expected;
  text actual;
  int passed;
  snprintf(expected_path, sizeof expected_path, "expected/%s.out", c->name);
  expected = read_file(expected_path);
  if (c->has_residency) residency = read_file(c->residency);
  if (groups.data == NULL || expected.data == NULL || (c->has_residency && !residency.data)) {
    printf("FAIL %s: cannot read an input or %s\n", c->name, expected_path);
    free(groups.data);
    free(residency.data);
    free(expected.data);
    return 0;
  }
  actual = run_case(c, &groups, &residency);
  passed = actual.data != NULL && actual.length == expected.length &&
           memcmp(actual.data, expected.data, actual.length) == 0;
  if (!passed && actual.data != NULL) print_difference(c->name, &actual, &expected);
  if (actual.data == NULL) printf("FAIL %s: out of memory\n", c->name);
  free(groups.data);
  free(residency.data);
  free(expected.data);
  free(actual.data);
  return passed;
}

int main(int argc, char **argv) {
  text cases;
  char line[MAX_LINE];
  size_t at = 0;
  int line_number = 0;
  int run = 0;
  int failed = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: run_vectors VECTORS_DIR\n");
    return 1;
  }
  vectors_dir = argv[1];
  cases = read_file("cases.txt");
  if (cases.data == NULL) {
    fprintf(stderr, "cannot read %s/cases.txt\n", vectors_dir);
    return 1;
  }
  while (at < cases.length) {
    size_t end = at;
    vector_case c;
    int parsed;
    while (end < cases.length && cases.data[end] != '\n') ++end;
    ++line_number;
    if (end - at >= sizeof line) {
      fprintf(stderr, "cases.txt:%d: line too long\n", line_number);
      free(cases.data);
      return 1;
    }
    memcpy(line, cases.data + at, end - at);
    line[end - at] = '\0';
    at = end + 1;
    parsed = parse_line(line, &c);
    if (parsed < 0) {
      fprintf(stderr, "cases.txt:%d: malformed case\n", line_number);
      free(cases.data);
      return 1;
    }
    if (parsed == 0) continue;
    ++run;
    if (!check_case(&c)) ++failed;
  }
  free(cases.data);
  printf("%d of %d vectors passed\n", run - failed, run);
  return failed == 0 && run > 0 ? 0 : 1;
}
