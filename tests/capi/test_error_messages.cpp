// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Error messages are UTF-8 in eredu's own words (status.h): a syntax error
// says where it stands and what is there, whichever parser found it, and
// never copies an input's invalid bytes; files are read up to a limit.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

struct Failure {
  eredu_status status = EREDU_OK;
  std::string message;
};

Failure residency(const std::string& text) {
  ErrorSlot error;
  Failure failure;
  failure.status = eredu_residency_from_json(text.data(), text.size(), 8, nullptr, error.slot());
  failure.message = error.message();
  return failure;
}

// A model folder in the build directory whose config.json is `config`
// (a symlink when `link` is set, else a file of that text).
std::filesystem::path folder_with_config(const std::string& name, const std::string& config,
                                         bool link) {
  const auto dir = std::filesystem::temp_directory_path() / ("eredu_messages_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (link) {
    std::filesystem::create_symlink(config, dir / "config.json");
  } else {
    std::ofstream(dir / "config.json", std::ios::binary) << config;
  }
  return dir;
}

Failure describe(const std::filesystem::path& dir) {
  ErrorSlot error;
  Failure failure;
  eredu_model* model = nullptr;
  eredu_describe_options options = EREDU_DESCRIBE_OPTIONS_INIT;
  options.config_only = 1;
  failure.status = eredu_model_describe(dir.c_str(), &options, &model, error.slot());
  eredu_model_free(model);
  failure.message = error.message();
  std::filesystem::remove_all(dir);
  return failure;
}

}  // namespace

TEST_SUITE("capi.error_messages") {
  TEST_CASE("nlohmann-parsed documents: line, column and what is there") {
    const Failure invalid_byte = residency("{\"schema\":\"eredu.residency.v1\",\"kind\":\"\xff\"}");
    CHECK(invalid_byte.status == EREDU_E_PARSE);
    CHECK(invalid_byte.message == "invalid JSON: line 1, column 40: byte 0xFF is not UTF-8");

    const Failure truncated = residency("{\"schema\":\n\"eredu.residency.v1\",");
    CHECK(truncated.status == EREDU_E_PARSE);
    CHECK(truncated.message == "invalid JSON: line 2, column 22: the document ends early");

    // nlohmann stops at the last byte of the token it could not place.
    const Failure token = residency("{\"schema\" \"x\"}");
    CHECK(token.message == "invalid JSON: line 1, column 13: unexpected \"\\\"\"");

    const Failure nul = residency(std::string("{\"kind\":\0}", 10));
    CHECK(nul.message == "invalid JSON: line 1, column 9: a NUL byte");

    const Failure control = residency("{\"kind\":\"a\x01\"}");
    CHECK(control.message == "invalid JSON: line 1, column 11: control character U+0001");
  }

  TEST_CASE("simdjson-parsed descriptions: the byte that is not UTF-8, in eredu's words") {
    const auto invalid = model_from_json("{\"schema\":\"eredu.groups.v1\",\n \"x\":\"\xc3\x28\"}");
    CHECK(invalid.status == EREDU_E_PARSE);
    CHECK(invalid.message == "invalid JSON: line 2, column 7: byte 0xC3 is not UTF-8");

    const auto structure = model_from_json(R"({"schema":"eredu.groups.v1","groups":[1,,]})");
    CHECK(structure.status == EREDU_E_PARSE);
    CHECK(structure.message.find("simdjson") == std::string::npos);
    CHECK(structure.message.find("The JSON document") == std::string::npos);
  }

  TEST_CASE("a config.json of invalid bytes gives a UTF-8 message") {
    const Failure failure =
        describe(folder_with_config("invalid", "{\"model_type\": \"\xfe\xff\"}", false));
    CHECK(failure.status == EREDU_E_PARSE);
    CHECK(
        failure.message.ends_with("config.json is not valid JSON: line 1, column 17: byte 0xFE "
                                  "is not UTF-8"));
  }

  TEST_CASE("a safetensors header of invalid bytes gives a UTF-8 message") {
    // fuzz/regressions/safetensors/header-key-invalid-utf8: a 3-byte header
    // whose last byte starts a character the header's end cuts off.
    const auto dir = std::filesystem::temp_directory_path() / "eredu_messages_header";
    std::filesystem::create_directories(dir);
    const auto path = dir / "model.safetensors";
    std::ofstream(path, std::ios::binary) << std::string("\x03\0\0\0\0\0\0\0{\"\xe5", 11);
    ErrorSlot error;
    eredu_checkpoint* checkpoint = nullptr;
    CHECK(eredu_checkpoint_open(path.c_str(), &checkpoint, error.slot()) == EREDU_E_PARSE);
    CHECK(checkpoint == nullptr);
    CHECK(error.message().ends_with(
        "model.safetensors: the header is not JSON: line 1, column 4: the document ends early"));
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("a config.json that never ends is cut off at 256 MiB") {
    const Failure failure = describe(folder_with_config("endless", "/dev/zero", true));
    CHECK(failure.status == EREDU_E_INVALID_ARGUMENT);
    CHECK(
        failure.message.ends_with("config.json: it holds more than 268435456 bytes, the most "
                                  "eredu reads there"));
  }
}
