// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint/gguf.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <set>
#include <utility>

#include "core/checked.hpp"
#include "core/text.hpp"
#include "format/ggml.hpp"

namespace eredu {

std::optional<std::uint64_t> GgufValue::as_unsigned() const {
  switch (type) {
    case GgufType::U8:
    case GgufType::U16:
    case GgufType::U32:
    case GgufType::U64:
      return unsigned_value;
    case GgufType::I8:
    case GgufType::I16:
    case GgufType::I32:
    case GgufType::I64:
      if (signed_value >= 0) return static_cast<std::uint64_t>(signed_value);
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

const GgufValue* GgufHeader::find(const std::string& key) const {
  auto found = metadata.find(key);
  return found == metadata.end() ? nullptr : &found->second;
}

namespace {

constexpr std::uint64_t kMaxDimensions = 4;

// The bytes one value of `type` takes at least (a string: its length).
std::uint64_t least_bytes(GgufType type) {
  switch (type) {
    case GgufType::U8:
    case GgufType::I8:
    case GgufType::Bool:
      return 1;
    case GgufType::U16:
    case GgufType::I16:
      return 2;
    case GgufType::U32:
    case GgufType::I32:
    case GgufType::F32:
      return 4;
    default:
      return 8;
  }
}

bool is_integer(GgufType type) {
  return type != GgufType::F32 && type != GgufType::F64 && type != GgufType::Bool &&
         type != GgufType::String && type != GgufType::Array;
}

class GgufReader {
 public:
  GgufReader(const BinaryFile& file, std::uint32_t file_index)
      : file_(file), cursor_(file), file_index_(file_index) {}

  Result<GgufHeader> read();

 private:
  Result<GgufType> value_type(const std::string& key);
  // One scalar of `type` into `value` (arrays keep integers only).
  Result<void> scalar(GgufType type, const std::string& key, GgufValue& value, bool in_array);
  Result<GgufValue> value(const std::string& key);
  Result<CheckpointTensor> tensor_info(std::uint64_t index);
  Result<void> place_tensors(GgufHeader& header);

  const BinaryFile& file_;
  BinaryCursor cursor_;
  std::uint32_t file_index_;
};

Result<GgufType> GgufReader::value_type(const std::string& key) {
  EREDU_TRY(code, cursor_.u32("a metadata value type"));
  if (code > static_cast<std::uint32_t>(GgufType::F64)) {
    return failf(Status::Parse, "{}: metadata key {} has unknown value type {}", file_.shown(),
                 debug_quoted(key), code);
  }
  return static_cast<GgufType>(code);
}

Result<void> GgufReader::scalar(GgufType type, const std::string& key, GgufValue& value,
                                bool in_array) {
  const std::string what = "metadata key " + debug_quoted(key);
  std::uint64_t bits = 0;
  switch (type) {
    case GgufType::String: {
      EREDU_TRY(text, cursor_.string(what));
      if (!in_array) value.text = std::move(text);
      return outcome::success();
    }
    case GgufType::U8:
    case GgufType::I8:
    case GgufType::Bool: {
      EREDU_TRY(byte, cursor_.u8(what));
      bits = byte;
      if (type == GgufType::Bool && byte > 1) {
        return failf(Status::Parse, "{}: {} holds boolean byte {}", file_.shown(), what, byte);
      }
      value.boolean = byte == 1;
      value.signed_value = static_cast<std::int8_t>(byte);
      break;
    }
    case GgufType::U16:
    case GgufType::I16: {
      EREDU_TRY(half, cursor_.u16(what));
      bits = half;
      value.signed_value = static_cast<std::int16_t>(half);
      break;
    }
    case GgufType::U32:
    case GgufType::I32:
    case GgufType::F32: {
      EREDU_TRY(word, cursor_.u32(what));
      bits = word;
      value.signed_value = static_cast<std::int32_t>(word);
      value.real = std::bit_cast<float>(word);
      break;
    }
    default: {  // U64, I64, F64
      EREDU_TRY(word, cursor_.u64(what));
      bits = word;
      value.signed_value = static_cast<std::int64_t>(word);
      value.real = std::bit_cast<double>(word);
      break;
    }
  }
  value.unsigned_value = bits;
  if (in_array && is_integer(type) && value.integers.size() < kGgufKeptArrayValues) {
    const bool is_signed = type == GgufType::I8 || type == GgufType::I16 || type == GgufType::I32 ||
                           type == GgufType::I64;
    value.integers.push_back(is_signed ? value.signed_value : static_cast<std::int64_t>(bits));
  }
  return outcome::success();
}

Result<GgufValue> GgufReader::value(const std::string& key) {
  GgufValue value;
  EREDU_TRY(type, value_type(key));
  value.type = type;
  if (type != GgufType::Array) {
    EREDU_TRY(scalar(type, key, value, false));
    return value;
  }
  EREDU_TRY(element, value_type(key));
  if (element == GgufType::Array) {
    return failf(Status::Parse, "{}: metadata key {} is an array of arrays", file_.shown(),
                 debug_quoted(key));
  }
  EREDU_TRY(count, cursor_.u64("an array length"));
  if (count > cursor_.remaining() / least_bytes(element)) {
    return failf(Status::Parse,
                 "{}: metadata key {} declares {} elements, more than the {} bytes "
                 "left in the file hold",
                 file_.shown(), debug_quoted(key), count, cursor_.remaining());
  }
  value.element_type = element;
  value.count = count;
  for (std::uint64_t i = 0; i < count; ++i) {
    EREDU_TRY(scalar(element, key, value, true));
  }
  return value;
}

Result<CheckpointTensor> GgufReader::tensor_info(std::uint64_t index) {
  CheckpointTensor tensor;
  tensor.file = file_index_;
  EREDU_TRY(name, cursor_.string("a tensor name"));
  tensor.name = std::move(name);
  const std::string where = fmt::format("{}: tensor {}", file_.shown(), debug_quoted(tensor.name));
  EREDU_TRY(dimensions, cursor_.u32("a tensor's dimension count"));
  if (dimensions == 0 || dimensions > kMaxDimensions) {
    return failf(Status::Parse, "{} (info {}) has {} dimensions; GGUF allows 1 to {}", where, index,
                 dimensions, kMaxDimensions);
  }
  std::vector<std::uint64_t> ggml_order(dimensions);
  for (std::uint64_t& dimension : ggml_order) {
    EREDU_TRY(read, cursor_.u64("a tensor dimension"));
    if (read > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return failf(Status::Parse, "{} has dimension {}, above 2^63 - 1", where, read);
    }
    dimension = read;
  }
  EREDU_TRY(code, cursor_.u32("a tensor's ggml type"));
  auto info = ggml_type_info(code);
  if (!info) {
    return failf(Status::Parse, "{} has ggml type {}: {}", where, code, info.error().message);
  }
  EREDU_TRY(offset, cursor_.u64("a tensor's data offset"));
  tensor.ggml_type = code;
  tensor.type = std::string(info.value().name);
  tensor.shape.assign(ggml_order.rbegin(), ggml_order.rend());
  // ggml spells its one-value types as safetensors spells the dtypes.
  if (info.value().block_values == 1) tensor.dtype = parse_dtype(tensor.type);
  const auto elements = checked_element_count(ggml_order);
  if (!elements) return failf(Status::Parse, "{}: its element count overflows 64 bits", where);
  if (ggml_order[0] % info.value().block_values != 0) {
    return failf(Status::Parse, "{}: row of {} values is not a whole number of {} blocks of {}",
                 where, ggml_order[0], tensor.type, info.value().block_values);
  }
  const auto bytes = checked_mul(*elements / info.value().block_values, info.value().block_bytes);
  if (!bytes) return failf(Status::Parse, "{}: its byte length overflows 64 bits", where);
  tensor.bytes = *bytes;
  tensor.offset = offset;  // relative to the data section until placed
  return tensor;
}

std::optional<std::uint64_t> pad_to(std::uint64_t value, std::uint64_t alignment) {
  const std::uint64_t rest = value % alignment;
  return rest == 0 ? std::optional(value) : checked_add(value, alignment - rest);
}

Result<void> GgufReader::place_tensors(GgufHeader& header) {
  const auto start = pad_to(cursor_.position(), header.alignment);
  if (header.tensors.empty()) {  // nothing to place: no data section needed
    header.data_start = std::min(start.value_or(file_.size()), file_.size());
    return outcome::success();
  }
  if (!start || *start > file_.size()) {
    return failf(Status::Parse, "{}: the data section would start past the end of the file",
                 file_.shown());
  }
  header.data_start = *start;
  std::uint64_t expected = 0;
  for (CheckpointTensor& tensor : header.tensors) {
    if (tensor.offset != expected) {
      return failf(Status::Parse,
                   "{}: tensor {} has data offset {}, expected {} (the end of the tensor before, "
                   "padded to {})",
                   file_.shown(), debug_quoted(tensor.name), tensor.offset, expected,
                   header.alignment);
    }
    const auto absolute = checked_add(header.data_start, tensor.offset);
    const auto end = absolute ? checked_add(*absolute, tensor.bytes) : std::nullopt;
    if (!end || *end > file_.size()) {
      return failf(Status::Parse,
                   "{}: tensor {} ({} bytes at data offset {}) passes the end of "
                   "the {}-byte file",
                   file_.shown(), debug_quoted(tensor.name), tensor.bytes, tensor.offset,
                   file_.size());
    }
    tensor.offset = *absolute;
    const auto padded = pad_to(tensor.bytes, header.alignment);
    const auto next = padded ? checked_add(expected, *padded) : std::nullopt;
    if (!next) return failf(Status::Parse, "{}: the data section overflows", file_.shown());
    expected = *next;
  }
  const std::uint64_t data = file_.size() - header.data_start;
  if (data > expected) {
    return failf(Status::Parse, "{}: {} bytes follow the last tensor's padded end", file_.shown(),
                 data - expected);
  }
  return outcome::success();
}

Result<GgufHeader> GgufReader::read() {
  char magic[4];
  EREDU_TRY(cursor_.bytes(magic, "the GGUF magic"));
  if (std::memcmp(magic, "GGUF", 4) != 0) {
    return failf(Status::Parse, "{}: not a GGUF file (it does not start with \"GGUF\")",
                 file_.shown());
  }
  GgufHeader header;
  EREDU_TRY(version, cursor_.u32("the GGUF version"));
  if (version != 2 && version != 3) {
    if (__builtin_bswap32(version) == 2 || __builtin_bswap32(version) == 3) {
      return failf(Status::Parse, "{}: a big-endian GGUF file; only little-endian ones are read",
                   file_.shown());
    }
    return failf(Status::Parse, "{}: GGUF version {}; versions 2 and 3 are read", file_.shown(),
                 version);
  }
  header.version = version;
  EREDU_TRY(tensor_count, cursor_.u64("the tensor count"));
  EREDU_TRY(key_count, cursor_.u64("the metadata count"));
  // A key/value takes at least 8 + 4 + 1 bytes, a tensor info 8 + 4 + 8 + 4 + 8.
  if (key_count > cursor_.remaining() / 13 || tensor_count > cursor_.remaining() / 32) {
    return failf(Status::Parse, "{}: {} metadata keys and {} tensors do not fit in the file",
                 file_.shown(), key_count, tensor_count);
  }
  for (std::uint64_t i = 0; i < key_count; ++i) {
    EREDU_TRY(key, cursor_.string("a metadata key"));
    EREDU_TRY(value, value(key));
    if (!header.metadata.emplace(key, std::move(value)).second) {
      return failf(Status::Parse, "{}: metadata key {} is repeated", file_.shown(),
                   debug_quoted(key));
    }
  }
  if (const GgufValue* alignment = header.find("general.alignment")) {
    if (alignment->type != GgufType::U32 || alignment->unsigned_value == 0 ||
        !std::has_single_bit(alignment->unsigned_value)) {
      return failf(Status::Parse, "{}: general.alignment must be a power-of-two u32",
                   file_.shown());
    }
    header.alignment = alignment->unsigned_value;
  }
  std::set<std::string_view> names;
  header.tensors.reserve(tensor_count);
  for (std::uint64_t i = 0; i < tensor_count; ++i) {
    EREDU_TRY(tensor, tensor_info(i));
    header.tensors.push_back(std::move(tensor));
  }
  for (const CheckpointTensor& tensor : header.tensors) {
    if (!names.insert(tensor.name).second) {
      return failf(Status::Parse, "{}: tensor {} is repeated", file_.shown(),
                   debug_quoted(tensor.name));
    }
  }
  EREDU_TRY(place_tensors(header));
  return header;
}

}  // namespace

Result<GgufHeader> read_gguf_header(const BinaryFile& file, std::uint32_t file_index) {
  return GgufReader(file, file_index).read();
}

}  // namespace eredu
