// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/* Every process of an MPI job plans its own rank of a model and the ranks
 * prove coverage together (examples/mpi/README.md):
 *
 *   mpirun -np 8 coverage MODEL_DIR TENSOR PIPELINE
 *
 * Each process reads its rank and world size from the launcher's
 * environment (eredu_launch_env_from_environ), checks them against
 * MPI_Comm_rank/MPI_Comm_size and against the topology
 * (eredu_launch_env_check), plans its rank (eredu_plan_rank) and reduces the
 * plan to one fixed-size digest per tensor: what slice of it the rank holds.
 * One MPI_Allgather gives every rank every digest, and every rank checks
 * that each tensor is tiled exactly, with no gap and no overlap, by the
 * tensor-parallel group of each pipeline stage that holds it. Rank 0 prints
 * one line per rank and the summary; the exit status is 1 on any failure or
 * disagreement, on every rank. */
#include <eredu/eredu.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one rank holds of one tensor. */
enum { HOLDS_NOTHING = 0, HOLDS_WHOLE = 1, HOLDS_SLICE = 2, HOLDS_UNSUPPORTED = 3 };

/* One tensor of one rank, the same bytes on every machine MPI runs on here
 * (fixed-width fields, no padding). */
typedef struct {
  uint64_t name_hash; /* FNV-1a of the target: the ranks list the same tensors */
  uint64_t extent;    /* SLICE: the global elements along `axis` */
  uint64_t start;     /* SLICE: the elements [start, end) of `axis` held */
  uint64_t end;
  uint32_t holds; /* HOLDS_* */
  uint32_t axis;  /* SLICE: the split axis */
} tensor_digest;

/* One line of a rank's report, gathered to rank 0 in rank order. */
typedef struct {
  char text[160];
} report_line;

static uint64_t fnv1a(const char *text) {
  uint64_t hash = 14695981039346656037u;
  for (; *text != '\0'; ++text) hash = (hash ^ (unsigned char)*text) * 1099511628211u;
  return hash;
}

static const char *launcher_name(eredu_launcher source) {
  switch (source) {
    case EREDU_LAUNCHER_TORCHRUN:
      return "torchrun";
    case EREDU_LAUNCHER_OPEN_MPI:
      return "Open MPI";
    case EREDU_LAUNCHER_PMI:
      return "PMI";
    default:
      return "Slurm";
  }
}

static uint64_t parse_size(const char *text) {
  char *end = NULL;
  const unsigned long long value = strtoull(text, &end, 10);
  return (end == text || *end != '\0') ? 0 : (uint64_t)value;
}

/* The digest of one planned tensor, or -1 with a message. */
static int digest_of(const eredu_layout_tensor_info *tensor, uint64_t rank, tensor_digest *out) {
  memset(out, 0, sizeof *out);
  out->name_hash = fnv1a(tensor->target);
  switch (tensor->placement) {
    case EREDU_PLACEMENT_OMIT:
      out->holds = HOLDS_NOTHING;
      return 0;
    case EREDU_PLACEMENT_REPLICATED:
    case EREDU_PLACEMENT_LOCAL:
      out->holds = HOLDS_WHOLE;
      return 0;
    case EREDU_PLACEMENT_RANK:
      out->holds = tensor->owner_rank == rank ? HOLDS_WHOLE : HOLDS_NOTHING;
      return 0;
    case EREDU_PLACEMENT_SHARD:
    case EREDU_PLACEMENT_RANGE:
      if (tensor->axis >= tensor->global_ndim) return -1;
      out->holds = HOLDS_SLICE;
      out->axis = (uint32_t)tensor->axis;
      out->extent = tensor->global_shape[tensor->axis];
      if (tensor->placement == EREDU_PLACEMENT_RANGE) {
        out->start = tensor->start;
        out->end = tensor->end;
      } else {
        if (tensor->shard_parts == 0 || out->extent % tensor->shard_parts != 0) return -1;
        const uint64_t part = out->extent / tensor->shard_parts;
        out->start = tensor->shard_index * part;
        out->end = out->start + part;
      }
      return 0;
    default: /* INDICES: selections this check does not tile */
      out->holds = HOLDS_UNSUPPORTED;
      return 0;
  }
}

static int by_start(const void *left, const void *right) {
  const tensor_digest *a = *(const tensor_digest *const *)left;
  const tensor_digest *b = *(const tensor_digest *const *)right;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  return (a->end > b->end) - (a->end < b->end);
}

