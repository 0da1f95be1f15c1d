// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include <doctest/doctest.h>

#include "core/text.hpp"
#include "interchange/json_writer.hpp"

using namespace eredu;

TEST_CASE("blank follows Rust's Unicode White_Space trim") {
  CHECK(is_blank(""));
  CHECK(is_blank(" \t\n\r\x0b\x0c"));
  CHECK(is_blank("\u00a0\u3000\u2028\u205f"));
  CHECK_FALSE(is_blank(" a "));
  CHECK_FALSE(is_blank("\u200b"));  // zero-width space is not White_Space
  CHECK_FALSE(is_blank("\xff"));
}

TEST_CASE("debug quoting escapes like Rust's {:?}") {
  CHECK(debug_quoted("q.weight") == "\"q.weight\"");
  CHECK(debug_quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(debug_quoted("x\ny\tz\r") == "\"x\\ny\\tz\\r\"");
  CHECK(debug_quoted(std::string_view("\x01", 1)) == "\"\\u{1}\"");
  CHECK(debug_quoted("h\u00e9") == "\"h\u00e9\"");
}

TEST_CASE("UTF-8 validation rejects overlongs, surrogates and truncation") {
  CHECK(is_valid_utf8("plain \u00e9\u4e2d\U0001F600"));
  CHECK_FALSE(is_valid_utf8("\xc0\xaf"));
  CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));
  CHECK_FALSE(is_valid_utf8("\xe4\xb8"));
}

TEST_CASE("lossy UTF-8 replaces each ill-formed byte with U+FFFD") {
  CHECK(to_valid_utf8("ok \u00e9") == "ok \u00e9");
  CHECK(to_valid_utf8("q\xff") == "q\xef\xbf\xbd");
  CHECK(to_valid_utf8("\xe4\xb8") == "\xef\xbf\xbd\xef\xbf\xbd");
  CHECK(is_valid_utf8(to_valid_utf8("\xc0\xaf\xed\xa0\x80")));
}

TEST_CASE("JSON output stays valid UTF-8 whatever bytes it is given") {
  std::string out;
  JsonWriter(out).begin_object().key("name").string("q\xff").end_object();
  CHECK(out == "{\"name\":\"q\xef\xbf\xbd\"}");
}
