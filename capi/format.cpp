// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu_linear_format_*, eredu_ggml_type_*, eredu_expand_linear_format_*,
// eredu_member_list_*: the seed's linear-format expansion over C structs.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/text.hpp"
#include "firewall.hpp"
#include "format/ggml.hpp"
#include "format/linear_format.hpp"
#include "format_arguments.hpp"
#include "group_arguments.hpp"
#include "handles.hpp"
#include "model/expand.hpp"
#include "outputs.hpp"

namespace eredu::capi {
namespace {

static_assert(EREDU_LINEAR_FORMAT_DENSE == static_cast<int>(LinearFormatKind::Dense));
static_assert(EREDU_LINEAR_FORMAT_AFFINE == static_cast<int>(LinearFormatKind::Affine));
static_assert(EREDU_LINEAR_FORMAT_MXFP4 == static_cast<int>(LinearFormatKind::MxFp4));
static_assert(EREDU_LINEAR_FORMAT_GGUF == static_cast<int>(LinearFormatKind::GgufIQuant));
static_assert(EREDU_LINEAR_FORMAT_BLOCK_FP8 == static_cast<int>(LinearFormatKind::E4M3BlockFp8));
static_assert(kLinearFormatKindCount == 5);
static_assert(EREDU_BLOCK_FP8_SCALE_FLOAT ==
              static_cast<int>(BlockFp8ScaleEncoding::FloatingPoint));
static_assert(EREDU_BLOCK_FP8_SCALE_UE8M0 == static_cast<int>(BlockFp8ScaleEncoding::Ue8m0));

/// A C spec converted but not yet validated; `raw` is the caller's flag.
struct SpecArgument {
  LinearFormatSpec spec;
  bool raw = false;
};

std::string field_name(const ArgumentName& name, const char* field) { return name.text() + field; }

Result<std::optional<std::string>> optional_text(const char* text, const std::string& name) {
  if (text == nullptr) return std::optional<std::string>{};
  EREDU_TRY(view, text_argument(text, name.c_str()));
  return std::optional<std::string>(std::string(view));
}

Result<SpecArgument> spec_argument(const eredu_linear_format_spec* given,
                                   const ArgumentName& name) {
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_linear_format_spec>::value(), name));
  const eredu_linear_format_spec* spec = &read;
  const std::string format_name = field_name(name, "->format");
  EREDU_TRY(format, format_argument(spec->format, format_name.c_str()));
  EREDU_TRY(scale, optional_text(spec->scale, field_name(name, "->scale")));
  EREDU_TRY(bias, optional_text(spec->affine_bias, field_name(name, "->affine_bias")));
  const std::string has_dtype_name = field_name(name, "->has_companion_dtype");
  EREDU_TRY(has_dtype, flag_argument(spec->has_companion_dtype, has_dtype_name.c_str()));
  std::optional<Dtype> dtype;
  if (has_dtype) {
    const std::string dtype_name = field_name(name, "->companion_dtype");
    EREDU_TRY(value, enum_argument(dtype_from_value(spec->companion_dtype), spec->companion_dtype,
                                   dtype_name.c_str()));
    dtype = value;
  }
  const std::string raw_name = field_name(name, "->raw");
  EREDU_TRY(raw, flag_argument(spec->raw, raw_name.c_str()));
  return SpecArgument{LinearFormatSpec::raw(format, std::move(scale), std::move(bias), dtype), raw};
}

/// Converts every spec (the argument checks of all of them); NULL entries
/// stay empty.
Result<std::vector<std::optional<SpecArgument>>> specs_argument(
    const eredu_linear_format_spec* const* specs, std::size_t count, std::size_t expected) {
  EREDU_TRY(require_array(specs, count, "specs"));
  if (count != expected) {
    return failf(Status::InvalidArgument, "spec_count is {}, expected one spec per member ({})",
                 count, expected);
  }
  std::vector<std::optional<SpecArgument>> converted(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (specs[i] == nullptr) continue;
    EREDU_TRY(spec, spec_argument(specs[i], ArgumentName("specs", i)));
    converted[i] = std::move(spec);
  }
  return converted;
}

