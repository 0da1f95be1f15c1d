// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu.groups.v1 loading (docs/interchange.md): a full document, every
// load-error class in its fixed order, group construction errors and the round
// trip.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "interchange/groups_json.hpp"
#include "interchange/groups_write.hpp"
#include "load_ok.hpp"

namespace eredu {
namespace {

using test::load_ok;

Error load_error(std::string_view text) {
  auto loaded = load_groups_json(text);
  REQUIRE_FALSE(loaded);
  return loaded.error();
}

void check_error(std::string_view text, Status code, std::string_view message_part) {
  const Error error = load_error(text);
  CHECK(error.code == code);
  CHECK_MESSAGE(error.message.find(message_part) != std::string::npos,
                "message: " << error.message << " lacks: " << message_part);
}

// A valid document with `groups_json` as its groups array.
std::string with_groups(std::string_view groups_json) {
  return "{\"schema\":\"eredu.groups.v1\",\"groups\":" + std::string(groups_json) + "}";
}

// One replicated group holding one member whose fields are `member_json`.
std::string with_member(std::string_view member_json) {
  return with_groups(R"([{"name":"g","role":"replicated","members":[{)" + std::string(member_json) +
                     "}]}]");
}

constexpr std::string_view kFull = R"json(
{
  "groups": [
    { "name": "embed", "role": "vocabulary", "scope": "embedding",
      "members": [ { "target": "model.embed_tokens.weight", "shape": [32000, 4096],
                     "dtype": "BF16", "sharding": { "kind": "balanced", "axis": 0 } } ] },
    { "name": "model.layers.0.self_attn", "role": "attention_heads", "partition_units": 8,
      "scope": { "layer": 0 },
      "members": [
        { "target": "model.layers.0.self_attn.q_proj.weight", "shape": [4096, 4096],
          "dtype": "BF16", "sharding": { "kind": "partitioned", "axis": 0 } },
        { "sharding": { "axis": 1, "kind": "partitioned" }, "dtype": null,
          "shape": [4096, 4096], "target": "model.layers.0.self_attn.o_proj.weight",
          "format": null } ] },
    { "name": "experts", "role": "expert_intermediate", "partition_units": 4,
      "scope": { "layer": 1, "expert": 3 },
      "members": [
        { "target": "fused", "shape": [96, 8], "dtype": "F8_E4M3",
          "sharding": { "kind": "partitioned_segments", "axis": 0,
                        "segments": [[0, 32], [32, 96]] } },
        { "target": "split", "shape": [12], "dtype": "F32",
          "sharding": { "kind": "segmented", "axis": 0, "segments": [] } },
        { "target": "bias", "shape": [], "sharding": { "kind": "replicated", "axis": null } } ] },
    { "name": "router", "role": "channels", "scope": { "expert": 7, "layer": null },
      "partition_units": null,
      "members": [ { "target": "router.weight", "shape": [18446744073709551615],
                     "sharding": { "kind": "equal", "axis": 0 } } ] },
    { "name": "tied", "role": "vocabulary", "scope": "tied_embedding",
      "members": [ { "target": "tied.weight", "shape": [4, 2], "dtype": "F64",
                     "sharding": { "kind": "replicated" } } ] },
    { "name": "head", "role": "replicated", "scope": "output_head",
      "members": [ { "target": "lm_head.weight", "shape": [2], "dtype": "BOOL",
                     "sharding": { "kind": "replicated" } } ] },
    { "name": "norms", "role": "replicated", "scope": null,
      "members": [ { "target": "norm.weight", "shape": [4096],
                     "sharding": { "kind": "replicated" } } ] }
  ],
  "model": { "experts": 8, "layers": 2, "name": "example" },
  "schema": "eredu.groups.v1"
}
)json";

TEST_CASE("a full valid description loads with every field") {
  const auto model = load_ok(kFull);
  CHECK(model->info() == ModelInfo{"example", 2, 8});
  const auto& groups = model->groups();
  REQUIRE(groups.size() == 7);
  CHECK(model->tensor_count() == 10);

  CHECK(groups[0].logical_name() == "embed");
  CHECK(groups[0].role() == ParameterRole::Vocabulary);
  CHECK_FALSE(groups[0].partition_units());
  CHECK(groups[0].scope() == GroupScope::embedding());
  REQUIRE(groups[0].members().size() == 1);
  CHECK(groups[0].members()[0] == ParameterMemberSpec("model.embed_tokens.weight", {32000, 4096},
                                                      MemberSharding::balanced(0), Dtype::BF16));

  CHECK(groups[1].role() == ParameterRole::AttentionHeads);
  CHECK(groups[1].partition_units() == 8u);
  CHECK(groups[1].scope() == GroupScope::indexed(0, std::nullopt));
  REQUIRE(groups[1].members().size() == 2);
  CHECK(groups[1].members()[0] == ParameterMemberSpec("model.layers.0.self_attn.q_proj.weight",
                                                      {4096, 4096}, MemberSharding::partitioned(0),
                                                      Dtype::BF16));
  // Keys in any order; null dtype and null format are absent.
  CHECK(groups[1].members()[1] == ParameterMemberSpec("model.layers.0.self_attn.o_proj.weight",
                                                      {4096, 4096},
                                                      MemberSharding::partitioned(1)));

  CHECK(groups[2].role() == ParameterRole::ExpertIntermediate);
  CHECK(groups[2].partition_units() == 4u);
  CHECK(groups[2].scope() == GroupScope::indexed(1, 3));
  REQUIRE(groups[2].members().size() == 3);
  CHECK(groups[2].members()[0] ==
        ParameterMemberSpec("fused", {96, 8},
                            MemberSharding::partitioned_segments(0, {{0, 32}, {32, 96}}),
                            Dtype::F8E4M3));
  CHECK(groups[2].members()[1] ==
        ParameterMemberSpec("split", {12}, MemberSharding::segmented(0, {}), Dtype::F32));
  CHECK(groups[2].members()[2] == ParameterMemberSpec("bias", {}, MemberSharding::replicated()));

  CHECK(groups[3].role() == ParameterRole::Channels);
  CHECK_FALSE(groups[3].partition_units());
  CHECK(groups[3].scope() == GroupScope::indexed(std::nullopt, 7));
  CHECK(groups[3].members()[0] ==
        ParameterMemberSpec("router.weight", {18446744073709551615u}, MemberSharding::equal(0)));

  CHECK(groups[4].scope() == GroupScope::tied_embedding());
  CHECK(groups[4].members()[0].dtype() == Dtype::F64);
  CHECK(groups[5].scope() == GroupScope::output_head());
  CHECK(groups[5].members()[0].dtype() == Dtype::Bool);
  CHECK(groups[6].scope() == GroupScope::all());
  CHECK_FALSE(groups[6].members()[0].dtype());

  // Members without a dtype do not count towards the bytes.
  CHECK(model->unknown_bytes_tensors() == 4);
}

TEST_CASE("optional parts may be absent or null") {
  const auto empty = load_ok(R"({"schema":"eredu.groups.v1","groups":[]})");
  CHECK(empty->info() == ModelInfo{});
  CHECK(empty->groups().empty());

  const auto null_model = load_ok(R"({"model":null,"schema":"eredu.groups.v1","groups":[]})");
  CHECK(null_model->info() == ModelInfo{});

  const auto nulls = load_ok(
      R"({"schema":"eredu.groups.v1","model":{"name":null,"layers":null,"experts":null},"groups":[]})");
  CHECK(nulls->info() == ModelInfo{});

  // experts: 0 is a dense model, the same as leaving it out.
  const auto dense =
      load_ok(R"({"schema":"eredu.groups.v1","model":{"layers":1,"experts":0},"groups":[]})");
  CHECK(dense->info() == ModelInfo{std::nullopt, 1, std::nullopt});

  // Escapes in keys and strings are decoded; non-ASCII text is kept.
  const auto escaped = load_ok(
      R"({"sch\u0065ma":"eredu.groups.v1","groups":[{"name":"caf\u00e9 \"q\"","role":"replicated",)"
      R"("members":[{"target":"t\u00e9\n","shape":[],"sharding":{"kind":"replicated"}}]}]})");
  CHECK(escaped->groups()[0].logical_name() == "caf\xc3\xa9 \"q\"");
  CHECK(escaped->groups()[0].members()[0].target() == "t\xc3\xa9\n");
}

