// The reverse-mode engine: topological order by an explicit stack (no recursion, so deep
// graphs cannot overflow), then one sweep from the output back to the leaves.
// Leaves out: gradients of gradients; multithreaded backward.
#include "pg/autograd.hpp"
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include "kernels/parallel.hpp"
#include "op_times.hpp"
#include "ops/op_table.hpp"
#include "tensor_state.hpp"

namespace pg {

using detail::TensorAccess;
using State = TensorAccess::State;

namespace {
thread_local bool g_grad_enabled = true;

// The result of an op named `op`: a Node when grad mode is on and some input requires grad.
Tensor attach(Array value, const std::string& op, std::vector<Tensor> inputs, BackwardFn backward) {
    bool needs_grad = false;
    if (g_grad_enabled)
        for (const Tensor& t : inputs) needs_grad = needs_grad || t.requires_grad();
    Tensor out(std::move(value), needs_grad);
    if (needs_grad) {
        auto node = std::make_shared<Node>();
        node->op = op;
        node->inputs = std::move(inputs);
        // PG_OP_TIMES=1: the op's forward and backward are timed (op_times.hpp)
        node->backward = detail::op_times::enabled() ? detail::op_times::timed(op, std::move(backward)) : std::move(backward);
        TensorAccess::of(out).grad_fn = std::move(node);
    }
    return out;
}
}  // namespace

bool grad_enabled() { return g_grad_enabled; }
NoGradGuard::NoGradGuard() : previous_(g_grad_enabled) { g_grad_enabled = false; }
NoGradGuard::~NoGradGuard() { g_grad_enabled = previous_; }

Tensor make_result(Array value, const std::string& op, std::vector<Tensor> inputs, BackwardFn backward) {
    for (const detail::OpInfo& o : detail::op_table())
        if (op == o.name)
            throw std::invalid_argument("make_result: '" + op + "' is the name of one of the library's ops; "
                                        "give your op a name of its own");
    return attach(std::move(value), op, std::move(inputs), std::move(backward));
}

namespace detail {
Tensor record(Op op, Array value, std::vector<Tensor> inputs, BackwardFn backward) {
    const OpInfo& o = info(op);
    if (inputs.size() < o.min_inputs || inputs.size() > o.max_inputs)
        throw std::logic_error(std::string("record: op '") + o.name + "' was given " + std::to_string(inputs.size()) +
                               " inputs; the op table says " + std::to_string(o.min_inputs) +
                               (o.max_inputs == o.min_inputs ? "" : " to " + std::to_string(o.max_inputs)));
    if (op_times::enabled()) op_times::forward_done(o.name);
    return attach(std::move(value), o.name, std::move(inputs), std::move(backward));
}
}  // namespace detail

Node::~Node() {
    backward = nullptr;  // drop the closure's copies of the inputs first
    std::vector<Tensor> pending = std::move(inputs);
    while (!pending.empty()) {
        Tensor t = std::move(pending.back());
        pending.pop_back();
        State& state = TensorAccess::of(t);
        // Only a tensor nobody else holds takes its node down with it; unlink that node here.
        if (TensorAccess::use_count(t) != 1 || !state.grad_fn || state.grad_fn.use_count() != 1) continue;
        std::shared_ptr<Node> node = std::move(state.grad_fn);
        node->backward = nullptr;
        for (Tensor& in : node->inputs) pending.push_back(std::move(in));
        node->inputs.clear();
    }  // each unlinked node is destroyed with no inputs left: no recursion
}

// Every tensor reachable from root through grad_fn, each after all tensors that use it.
static std::vector<State*> topological_order(State* root) {
    std::vector<State*> order;
    std::unordered_set<State*> visited{root};
    std::vector<std::pair<State*, size_t>> stack{{root, 0}};  // (tensor, next input to visit)
    while (!stack.empty()) {
        auto& [t, next] = stack.back();
        size_t n_inputs = t->grad_fn ? t->grad_fn->inputs.size() : 0;
        if (next < n_inputs) {
            State* in = TensorAccess::ptr(t->grad_fn->inputs[next++]);
            if (in->requires_grad && visited.insert(in).second) stack.push_back({in, 0});
        } else {
            order.push_back(t);
            stack.pop_back();
        }
    }
    return {order.rbegin(), order.rend()};  // root first
}

// dst += src elementwise: a tensor used twice receives both contributions.
static void add_into(Array& dst, const Array& src) {
    float* d = dst.data();
    const float* s = src.data();
    kernels::parallel_pieces(src.size(), [d, s](size_t i0, size_t i1) {
        for (size_t i = i0; i < i1; ++i) d[i] += s[i];
    });
}

static void accumulate_grad(State& t, const Array& g) {
    if (t.has_grad) {
        add_into(t.grad, g);
    } else {
        t.grad = g;
        t.has_grad = true;
    }
}

void run_backward(const Tensor& root, const Array& grad_root, bool retain_graph) {
    if (!root.requires_grad())
        throw std::logic_error("backward: this tensor does not require grad (no input had requires_grad, "
                               "or it was computed under NoGradGuard)");
    std::vector<State*> order = topological_order(TensorAccess::ptr(root));
    for (State* t : order)
        if (t->grad_fn && t->grad_fn->freed)
            throw std::logic_error("backward: the graph through '" + t->grad_fn->op +
                                   "' was already freed by an earlier backward; pass retain_graph=true "
                                   "to the first backward to run it twice");
    // Gradients flowing in this sweep; a tensor's entry is complete when the sweep reaches it.
    std::unordered_map<State*, Array> flowing;
    flowing.emplace(TensorAccess::ptr(root), grad_root);
    for (State* t : order) {
        auto it = flowing.find(t);
        if (it == flowing.end()) continue;  // nothing flowed here
        Array g = std::move(it->second);
        flowing.erase(it);
        if (!t->grad_fn || t->retains_grad) accumulate_grad(*t, g);  // leaves keep their gradient
        Node* node = t->grad_fn.get();
        if (!node) continue;
        std::vector<Array> grads = node->backward(BackwardContext{g, t->data, node->inputs});
        if (grads.size() != node->inputs.size())
            throw std::logic_error("backward of '" + node->op + "' returned " + std::to_string(grads.size()) +
                                   " gradients for its " + std::to_string(node->inputs.size()) +
                                   " inputs; return one per input, in the order the inputs were given");
        for (size_t i = 0; i < node->inputs.size(); ++i) {
            State* in = TensorAccess::ptr(node->inputs[i]);
            if (!in->requires_grad) continue;
            if (grads[i].shape() != in->data.shape())
                throw std::logic_error("backward of '" + node->op + "': gradient for input " + std::to_string(i) +
                                       " has shape " + shape_str(grads[i].shape()) + " but the input is " +
                                       shape_str(in->data.shape()));
            auto [pos, fresh] = flowing.try_emplace(in, std::move(grads[i]));
            if (!fresh) add_into(pos->second, grads[i]);   // a tensor used twice: its two gradients summed
        }
        if (!retain_graph) {
            node->backward = nullptr;  // drops what the closure captured
            node->freed = true;
        }
    }
}

std::string to_dot(const Tensor& root) {
    std::ostringstream dot;
    dot << "digraph pg {\n  rankdir=BT;\n  node [fontname=\"monospace\"];\n";
    std::unordered_set<const State*> seen;
    std::vector<const State*> stack{TensorAccess::ptr(root)};
    // nodes numbered in the order they are first written, so the same graph gives the same text
    std::unordered_map<const void*, size_t> number;
    auto id = [&number](const void* p) { return "n" + std::to_string(number.emplace(p, number.size()).first->second); };
    while (!stack.empty()) {
        const State* t = stack.back();
        stack.pop_back();
        if (!seen.insert(t).second) continue;
        dot << "  " << id(t) << " [shape=box,label=\"" << shape_str(t->data.shape())
            << (t->requires_grad && !t->grad_fn ? " param" : "") << "\"];\n";
        if (!t->grad_fn) continue;
        const Node* n = t->grad_fn.get();
        dot << "  " << id(n) << " [shape=ellipse,label=\"" << n->op << "\"];\n";
        dot << "  " << id(n) << " -> " << id(t) << ";\n";
        for (const Tensor& in : n->inputs) {
            dot << "  " << id(TensorAccess::ptr(in)) << " -> " << id(n) << ";\n";
            stack.push_back(TensorAccess::ptr(in));
        }
    }
    dot << "}\n";
    return dot.str();
}

std::set<std::string> ops_in(const Tensor& t) {
    std::set<std::string> ops;
    std::unordered_set<const Node*> seen;
    std::vector<const Node*> stack;
    if (t.grad_fn()) stack.push_back(t.grad_fn().get());
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (!seen.insert(n).second) continue;
        ops.insert(n->op);
        for (const Tensor& in : n->inputs)
            if (in.grad_fn()) stack.push_back(in.grad_fn().get());
    }
    return ops;
}

}  // namespace pg
