// Test helpers over the public C API only: RAII owners and builders.
#pragma once

#include <eredu/eredu.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace capi_test {

struct GroupFree {
  void operator()(eredu_group* group) const { eredu_group_free(group); }
};
struct ModelFree {
  void operator()(eredu_model* model) const { eredu_model_free(model); }
};
struct LayoutFree {
  void operator()(eredu_layout* layout) const { eredu_layout_free(layout); }
};
using Group = std::unique_ptr<eredu_group, GroupFree>;
using Model = std::unique_ptr<eredu_model, ModelFree>;
using Layout = std::unique_ptr<eredu_layout, LayoutFree>;

/// An error slot that frees what it received.
class ErrorSlot {
 public:
  ErrorSlot() = default;
  ErrorSlot(const ErrorSlot&) = delete;
  ErrorSlot& operator=(const ErrorSlot&) = delete;
  ~ErrorSlot() { eredu_error_free(error_); }

  /// A fresh slot for the next call.
  eredu_error** slot() {
    eredu_error_free(error_);
    error_ = nullptr;
    return &error_;
  }
  const eredu_error* get() const { return error_; }
  eredu_status code() const { return eredu_error_code(error_); }
  std::string message() const { return eredu_error_message(error_); }

 private:
  eredu_error* error_ = nullptr;
};

/// One member descriptor's contents; `segments` are flattened pairs.
struct MemberSpec {
  std::string target;
  std::vector<std::uint64_t> shape;
  eredu_sharding_kind sharding = EREDU_SHARDING_REPLICATED;
  std::uint64_t axis = 0;
  std::vector<std::uint64_t> segments;
  std::optional<eredu_dtype> dtype = EREDU_DTYPE_F32;
};

inline MemberSpec sharded(std::string target, std::vector<std::uint64_t> shape,
                          eredu_sharding_kind kind, std::uint64_t axis,
                          std::vector<std::uint64_t> segments = {}) {
  MemberSpec spec;
  spec.target = std::move(target);
  spec.shape = std::move(shape);
  spec.sharding = kind;
  spec.axis = axis;
  spec.segments = std::move(segments);
  return spec;
}
inline MemberSpec replicated(std::string target, std::vector<std::uint64_t> shape) {
  return sharded(std::move(target), std::move(shape), EREDU_SHARDING_REPLICATED, 0);
}

/// The outcome of a call that produces a handle.
template <class Handle>
struct Made {
  eredu_status status = EREDU_OK;
  Handle handle;
  eredu_status error_code = EREDU_OK;
  std::string message;
};

