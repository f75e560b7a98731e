// What every optimizer shares: zero_grad, and the name-and-shape check behind load_state.
// Leaves out: the update rules (sgd.cpp, adam.cpp).
#include <stdexcept>
#include "pg/optim/optim.hpp"
#include "state_check.hpp"

namespace pg::optim {

void Optimizer::zero_grad() {
    for (Tensor& p : params_) p.zero_grad();
}

namespace detail {

void check_state_matches(const std::string& who, const NamedArrays& expected, const NamedArrays& given) {
    if (given.size() != expected.size())
        throw std::invalid_argument(who + "::load_state: " + std::to_string(given.size()) + " arrays given, " +
                                    std::to_string(expected.size()) + " expected");
    for (size_t i = 0; i < given.size(); ++i) {
        const auto& [name, array] = given[i];
        if (name != expected[i].first)
            throw std::invalid_argument(who + "::load_state: array " + std::to_string(i) + " is named '" + name +
                                        "', expected '" + expected[i].first + "'");
        const Shape &want = expected[i].second.shape(), &got = array.shape();
        if (got != want)
            throw std::invalid_argument(who + "::load_state: '" + name + "' has shape " + shape_str(got) + ", expected " +
                                        shape_str(want));
    }
}

}  // namespace detail
}  // namespace pg::optim
