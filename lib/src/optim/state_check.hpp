// Shared by the optimizers' load_state: does a saved state have exactly the expected names and
// shapes? Throws std::invalid_argument naming the first difference. Leaves out: value checks.
#pragma once
#include <string>
#include <utility>
#include <vector>
#include "pg/tensor.hpp"

namespace pg::optim::detail {

using NamedArrays = std::vector<std::pair<std::string, Array>>;

void check_state_matches(const std::string& who, const NamedArrays& expected, const NamedArrays& given);

}  // namespace pg::optim::detail