/* Whether the tensor-parallel group `group` (tensor_size digests of one
 * tensor, one per tensor rank of a stage that holds it) tiles it exactly:
 * every rank the whole tensor, one rank the whole tensor, or slices of one
 * axis that cover [0, extent) with no gap and no overlap. */
static const char *group_tiles(const tensor_digest **group, uint64_t tensor_size) {
  uint64_t whole = 0, slices = 0;
  for (uint64_t t = 0; t < tensor_size; ++t) {
    whole += group[t]->holds == HOLDS_WHOLE;
    slices += group[t]->holds == HOLDS_SLICE;
    if (group[t]->holds == HOLDS_UNSUPPORTED) return "a selection this example does not tile";
  }
  if (slices == 0) return (whole == tensor_size || whole == 1) ? NULL : "partly replicated";
  if (slices != tensor_size) return "some tensor ranks of the stage hold no slice";
  qsort(group, (size_t)tensor_size, sizeof *group, by_start);
  uint64_t covered = 0;
  for (uint64_t t = 0; t < tensor_size; ++t) {
    if (group[t]->axis != group[0]->axis || group[t]->extent != group[0]->extent)
      return "slices of different axes";
    if (group[t]->start > covered) return "a gap between slices";
    if (group[t]->start < covered) return "overlapping slices";
    if (group[t]->end < group[t]->start) return "a reversed slice";
    covered = group[t]->end;
  }
  return covered == group[0]->extent ? NULL : "slices that stop short of the end";
}

/* Checks every tensor of `all` (world × count digests, rank-major);
 * returns the number of problems, printing the first few when `print`. */
static uint64_t check_world(const tensor_digest *all, size_t count, uint64_t tensor_size,
                            uint64_t pipeline_size, int print) {
  uint64_t problems = 0;
  const uint64_t world = tensor_size * pipeline_size;
  const tensor_digest **group = malloc((size_t)tensor_size * sizeof *group);
  if (group == NULL) return 1;
  for (size_t i = 0; i < count; ++i) {
    const char *problem = NULL;
    uint64_t owning_stages = 0;
    for (uint64_t r = 1; r < world && problem == NULL; ++r)
      if (all[r * count + i].name_hash != all[i].name_hash)
        problem = "the ranks list other tensors";
    for (uint64_t stage = 0; stage < pipeline_size && problem == NULL; ++stage) {
      uint64_t holders = 0;
      for (uint64_t t = 0; t < tensor_size; ++t) {
        group[t] = &all[(stage * tensor_size + t) * count + i];
        holders += group[t]->holds != HOLDS_NOTHING;
      }
      if (holders == 0) continue;
      ++owning_stages;
      problem = group_tiles(group, tensor_size);
    }
    if (problem == NULL && owning_stages == 0) problem = "no rank holds it";
    if (problem != NULL) {
      if (print && problems < 10) fprintf(stderr, "tensor %zu: %s\n", i, problem);
      ++problems;
    }
  }
  free(group);
  return problems;
}

/* Plans this rank and digests its plan; on failure prints why and
 * returns NULL. */
