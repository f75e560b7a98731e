// The graph that reverse-mode autodiff walks: one Node per op result, holding its inputs and
// the function that turns the result's gradient into the inputs' gradients.
// Leaves out: higher-order gradients (backward does not build a graph) and multithreading.
#pragma once
#include <functional>
#include <set>
#include <string>
#include <vector>
#include "pg/tensor.hpp"

namespace pg {

// What a backward is given: dL/dy (gy), the op's own output y, and the inputs it was called with.
struct BackwardContext {
    const Array& gy;
    const Array& y;
    const std::vector<Tensor>& inputs;
};
// Returns dL/d(input i) for each input, each with exactly that input's shape (an empty Array for an
// input that needs none: one that does not require grad).
using BackwardFn = std::function<std::vector<Array>(const BackwardContext& ctx)>;

struct Node {
    std::string op;               // "matmul", "add", ... — the library's are in the op table (docs/architecture.md)
    std::vector<Tensor> inputs;   // the tensors the op read
    BackwardFn backward;          // null once the graph is freed
    bool freed = false;
    // Unlinks the nodes only this one keeps alive with a loop, not recursion, so dropping the
    // result of a 1,000,000-op chain cannot overflow the stack.
    ~Node();
};

// Wraps a freshly computed value as the result of an op of your own (a lesson's, a test's): attaches
// a Node when grad mode is on and some input requires grad. The library's ops record themselves
// through the op table instead (lib/src/ops/op_table.hpp); their names are not yours to take.
Tensor make_result(Array value, const std::string& op, std::vector<Tensor> inputs, BackwardFn backward);

// Reverse-mode sweep from `root`; the engine behind Tensor::backward.
void run_backward(const Tensor& root, const Array& grad_root, bool retain_graph);

// Is gradient recording on? NoGradGuard turns it off for its scope (thread-local).
bool grad_enabled();
class NoGradGuard {
public:
    NoGradGuard();
    ~NoGradGuard();
    NoGradGuard(const NoGradGuard&) = delete;
    NoGradGuard& operator=(const NoGradGuard&) = delete;
private:
    bool previous_;
};

// The graph behind `root` in Graphviz DOT: one box per tensor (shape), one ellipse per op.
std::string to_dot(const Tensor& root);

// The names of the ops in the graph behind t ("matmul", "softmax", ...), each once; empty when no
// input of the computation required grad. How a test or a lesson's check sees which ops ran.
std::set<std::string> ops_in(const Tensor& t);

}  // namespace pg
