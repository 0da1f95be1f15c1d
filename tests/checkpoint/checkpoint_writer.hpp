// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Writing checkpoint files for the tests: safetensors files of
// deterministic bytes (or of a given header, for malformed ones) and GGUF
// files assembled field by field.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace eredu::test {

/// One tensor to write: its safetensors dtype, shape and size in bytes.
struct WrittenTensor {
  std::string name;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;
};

/// `count` deterministic bytes of tensor `name`: byte i depends on the name
/// and on i, so that any misplaced or swapped range shows.
std::string tensor_bytes(const std::string& name, std::uint64_t count);

/// A safetensors file: the 8-byte header length, `header`, then `data`.
std::string safetensors_bytes(const std::string& header, const std::string& data);

/// Writes a valid safetensors file holding `tensors` in order, each filled
/// with tensor_bytes.
void write_safetensors(const std::string& path, const std::vector<WrittenTensor>& tensors);

/// Writes `bytes` to `path`.
void write_file(const std::string& path, const std::string& bytes);

/// Little-endian GGUF fields appended one by one.
class GgufBytes {
 public:
  GgufBytes& raw(const std::string& bytes);
  GgufBytes& u8(std::uint8_t value);
  GgufBytes& u32(std::uint32_t value);
  GgufBytes& u64(std::uint64_t value);
  GgufBytes& string(const std::string& text);  // u64 length + bytes
  /// A key/value: key, type code, then the value's bytes (`value`).
  GgufBytes& key(const std::string& name, std::uint32_t type);
  /// A tensor info: name, dimensions (ggml order), type and offset.
  GgufBytes& tensor(const std::string& name, const std::vector<std::uint64_t>& ggml_dims,
                    std::uint32_t type, std::uint64_t offset);
  /// Zero bytes up to the next multiple of `alignment`.
  GgufBytes& pad(std::uint64_t alignment);
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

/// The start of a GGUF file: magic, version, tensor and key counts.
GgufBytes gguf_header(std::uint32_t version, std::uint64_t tensors, std::uint64_t keys);

}  // namespace eredu::test
