// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/commands.hpp"
#include "cli/input.hpp"
#include "cli/output.hpp"
#include "interchange/groups_write.hpp"

namespace eredu {

Result<int> run_describe(const DescribeArgs& args) {
  EREDU_TRY(model, describe_folder(args.model_dir, args.pad_vocab, args.config_only));
  EREDU_TRY(write_stdout(groups_to_json(*model)));
  return kExitOk;
}

}  // namespace eredu
