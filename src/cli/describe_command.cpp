// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/library.hpp"
#include "cli/output.hpp"

namespace eredu::cli {

Result<int> run_describe(const DescribeArgs& args) {
  EREDU_TRY(model, describe_folder(args.model_dir, args.pad_vocab, args.config_only));
  EREDU_TRY(text, text_of([&](char** out, std::size_t* length, eredu_error** error) {
              return eredu_model_to_json(model.get(), out, length, error);
            }));
  EREDU_TRY(write_stdout(text));
  return kExitOk;
}

}  // namespace eredu::cli
