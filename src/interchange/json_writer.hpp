// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// The canonical compact JSON writer behind every document eredu emits
// (docs/interchange.md, "General rules": compact, keys in the documented
// order).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eredu {

/// Appends canonical compact JSON to a caller-owned string: no whitespace,
/// commas inserted automatically, strings escaped minimally (`"`, `\`, and
/// control characters as `\b \f \n \r \t` or lowercase `\u00xx`; other bytes,
/// including non-ASCII UTF-8, are copied unchanged, so input text must be
/// valid UTF-8). The caller emits keys and values in document order; the
/// writer does not check that the sequence is well-formed. Documents end
/// with one '\n', which the caller appends once the root is closed.
///
///   std::string out;
///   JsonWriter w(out);
///   w.begin_object().key("rank").uint(1).key("tags").begin_array().string("a").end_array()
///       .end_object();
///   out += '\n';  // {"rank":1,"tags":["a"]}\n
class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  /// An object member's name, one of a schema's field names: printable
  /// ASCII without `"` or `\`, written as it is (no escaping, no UTF-8
  /// check: callers pass literals). The next call writes its value.
  JsonWriter& key(std::string_view name);

  /// Any text, escaped; ill-formed UTF-8 is written with U+FFFD.
  JsonWriter& string(std::string_view text);
  /// A string value that is one of a schema's words (an enum's name):
  /// printable ASCII without `"` or `\`, written as it is.
  JsonWriter& word(std::string_view text);
  JsonWriter& uint(std::uint64_t value);
  JsonWriter& boolean(bool value);
  JsonWriter& null();
  /// `value`, or null when absent.
  JsonWriter& uint_or_null(std::optional<std::uint64_t> value);

  /// `text`, complete values this writer wrote before, separated by commas
  /// (no leading or trailing one), as the next values of the open array.
  JsonWriter& raw_values(std::string_view text);
  /// `text`, members `"key":value,...` this writer wrote before (no
  /// leading or trailing comma), as the next members of the open object.
  JsonWriter& raw_members(std::string_view text);

 private:
  void before_value();
  void append_escaped(std::string_view text);

  std::string& out_;
  bool first_ = true;       // nothing written yet in the open container
  bool after_key_ = false;  // a key was written; its value comes next
};

}  // namespace eredu
