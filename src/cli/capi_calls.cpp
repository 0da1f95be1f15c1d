// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#include "cli/capi_calls.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace eredu {
namespace {

// The whole of `stream`. Errors: Io naming `shown`.
Result<std::string> read_all(std::FILE* stream, const std::string& shown) {
  std::string text;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, stream)) > 0) text.append(buffer, got);
  if (std::ferror(stream)) return failf(Status::Io, "cannot read {}", shown);
  return text;
}

Result<std::string> read_source(const std::string& source) {
  if (source == "-") return read_all(stdin, "the description from standard input");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(source.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) return failf(Status::Io, "cannot read {}: {}", source, std::strerror(errno));
  return read_all(file.get(), source);
}

}  // namespace

Result<void> capi_result(eredu_status status, eredu_error*& error) {
  if (status == EREDU_OK) return outcome::success();
  std::string message = error != nullptr ? eredu_error_message(error) : "";
  eredu_error_free(error);
  error = nullptr;
  return fail(static_cast<Status>(status), std::move(message));
}

Result<ModelHandle> load_model(const std::string& source) {
  EREDU_TRY(text, read_source(source));
  eredu_model* model = nullptr;
  eredu_error* error = nullptr;
  EREDU_TRY(capi_result(eredu_model_from_json(text.data(), text.size(), &model, &error), error));
  return ModelHandle(model);
}

Result<PlanFileHandle> open_plan_file(const std::string& path) {
  eredu_plan_file* file = nullptr;
  eredu_error* error = nullptr;
  EREDU_TRY(capi_result(eredu_plan_file_open(path.c_str(), &file, &error), error));
  return PlanFileHandle(file);
}

Result<eredu_plan_file_info> plan_file_info(const eredu_plan_file& file) {
  eredu_plan_file_info info = EREDU_PLAN_FILE_INFO_INIT;
  eredu_error* error = nullptr;
  EREDU_TRY(capi_result(eredu_plan_file_get_info(&file, &info, &error), error));
  return info;
}

Result<std::string> plan_file_rank_json(const eredu_plan_file& file, std::uint64_t rank) {
  char* text = nullptr;
  std::size_t length = 0;
  eredu_error* error = nullptr;
  EREDU_TRY(capi_result(eredu_plan_file_rank_json(&file, rank, &text, &length, &error), error));
  const BufferHandle owned(text);
  return std::string(text, length);
}

std::string policy_word(eredu_policy policy) {
  switch (policy) {
    case EREDU_POLICY_REPLICATE_UNSUPPORTED:
      return "replicate_unsupported";
    case EREDU_POLICY_REQUIRE_EVEN:
      return "require_even";
    default:
      return "require";
  }
}

}  // namespace eredu