static tensor_digest *plan_and_digest(const char *path, const eredu_topology *topology,
                                      int mpi_rank, int mpi_size, size_t *count, report_line *line,
                                      uint64_t *global_bytes) {
  eredu_error *error = NULL;
  eredu_launch_env env = EREDU_LAUNCH_ENV_INIT;
  eredu_model *model = NULL;
  eredu_layout *layout = NULL;
  tensor_digest *digests = NULL;
  if (eredu_launch_env_from_environ(&env, &error) != EREDU_OK ||
      eredu_launch_env_check(&env, topology, &error) != EREDU_OK)
    goto failed;
  if (env.rank != (uint64_t)mpi_rank || env.world_size != (uint64_t)mpi_size) {
    fprintf(stderr,
            "rank %d: the launcher says rank %" PRIu64 " of %" PRIu64 ", MPI rank %d of %d\n",
            mpi_rank, env.rank, env.world_size, mpi_rank, mpi_size);
    return NULL;
  }
  if (eredu_model_describe(path, NULL, &model, &error) != EREDU_OK) goto failed;
  *global_bytes = eredu_model_global_bytes(model);
  eredu_status status = eredu_plan_rank(model, topology, env.rank, NULL, &layout, &error);
  eredu_model_free(model); /* the layout keeps the model alive */
  if (status != EREDU_OK) goto failed;
  eredu_layout_info info = EREDU_LAYOUT_INFO_INIT;
  if (eredu_layout_get_info(layout, &info, &error) != EREDU_OK) goto failed;
  *count = eredu_layout_tensor_count(layout);
  digests = calloc(*count > 0 ? *count : 1, sizeof *digests);
  if (digests == NULL) goto failed;
  for (size_t i = 0; i < *count; ++i) {
    eredu_layout_tensor_info tensor = EREDU_LAYOUT_TENSOR_INFO_INIT;
    if (eredu_layout_get_tensor_info(layout, i, &tensor, &error) != EREDU_OK) goto failed;
    if (digest_of(&tensor, env.rank, &digests[i]) != 0) {
      fprintf(stderr, "rank %d: %s: a placement that is not a slice of its axis\n", mpi_rank,
              tensor.target);
      free(digests);
      eredu_layout_free(layout);
      return NULL;
    }
  }
  snprintf(line->text, sizeof line->text,
           "rank %" PRIu64 " of %" PRIu64 " (%s): tensor %" PRIu64 ", pipeline %" PRIu64
           ": %" PRIu64 " tensors, %" PRIu64 " bytes",
           env.rank, env.world_size, launcher_name(env.source), info.tensor_rank,
           info.pipeline_rank, info.materialized_tensors, info.local_bytes);
  eredu_layout_free(layout);
  return digests;

failed:
  fprintf(stderr, "rank %d: error[%s]: %s\n", mpi_rank,
          eredu_status_name(error != NULL ? eredu_error_code(error) : EREDU_E_OUT_OF_MEMORY),
          error != NULL ? eredu_error_message(error) : "out of memory");
  eredu_error_free(error);
  free(digests);
  eredu_layout_free(layout);
  return NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int mpi_rank = 0, mpi_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  if (argc == 4) {
    topology.tensor = parse_size(argv[2]);
    topology.pipeline = parse_size(argv[3]);
  }
  if (argc != 4 || topology.tensor == 0 || topology.pipeline == 0) {
    if (mpi_rank == 0)
      fprintf(stderr, "usage: mpirun -np N %s MODEL_DIR TENSOR PIPELINE\n", argv[0]);
    MPI_Finalize();
    return 2;
  }

  size_t count = 0;
  uint64_t global_bytes = 0;
  report_line line;
  memset(&line, 0, sizeof line);
  tensor_digest *mine =
      plan_and_digest(argv[1], &topology, mpi_rank, mpi_size, &count, &line, &global_bytes);
  /* Every rank must plan the same tensors before the digests can meet. */
  unsigned long long local[2] = {mine == NULL, (unsigned long long)count}, low[2], high[2];
  MPI_Allreduce(local, high, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(local, low, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  if (high[0] != 0 || low[1] != high[1] || count * sizeof *mine > (size_t)INT32_MAX) {
    if (mpi_rank == 0 && high[0] == 0) fprintf(stderr, "the ranks plan different tensor counts\n");
    free(mine);
    MPI_Finalize();
    return 1;
  }

  tensor_digest *all = malloc((size_t)mpi_size * count * sizeof *all);
  if (all == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  const int bytes = (int)(count * sizeof *mine);
  MPI_Allgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, MPI_COMM_WORLD);
  const uint64_t problems =
      check_world(all, count, topology.tensor, topology.pipeline, mpi_rank == 0);
  snprintf(line.text + strlen(line.text), sizeof line.text - strlen(line.text), "; coverage %s",
           problems == 0 ? "ok" : "FAILED");

  report_line *lines = mpi_rank == 0 ? malloc((size_t)mpi_size * sizeof *lines) : NULL;
  if (mpi_rank == 0 && lines == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Gather(&line, (int)sizeof line, MPI_BYTE, lines, (int)sizeof line, MPI_BYTE, 0,
             MPI_COMM_WORLD);
  if (mpi_rank == 0) {
    for (int r = 0; r < mpi_size; ++r) printf("%s\n", lines[r].text);
    if (problems == 0)
      printf("coverage: ok (%zu tensors, each tiled by the %" PRIu64
             " tensor ranks of every pipeline stage holding it; %" PRIu64 " bytes)\n",
             count, topology.tensor, global_bytes);
    else
      printf("coverage: %" PRIu64 " of %zu tensors not tiled exactly\n", problems, count);
  }
  free(lines);
  free(all);
  free(mine);
  MPI_Finalize();
  return problems == 0 ? 0 : 1;
}
