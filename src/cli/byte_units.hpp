// Human byte units for tables ("14.96 GiB").
#pragma once

#include <cstdint>
#include <string>

namespace eredu {

/// `bytes` in the largest power-of-1024 unit that keeps the value at least 1,
/// two decimals: "512 B", "1.50 KiB", "14.96 GiB".
std::string human_bytes(std::uint64_t bytes);

}  // namespace eredu