/// Validates the non-raw specs in order (formats are checked when they are
/// built, before any expansion) and returns the declarations.
Result<std::vector<std::optional<LinearFormatSpec>>> validated_specs(
    std::vector<std::optional<SpecArgument>> converted) {
  std::vector<std::optional<LinearFormatSpec>> result(converted.size());
  for (std::size_t i = 0; i < converted.size(); ++i) {
    if (!converted[i]) continue;
    if (!converted[i]->raw) {
      EREDU_TRY(converted[i]->spec.validate());
    }
    result[i] = std::move(converted[i]->spec);
  }
  return result;
}

/// The declaration callback over a flat spec array, consumed in order.
LinearFormatDeclaration declaration_over(const std::vector<std::optional<LinearFormatSpec>>& specs,
                                         std::size_t& next) {
  return [&specs, &next](const ParameterMemberSpec&) -> Result<std::optional<LinearFormatSpec>> {
    return specs[next++];
  };
}

std::unique_ptr<eredu_member_list> member_list(std::vector<ParameterMemberSpec> members) {
  return std::make_unique<eredu_member_list>(std::move(members));
}

/// Writes one table row into the caller's struct (sized_out checked it).
void ggml_info_out(const GgmlTypeInfo& info, eredu_ggml_type_info* out) {
  eredu_ggml_type_info row{};
  row.code = info.code;
  row.name = info.name.data();  // a NUL-terminated literal in the table
  row.block_values = info.block_values;
  row.block_bytes = info.block_bytes;
  write_sized(out, row);
}

}  // namespace

Result<FormatRead> format_read(const eredu_linear_format* given, const ArgumentName& name) {
  EREDU_TRY(read, read_sized(given, SizedDefaults<eredu_linear_format>::value(), name));
  const std::string kind_name = field_name(name, "->kind");
  EREDU_TRY(kind,
            enum_argument(linear_format_kind_from_value(read.kind), read.kind, kind_name.c_str()));
  return FormatRead{read, kind};
}

Result<LinearFormat> format_value(const FormatRead& read, const ArgumentName& name) {
  const eredu_linear_format* format = &read.fields;
  switch (read.kind) {
    case LinearFormatKind::Dense:
      return LinearFormat::dense();
    case LinearFormatKind::Affine:
      return LinearFormat::affine(
          AffineQuantization{format->affine_group_size, format->affine_bits});
    case LinearFormatKind::MxFp4:
      return LinearFormat::mxfp4();
    case LinearFormatKind::GgufIQuant:
      return LinearFormat::gguf(format->ggml_type);
    case LinearFormatKind::E4M3BlockFp8:
      break;
  }
  const std::string encoding_name = field_name(name, "->scale_encoding");
  EREDU_TRY(encoding, enum_argument(block_fp8_scale_encoding_from_value(format->scale_encoding),
                                    format->scale_encoding, encoding_name.c_str()));
  return LinearFormat::block_fp8(
      BlockFp8Format{format->block_rows, format->block_columns, encoding});
}

Result<LinearFormat> format_argument(const eredu_linear_format* format, const ArgumentName& name) {
  EREDU_TRY(read, format_read(format, name));
  return format_value(read, name);
}

}  // namespace eredu::capi

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_linear_format_init(eredu_linear_format* format, size_t size,
                                      eredu_error** error) {
  return init_sized(format, size, "format", error);
}

eredu_status eredu_linear_format_spec_init(eredu_linear_format_spec* spec, size_t size,
                                           eredu_error** error) {
  return init_sized(spec, size, "spec", error);
}

eredu_status eredu_ggml_type_info_init(eredu_ggml_type_info* info, size_t size,
                                       eredu_error** error) {
  return init_sized(info, size, "info", error);
}

