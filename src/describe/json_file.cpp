#include "describe/json_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "core/text.hpp"

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
  // change a description), so every object's keys are tracked while parsing.
  std::vector<std::set<std::string>> open_objects;
  std::optional<std::string> duplicate;
  auto track_keys = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) open_objects.emplace_back();
    if (event == Event::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == Event::key && !duplicate && !open_objects.empty() &&
        !open_objects.back().insert(parsed.get<std::string>()).second) {
      duplicate = parsed.get<std::string>();
    }
    return true;
  };
  // nlohmann reports syntax errors only by exception; keep it inside this file.
  try {
    nlohmann::json document = nlohmann::json::parse(text.str(), track_keys);
    if (duplicate) {
      return failf(Status::Parse, "{} repeats the key {}", path, debug_quoted(*duplicate));
    }
    return document;
  } catch (const nlohmann::json::exception& error) {
    return failf(Status::Parse, "{} is not valid JSON: {}", path, error.what());
  }
}

}  // namespace eredu
