// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/safetensors.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

#include "core/checked.hpp"
#include "core/text.hpp"
#include "core/unique_key_json.hpp"

namespace eredu {
namespace {

// One tensor entry of the header; the error names the file and tensor.
Result<CheckpointTensor> read_entry(const BinaryFile& file, const std::string& name,
                                    const nlohmann::json& entry, std::uint32_t file_index,
                                    std::uint64_t data_start) {
  const std::string where = fmt::format("{}: tensor {}", file.shown(), debug_quoted(name));
  if (!entry.is_object()) return failf(Status::Parse, "{} is not an object", where);
  auto dtype_field = entry.find("dtype");
  if (dtype_field == entry.end() || !dtype_field->is_string()) {
    return failf(Status::Parse, "{} has no dtype string", where);
  }
  CheckpointTensor tensor;
  tensor.name = name;
  tensor.file = file_index;
  tensor.type = dtype_field->get<std::string>();
  tensor.dtype = parse_dtype(tensor.type);
  if (!tensor.dtype) {
    return failf(Status::Parse, "{} has dtype {}, which eredu does not support", where,
                 debug_quoted(tensor.type));
  }
  auto shape = entry.find("shape");
  if (shape == entry.end() || !shape->is_array()) {
    return failf(Status::Parse, "{} has no shape array", where);
  }
  for (const nlohmann::json& dimension : *shape) {
    if (!dimension.is_number_unsigned()) {
      return failf(Status::Parse, "{}: shape {} must hold non-negative integers", where,
                   shape->dump());
    }
    tensor.shape.push_back(dimension.get<std::uint64_t>());
  }
  auto offsets = entry.find("data_offsets");
  if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2 ||
      !(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned()) {
    return failf(Status::Parse, "{}: data_offsets must be two non-negative integers", where);
  }
  const auto begin = (*offsets)[0].get<std::uint64_t>();
  const auto end = (*offsets)[1].get<std::uint64_t>();
  if (end < begin) {
    return failf(Status::Parse, "{}: data_offsets [{}, {}] end before they begin", where, begin,
                 end);
  }
  const auto elements = checked_element_count(tensor.shape);
  const auto bytes = elements ? checked_mul(*elements, dtype_size(*tensor.dtype)) : std::nullopt;
  if (!bytes) return failf(Status::Parse, "{}: its byte length overflows 64 bits", where);
  if (*bytes != end - begin) {
    return failf(Status::Parse, "{}: shape {} of {} is {} bytes, data_offsets [{}, {}] hold {}",
                 where, shape->dump(), tensor.type, *bytes, begin, end, end - begin);
  }
  const auto absolute = checked_add(data_start, begin);
  if (!absolute) return failf(Status::Parse, "{}: data_offsets overflow 64 bits", where);
  tensor.offset = *absolute;
  tensor.bytes = *bytes;
  return tensor;
}

}  // namespace

Result<SafetensorsHeader> read_safetensors_header(const BinaryFile& file,
                                                  std::uint32_t file_index) {
  if (file.size() < 8) {
    return failf(Status::Parse, "{}: {} bytes is too small for a safetensors header length",
                 file.shown(), file.size());
  }
  BinaryCursor cursor(file);
  EREDU_TRY(length, cursor.u64("the header length"));
  if (length > kSafetensorsMaxHeader) {
    return failf(Status::Parse, "{}: header length {} is above the limit of {} bytes", file.shown(),
                 length, kSafetensorsMaxHeader);
  }
  if (length > file.size() - 8) {
    return failf(Status::Parse, "{}: header length {} passes the end of the {}-byte file",
                 file.shown(), length, file.size());
  }
  std::string text(length, '\0');
  EREDU_TRY(file.read(8, text, "the header"));
  if (text.empty() || text.front() != '{') {
    return failf(Status::Parse, "{}: the header does not start with '{{'", file.shown());
  }
  EREDU_TRY(document, parse_unique_key_json<nlohmann::json>(
                          text,
                          [&](const std::string& key) {
                            return fmt::format("{}: the header repeats key {}", file.shown(),
                                               debug_quoted(key));
                          },
                          [&](const char* what) {
                            return fmt::format("{}: the header is not JSON: {}", file.shown(),
                                               what);
                          }));
  if (!document.is_object()) {
    return failf(Status::Parse, "{}: the header is not a JSON object", file.shown());
  }
  SafetensorsHeader header;
  header.data_start = 8 + length;
  for (const auto& [name, entry] : document.items()) {
    if (name == "__metadata__") {
      if (!entry.is_object()) {
        return failf(Status::Parse, "{}: __metadata__ is not an object", file.shown());
      }
      for (const auto& [key, value] : entry.items()) {
        if (!value.is_string()) {
          return failf(Status::Parse, "{}: __metadata__ value {} is not a string", file.shown(),
                       debug_quoted(key));
        }
        header.metadata.emplace(key, value.get<std::string>());
      }
      continue;
    }
    EREDU_TRY(tensor, read_entry(file, name, entry, file_index, header.data_start));
    header.tensors.push_back(std::move(tensor));
  }
  // The reference order: by (begin, end); each tensor starts where the one
  // before ends, the first at 0, the last where the file ends.
  std::sort(header.tensors.begin(), header.tensors.end(),
            [](const CheckpointTensor& a, const CheckpointTensor& b) {
              return std::pair(a.offset, a.bytes) < std::pair(b.offset, b.bytes);
            });
  std::uint64_t next = header.data_start;
  for (const CheckpointTensor& tensor : header.tensors) {
    if (tensor.offset != next) {
      return failf(Status::Parse,
                   "{}: tensor {} starts at data offset {}, but the data before it ends at {} "
                   "(tensors must tile the data section without gaps or overlaps)",
                   file.shown(), debug_quoted(tensor.name), tensor.offset - header.data_start,
                   next - header.data_start);
    }
    const auto end = checked_add(tensor.offset, tensor.bytes);
    if (!end || *end > file.size()) {
      return failf(Status::Parse, "{}: tensor {} passes the end of the {}-byte file", file.shown(),
                   debug_quoted(tensor.name), file.size());
    }
    next = *end;
  }
  if (next != file.size()) {
    return failf(Status::Parse,
                 "{}: the tensors end at data offset {}, the data section holds {} bytes",
                 file.shown(), next - header.data_start, file.size() - header.data_start);
  }
  return header;
}

}  // namespace eredu