TEST_CASE("syntax errors anywhere are Parse and win over everything else") {
  // A syntax error after an unsupported version.
  check_error(R"({"schema":"eredu.groups.v2","groups":[{"name":"g",}]})", Status::Parse,
              "invalid JSON");
  // After a structure error.
  check_error(R"({"schema":"eredu.groups.v1","model":{"layers":0},"groups":[1 2]})", Status::Parse,
              "invalid JSON");
  // Trailing content, trailing garbage, a second document.
  check_error(R"({"schema":"eredu.groups.v1","groups":[]} x)", Status::Parse, "trailing content");
  check_error(R"({"schema":"eredu.groups.v1","groups":[]}})", Status::Parse, "trailing content");
  check_error(R"({"schema":"eredu.groups.v1","groups":[]}{})", Status::Parse, "trailing content");
  check_error(std::string(R"({"schema":"eredu.groups.v1","groups":[]})") + '\0', Status::Parse,
              "trailing content");
  // Truncated documents, empty documents and other roots.
  check_error(R"({"schema":"eredu.groups.v1","groups":[])", Status::Parse, "invalid JSON");
  check_error(R"({"schema":"eredu.groups.v1","groups":[)", Status::Parse, "invalid JSON");
  check_error("", Status::Parse, "invalid JSON");
  check_error("  \n", Status::Parse, "invalid JSON");
  check_error("[]", Status::Parse, "must be a JSON object");
  check_error("\"eredu.groups.v1\"", Status::Parse, "must be a JSON object");
  // Invalid escapes, numbers and literals inside an unknown field.
  check_error(R"({"schema":"eredu.groups.v2","x":"\q","groups":[]})", Status::Parse,
              "invalid JSON at /x");
  check_error(R"({"schema":"eredu.groups.v2","x":"\ud800","groups":[]})", Status::Parse,
              "invalid JSON at /x");
  check_error(R"({"schema":"eredu.groups.v2","x":[01],"groups":[]})", Status::Parse,
              "invalid JSON at /x/0: invalid number 01");
  check_error(R"({"schema":"eredu.groups.v2","x":{"a":1.5e},"groups":[]})", Status::Parse,
              "invalid JSON at /x/a: invalid number 1.5e");
  check_error(R"({"schema":"eredu.groups.v2","x":12abc,"groups":[]})", Status::Parse,
              "invalid number 12abc");
  check_error(R"({"schema":"eredu.groups.v2","x":tru,"groups":[]})", Status::Parse,
              "invalid JSON at /x: invalid literal");
  check_error(R"({"schema":"eredu.groups.v2","x":[nul],"groups":[]})", Status::Parse,
              "invalid JSON at /x/0: invalid literal");
  check_error(R"({"schema":"eredu.groups.v2","x":-,"groups":[]})", Status::Parse,
              "invalid number -");
  // Unescaped control characters in strings.
  check_error("{\"schema\":\"eredu.groups.v1\",\"groups\":[],\"x\":\"a\nb\"}", Status::Parse,
              "invalid JSON");
  // A number token in a known integer field that is not JSON at all.
  check_error(R"({"schema":"eredu.groups.v2","model":{"layers":007},"groups":[]})", Status::Parse,
              "invalid JSON at /model/layers: invalid number 007");
}

TEST_CASE("invalid UTF-8 is Parse") {
  check_error("{\"schema\":\"eredu.groups.v1\",\"groups\":[],\"x\":\"\xff\"}", Status::Parse,
              "UTF-8");
  check_error(
      "{\"schema\":\"eredu.groups.v1\",\"groups\":[{\"name\":\"\xc3\",\"role\":"
      "\"replicated\",\"members\":[]}]}",
      Status::Parse, "UTF-8");
  // An overlong encoding and a UTF-16 surrogate encoded as UTF-8.
  check_error("{\"schema\":\"eredu.groups.v2\",\"\xc0\xaf\":1,\"groups\":[]}", Status::Parse,
              "UTF-8");
  check_error("{\"schema\":\"eredu.groups.v2\",\"groups\":[],\"x\":\"\xed\xa0\x80\"}",
              Status::Parse, "UTF-8");
}

