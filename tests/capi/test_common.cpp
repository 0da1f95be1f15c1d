// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu/common.h: reading a bounded input (eredu_read_file) and quoting
// text as the library's messages do (eredu_quote).
#include <doctest/doctest.h>
#include <eredu/eredu.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "capi_support.hpp"

namespace {

using capi_test::ErrorSlot;
using capi_test::garbage;

// A file holding `bytes` in a fresh temporary folder, removed with it.
struct TempFile {
  std::filesystem::path folder;
  std::string path;

  explicit TempFile(const std::string& bytes) {
    std::string pattern = (std::filesystem::temp_directory_path() / "eredu-capi-XXXXXX").string();
    folder = mkdtemp(pattern.data());
    path = (folder / "input.json").string();
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { std::filesystem::remove_all(folder); }
};

struct Read {
  eredu_status status = EREDU_OK;
  std::string bytes;
  std::string message;
};

Read read_file(const char* path, std::size_t max_bytes) {
  char* out = garbage<char>();
  std::size_t length = 7;
  ErrorSlot error;
  Read read;
  read.status = eredu_read_file(path, max_bytes, &out, &length, error.slot());
  if (read.status == EREDU_OK) {
    read.bytes.assign(out, length);
    CHECK(out[length] == '\0');
    eredu_buffer_free(out);
  } else {
    CHECK(out == nullptr);
    CHECK(length == 0);
    read.message = error.message();
  }
  return read;
}

std::string quote(const std::string& text) {
  char* out = nullptr;
  std::size_t length = 0;
  ErrorSlot error;
  REQUIRE(eredu_quote(text.data(), text.size(), &out, &length, error.slot()) == EREDU_OK);
  std::string quoted(out, length);
  CHECK(quoted.size() == std::string(out).size());  // no NUL inside
  eredu_buffer_free(out);
  return quoted;
}

TEST_CASE("eredu_read_file reads every byte, up to and including the bound") {
  const std::string bytes = std::string("{\"a\":1}\0\xff", 9);
  const TempFile file(bytes);
  CHECK(read_file(file.path.c_str(), 9).bytes == bytes);
  CHECK(read_file(file.path.c_str(), 1 << 20).bytes == bytes);
  const Read over = read_file(file.path.c_str(), 8);
  CHECK(over.status == EREDU_E_INVALID_ARGUMENT);
  CHECK(over.message == "cannot read \"" + file.path +
                            "\": it holds more than 8 bytes, the most eredu reads there");
  const TempFile empty("");
  CHECK(read_file(empty.path.c_str(), 0).status == EREDU_OK);
  CHECK(read_file(file.path.c_str(), 0).status == EREDU_E_INVALID_ARGUMENT);
}

TEST_CASE("eredu_read_file reads a file larger than its first allocation exactly") {
  std::string bytes(300000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + i / 251);
  const TempFile file(bytes);
  CHECK(read_file(file.path.c_str(), bytes.size()).bytes == bytes);
  CHECK(read_file(file.path.c_str(), bytes.size() - 1).status == EREDU_E_INVALID_ARGUMENT);
}

TEST_CASE("eredu_read_file: a device that never ends is cut off at the bound") {
  const Read zeros = read_file("/dev/zero", 1 << 20);
  CHECK(zeros.status == EREDU_E_INVALID_ARGUMENT);
  CHECK(zeros.message ==
        "cannot read \"/dev/zero\": it holds more than 1048576 bytes, the most eredu reads there");
}

TEST_CASE("eredu_read_file reads standard input for \"-\"") {
  const TempFile file("policy");
  REQUIRE(std::freopen(file.path.c_str(), "rb", stdin) != nullptr);
  CHECK(read_file("-", 100).bytes == "policy");
  REQUIRE(std::freopen("/dev/zero", "rb", stdin) != nullptr);
  const Read endless = read_file("-", 4);
  CHECK(endless.status == EREDU_E_INVALID_ARGUMENT);
  CHECK(endless.message ==
        "cannot read standard input: it holds more than 4 bytes, the most eredu reads there");
  REQUIRE(std::freopen("/dev/null", "rb", stdin) != nullptr);
}

TEST_CASE("eredu_read_file errors: missing, a folder, NULLs, a path that is not UTF-8") {
  const Read missing = read_file("/nonexistent/eredu.json", 10);
  CHECK(missing.status == EREDU_E_IO);
  CHECK(missing.message == "cannot read \"/nonexistent/eredu.json\": No such file or directory");
  const Read folder = read_file("/", 10);
  CHECK(folder.status == EREDU_E_IO);
  CHECK(folder.message == "cannot read \"/\": it is a directory");
  CHECK(read_file("\xff.json", 10).status == EREDU_E_INVALID_ARGUMENT);
  CHECK(read_file(nullptr, 10).status == EREDU_E_NULL_ARGUMENT);
  char* out = nullptr;
  std::size_t length = 0;
  CHECK(eredu_read_file("/dev/null", 10, nullptr, &length, nullptr) == EREDU_E_NULL_ARGUMENT);
  CHECK(eredu_read_file("/dev/null", 10, &out, nullptr, nullptr) == EREDU_E_NULL_ARGUMENT);
  CHECK(out == nullptr);
}

TEST_CASE("eredu_quote quotes as the library's messages do") {
  CHECK(quote("model.layers.0") == "\"model.layers.0\"");
  CHECK(quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(quote("tab\there\nnew\rline") == "\"tab\\there\\nnew\\rline\"");
  CHECK(quote(std::string("nul\0x", 5)) == "\"nul\\0x\"");
  CHECK(quote("\x1b[0m") == "\"\\u{1b}[0m\"");
  CHECK(quote("\x7f") == "\"\\u{7f}\"");
  CHECK(quote("\xc2\x85") == "\"\\u{85}\"");  // C1 control
  CHECK(quote("caf\xc3\xa9 \xe2\x9c\x93") == "\"caf\xc3\xa9 \xe2\x9c\x93\"");
  CHECK(quote("bad\xff") == "\"bad\\u{fffd}\"");
  CHECK(quote("\xed\xa0\x80") == "\"\\u{fffd}\\u{fffd}\\u{fffd}\"");  // a surrogate
  CHECK(quote("\xc0\xaf") == "\"\\u{fffd}\\u{fffd}\"");               // overlong
  CHECK(quote("") == "\"\"");
}

TEST_CASE("eredu_quote arguments") {
  char* out = nullptr;
  CHECK(eredu_quote(nullptr, 0, &out, nullptr, nullptr) == EREDU_OK);
  CHECK(std::string(out) == "\"\"");
  eredu_buffer_free(out);
  out = garbage<char>();
  std::size_t length = 9;
  ErrorSlot error;
  CHECK(eredu_quote(nullptr, 1, &out, &length, error.slot()) == EREDU_E_NULL_ARGUMENT);
  CHECK(out == nullptr);
  CHECK(length == 0);
  CHECK(eredu_quote("a", 1, nullptr, &length, error.slot()) == EREDU_E_NULL_ARGUMENT);
}

}  // namespace
