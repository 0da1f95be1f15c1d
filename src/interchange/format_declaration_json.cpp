// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "interchange/format_declaration_json.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "core/text.hpp"
#include "format/ggml.hpp"
#include "interchange/strict_json.hpp"

namespace eredu::json {
namespace {

// In the documented order.
enum class FormatField {
  Kind,
  GroupSize,
  Bits,
  GgmlType,
  Block,
  ScaleEncoding,
  Scale,
  Bias,
  CompanionDtype,
};

constexpr FieldTable<FormatField, 9> kFormatFields({
    {FormatField::Kind, "kind"},
    {FormatField::GroupSize, "group_size"},
    {FormatField::Bits, "bits"},
    {FormatField::GgmlType, "ggml_type"},
    {FormatField::Block, "block"},
    {FormatField::ScaleEncoding, "scale_encoding"},
    {FormatField::Scale, "scale"},
    {FormatField::Bias, "bias"},
    {FormatField::CompanionDtype, "companion_dtype"},
});

// A set of format fields.
using FieldSet = std::uint32_t;
constexpr FieldSet bit(FormatField field) { return FieldSet{1} << static_cast<unsigned>(field); }

// The fields each kind takes. `companion_dtype` is optional where allowed,
// the others are required.
FieldSet allowed_fields(LinearFormatKind kind) {
  switch (kind) {
    case LinearFormatKind::Dense:
      return 0;
    case LinearFormatKind::Affine:
      return bit(FormatField::GroupSize) | bit(FormatField::Bits) | bit(FormatField::Scale) |
             bit(FormatField::Bias) | bit(FormatField::CompanionDtype);
    case LinearFormatKind::MxFp4:
      return bit(FormatField::Scale);
    case LinearFormatKind::GgufIQuant:
      return bit(FormatField::GgmlType);
    case LinearFormatKind::E4M3BlockFp8:
      return bit(FormatField::Block) | bit(FormatField::ScaleEncoding) | bit(FormatField::Scale) |
             bit(FormatField::CompanionDtype);
  }
  return 0;
}

// Reads the fields of one `format` object; the checks across fields are
// left to the caller.
class FormatReader {
 public:
  explicit FormatReader(FirstError& error) : error_(error) {}

  Read<void> read(FormatField field, od::value& value, const Path& at);

  std::optional<LinearFormatKind> kind;
  FormatDeclaration declaration;
  FieldSet present = 0;  // the fields given and not null

 private:
  Read<void> read_ggml_type(od::value& value, od::json_type type, const Path& at);
  Read<void> read_block(od::value& value, const Path& at);

