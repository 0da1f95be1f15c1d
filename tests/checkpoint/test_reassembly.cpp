// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Read plans proven on real files: every rank of TP 1, 2 and 4 reads its
// extents of stories260K.gguf, the GPT-2 LoRA adapter and a sharded
// checkpoint written from stories260K's configuration, and the ranks'
// buffers reassemble the files byte for byte.
#include <doctest/doctest.h>

#include "checkpoint/open.hpp"
#include "checkpoint_writer.hpp"
#include "describe/describe.hpp"
#include "example_files.hpp"
#include "interchange/groups_json.hpp"
#include "model_folders.hpp"
#include "reassembly.hpp"
#include "stories_folder.hpp"

namespace eredu {
namespace {

ParallelTopology tensor_parallel(std::uint64_t size) {
  return ParallelTopology::create(size, 1, 1, 1).value();
}

TEST_CASE("stories260K.gguf reassembles at TP 1, 2 and 4") {
  const std::string path = test::example_file(test::kStories);
  auto model = describe_model(path);
  REQUIRE(model);
  auto checkpoint = open_checkpoint(path);
  REQUIRE(checkpoint);
  for (std::uint64_t tp : {1, 2, 4}) {
    CAPTURE(tp);
    const test::ReassemblyTotals totals =
        test::check_reassembly(model.value(), checkpoint.value(), tensor_parallel(tp));
    CHECK(totals.tensors == 48);
    CHECK(totals.checkpoint_bytes == 1185376 - 14176);
    // The norms (5 layers x 2 + 1, 256 bytes each) are read by every rank;
    // everything else once.
    CHECK(totals.bytes_read == totals.checkpoint_bytes + (tp - 1) * 11 * 256);
  }
}

TEST_CASE("the GPT-2 LoRA adapter reassembles at TP 1, 2 and 4") {
  auto model = load_groups_json_file(test::example_file(test::kLoraGroups));
  REQUIRE(model);
  auto checkpoint = open_checkpoint(test::example_file(test::kLora));
  REQUIRE(checkpoint);
  for (std::uint64_t tp : {1, 2, 4}) {
    CAPTURE(tp);
    const test::ReassemblyTotals totals =
        test::check_reassembly(model.value(), checkpoint.value(), tensor_parallel(tp));
    CHECK(totals.tensors == 72);
    CHECK(totals.checkpoint_bytes == 3244032);
    // Replicated per layer: c_attn lora_A [8, 768], both lora_B [768, 8].
    const std::uint64_t replicated = 12 * 3 * 768 * 8 * 4;
    CHECK(totals.bytes_read == totals.checkpoint_bytes + (tp - 1) * replicated);
  }
}

TEST_CASE("a checkpoint of 3 shards written from stories260K's configuration") {
  test::TempFolder folder;
  test::write_stories_folder(folder, 3);
  auto model = describe_model(folder.str());  // reads the shards' headers
  REQUIRE(model);
  CHECK(model.value()->tensor_count() == 48);
  auto checkpoint = open_checkpoint(folder.str());
  REQUIRE(checkpoint);
  CHECK(checkpoint.value().files.size() == 3);
  for (std::uint64_t tp : {1, 2, 4}) {
    CAPTURE(tp);
    const test::ReassemblyTotals totals =
        test::check_reassembly(model.value(), checkpoint.value(), tensor_parallel(tp));
    CHECK(totals.tensors == 48);
    CHECK(totals.checkpoint_bytes == 1185376 - 14176);  // the same tensors as the GGUF
    CHECK(totals.bytes_read == totals.checkpoint_bytes + (tp - 1) * 11 * 256);
  }
}

}  // namespace
}  // namespace eredu
