// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "checkpoint_writer.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <stdexcept>

namespace eredu::test {

std::string tensor_bytes(const std::string& name, std::uint64_t count) {
  const std::uint64_t seed = std::hash<std::string>{}(name);
  std::string bytes(count, '\0');
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t mixed = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    mixed ^= mixed >> 29;
    bytes[i] = static_cast<char>(mixed * 0xBF58476D1CE4E5B9ull >> 56);
  }
  return bytes;
}

std::string safetensors_bytes(const std::string& header, const std::string& data) {
  std::string bytes;
  std::uint64_t length = header.size();
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>(length >> (8 * i) & 0xff);
  return bytes + header + data;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path);
}

void write_safetensors(const std::string& path, const std::vector<WrittenTensor>& tensors) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  header["__metadata__"] = {{"format", "pt"}};
  std::string data;
  for (const WrittenTensor& tensor : tensors) {
    const std::uint64_t start = data.size();
    data += tensor_bytes(tensor.name, tensor.bytes);
    header[tensor.name] = {
        {"dtype", tensor.dtype}, {"shape", tensor.shape}, {"data_offsets", {start, data.size()}}};
  }
  write_file(path, safetensors_bytes(header.dump(), data));
}

GgufBytes& GgufBytes::raw(const std::string& bytes) {
  bytes_ += bytes;
  return *this;
}

GgufBytes& GgufBytes::u8(std::uint8_t value) {
  bytes_ += static_cast<char>(value);
  return *this;
}

GgufBytes& GgufBytes::u32(std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes_ += static_cast<char>(value >> (8 * i) & 0xff);
  return *this;
}

GgufBytes& GgufBytes::u64(std::uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes_ += static_cast<char>(value >> (8 * i) & 0xff);
  return *this;
}

GgufBytes& GgufBytes::string(const std::string& text) {
  u64(text.size());
  bytes_ += text;
  return *this;
}

GgufBytes& GgufBytes::key(const std::string& name, std::uint32_t type) {
  string(name);
  return u32(type);
}

GgufBytes& GgufBytes::tensor(const std::string& name, const std::vector<std::uint64_t>& ggml_dims,
                             std::uint32_t type, std::uint64_t offset) {
  string(name);
  u32(static_cast<std::uint32_t>(ggml_dims.size()));
  for (std::uint64_t dimension : ggml_dims) u64(dimension);
  u32(type);
  return u64(offset);
}

GgufBytes& GgufBytes::pad(std::uint64_t alignment) {
  while (bytes_.size() % alignment != 0) bytes_ += '\0';
  return *this;
}

GgufBytes gguf_header(std::uint32_t version, std::uint64_t tensors, std::uint64_t keys) {
  GgufBytes bytes;
  bytes.raw("GGUF").u32(version).u64(tensors).u64(keys);
  return bytes;
}

}  // namespace eredu::test