TEST_CASE("duplicate keys are Parse in any object") {
  check_error(R"({"schema":"eredu.groups.v1","schema":"eredu.groups.v1","groups":[]})",
              Status::Parse, "invalid JSON at /schema: duplicate key");
  // Inside an unknown field, even when the version is unsupported.
  check_error(R"({"schema":"eredu.groups.v2","extra":{"a":{"b":1,"b":2}},"groups":[]})",
              Status::Parse, "invalid JSON at /extra/a/b: duplicate key");
  check_error(R"({"schema":"eredu.groups.v1","extra":1,"extra":2,"groups":[]})", Status::Parse,
              "invalid JSON at /extra: duplicate key");
  // Keys compare after unescaping.
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"model":{"name":"a","n\u0061me":"b"}})",
              Status::Parse, "invalid JSON at /model/name: duplicate key");
  check_error(with_member(R"("target":"t","shape":[],"sharding":{"kind":"replicated",)"
                          R"("kind":"replicated"})"),
              Status::Parse, "invalid JSON at /groups/0/members/0/sharding/kind: duplicate key");
  check_error(with_member(R"("target":"t","shape":[],"sharding":{"kind":"replicated"},)"
                          R"("format":{"kind":"dense","kind":"dense"})"),
              Status::Parse, "/groups/0/members/0/format/kind: duplicate key");
  check_error(with_groups(R"([{"name":"g","role":"replicated","scope":{"layer":1,"layer":2},)"
                          R"("members":[]}])"),
              Status::Parse, "/groups/0/scope/layer: duplicate key");
}

TEST_CASE("deep nesting is Parse and does not crash") {
  const std::string open(100000, '[');
  const std::string close(100000, ']');
  check_error(open, Status::Parse, "");
  check_error(open + close, Status::Parse, "must be a JSON object");
  check_error(R"({"schema":"eredu.groups.v1","x":)" + open, Status::Parse, "invalid JSON");
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"x":)" + open + close + "}", Status::Parse,
              "nested deeper than 1024 levels");
  check_error(with_member(R"("target":"t","shape":)" + open + close +
                          R"(,"sharding":{"kind":"replicated"})"),
              Status::Parse, "nested deeper than 1024 levels");
  // Moderate nesting in an unknown field is still a plain structure error.
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"x":)" + std::string(100, '[') +
                  std::string(100, ']') + "}",
              Status::Parse, "/x: unknown field");
}

TEST_CASE("the schema is checked after syntax and before structure") {
  check_error(R"({"groups":[]})", Status::Parse, "/schema");
  check_error(R"({"schema":null,"groups":[]})", Status::Parse, "/schema");
  check_error(R"({"schema":1,"groups":[]})", Status::Parse, "/schema");
  check_error(R"({"schema":"eredu.layout.v1","groups":[]})", Status::Parse,
              "/schema: unknown schema \"eredu.layout.v1\"");
  check_error(R"({"schema":"eredu.groups.v","groups":[]})", Status::Parse, "unknown schema");
  check_error(R"({"schema":"eredu.groups.v1x","groups":[]})", Status::Parse, "unknown schema");
  check_error(R"({"schema":"eredu.groups.v2","groups":[]})", Status::UnsupportedVersion,
              "\"eredu.groups.v2\"");
  check_error(R"({"schema":"eredu.groups.v0","groups":[]})", Status::UnsupportedVersion,
              "eredu.groups.v0");
  // An unsupported version wins over later structure errors.
  check_error(R"({"schema":"eredu.groups.v2","groups":[],"unknown":true})",
              Status::UnsupportedVersion, "eredu.groups.v2");
  check_error(R"({"model":{"layers":0},"groups":7,"schema":"eredu.groups.v3"})",
              Status::UnsupportedVersion, "eredu.groups.v3");
  // A schema of the wrong type wins over structure errors too.
  check_error(R"({"model":{"layers":0},"schema":["eredu.groups.v1"],"groups":[]})", Status::Parse,
              "/schema");
}

TEST_CASE("integers are plain non-negative tokens that fit 64 bits") {
  for (std::string_view token : {"1.0", "-1", "1e3", "1E3", "-0", "0.5", "18446744073709551616",
                                 "99999999999999999999999"}) {
    CAPTURE(token);
    check_error(
        R"({"schema":"eredu.groups.v1","groups":[],"model":{"layers":)" + std::string(token) + "}}",
        Status::Parse, "/model/layers: ");
    check_error(with_member(R"("target":"t","shape":[2,)" + std::string(token) +
                            R"(],"sharding":{"kind":"replicated"})"),
                Status::Parse, "/groups/0/members/0/shape/1: ");
  }
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"model":{"layers":1.0}})", Status::Parse,
              "/model/layers: expected a non-negative integer, found 1.0");
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"model":{"layers":18446744073709551616}})",
              Status::Parse, "/model/layers: integer 18446744073709551616 does not fit 64 bits");
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"model":{"layers":"1"}})", Status::Parse,
              "/model/layers: expected a non-negative integer, found a string");
  const auto largest = load_ok(
      R"({"schema":"eredu.groups.v1","groups":[],"model":{"layers":18446744073709551615 }})");
  CHECK(largest->info().layers == 18446744073709551615u);
}

