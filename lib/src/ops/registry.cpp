// The list of every op that records a Node. The gradient-check test fails if any name here
// has no check; docs/architecture.md has the formula for each.
#include "pg/ops.hpp"

namespace pg {

const std::vector<std::string>& op_names() {
    static const std::vector<std::string> names{
        "add", "sub", "mul", "div", "neg", "pow", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "gelu",
        "sum", "mean", "max", "reshape", "permute", "slice", "index_select", "concat", "matmul", "linear",
        "softmax", "log_softmax", "masked_fill", "cross_entropy", "embedding", "layer_norm", "dropout"};
    return names;
}

}  // namespace pg
