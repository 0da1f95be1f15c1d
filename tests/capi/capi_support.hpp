// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

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

/// A value that no call may leave behind in an out-parameter.
template <class T>
T* garbage() {
  return reinterpret_cast<T*>(std::uintptr_t{0x1234});
}

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

/// eredu_group_new with the group's fields as arguments.
inline eredu_status group_new_with(const char* name, eredu_role role, std::uint8_t has_units,
                                   std::uint64_t units, const eredu_group_scope* scope,
                                   const eredu_member_desc* const* members, std::size_t count,
                                   eredu_group** out, eredu_error** error) {
  eredu_group_desc desc = EREDU_GROUP_DESC_INIT;
  desc.name = name;
  desc.role = role;
  desc.has_partition_units = has_units;
  desc.partition_units = units;
  desc.scope = scope;
  return eredu_group_new(&desc, members, count, out, error);
}

inline Made<Group> new_group(const char* name, eredu_role role, std::optional<std::uint64_t> units,
                             const std::vector<MemberSpec>& members,
                             const eredu_group_scope* scope = nullptr) {
  std::vector<eredu_member_desc> descs(members.size());
  std::vector<const eredu_member_desc*> pointers;
  for (std::size_t i = 0; i < members.size(); ++i) {
    eredu_member_desc& desc = descs[i];
    desc = EREDU_MEMBER_DESC_INIT;
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
  made.status = group_new_with(name, role, units ? 1 : 0, units.value_or(0), scope, pointers.data(),
                               pointers.size(), &group, error.slot());
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

/// A topology of the given axis sizes.
inline eredu_topology topology_of(std::uint64_t tensor, std::uint64_t pipeline = 1,
                                  std::uint64_t expert = 1, std::uint64_t data = 1) {
  eredu_topology topology = EREDU_TOPOLOGY_INIT;
  topology.tensor = tensor;
  topology.pipeline = pipeline;
  topology.expert = expert;
  topology.data = data;
  return topology;
}

/// Plan options with `policy` (and the other defaults).
inline eredu_plan_options options_of(eredu_policy policy, std::uint32_t threads = 0) {
  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.policy = policy;
  options.threads = threads;
  return options;
}

/// Plans rank `rank` of (tensor, pipeline, expert, data).
inline Made<Layout> plan(const eredu_model* model, std::uint64_t tensor, std::uint64_t pipeline,
                         std::uint64_t expert, std::uint64_t data, std::uint64_t rank,
                         eredu_policy policy = EREDU_POLICY_REQUIRE) {
  Made<Layout> made;
  eredu_layout* layout = nullptr;
  ErrorSlot error;
  const eredu_topology topology = topology_of(tensor, pipeline, expert, data);
  const eredu_plan_options options = options_of(policy);
  made.status = eredu_plan_rank(model, &topology, rank, &options, &layout, error.slot());
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

/// Every field of tensor `index` (zeroes when the call fails).
inline eredu_layout_tensor_info tensor_info(const eredu_layout* layout, std::size_t index) {
  eredu_layout_tensor_info info = EREDU_LAYOUT_TENSOR_INFO_INIT;
  eredu_layout_get_tensor_info(layout, index, &info, nullptr);
  return info;
}

/// Every field of the tensor named `target`.
inline eredu_layout_tensor_info tensor_info(const eredu_layout* layout, const char* target) {
  return tensor_info(layout, index_of(layout, target));
}

inline std::vector<std::uint64_t> local_shape(const eredu_layout* layout, const char* target) {
  const eredu_layout_tensor_info info = tensor_info(layout, target);
  return std::vector<std::uint64_t>(info.local_shape, info.local_shape + info.local_ndim);
}

inline std::vector<std::uint64_t> global_shape(const eredu_layout* layout, const char* target) {
  const eredu_layout_tensor_info info = tensor_info(layout, target);
  return std::vector<std::uint64_t>(info.global_shape, info.global_shape + info.global_ndim);
}

/// The tensor's fields, read for its placement (`placement`, `axis`,
/// `shard_index`, `runs`, …).
inline eredu_layout_tensor_info placement(const eredu_layout* layout, const char* target) {
  return tensor_info(layout, target);
}

/// Runs of an Indices placement as flattened {start, end} values.
inline std::vector<std::uint64_t> runs(const eredu_layout_tensor_info& info) {
  return std::vector<std::uint64_t>(info.runs, info.runs + 2 * info.run_count);
}

/// The logical range as {start, end}, or nullopt when absent.
inline std::optional<std::pair<std::uint64_t, std::uint64_t>> logical_range(
    const eredu_layout* layout, const char* target) {
  const eredu_layout_tensor_info info = tensor_info(layout, target);
  if (info.has_logical_range == 0) return std::nullopt;
  return std::pair{info.logical_start, info.logical_end};
}

inline std::optional<std::uint64_t> logical_units(const eredu_layout* layout, const char* target) {
  const eredu_layout_tensor_info info = tensor_info(layout, target);
  if (info.has_logical_units == 0) return std::nullopt;
  return info.logical_units;
}

inline bool fell_back(const eredu_layout* layout, const char* target) {
  return tensor_info(layout, target).fell_back_to_replication != 0;
}

inline std::optional<std::uint64_t> local_bytes(const eredu_layout* layout, const char* target) {
  const eredu_layout_tensor_info info = tensor_info(layout, target);
  if (info.has_local_bytes == 0) return std::nullopt;
  return info.local_bytes;
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
