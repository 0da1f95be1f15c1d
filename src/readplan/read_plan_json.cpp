// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "readplan/read_plan_json.hpp"

#include "interchange/json_writer.hpp"

namespace eredu {

void append_read_plan_json(const ReadPlan& plan, std::string& out) {
  JsonWriter json(out);
  std::uint64_t extents = 0;
  json.begin_object()
      .key("format")
      .string("eredu.readplan.v1")
      .key("model")
      .string(plan.model)
      .key("rank")
      .uint(plan.rank)
      .key("files")
      .begin_array();
  for (const std::string& file : plan.files) json.string(file);
  json.end_array().key("tensors").begin_array();
  for (const TensorReadPlan& tensor : plan.tensors) {
    json.begin_object()
        .key("target")
        .string(tensor.target)
        .key("dtype")
        .string(tensor.dtype)
        .key("local_shape")
        .begin_array();
    for (std::uint64_t dimension : tensor.local_shape) json.uint(dimension);
    json.end_array()
        .key("local_bytes")
        .uint(tensor.local_bytes)
        .key("read_bytes")
        .uint(tensor.read_bytes)
        .key("padding_rows")
        .uint(tensor.padding_rows)
        .key("extents")
        .begin_array();
    for (const ReadExtent& extent : tensor.extents) {
      json.begin_object()
          .key("file")
          .uint(extent.file)
          .key("offset")
          .uint(extent.offset)
          .key("length")
          .uint(extent.length)
          .key("count")
          .uint(extent.count)
          .key("stride")
          .uint(extent.stride)
          .key("dest")
          .uint(extent.dest)
          .key("dest_stride")
          .uint(extent.dest_stride)
          .end_object();
    }
    extents += tensor.extents.size();
    json.end_array().end_object();
  }
  json.end_array()
      .key("totals")
      .begin_object()
      .key("tensors")
      .uint(plan.tensors.size())
      .key("extents")
      .uint(extents)
      .key("read_bytes")
      .uint(plan.read_bytes)
      .key("local_bytes")
      .uint(plan.local_bytes)
      .end_object()
      .end_object();
}

std::string read_plan_to_json(const ReadPlan& plan) {
  std::string out;
  append_read_plan_json(plan, out);
  out += '\n';
  return out;
}

}  // namespace eredu
