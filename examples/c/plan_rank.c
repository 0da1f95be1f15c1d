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
  eredu_member_desc q, o;
  eredu_member_desc_init(&q, NULL);
  eredu_member_desc_init(&o, NULL);
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

  eredu_error *error = NULL;
  eredu_group *group = NULL;
  if (eredu_group_new("model.layers.0.self_attn", EREDU_ROLE_ATTENTION_HEADS, 1, 8, NULL, members,
                      2, &group, &error) != EREDU_OK)
    return fail(error);
  eredu_model *model = NULL;
  const eredu_group *groups[1] = {group};
  eredu_status status = eredu_model_new(NULL, groups, 1, &model, &error);
  eredu_group_free(group); /* the model keeps its own copy */
  if (status != EREDU_OK) return fail(error);

  eredu_layout *layout = NULL;
  status = eredu_plan_rank(model, 2, 1, 1, 1, /* rank */ 1, EREDU_POLICY_REQUIRE, &layout, &error);
  eredu_model_free(model); /* the layout keeps the model alive */
  if (status != EREDU_OK) return fail(error);

  size_t count = 0;
  eredu_layout_tensor_count(layout, &count, NULL);
  for (size_t i = 0; i < count; ++i) {
    const char *target = NULL;
    eredu_placement placement;
    eredu_placement_init(&placement, NULL);
    eredu_layout_tensor_target(layout, i, &target, NULL, NULL);
    eredu_layout_tensor_placement(layout, i, &placement, NULL);
    printf("%s: axis %" PRIu64 " [%" PRIu64 ", %" PRIu64 ")\n", target, placement.axis,
           placement.start, placement.end);
  }
  eredu_layout_free(layout);
  return 0;
}
