#include "describe/json_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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
  // nlohmann reports syntax errors only by exception; keep it inside this file.
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& error) {
    return failf(Status::Parse, "{} is not valid JSON: {}", path, error.what());
  }
}

}  // namespace eredu
