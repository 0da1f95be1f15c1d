// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// eredu/common.h: reading a bounded input and quoting text as the
// library's messages do.
#include <string>
#include <string_view>

#include "core/text.hpp"
#include "core/text_file.hpp"
#include "eredu/eredu.h"
#include "firewall.hpp"
#include "outputs.hpp"

using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_read_file(const char* path, size_t max_bytes, char** out, size_t* length,
                             eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(where, text_argument(path, "path"));
        EREDU_TRY(require(out, "out"));
        EREDU_TRY(require(length, "length"));
        const std::string file(where);
        const std::string shown = file == "-" ? "standard input" : debug_quoted(file);
        EREDU_TRY(bytes, read_bounded_file(file, shown, max_bytes));
        const std::size_t size = bytes.size();
        *out = bytes.release();
        *length = size;
        return outcome::success();
      },
      out, length);
}

eredu_status eredu_quote(const char* text, size_t text_length, char** out, size_t* length,
                         eredu_error** error) {
  return firewall(
      error,
      [&]() -> Result<void> {
        EREDU_TRY(require_array(text, text_length, "text"));
        EREDU_TRY(require(out, "out"));
        const std::string_view view =
            text_length == 0 ? std::string_view() : std::string_view(text, text_length);
        return buffer_out(debug_quoted(view), out, length);
      },
      out, length);
}

}  // extern "C"
