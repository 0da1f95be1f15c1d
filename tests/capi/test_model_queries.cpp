// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// What a model says about itself: eredu_model_get_info, eredu_model_to_json
// (eredu.groups.v1 written back) and eredu_model_pad_vocab (docs/planning.md,
// "Vocabulary padding").
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

// A named model of 2 layers and 4 routed experts: 11 BF16 vocabulary rows of
// width 4, and a replicated norm.
const char* const kVocabulary =
    R"({"schema":"eredu.groups.v1","model":{"name":"tiny","layers":2,"experts":4},"groups":[)"
    R"({"name":"embed","role":"vocabulary","members":[)"
    R"({"target":"embed.w","shape":[11,4],"dtype":"BF16","sharding":{"kind":"balanced","axis":0}}]},)"
    R"({"name":"norm","role":"replicated","members":[)"
    R"({"target":"norm.w","shape":[4],"dtype":"BF16","sharding":{"kind":"replicated"}}]}]})";

// Only the replicated norm: nothing to pad.
const char* const kNorm =
    R"({"schema":"eredu.groups.v1","groups":[)"
    R"({"name":"norm","role":"replicated","members":[)"
    R"({"target":"norm.w","shape":[4],"dtype":"BF16","sharding":{"kind":"replicated"}}]}]})";

std::string groups_json(const eredu_model* model) {
  char* text = nullptr;
  std::size_t length = 0;
  REQUIRE(eredu_model_to_json(model, &text, &length, nullptr) == EREDU_OK);
  std::string out(text, length);
  CHECK(text[length] == '\0');
  eredu_buffer_free(text);
  return out;
}

}  // namespace

TEST_SUITE("capi.model_queries") {
  TEST_CASE("the model object reads back, name borrowed from the model") {
    const auto model = model_from_json(kVocabulary);
    REQUIRE(model.status == EREDU_OK);
    eredu_model_info info = EREDU_MODEL_INFO_INIT;
    REQUIRE(eredu_model_get_info(model.handle.get(), &info, nullptr) == EREDU_OK);
    REQUIRE(info.name != nullptr);
    CHECK(std::string(info.name) == "tiny");
    CHECK(info.has_layers == 1);
    CHECK(info.layers == 2);
    CHECK(info.has_experts == 1);
    CHECK(info.experts == 4);

    const auto bare = model_from_json(kNorm);
    REQUIRE(bare.status == EREDU_OK);
    REQUIRE(eredu_model_get_info(bare.handle.get(), &info, nullptr) == EREDU_OK);
    CHECK(info.name == nullptr);
    CHECK(info.has_layers == 0);
    CHECK(info.layers == 0);
    CHECK(info.has_experts == 0);
    CHECK(info.experts == 0);

    ErrorSlot error;
    CHECK(eredu_model_get_info(nullptr, &info, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_model_get_info(bare.handle.get(), nullptr, error.slot()) == EREDU_E_NULL_ARGUMENT);
    info.struct_size = 2;
    CHECK(eredu_model_get_info(bare.handle.get(), &info, error.slot()) == EREDU_E_INVALID_ARGUMENT);
  }

  TEST_CASE("a model writes back as canonical eredu.groups.v1 that loads to the same model") {
    const auto model = model_from_json(kNorm);
    REQUIRE(model.status == EREDU_OK);
    const std::string text = groups_json(model.handle.get());
    CHECK(text ==
          R"({"schema":"eredu.groups.v1","groups":[{"name":"norm","role":"replicated","members":[)"
          R"({"target":"norm.w","shape":[4],"dtype":"BF16","sharding":{"kind":"replicated"}}]}]})"
          "\n");
    const auto again = model_from_json(text);
    REQUIRE(again.status == EREDU_OK);
    CHECK(groups_json(again.handle.get()) == text);

    char* out = reinterpret_cast<char*>(1);
    std::size_t length = 7;
    ErrorSlot error;
    CHECK(eredu_model_to_json(nullptr, &out, &length, error.slot()) == EREDU_E_NULL_ARGUMENT);
    CHECK(out == nullptr);
    CHECK(length == 0);
    CHECK(eredu_model_to_json(model.handle.get(), nullptr, nullptr, error.slot()) ==
          EREDU_E_NULL_ARGUMENT);
  }

  TEST_CASE("padding a loaded model pads its vocabulary rows when planned") {
    const auto model = model_from_json(kVocabulary);
    REQUIRE(model.status == EREDU_OK);
    eredu_model* padded = nullptr;
    REQUIRE(eredu_model_pad_vocab(model.handle.get(), 2, &padded, nullptr) == EREDU_OK);
    const Model owned(padded);
    // P = 12 at T = 3: rank 2 reads rows [8, 11) and allocates one padding row.
    const auto layout = plan_tp(owned.get(), 2, 3);
    REQUIRE(layout.status == EREDU_OK);
    const eredu_layout_tensor_info embed = tensor_info(layout.handle.get(), "embed.w");
    CHECK(embed.start == 8);
    CHECK(embed.end == 11);
    CHECK(embed.padding_rows == 1);
    CHECK(embed.local_bytes == 4 * 4 * 2);
    // The model it was made from is unchanged.
    const auto unpadded = plan_tp(model.handle.get(), 2, 3);
    REQUIRE(unpadded.status == EREDU_OK);
    CHECK(tensor_info(unpadded.handle.get(), "embed.w").padding_rows == 0);
  }

  TEST_CASE("padding errors: a zero multiple, nothing to pad, NULL arguments") {
    const auto model = model_from_json(kVocabulary);
    REQUIRE(model.status == EREDU_OK);
    eredu_model* padded = reinterpret_cast<eredu_model*>(1);
    ErrorSlot error;
    CHECK(eredu_model_pad_vocab(model.handle.get(), 0, &padded, error.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(error.message() == "the vocabulary padding multiple must be at least 1");
    CHECK(padded == nullptr);

    const auto norm = model_from_json(kNorm);
    REQUIRE(norm.status == EREDU_OK);
    ErrorSlot nothing;
    CHECK(eredu_model_pad_vocab(norm.handle.get(), 2, &padded, nothing.slot()) ==
          EREDU_E_INVALID_ARGUMENT);
    CHECK(nothing.message() ==
          "vocabulary padding needs a vocabulary group with a balanced member; the description "
          "has none");

    CHECK(eredu_model_pad_vocab(nullptr, 2, &padded, nullptr) == EREDU_E_NULL_ARGUMENT);
    CHECK(eredu_model_pad_vocab(model.handle.get(), 2, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  }
}
