// eredu_parameter_bank_key_unit_id: seed 003 ParameterBankKey::unit_id.
#include <cstring>
#include <string>

#include "firewall.hpp"
#include "residency/parameter_bank.hpp"

// Defined at global scope: GCC gives extern "C" definitions inside a
// namespace that namespace's (hidden) visibility.
using namespace eredu;
using namespace eredu::capi;

extern "C" {

eredu_status eredu_parameter_bank_key_unit_id(uint64_t unit, uint64_t member, char* buffer,
                                              size_t capacity, size_t* required,
                                              eredu_error** error) {
  // `required` reports the needed size on EREDU_E_BUFFER_TOO_SMALL.
  if (required != nullptr) *required = 0;
  return firewall(error, [&]() -> Result<void> {
    EREDU_TRY(require_array(buffer, capacity, "buffer"));
    EREDU_TRY(require(required, "required"));
    const OffloadUnitId id = ParameterBankKey(unit, member).unit_id();
    const std::string& text = id.as_str();
    *required = text.size() + 1;
    if (capacity < text.size() + 1) {
      return failf(Status::BufferTooSmall, "the unit id needs {} bytes, the buffer holds {}",
                   text.size() + 1, capacity);
    }
    std::memcpy(buffer, text.c_str(), text.size() + 1);
    return outcome::success();
  });
}

}  // extern "C"