eredu_status eredu_linear_format_validate(const eredu_linear_format* format, eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(value, format_argument(format, "format"));
    return value.validate();
  });
}

eredu_status eredu_linear_format_spec_validate(const eredu_linear_format_spec* spec,
                                               eredu_error** error) {
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(value, spec_argument(spec, "spec"));
    return value.spec.validate();
  });
}

eredu_status eredu_ggml_type_by_code(uint32_t code, eredu_ggml_type_info* out,
                                     eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(sized_out(out, "out"));
        EREDU_TRY(info, ggml_type_info(code));
        ggml_info_out(info, out);
        return outcome::success();
      },
      out);
}

eredu_status eredu_ggml_type_by_name(const char* name, eredu_ggml_type_info* out,
                                     eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(text, text_argument(name, "name"));
        EREDU_TRY(sized_out(out, "out"));
        const auto code = ggml_code_from_name(text);
        if (!code)
          return failf(Status::NotFound, "no GGML tensor type is named {}", debug_quoted(text));
        EREDU_TRY(info, ggml_type_info(*code));
        ggml_info_out(info, out);
        return outcome::success();
      },
      out);
}

eredu_status eredu_expand_linear_format_member(const eredu_member_desc* member,
                                               const eredu_linear_format_spec* spec,
                                               eredu_member_list** out, eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(source, member_argument(member, "member", std::nullopt));
        EREDU_TRY(declaration, spec_argument(spec, "spec"));
        EREDU_TRY(require(out, "out"));
        if (!declaration.raw) {
          EREDU_TRY(declaration.spec.validate());
        }
        EREDU_TRY(members, expand_linear_format_member(source, declaration.spec));
        *out = member_list(std::move(members)).release();
        return outcome::success();
      },
      out);
}

eredu_status eredu_expand_linear_format_group(const eredu_group* group,
                                              const eredu_linear_format_spec* const* specs,
                                              size_t spec_count, eredu_group** out,
                                              eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(group, "group"));
        EREDU_TRY(converted, specs_argument(specs, spec_count, group->spec.members().size()));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(declarations, validated_specs(std::move(converted)));
        std::size_t next = 0;
        EREDU_TRY(expanded,
                  expand_linear_format_group(group->spec, declaration_over(declarations, next)));
        *out = new eredu_group(std::move(expanded));
        return outcome::success();
      },
      out);
}

eredu_status eredu_expand_linear_format_model(const eredu_model* model,
                                              const eredu_linear_format_spec* const* specs,
                                              size_t spec_count, eredu_model** out,
                                              eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require(model, "model"));
        const ModelDescription& description = *model->description;
        EREDU_TRY(converted, specs_argument(specs, spec_count, description.tensor_count()));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(declarations, validated_specs(std::move(converted)));
        EREDU_TRY(builder, ModelBuilder::create(description.info()));
        std::size_t next = 0;
        const LinearFormatDeclaration declare = declaration_over(declarations, next);
        for (const ParameterGroupSpec& group : description.groups()) {
          EREDU_TRY(expanded, expand_linear_format_group(group, declare));
          EREDU_TRY(builder.add_group(std::move(expanded)));
        }
        EREDU_TRY(built, std::move(builder).finish());
        *out = new eredu_model{std::move(built), {}};
        return outcome::success();
      },
      out);
}

void eredu_member_list_free(eredu_member_list* list) { delete list; }

size_t eredu_member_list_count(const eredu_member_list* list) {
  return list == nullptr ? 0 : list->members.size();
}

eredu_status eredu_member_list_get(const eredu_member_list* list, size_t index,
                                   eredu_member_desc* out, eredu_error** error) {
  return handle_call(
      list, "list", error,
      [&](const eredu_member_list& handle) -> Result<void> {
        EREDU_TRY(index_argument(index, handle.members.size(), "index"));
        EREDU_TRY(sized_out(out, "out"));
        write_sized(out, handle.views.view(handle.members, index));
        return outcome::success();
      },
      out);
}

}  // extern "C"