TEST_CASE("structure errors are Parse with a JSON pointer") {
  // layers: 0 and scope {}.
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"model":{"layers":0}})", Status::Parse,
              "/model/layers: the decoder-layer count must be at least 1");
  check_error(with_groups(R"([{"name":"g","role":"replicated","scope":{},"members":[]}])"),
              Status::Parse, "/groups/0/scope: a scope object must hold");
  check_error(with_groups(R"([{"name":"g","role":"replicated","scope":{"layer":null},)"
                          R"("members":[]}])"),
              Status::Parse, "/groups/0/scope: a scope object must hold");
  check_error(with_groups(R"([{"name":"g","role":"replicated","scope":"all","members":[]}])"),
              Status::Parse, "/groups/0/scope: unknown scope \"all\"");
  check_error(with_groups(R"([{"name":"g","role":"replicated","scope":3,"members":[]}])"),
              Status::Parse, "/groups/0/scope: expected a string or an object, found a number");
  check_error(with_groups(R"([{"name":"g","role":"replicated","scope":{"layer":1,"stage":0},)"
                          R"("members":[]}])"),
              Status::Parse, "/groups/0/scope/stage: unknown field");

  // The example pointer of docs/interchange.md ("General rules").
  const std::string member_ok = R"({"target":"t%","shape":[4],"sharding":{"kind":"replicated"}})";
  std::string groups = "[";
  for (int i = 0; i < 3; ++i) {
    std::string member = member_ok;
    member.replace(member.find('%'), 1, std::to_string(i));
    groups += R"({"name":"g","role":"replicated","members":[)" + member + "]},";
  }
  groups += R"({"name":"g","role":"replicated","members":[{"target":"x","shape":[4],)"
            R"("sharding":{"kind":"tensor_parallel"}}]}])";
  check_error(with_groups(groups), Status::Parse,
              "/groups/3/members/0/sharding/kind: unknown sharding kind \"tensor_parallel\"");

  // Unknown fields, unknown enum words, wrong types, missing fields.
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"extra":null})", Status::Parse,
              "/extra: unknown field");
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"model":{"name":"m","heads":4}})",
              Status::Parse, "/model/heads: unknown field");
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"model":[]})", Status::Parse,
              "/model: expected an object, found an array");
  check_error(R"({"schema":"eredu.groups.v1"})", Status::Parse,
              "/groups: required field is missing");
  check_error(R"({"schema":"eredu.groups.v1","groups":null})", Status::Parse,
              "/groups: required field is missing");
  check_error(R"({"schema":"eredu.groups.v1","groups":{}})", Status::Parse,
              "/groups: expected an array, found an object");
  check_error(with_groups("[7]"), Status::Parse, "/groups/0: expected an object, found a number");
  // null is "absent" only for object fields; as an array element it is wrong.
  check_error(with_groups("[null]"), Status::Parse, "/groups/0: expected an object, found null");
  check_error(with_groups(R"([{"name":"g","role":"replicated","members":[null]}])"), Status::Parse,
              "/groups/0/members/0: expected an object, found null");
  check_error(with_member(R"("target":"t","shape":[2,null],"sharding":{"kind":"replicated"})"),
              Status::Parse,
              "/groups/0/members/0/shape/1: expected a non-negative integer, found null");
  check_error(with_member(R"("target":"t","shape":[8],"sharding":{"kind":"segmented","axis":0,)"
                          R"("segments":[null]})"),
              Status::Parse,
              "/groups/0/members/0/sharding/segments/0: expected a [start, end] array, found null");
  check_error(with_member(R"("target":"t","shape":[8],"sharding":{"kind":"segmented","axis":0,)"
                          R"("segments":[[0,null]]})"),
              Status::Parse,
              "/groups/0/members/0/sharding/segments/0/1: expected a non-negative integer");
  check_error(with_groups(R"([{"role":"replicated","members":[]}])"), Status::Parse,
              "/groups/0/name: required field is missing");
  check_error(with_groups(R"([{"name":"g","role":"column","members":[]}])"), Status::Parse,
              "/groups/0/role: unknown role \"column\"");
  check_error(with_groups(R"([{"name":"g","role":"ColumnProjection","members":[]}])"),
              Status::Parse, "/groups/0/role: unknown role");
  check_error(with_groups(R"([{"name":"g","role":"replicated"}])"), Status::Parse,
              "/groups/0/members: required field is missing");
  check_error(with_groups(R"([{"name":"g","role":"replicated","partition_units":true,)"
                          R"("members":[]}])"),
              Status::Parse, "/groups/0/partition_units: expected a non-negative integer");
  check_error(with_member(R"("shape":[],"sharding":{"kind":"replicated"})"), Status::Parse,
              "/groups/0/members/0/target: required field is missing");
  check_error(with_member(R"("target":7,"shape":[],"sharding":{"kind":"replicated"})"),
              Status::Parse, "/groups/0/members/0/target: expected a string, found a number");
  check_error(with_member(R"("target":"t","sharding":{"kind":"replicated"})"), Status::Parse,
              "/groups/0/members/0/shape: required field is missing");
  check_error(with_member(R"("target":"t","shape":4,"sharding":{"kind":"replicated"})"),
              Status::Parse, "/groups/0/members/0/shape: expected an array, found a number");
  check_error(with_member(R"("target":"t","shape":[])"), Status::Parse,
              "/groups/0/members/0/sharding: required field is missing");
  check_error(with_member(R"("target":"t","shape":[],"dtype":"bf16",)"
                          R"("sharding":{"kind":"replicated"})"),
              Status::Parse, "/groups/0/members/0/dtype: unknown dtype \"bf16\"");
  check_error(with_member(R"("target":"t","shape":[],"sharding":{"kind":"replicated"},"x":1)"),
              Status::Parse, "/groups/0/members/0/x: unknown field");
  check_error(with_member(R"("target":"t","shape":[],"sharding":{"kind":"replicated","dim":0})"),
              Status::Parse, "/groups/0/members/0/sharding/dim: unknown field");
  // Keys are escaped in pointers (RFC 6901).
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"a/b~c":1})", Status::Parse,
              "/a~1b~0c: unknown field");
}

