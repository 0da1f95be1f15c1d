// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The status codes that no other C API suite provokes, each made by a real
// call through the public header and checked as the returned status and as
// the error object's code. tests/status_coverage.py lists where every code
// of eredu/status.h is asserted, and why the few that no test can produce
// are out of reach.
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>

#include "capi_support.hpp"
#include "test_data.hpp"

using namespace capi_test;

namespace {

std::string source_path(const std::string& path) {
  const char* root = std::getenv("EREDU_SOURCE_ROOT");
  return std::string(root ? root : ".") + "/" + path;
}

/// A fresh folder under TMPDIR (or /tmp), removed with what it holds.
class TempFolder {
 public:
  TempFolder() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base ? base : "/tmp") + "/eredu-status-XXXXXX";
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

struct PlanFileFree {
  void operator()(eredu_plan_file* file) const { eredu_plan_file_free(file); }
};

TEST_CASE("EREDU_E_UNSUPPORTED_MODEL: a bitsandbytes int8 checkpoint") {
  ErrorSlot error;
  eredu_model* model = garbage<eredu_model>();
  CHECK(eredu_model_describe(source_path("examples/models/llama-3.1-8b-bnb-int8").c_str(), nullptr,
                             &model, error.slot()) == EREDU_E_UNSUPPORTED_MODEL);
  CHECK(model == nullptr);
  CHECK(error.code() == EREDU_E_UNSUPPORTED_MODEL);
  CHECK(error.message().find("bitsandbytes int8") != std::string::npos);
}

TEST_CASE("EREDU_E_CORRUPT_DATA: a file without the plan-file magic") {
  TempFolder folder;
  const std::string path = folder.file("not-a-plan.bin");
  std::ofstream(path, std::ios::binary) << std::string(128, 'x');
  ErrorSlot error;
  eredu_plan_file* file = garbage<eredu_plan_file>();
  CHECK(eredu_plan_file_open(path.c_str(), &file, error.slot()) == EREDU_E_CORRUPT_DATA);
  CHECK(file == nullptr);
  CHECK(error.code() == EREDU_E_CORRUPT_DATA);
  CHECK(error.message().find("bad magic at byte 0: not an eredu plan file") != std::string::npos);

  std::ofstream(path, std::ios::binary | std::ios::trunc) << std::string(87, 'x');
  CHECK(eredu_plan_file_open(path.c_str(), &file, error.slot()) == EREDU_E_CORRUPT_DATA);
  CHECK(error.code() == EREDU_E_CORRUPT_DATA);
  CHECK(error.message().find("truncated: the header needs 88 bytes, the file has 87") !=
        std::string::npos);
}

TEST_CASE("EREDU_E_PLAN_FILE_MISMATCH: verifying against another topology or policy") {
  const auto model = model_from_json(test_data::read("attention.groups.json"));
  REQUIRE(model.status == EREDU_OK);
  TempFolder folder;
  const std::string path = folder.file("attention.tp2.plan");
  const eredu_topology tp2 = topology_of(2);
  REQUIRE(eredu_plan_file_write(model.handle.get(), &tp2, nullptr, path.c_str(), nullptr) ==
          EREDU_OK);
  eredu_plan_file* opened = nullptr;
  REQUIRE(eredu_plan_file_open(path.c_str(), &opened, nullptr) == EREDU_OK);
  const std::unique_ptr<eredu_plan_file, PlanFileFree> file(opened);
  REQUIRE(eredu_plan_file_verify(file.get(), model.handle.get(), &tp2, nullptr, nullptr) ==
          EREDU_OK);

  ErrorSlot error;
  const eredu_topology tp4 = topology_of(4);
  CHECK(eredu_plan_file_verify(file.get(), model.handle.get(), &tp4, nullptr, error.slot()) ==
        EREDU_E_PLAN_FILE_MISMATCH);
  CHECK(error.code() == EREDU_E_PLAN_FILE_MISMATCH);
  CHECK(error.message() ==
        "the plan file is for tp 2 x pp 1 x ep 1 x dp 1, not tp 4 x pp 1 x "
        "ep 1 x dp 1");

  eredu_plan_options options = EREDU_PLAN_OPTIONS_INIT;
  options.policy = EREDU_POLICY_REQUIRE_EVEN;
  CHECK(eredu_plan_file_verify(file.get(), model.handle.get(), &tp2, &options, error.slot()) ==
        EREDU_E_PLAN_FILE_MISMATCH);
  CHECK(error.code() == EREDU_E_PLAN_FILE_MISMATCH);
  CHECK(error.message() == "the plan file was planned with policy require, not require_even");
}

}  // namespace
