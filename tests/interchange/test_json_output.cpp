// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The canonical JSON writer and `eredu.layout.v1` output (docs/interchange.md).
#include <doctest/doctest.h>

#include <string>

#include "interchange/groups_json.hpp"
#include "interchange/json_writer.hpp"
#include "interchange/layout_json.hpp"
#include "plan/planner.hpp"
#include "test_data.hpp"

namespace eredu {
namespace {

TEST_CASE("JsonWriter writes compact JSON with commas and minimal escapes") {
  std::string out = "prefix:";
  JsonWriter writer(out);
  writer.begin_object();
  writer.key("a").uint(0);
  writer.key("b").begin_array().uint(18446744073709551615u).null().boolean(true).boolean(false);
  writer.begin_array().end_array().begin_object().end_object().end_array();
  writer.key("c").uint_or_null(std::nullopt);
  writer.key("d").uint_or_null(7);
  writer.key("e").begin_object().key("f").begin_object().end_object().end_object();
  writer.key("s").string(std::string("q\"\\/\b\f\n\r\t\x01\x1f\x7f\0", 13) + "caf\xc3\xa9");
  writer.key("w").word("column_parallel");
  writer.end_object();
  CHECK(out ==
        "prefix:{\"a\":0,\"b\":[18446744073709551615,null,true,false,[],{}],\"c\":null,\"d\":7,"
        "\"e\":{\"f\":{}},\"s\":\"q\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\\u0000caf\xc3\xa9\","
        "\"w\":\"column_parallel\"}");

  std::string empty;
  JsonWriter(empty).begin_array().end_array();
  CHECK(empty == "[]");
  std::string top_level;
  JsonWriter(top_level).string("");
  CHECK(top_level == "\"\"");
}

TEST_CASE("topology, coordinates and totals helpers") {
  auto topology = ParallelTopology::create(2, 3, 4, 5);
  REQUIRE(topology);
  std::string out;
  JsonWriter writer(out);
  writer.begin_array();
  append_topology(writer, topology.value());
  append_coordinates(writer, ParallelCoordinates{1, 2, 3, 4});
  append_totals(writer, LayoutTotals{10, 20, 3, 4, 0});
  append_totals(writer, LayoutTotals{10, 20, 3, 4, 2});
  writer.end_array();
  CHECK(out ==
        R"([{"tensor":2,"pipeline":3,"expert":4,"data":5},)"
        R"({"tensor":1,"pipeline":2,"expert":3,"data":4},)"
        R"({"local_bytes":10,"global_bytes":20,"materialized_tensors":3,"omitted_tensors":4},)"
        R"({"local_bytes":10,"global_bytes":20,"materialized_tensors":3,"omitted_tensors":4,)"
        R"("unknown_bytes_tensors":2}])");
}

std::shared_ptr<const ModelDescription> load(std::string_view text) {
  auto loaded = load_groups_json(text);
  if (!loaded) FAIL(loaded.error().message);
  return std::move(loaded).value();
}

LocalModelLayout plan(const std::shared_ptr<const ModelDescription>& model, std::uint64_t tp,
                      std::uint64_t pp, std::uint64_t rank,
                      ShardingPolicy policy = ShardingPolicy::Require) {
  auto topology = ParallelTopology::create(tp, pp, 1, 1);
  REQUIRE(topology);
  auto layout = plan_rank(model, topology.value(), rank, policy);
  if (!layout) FAIL(layout.error().message);
  return std::move(layout).value();
}

TEST_CASE("layout_to_json writes the eredu.layout.v1 example exactly") {
  const auto model = load(test_data::read("attention.groups.json"));
  // The eredu.layout.v1 example of docs/interchange.md, compacted.
  const std::string expected = test_data::read("attention.tp2.rank1.layout.json");
  CHECK(layout_to_json(plan(model, 2, 1, 1)) == expected);
}

TEST_CASE("layout_to_json writes every planner placement, omit, nulls and unknown bytes") {
  const auto model = load(R"json(
{
  "schema": "eredu.groups.v1",
  "model": { "layers": 2 },
  "groups": [
    { "name": "embed", "role": "vocabulary", "scope": "embedding",
      "members": [ { "target": "e", "shape": [10, 4], "dtype": "F32",
                     "sharding": { "kind": "balanced", "axis": 0 } } ] },
    { "name": "l1", "role": "channels", "scope": { "layer": 1 },
      "members": [ { "target": "s", "shape": [8], "dtype": "F16",
                     "sharding": { "kind": "equal", "axis": 0 } },
                   { "target": "x", "shape": [12, 2],
                     "sharding": { "kind": "segmented", "axis": 0,
                                   "segments": [[0, 4], [6, 12]] } } ] },
    { "name": "fall", "role": "attention_heads", "partition_units": 3, "scope": { "layer": 1 },
      "members": [ { "target": "f", "shape": [7], "dtype": "U8",
                     "sharding": { "kind": "partitioned", "axis": 0 } } ] }
  ]
}
)json");
  // Rank 3 = tensor 1 of the last pipeline stage: owns layer 1, omits the
  // embedding; "fall" (7 elements in 3 units) falls back to replication.
  const std::string expected =
      R"({"schema":"eredu.layout.v1","topology":{"tensor":2,"pipeline":2,"expert":1,"data":1},)"
      R"("rank":3,"coordinates":{"tensor":1,"pipeline":1,"expert":0,"data":0},)"
      R"("policy":"replicate_unsupported","tensors":[)"
      R"({"target":"e","logical_name":"embed","role":"vocabulary","global_shape":[10,4],)"
      R"("local_shape":[],"placement":{"kind":"omit"},"logical_units":null,)"
      R"("logical_range":null,"fell_back_to_replication":false,"local_bytes":0},)"
      R"({"target":"f","logical_name":"fall","role":"attention_heads","global_shape":[7],)"
      R"("local_shape":[7],"placement":{"kind":"replicated"},"logical_units":3,)"
      R"("logical_range":[0,3],"fell_back_to_replication":true,"local_bytes":7},)"
      R"({"target":"s","logical_name":"l1","role":"channels","global_shape":[8],)"
      R"("local_shape":[4],"placement":{"kind":"shard","axis":0,"index":1,"parts":2},)"
      R"("logical_units":null,"logical_range":null,"fell_back_to_replication":false,)"
      R"("local_bytes":8},)"
      R"({"target":"x","logical_name":"l1","role":"channels","global_shape":[12,2],)"
      R"("local_shape":[5,2],"placement":{"kind":"indices","axis":0,"runs":[[2,4],[9,12]],)"
      R"("count":5},"logical_units":null,"logical_range":null,)"
      R"("fell_back_to_replication":false,"local_bytes":null}],)"
      R"("totals":{"local_bytes":15,"global_bytes":183,"materialized_tensors":3,)"
      R"("omitted_tensors":1,"unknown_bytes_tensors":1}})"
      "\n";
  CHECK(layout_to_json(plan(model, 2, 2, 3, ShardingPolicy::ReplicateUnsupported)) == expected);
}

}  // namespace
}  // namespace eredu