TEST_CASE("sharding fields must match the kind") {
  auto sharding = [](std::string_view json) {
    return with_member(R"("target":"t","shape":[8],"sharding":)" + std::string(json));
  };
  const std::string at = "/groups/0/members/0/sharding";
  check_error(sharding(R"({"axis":0})"), Status::Parse, at + "/kind: required field is missing");
  check_error(sharding(R"({"kind":"replicated","axis":0})"), Status::Parse,
              at + "/axis: not allowed for sharding kind replicated");
  check_error(sharding(R"({"kind":"replicated","segments":[]})"), Status::Parse,
              at + "/segments: not allowed for sharding kind replicated");
  for (std::string_view kind : {"equal", "balanced", "partitioned"}) {
    CAPTURE(kind);
    check_error(sharding(R"({"kind":")" + std::string(kind) + "\"}"), Status::Parse,
                at + "/axis: required for sharding kind " + std::string(kind));
    check_error(sharding(R"({"kind":")" + std::string(kind) + R"(","axis":0,"segments":[[0,8]]})"),
                Status::Parse,
                at + "/segments: not allowed for sharding kind " + std::string(kind));
  }
  for (std::string_view kind : {"partitioned_segments", "segmented"}) {
    CAPTURE(kind);
    check_error(sharding(R"({"kind":")" + std::string(kind) + R"(","segments":[[0,8]]})"),
                Status::Parse, at + "/axis: required for sharding kind " + std::string(kind));
    check_error(sharding(R"({"kind":")" + std::string(kind) + R"(","axis":0})"), Status::Parse,
                at + "/segments: required for sharding kind " + std::string(kind));
    check_error(sharding(R"({"kind":")" + std::string(kind) + R"(","axis":0,"segments":null})"),
                Status::Parse, at + "/segments: required for sharding kind " + std::string(kind));
  }
  check_error(sharding(R"({"kind":"segmented","axis":0,"segments":[[0,4],[4,6,8]]})"),
              Status::Parse, at + "/segments/1: expected a [start, end] pair, found 3 elements");
  check_error(sharding(R"({"kind":"segmented","axis":0,"segments":[[0]]})"), Status::Parse,
              at + "/segments/0: expected a [start, end] pair, found 1 elements");
  check_error(sharding(R"({"kind":"segmented","axis":0,"segments":[{"start":0}]})"), Status::Parse,
              at + "/segments/0: expected a [start, end] array, found an object");
  check_error(sharding(R"({"kind":"segmented","axis":0,"segments":[[0,-4]]})"), Status::Parse,
              at + "/segments/0/1: expected a non-negative integer, found -4");
  check_error(sharding(R"({"kind":"segmented","axis":-1,"segments":[[0,4]]})"), Status::Parse,
              at + "/axis: expected a non-negative integer, found -1");
  check_error(sharding(R"("replicated")"), Status::Parse,
              at + ": expected an object, found a string");
  // Out-of-order or empty segments are the planner's business, not the loader's.
  const auto loaded =
      load_ok(sharding(R"({"kind":"segmented","axis":0,"segments":[[4,2],[0,9]]})"));
  CHECK(loaded->groups()[0].members()[0].sharding() ==
        MemberSharding::segmented(0, {{4, 2}, {0, 9}}));
}

TEST_CASE("structure errors: model before groups, groups in order, fields in schema order") {
  // `model` is checked first even when `groups` comes first in the text.
  check_error(R"({"schema":"eredu.groups.v1","groups":[{"name":1}],"model":{"layers":0}})",
              Status::Parse, "/model/layers");
  check_error(R"({"groups":7,"model":{"nme":"x"},"schema":"eredu.groups.v1"})", Status::Parse,
              "/model/nme: unknown field");
  // Unknown top-level fields come before `model`.
  check_error(R"({"model":{"layers":0},"schema":"eredu.groups.v1","groups":[],"grups":[]})",
              Status::Parse, "/grups: unknown field");
  // Groups in array order.
  check_error(with_groups(R"([{"name":"a","role":"nope","members":[]},{"name":1}])"), Status::Parse,
              "/groups/0/role");
  // Inside an object: unknown fields first, then the fields in the order
  // docs/interchange.md lists them.
  check_error(with_groups(R"([{"members":[{"target":1}],"role":"nope","name":"g","zzz":0}])"),
              Status::Parse, "/groups/0/zzz: unknown field");
  check_error(with_groups(R"([{"members":[{"target":1}],"role":"nope","name":"g"}])"),
              Status::Parse, "/groups/0/role: unknown role");
  check_error(with_groups(R"([{"members":[{"target":1}],"name":"g","role":"replicated"}])"),
              Status::Parse, "/groups/0/members/0/target");
  check_error(with_member(R"("sharding":{"kind":"x"},"dtype":"x","shape":[-1],"target":null)"),
              Status::Parse, "/groups/0/members/0/target: required field is missing");
  check_error(with_member(R"("sharding":{"kind":"x"},"dtype":"x","shape":[-1],"target":"t")"),
              Status::Parse, "/groups/0/members/0/shape/0");
  // A later member's structure error beats an earlier group's construction error.
  check_error(with_groups(R"([{"name":" ","role":"replicated","members":[]},)"
                          R"({"name":"b","role":"replicated","members":[{"target":"t"}]}])"),
              Status::Parse, "/groups/1/members/0/shape");
}

