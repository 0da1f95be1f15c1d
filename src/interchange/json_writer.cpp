// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/json_writer.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include "core/text.hpp"

namespace eredu {

// No container stack is needed: after any value the enclosing container is
// non-empty, and a new container starts empty.
void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
  } else if (!first_) {
    out_ += ',';
  }
  first_ = false;
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  out_ += '"';
  out_ += name;
  out_ += "\":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
  before_value();
  append_escaped(text);
  return *this;
}

JsonWriter& JsonWriter::word(std::string_view text) {
  before_value();
  out_ += '"';
  out_ += text;
  out_ += '"';
  return *this;
}

JsonWriter& JsonWriter::uint(std::uint64_t value) {
  before_value();
  const fmt::format_int digits(value);
  out_.append(digits.data(), digits.size());
  return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
  before_value();
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::uint_or_null(std::optional<std::uint64_t> value) {
  return value ? uint(*value) : null();
}

JsonWriter& JsonWriter::raw_values(std::string_view text) {
  before_value();
  out_ += text;
  return *this;
}

JsonWriter& JsonWriter::raw_members(std::string_view text) {
  if (!first_) out_ += ',';
  out_ += text;
  first_ = false;
  return *this;
}

void JsonWriter::append_escaped(std::string_view text) {
  // Output is always valid JSON: ill-formed UTF-8 (a folder name, a message
  // from another library) is written with U+FFFD in place of the bad bytes.
  if (!simdjson::validate_utf8(text.data(), text.size())) {
    const std::string valid = to_valid_utf8(text);
    append_escaped(valid);
    return;
  }
  out_ += '"';
  std::size_t run = 0;  // start of the pending unescaped run, copied in one go
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte != '"' && byte != '\\') continue;
    out_.append(text.data() + run, i - run);
    run = i + 1;
    switch (byte) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\b':
        out_ += "\\b";
        break;
      case '\f':
        out_ += "\\f";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\r':
        out_ += "\\r";
        break;
      case '\t':
        out_ += "\\t";
        break;
      default:
        fmt::format_to(std::back_inserter(out_), "\\u{:04x}", byte);
        break;
    }
  }
  out_.append(text.data() + run, text.size() - run);
  out_ += '"';
}

}  // namespace eredu