inline Made<Group> new_group(const char* name, eredu_role role, std::optional<std::uint64_t> units,
                             const std::vector<MemberSpec>& members,
                             const eredu_group_scope* scope = nullptr) {
  std::vector<eredu_member_desc> descs(members.size());
  std::vector<const eredu_member_desc*> pointers;
  for (std::size_t i = 0; i < members.size(); ++i) {
    eredu_member_desc& desc = descs[i];
    eredu_member_desc_init(&desc, nullptr);
    desc.target = members[i].target.c_str();
    desc.shape = members[i].shape.data();
    desc.ndim = members[i].shape.size();
    desc.has_dtype = members[i].dtype.has_value() ? 1 : 0;
    desc.dtype = members[i].dtype.value_or(0);
    desc.sharding = members[i].sharding;
    desc.axis = members[i].axis;
    desc.segments = members[i].segments.data();
    desc.segment_count = members[i].segments.size() / 2;
    pointers.push_back(&desc);
  }
  Made<Group> made;
  eredu_group* group = nullptr;
  ErrorSlot error;
  made.status = eredu_group_new(name, role, units ? 1 : 0, units.value_or(0), scope,
                                pointers.data(), pointers.size(), &group, error.slot());
  made.handle.reset(group);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

inline Made<Model> new_model(const std::vector<const eredu_group*>& groups,
                             const eredu_model_info* info = nullptr) {
  Made<Model> made;
  eredu_model* model = nullptr;
  ErrorSlot error;
  made.status = eredu_model_new(info, groups.data(), groups.size(), &model, error.slot());
  made.handle.reset(model);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

inline Made<Model> model_from_json(const std::string& text) {
  Made<Model> made;
  eredu_model* model = nullptr;
  ErrorSlot error;
  made.status = eredu_model_from_json(text.data(), text.size(), &model, error.slot());
  made.handle.reset(model);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

/// Plans rank `rank` of (tensor, pipeline, expert, data).
inline Made<Layout> plan(const eredu_model* model, std::uint64_t tensor, std::uint64_t pipeline,
                         std::uint64_t expert, std::uint64_t data, std::uint64_t rank,
                         eredu_policy policy = EREDU_POLICY_REQUIRE) {
  Made<Layout> made;
  eredu_layout* layout = nullptr;
  ErrorSlot error;
  made.status =
      eredu_plan_rank(model, tensor, pipeline, expert, data, rank, policy, &layout, error.slot());
  made.handle.reset(layout);
  made.error_code = error.code();
  made.message = error.message();
  return made;
}

/// Plans rank `rank` of a tensor-parallel-only topology of `parts` ranks.
inline Made<Layout> plan_tp(const eredu_model* model, std::uint64_t rank, std::uint64_t parts,
                            eredu_policy policy = EREDU_POLICY_REQUIRE) {
  return plan(model, parts, 1, 1, 1, rank, policy);
}

/// The index of `target`, or SIZE_MAX when absent.
inline std::size_t index_of(const eredu_layout* layout, const char* target) {
  std::size_t index = 0;
  if (eredu_layout_find_tensor(layout, target, &index, nullptr) != EREDU_OK) return SIZE_MAX;
  return index;
}

inline std::vector<std::uint64_t> local_shape(const eredu_layout* layout, const char* target) {
  const std::uint64_t* shape = nullptr;
  std::size_t ndim = 0;
  eredu_layout_tensor_local_shape(layout, index_of(layout, target), &shape, &ndim, nullptr);
  return std::vector<std::uint64_t>(shape, shape + ndim);
}

inline std::vector<std::uint64_t> global_shape(const eredu_layout* layout, const char* target) {
  const std::uint64_t* shape = nullptr;
  std::size_t ndim = 0;
  eredu_layout_tensor_global_shape(layout, index_of(layout, target), &shape, &ndim, nullptr);
  return std::vector<std::uint64_t>(shape, shape + ndim);
}

inline eredu_placement placement(const eredu_layout* layout, const char* target) {
  eredu_placement result;
  eredu_placement_init(&result, nullptr);
  eredu_layout_tensor_placement(layout, index_of(layout, target), &result, nullptr);
  return result;
}

/// Runs of an Indices placement as flattened {start, end} values.
inline std::vector<std::uint64_t> runs(const eredu_placement& placement) {
  return std::vector<std::uint64_t>(placement.runs, placement.runs + 2 * placement.run_count);
}

/// The logical range as {start, end}, or nullopt when absent.
inline std::optional<std::pair<std::uint64_t, std::uint64_t>> logical_range(
    const eredu_layout* layout, const char* target) {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  bool present = false;
  eredu_layout_tensor_logical_range(layout, index_of(layout, target), &start, &end, &present,
                                    nullptr);
  if (!present) return std::nullopt;
  return std::pair{start, end};
}

inline std::optional<std::uint64_t> logical_units(const eredu_layout* layout, const char* target) {
  std::uint64_t units = 0;
  bool present = false;
  eredu_layout_tensor_logical_units(layout, index_of(layout, target), &units, &present, nullptr);
  if (!present) return std::nullopt;
  return units;
}

inline bool fell_back(const eredu_layout* layout, const char* target) {
  bool value = false;
  eredu_layout_tensor_fell_back(layout, index_of(layout, target), &value, nullptr);
  return value;
}

inline std::optional<std::uint64_t> local_bytes(const eredu_layout* layout, const char* target) {
  std::uint64_t bytes = 0;
  bool present = false;
  eredu_layout_tensor_local_bytes(layout, index_of(layout, target), &bytes, &present, nullptr);
  if (!present) return std::nullopt;
  return bytes;
}

inline std::string to_json(const eredu_layout* layout) {
  char* text = nullptr;
  std::size_t length = 0;
  if (eredu_layout_to_json(layout, &text, &length, nullptr) != EREDU_OK) return {};
  std::string result(text, length);
  eredu_buffer_free(text);
  return result;
}

using Shape = std::vector<std::uint64_t>;

}  // namespace capi_test