TEST_CASE("group construction and model building errors are InvalidGroup, group by group") {
  const std::string ok_member = R"({"target":"t","shape":[8],"sharding":{"kind":"replicated"}})";
  check_error(with_groups(R"([{"name":" \t","role":"replicated","members":[)" + ok_member + "]}]"),
              Status::InvalidGroup, "logical name must not be empty");
  check_error(with_groups(R"([{"name":"g","role":"replicated","members":[]}])"),
              Status::InvalidGroup, "must contain at least one tensor");
  check_error(with_member(R"("target":" ","shape":[8],"sharding":{"kind":"replicated"})"),
              Status::InvalidGroup, "contains an empty tensor target");
  check_error(with_groups(R"([{"name":"g","role":"replicated","members":[)" + ok_member + "," +
                          ok_member + "]}]"),
              Status::InvalidGroup, "repeats tensor target \"t\"");
  check_error(with_member(R"("target":"t","shape":[8],"sharding":{"kind":"partitioned","axis":0})"),
              Status::InvalidGroup, "exactly one group-level logical partition");
  check_error(with_groups(R"([{"name":"g","role":"replicated","partition_units":2,"members":[)" +
                          ok_member + "]}]"),
              Status::InvalidGroup, "exactly one group-level logical partition");
  check_error(with_groups(R"([{"name":"g","role":"attention_heads","partition_units":0,)"
                          R"("members":[{"target":"t","shape":[8],)"
                          R"("sharding":{"kind":"partitioned","axis":0}}]}])"),
              Status::InvalidGroup, "at least one unit");

  // A target of an earlier group.
  check_error(with_groups(R"([{"name":"a","role":"replicated","members":[)" + ok_member +
                          R"(]},{"name":"b","role":"replicated","members":[)" + ok_member + "]}]"),
              Status::InvalidGroup,
              "parallel placement target \"t\" was registered more than once");
  // A scope outside the model.
  check_error(R"({"schema":"eredu.groups.v1","model":{"layers":2,"experts":4},"groups":[)"
              R"({"name":"g","role":"replicated","scope":{"layer":2},"members":[)" +
                  ok_member + "]}]}",
              Status::InvalidGroup, "layer 2");
  check_error(R"({"schema":"eredu.groups.v1","model":{"layers":2,"experts":4},"groups":[)"
              R"({"name":"g","role":"replicated","scope":{"expert":4},"members":[)" +
                  ok_member + "]}]}",
              Status::InvalidGroup, "expert 4");

  // Group by group: group 1's duplicate target comes before group 2's
  // construction error, and group 1's construction error before group 2's
  // duplicate.
  check_error(with_groups(R"([{"name":"a","role":"replicated","members":[)" + ok_member +
                          R"(]},{"name":"b","role":"replicated","members":[)" + ok_member +
                          R"(]},{"name":"c","role":"replicated","members":[]}])"),
              Status::InvalidGroup, "was registered more than once");
  check_error(with_groups(R"([{"name":"a","role":"replicated","members":[)" + ok_member +
                          R"(]},{"name":"b","role":"replicated","members":[]},)"
                          R"({"name":"c","role":"replicated","members":[)" +
                          ok_member + "]}]"),
              Status::InvalidGroup, "group \"b\" must contain at least one tensor");
  // Byte totals that overflow are the builder's InvalidTensor.
  check_error(with_member(R"("target":"t","shape":[18446744073709551615,2],)"
                          R"("sharding":{"kind":"replicated"})"),
              Status::InvalidTensor, "overflows 64 bits");
}

void check_same(const ModelDescription& a, const ModelDescription& b) {
  CHECK(a.info() == b.info());
  CHECK(a.groups() == b.groups());
  CHECK(a.global_bytes() == b.global_bytes());
  CHECK(a.by_target() == b.by_target());
}

TEST_CASE("groups_to_json round trips and is canonical") {
  const auto model = load_ok(kFull);
  const std::string text = groups_to_json(*model);
  const auto again = load_ok(text);
  check_same(*model, *again);
  CHECK(groups_to_json(*again) == text);

  const std::string expected =
      R"({"schema":"eredu.groups.v1","model":{"name":"example","layers":2,"experts":8},"groups":[)"
      R"({"name":"embed","role":"vocabulary","scope":"embedding","members":[)"
      R"({"target":"model.embed_tokens.weight","shape":[32000,4096],"dtype":"BF16",)"
      R"("sharding":{"kind":"balanced","axis":0}}]},)"
      R"({"name":"model.layers.0.self_attn","role":"attention_heads","partition_units":8,)"
      R"("scope":{"layer":0},"members":[)"
      R"({"target":"model.layers.0.self_attn.q_proj.weight","shape":[4096,4096],"dtype":"BF16",)"
      R"("sharding":{"kind":"partitioned","axis":0}},)"
      R"({"target":"model.layers.0.self_attn.o_proj.weight","shape":[4096,4096],)"
      R"("sharding":{"kind":"partitioned","axis":1}}]},)"
      R"({"name":"experts","role":"expert_intermediate","partition_units":4,)"
      R"("scope":{"layer":1,"expert":3},"members":[)"
      R"({"target":"fused","shape":[96,8],"dtype":"F8_E4M3",)"
      R"("sharding":{"kind":"partitioned_segments","axis":0,"segments":[[0,32],[32,96]]}},)"
      R"({"target":"split","shape":[12],"dtype":"F32",)"
      R"("sharding":{"kind":"segmented","axis":0,"segments":[]}},)"
      R"({"target":"bias","shape":[],"sharding":{"kind":"replicated"}}]},)"
      R"({"name":"router","role":"channels","scope":{"expert":7},"members":[)"
      R"({"target":"router.weight","shape":[18446744073709551615],)"
      R"("sharding":{"kind":"equal","axis":0}}]},)"
      R"({"name":"tied","role":"vocabulary","scope":"tied_embedding","members":[)"
      R"({"target":"tied.weight","shape":[4,2],"dtype":"F64","sharding":{"kind":"replicated"}}]},)"
      R"({"name":"head","role":"replicated","scope":"output_head","members":[)"
      R"({"target":"lm_head.weight","shape":[2],"dtype":"BOOL","sharding":{"kind":"replicated"}}]},)"
      R"({"name":"norms","role":"replicated","members":[)"
      R"({"target":"norm.weight","shape":[4096],"sharding":{"kind":"replicated"}}]}]})"
      "\n";
  CHECK(text == expected);

  // No model fields: `model` is left out; escapes survive the round trip.
  const auto bare = load_ok(with_groups(
      R"([{"name":"q\"\\\u0001\u001f\t","role":"replicated","members":[{"target":"caf\u00e9",)"
      R"("shape":[1],"sharding":{"kind":"replicated"}}]}])"));
  const std::string bare_text = groups_to_json(*bare);
  CHECK(
      bare_text ==
      R"({"schema":"eredu.groups.v1","groups":[{"name":"q\"\\\u0001\u001f\t","role":"replicated",)"
      "\"members\":[{\"target\":\"caf\xc3\xa9\",\"shape\":[1],"
      R"("sharding":{"kind":"replicated"}}]}]})"
      "\n");
  check_same(*bare, *load_ok(bare_text));
}

