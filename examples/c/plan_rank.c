// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

/* Plans rank 1 of tensor parallel 2 for one attention group and prints what
 * it loads. Build: cc plan_rank.c $(pkg-config --cflags --libs eredu) */
#include <eredu/eredu.h>
#include <inttypes.h>
#include <stdio.h>

static int fail(eredu_error *error) {
  fprintf(stderr, "%s: %s\n", eredu_status_name(eredu_error_code(error)),
          eredu_error_message(error));
  eredu_error_free(error);
  return 1;
}

int main(void) {
  const uint64_t shape[2] = {4096, 4096};
  eredu_member_desc q = EREDU_MEMBER_DESC_INIT, o = EREDU_MEMBER_DESC_INIT;
  q.target = "model.layers.0.self_attn.q_proj.weight";
  o.target = "model.layers.0.self_attn.o_proj.weight";
  q.shape = o.shape = shape;
  q.ndim = o.ndim = 2;
  q.has_dtype = o.has_dtype = 1;
  q.dtype = o.dtype = EREDU_DTYPE_BF16;
  q.sharding = o.sharding = EREDU_SHARDING_PARTITIONED;
  q.axis = 0; /* column parallel: output features */
  o.axis = 1; /* row parallel: input features */
  const eredu_member_desc *members[2] = {&q, &o};

  eredu_group_desc attention = EREDU_GROUP_DESC_INIT;
  attention.name = "model.layers.0.self_attn";
  attention.role = EREDU_ROLE_ATTENTION_HEADS;
  attention.has_partition_units = 1;
  attention.partition_units = 8; /* KV heads */

  eredu_error *error = NULL;
  eredu_group *group = NULL;
  if (eredu_group_new(&attention, members, 2, &group, &error) != EREDU_OK) return fail(error);
  eredu_model *model = NULL;
  const eredu_group *groups[1] = {group};
  eredu_status status = eredu_model_new(NULL, groups, 1, &model, &error);
  eredu_group_free(group); /* the model keeps its own copy */
  if (status != EREDU_OK) return fail(error);

  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.tensor = 2;
  eredu_layout *layout = NULL;
  status = eredu_plan_rank(model, &topology, /* rank */ 1, NULL, &layout, &error);
  eredu_model_free(model); /* the layout keeps the model alive */
  if (status != EREDU_OK) return fail(error);

  for (size_t i = 0; i < eredu_layout_tensor_count(layout); ++i) {
    eredu_layout_tensor_info tensor = EREDU_LAYOUT_TENSOR_INFO_INIT;
    eredu_layout_get_tensor_info(layout, i, &tensor, NULL);
    printf("%s: axis %" PRIu64 " [%" PRIu64 ", %" PRIu64 ")\n", tensor.target, tensor.axis,
           tensor.start, tensor.end);
  }
  eredu_layout_free(layout);
  return 0;
}
