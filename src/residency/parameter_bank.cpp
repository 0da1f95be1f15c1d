#include "residency/parameter_bank.hpp"

#include <fmt/format.h>

namespace eredu {

OffloadUnitId ParameterBankKey::unit_id() const {
  // Never blank, so creation cannot fail.
  return OffloadUnitId::create(fmt::format("bank.unit.{:05}.member.{:05}", unit_, member_)).value();
}

}  // namespace eredu