TEST_CASE("keys and strings with escapes are unescaped; raw ones are read as they are") {
  // Escaped spellings of known keys are those keys, at any level.
  const auto escaped = load_ok(
      R"({"schema":"eredu.groups.v1","m\u006fdel":{"l\u0061yers":2},"groups":[{"n\u0061me":"g",)"
      R"("role":"replicated","members":[{"t\u0061rget":"a\nb\\c\/d\"","sh\u0061pe":[4],)"
      R"("\u0064type":"F32","sharding":{"k\u0069nd":"balanced","\u0061xis":0}}]}]})");
  CHECK(escaped->info().layers == 2u);
  CHECK(escaped->groups()[0].logical_name() == "g");
  const ParameterMemberSpec& member = escaped->groups()[0].members()[0];
  CHECK(member.target() == "a\nb\\c/d\"");
  CHECK(member.global_shape() == std::vector<std::uint64_t>{4});
  CHECK(member.dtype() == Dtype::F32);
  CHECK(member.sharding() == MemberSharding::balanced(0));
  // Escaped enum words are unescaped before they are looked up.
  const auto word =
      load_ok(with_member(R"("target":"t","shape":[],"sharding":{"kind":"r\u0065plicated"})"));
  CHECK(word->groups()[0].members()[0].sharding() == MemberSharding::replicated());
  // Plain non-ASCII text is kept byte for byte.
  const auto utf8 =
      load_ok(with_member("\"target\":\"\xe2\x82\xac-\xf0\x9f\x98\x80\",\"shape\":[],"
                          "\"sharding\":{\"kind\":\"replicated\"}"));
  CHECK(utf8->groups()[0].members()[0].target() == "\xe2\x82\xac-\xf0\x9f\x98\x80");

  // A raw and an escaped spelling of one key are a duplicate, in either order.
  check_error(with_member(R"("target":"a","t\u0061rget":"b","shape":[],)"
                          R"("sharding":{"kind":"replicated"})"),
              Status::Parse, "invalid JSON at /groups/0/members/0/target: duplicate key");
  check_error(with_member(R"("t\u0061rget":"a","target":"b","shape":[],)"
                          R"("sharding":{"kind":"replicated"})"),
              Status::Parse, "invalid JSON at /groups/0/members/0/target: duplicate key");
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"x\u0079":1,"xy":2})", Status::Parse,
              "invalid JSON at /xy: duplicate key");
  check_error(R"({"schema":"eredu.groups.v1","groups":[],"x":{"a\"":1,"a\u0022":2}})",
              Status::Parse, "invalid JSON at /x/a\": duplicate key");
  // A key that only starts like a known one is unknown.
  check_error(with_member(R"("targets":"a","target":"b","shape":[],)"
                          R"("sharding":{"kind":"replicated"})"),
              Status::Parse, "/groups/0/members/0/targets: unknown field");
  check_error(with_member(R"("t\u0061rget\u0073":"a","target":"b","shape":[],)"
                          R"("sharding":{"kind":"replicated"})"),
              Status::Parse, "/groups/0/members/0/targets: unknown field");

  // Raw control characters in keys and known string values stay Parse errors.
  check_error(
      with_member("\"target\":\"a\tb\",\"shape\":[],\"sharding\":{\"kind\":\"replicated\"}"),
      Status::Parse, "invalid JSON");
  check_error(
      with_member("\"tar\x01get\":\"a\",\"shape\":[],\"sharding\":{\"kind\":\"replicated\"}"),
      Status::Parse, "invalid JSON");
  check_error(
      with_member("\"target\":\"a\\n\x1f\",\"shape\":[],\"sharding\":{\"kind\":\"replicated\"}"),
      Status::Parse, "invalid JSON");
  // Invalid escapes in known fields too.
  check_error(with_member(R"("target":"a\x","shape":[],"sharding":{"kind":"replicated"})"),
              Status::Parse, "invalid JSON at /groups/0/members/0/target");
  check_error(with_member(R"("t\qrget":"a","shape":[],"sharding":{"kind":"replicated"})"),
              Status::Parse, "invalid JSON at /groups/0/members/0");
}

// A description of `count` one-member groups, several MiB for large counts,
// with `before` and `after` spliced around the groups array. A long model
// name first puts the schema and every key after the first pages.
std::string many_groups(std::size_t count, std::string_view schema, std::string_view before,
                        std::string_view after, std::string_view last_role = "replicated") {
  std::string text = R"({"model":{"name":")" + std::string(10000, 'n') + R"("},)" +
                     std::string(before) + "\"schema\":\"" + std::string(schema) +
                     "\",\"groups\":[";
  for (std::size_t i = 0; i < count; ++i) {
    if (i != 0) text += ',';
    text += R"({"name":"group.)" + std::to_string(i) + R"(","role":")" +
            std::string(i + 1 == count ? last_role : "replicated") +
            R"(","members":[{"target":"model.layers.)" + std::to_string(i) +
            R"(.mlp.experts.weight","shape":[1024,7168],"dtype":"BF16",)"
            R"("sharding":{"kind":"replicated"}}]})";
  }
  return text + "]" + std::string(after) + "}";
}

TEST_CASE("large descriptions: everything after the consumed input still loads and reports") {
  constexpr std::size_t kCount = 30000;  // about 4.5 MiB
  const std::string text = many_groups(kCount, "eredu.groups.v1", "", "");
  REQUIRE(text.size() > (std::size_t{4} << 20));
  const auto loaded = load_ok(text);
  REQUIRE(loaded->groups().size() == kCount);
  CHECK(loaded->info().name == std::optional<std::string>(std::string(10000, 'n')));
  CHECK(loaded->groups()[0].members()[0].target() == "model.layers.0.mlp.experts.weight");
  CHECK(loaded->groups()[kCount - 1].logical_name() == "group.29999");
  CHECK(loaded->groups()[kCount - 1].members()[0].target() ==
        "model.layers.29999.mlp.experts.weight");
  CHECK(loaded->member(loaded->by_target().front()).target() ==
        "model.layers.0.mlp.experts.weight");

  // Keys, the schema and paths from the start of the text are still right at its end.
  check_error(many_groups(kCount, "eredu.groups.v1", R"("x":1,)", R"(,"x":2)"), Status::Parse,
              "invalid JSON at /x: duplicate key");
  check_error(many_groups(kCount, "eredu.groups.v2", "", ""), Status::UnsupportedVersion,
              "unsupported schema \"eredu.groups.v2\"");
  check_error(many_groups(kCount, "eredu.groups.v1", R"("x":1,)", ""), Status::Parse,
              "/x: unknown field");
  check_error(many_groups(kCount, "eredu.groups.v1", "", "", "nobody"), Status::Parse,
              "/groups/29999/role: unknown role \"nobody\"");
  check_error(many_groups(kCount, "eredu.groups.v1", "", R"(,"groups":[])"), Status::Parse,
              "invalid JSON at /groups: duplicate key");
  check_error(many_groups(kCount, "eredu.groups.v1", "", ",") + "}", Status::Parse, "invalid JSON");

  // The same through a file.
  const auto directory = std::filesystem::temp_directory_path() / "eredu_test_interchange_large";
  std::filesystem::create_directories(directory);
  const auto file = directory / "groups.json";
  {
    std::ofstream out(file, std::ios::binary);
    out << text;
  }
  auto from_file = load_groups_json_file(file.string());
  REQUIRE(from_file);
  check_same(*from_file.value(), *loaded);
  std::filesystem::remove_all(directory);
}