  FirstError& error_;
};

Read<void> FormatReader::read(FormatField field, od::value& value, const Path& at) {
  const unsigned rank = field_rank(field);
  EREDU_TRY(type, type_of(value, at));
  if (type != od::json_type::null) present |= bit(field);
  switch (field) {
    case FormatField::Kind: {
      EREDU_TRY(text, read_string(value, at, error_, rank));
      if (!text) return outcome::success();
      kind = parse_linear_format_kind(*text);
      if (!kind) {
        error_.note(rank, fmt::format("{}: unknown format kind {}", at.str(), debug_quoted(*text)));
      }
      return outcome::success();
    }
    case FormatField::GroupSize:
    case FormatField::Bits: {
      EREDU_TRY(number, read_uint(value, at, error_, rank, Null::Absent));
      (field == FormatField::GroupSize ? declaration.group_size : declaration.bits) =
          number.value_or(0);
      return outcome::success();
    }
    case FormatField::GgmlType:
      return read_ggml_type(value, type, at);
    case FormatField::Block:
      return read_block(value, at);
    case FormatField::ScaleEncoding: {
      EREDU_TRY(text, read_string(value, at, error_, rank));
      if (!text) return outcome::success();
      const auto encoding = parse_block_fp8_scale_encoding(*text);
      if (!encoding) {
        error_.note(rank,
                    fmt::format("{}: unknown scale encoding {}", at.str(), debug_quoted(*text)));
      }
      declaration.scale_encoding = encoding.value_or(BlockFp8ScaleEncoding::FloatingPoint);
      return outcome::success();
    }
    case FormatField::Scale:
    case FormatField::Bias: {
      EREDU_TRY(text, read_string(value, at, error_, rank));
      if (text) {
        (field == FormatField::Scale ? declaration.scale : declaration.bias) = std::string(*text);
      }
      return outcome::success();
    }
    case FormatField::CompanionDtype: {
      EREDU_TRY(text, read_string(value, at, error_, rank));
      if (!text) return outcome::success();
      declaration.companion_dtype = parse_dtype(*text);
      if (!declaration.companion_dtype) {
        error_.note(rank, fmt::format("{}: unknown dtype {}", at.str(), debug_quoted(*text)));
      }
      return outcome::success();
    }
  }
  return outcome::success();
}

// A GGML type name or code.
Read<void> FormatReader::read_ggml_type(od::value& value, od::json_type type, const Path& at) {
  const unsigned rank = field_rank(FormatField::GgmlType);
  if (type == od::json_type::string) {
    EREDU_TRY(text, read_string(value, at, error_, rank));
    const auto code = ggml_code_from_name(*text);
    if (!code) {
      error_.note(rank, fmt::format("{}: unknown GGML type {}", at.str(), debug_quoted(*text)));
    }
    declaration.ggml_type = code.value_or(0);
    return outcome::success();
  }
  if (type != od::json_type::number) {
    EREDU_TRY(expect(value, od::json_type::number, "a GGML type name or code", at, error_, rank,
                     Null::Absent));
    return outcome::success();
  }
  EREDU_TRY(number, read_uint(value, at, error_, rank, Null::Absent));
  declaration.ggml_type = number.value_or(0);
  return outcome::success();
}

// [rows, columns]
Read<void> FormatReader::read_block(od::value& value, const Path& at) {
  const unsigned rank = field_rank(FormatField::Block);
  EREDU_TRY(is_array, expect(value, od::json_type::array, "a [rows, columns] array", at, error_,
                             rank, Null::Absent));
  if (!is_array) return outcome::success();
  std::size_t count = 0;
  EREDU_TRY(for_each_item(value, at, [&](od::value& item, const Path& item_path) -> Read<void> {
    EREDU_TRY(number, read_uint(item, item_path, error_, rank, Null::Rejected));
    if (count == 0) declaration.block_rows = number.value_or(0);
    if (count == 1) declaration.block_columns = number.value_or(0);
    ++count;
    return outcome::success();
  }));
  if (count != 2) {
    error_.note(rank, fmt::format("{}: expected a [rows, columns] pair, found {} elements",
                                  at.str(), count));
  }
  return outcome::success();
}

}  // namespace

Read<std::optional<FormatDeclaration>> read_format_declaration(od::value& value, const Path& path,
                                                               FirstError& member_error,
                                                               unsigned rank) {
  EREDU_TRY(is_object, expect(value, od::json_type::object, "an object", path, member_error, rank,
                              Null::Absent));
  if (!is_object) return std::optional<FormatDeclaration>{};
  FirstError error;
  FormatReader reader(error);
  EREDU_TRY(for_each_field(value, path, kFormatFields, error,
                           [&](FormatField field, od::value& field_value, const Path& at) {
                             return reader.read(field, field_value, at);
                           }));
  if (!reader.kind) {
    error.note(field_rank(FormatField::Kind),
               missing(path.field(kFormatFields.name(FormatField::Kind))));
  } else {
    reader.declaration.kind = *reader.kind;
    const FieldSet allowed = allowed_fields(*reader.kind);
    const FieldSet required = allowed & ~bit(FormatField::CompanionDtype);
    const std::string_view kind_name = linear_format_kind_name(*reader.kind);
    for (std::size_t index = 1; index < kFormatFields.size(); ++index) {  // after `kind`
      const FormatField field = kFormatFields.at(index);
      const bool given = (reader.present & bit(field)) != 0;
      if ((required & bit(field)) != 0 && !given) {
        error.note(field_rank(field),
                   fmt::format("{}: required for format kind {}",
                               path.field(kFormatFields.name(field)).str(), kind_name));
      } else if ((allowed & bit(field)) == 0 && given) {
        error.note(field_rank(field),
                   fmt::format("{}: not allowed for format kind {}",
                               path.field(kFormatFields.name(field)).str(), kind_name));
      }
    }
  }
  if (error) {
    member_error.note(rank, error.take());
    return std::optional<FormatDeclaration>{};
  }
  return std::optional<FormatDeclaration>{std::move(reader.declaration)};
}

}  // namespace eredu::json
