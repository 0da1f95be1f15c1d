#include "describe/json_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/text.hpp"
#include "core/unique_key_json.hpp"

namespace eredu {

Result<nlohmann::json> read_json_file(const std::string& path) {
  // A directory opens as a stream on Linux and then reads as empty text.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    return failf(Status::Io, "cannot read {}: it is a directory", path);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return failf(Status::Io, "cannot read {}: {}", path, std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return failf(Status::Io, "cannot read {}: {}", path, std::strerror(errno));
  // A repeated key would silently keep its last value (a typo must never
  // change a description).
  const std::string content = text.str();
  return parse_unique_key_json<nlohmann::json>(
      content,
      [&](const std::string& key) {
        return fmt::format("{} repeats the key {}", path, debug_quoted(key));
      },
      [&](const char* what) { return fmt::format("{} is not valid JSON: {}", path, what); });
}

}  // namespace eredu