TEST_CASE("load_groups_json_file reads files and reports I/O errors") {
  const auto directory = std::filesystem::temp_directory_path() / "eredu_test_interchange";
  std::filesystem::create_directories(directory);
  const auto file = directory / "groups.json";
  {
    std::ofstream out(file, std::ios::binary);
    out << kFull;
  }
  auto loaded = load_groups_json_file(file.string());
  REQUIRE(loaded);
  CHECK(loaded.value()->tensor_count() == 10);

  const std::string absent = (directory / "absent.json").string();
  auto missing = load_groups_json_file(absent);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == Status::Io);
  CHECK(missing.error().message.find(absent) != std::string::npos);
  CHECK(missing.error().message.find("No such file or directory") != std::string::npos);

  auto directory_error = load_groups_json_file(directory.string());
  REQUIRE_FALSE(directory_error);
  CHECK(directory_error.error().code == Status::Io);
  CHECK(directory_error.error().message.find("Is a directory") != std::string::npos);

  {
    std::ofstream out(file, std::ios::binary);
    out << R"({"schema":"eredu.groups.v1","groups":[],"x":1})";
  }
  auto structure = load_groups_json_file(file.string());
  REQUIRE_FALSE(structure);
  CHECK(structure.error().code == Status::Parse);
  std::filesystem::remove_all(directory);
}

TEST_CASE("query_units and per_kv_head load, round trip and are written canonically") {
  const std::string text =
      R"({"schema":"eredu.groups.v1","groups":[)"
      R"({"name":"attn","role":"attention_heads","partition_units":2,"query_units":8,"members":[)"
      R"({"target":"q","shape":[16,4],"sharding":{"kind":"partitioned","axis":0}},)"
      R"({"target":"k","shape":[4,4],"sharding":{"kind":"partitioned","axis":0,"per_kv_head":true}},)"
      R"({"target":"qkv","shape":[24,4],"sharding":{"kind":"partitioned_segments","axis":0,)"
      R"("segments":[[0,16],[16,20]],"per_kv_head":false}}]}]})";
  const auto model = load_ok(text);
  const ParameterGroupSpec& group = model->groups()[0];
  CHECK(group.query_units() == std::optional<std::uint64_t>{8});
  CHECK_FALSE(group.members()[0].sharding().per_kv_head);
  CHECK(group.members()[1].sharding().per_kv_head);
  CHECK_FALSE(group.members()[2].sharding().per_kv_head);
  const std::string written = groups_to_json(*model);
  // `false` is the default and is not written.
  CHECK(written.find(R"("per_kv_head":false)") == std::string::npos);
  CHECK(written.find(R"("partition_units":2,"query_units":8,)") != std::string::npos);
  CHECK(written.find(R"({"kind":"partitioned","axis":0,"per_kv_head":true})") != std::string::npos);
  CHECK(groups_to_json(*load_ok(written)) == written);
}

TEST_CASE("vocab_pad_multiple loads, round trips and is checked against the group") {
  const std::string text =
      R"({"schema":"eredu.groups.v1","groups":[)"
      R"({"name":"head","role":"vocabulary","vocab_pad_multiple":128,"members":[)"
      R"({"target":"norm","shape":[4],"sharding":{"kind":"replicated"}},)"
      R"({"target":"lm_head","shape":[11,4],"sharding":{"kind":"balanced","axis":0}}]}]})";
  const auto model = load_ok(text);
  CHECK(model->groups()[0].vocab_pad_multiple() == std::optional<std::uint64_t>{128});
  const std::string written = groups_to_json(*model);
  CHECK(written.find(R"("role":"vocabulary","vocab_pad_multiple":128,)") != std::string::npos);
  CHECK(groups_to_json(*load_ok(written)) == written);
  // null is absent; a non-integer is Parse; the group's rules are InvalidGroup.
  CHECK_FALSE(load_ok(with_groups(R"([{"name":"e","role":"vocabulary","vocab_pad_multiple":null,)"
                                  R"("members":[{"target":"e","shape":[4],)"
                                  R"("sharding":{"kind":"balanced","axis":0}}]}])"))
                  ->groups()[0]
                  .vocab_pad_multiple());
  check_error(
      with_groups(
          R"([{"name":"e","role":"vocabulary","vocab_pad_multiple":"8",)"
          R"("members":[{"target":"e","shape":[4],"sharding":{"kind":"balanced","axis":0}}]}])"),
      Status::Parse, "/groups/0/vocab_pad_multiple");
  check_error(with_groups(R"([{"name":"e","role":"channels","vocab_pad_multiple":8,)"
                          R"("members":[{"target":"e","shape":[4],)"
                          R"("sharding":{"kind":"balanced","axis":0}}]}])"),
              Status::InvalidGroup,
              "parallel parameter group \"e\": vocab_pad_multiple needs role vocabulary");
  check_error(with_groups(R"([{"name":"e","role":"vocabulary","vocab_pad_multiple":0,)"
                          R"("members":[{"target":"e","shape":[4],)"
                          R"("sharding":{"kind":"balanced","axis":0}}]}])"),
              Status::InvalidGroup,
              "parallel parameter group \"e\": vocab_pad_multiple must be at least 1");
}

}  // namespace
}  // namespace eredu
