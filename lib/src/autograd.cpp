// The reverse-mode engine: topological order by an explicit stack (no recursion, so deep
// graphs cannot overflow), then one sweep from the output back to the leaves.
// Leaves out: gradients of gradients; multithreaded backward.
#include "pg/autograd.hpp"
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include "array_util.hpp"
#include "kernels/parallel.hpp"
#include "op_times.hpp"

namespace pg {

namespace {
thread_local bool g_grad_enabled = true;
}

bool grad_enabled() { return g_grad_enabled; }
NoGradGuard::NoGradGuard() : previous_(g_grad_enabled) { g_grad_enabled = false; }
NoGradGuard::~NoGradGuard() { g_grad_enabled = previous_; }

Tensor make_result(Array value, const char* op, std::vector<Tensor> inputs, BackwardFn backward) {
    if (detail::op_times::enabled()) detail::op_times::forward_done(op);
    bool needs_grad = false;
    if (g_grad_enabled)
        for (const Tensor& t : inputs) needs_grad = needs_grad || t.requires_grad();
    Tensor out(std::move(value), needs_grad);
    if (needs_grad) {
        auto node = std::make_shared<Node>();
        node->op = op;
        node->inputs = std::move(inputs);
        node->backward = std::move(backward);
        out.impl()->grad_fn = std::move(node);
    }
    return out;
}

Node::~Node() {
    backward = nullptr;  // drop the closure's copies of the inputs first
    std::vector<Tensor> pending = std::move(inputs);
    while (!pending.empty()) {
        Tensor t = std::move(pending.back());
        pending.pop_back();
        TensorImpl& impl = *t.impl();
        // Only a tensor nobody else holds takes its node down with it; unlink that node here.
        if (t.impl().use_count() != 1 || !impl.grad_fn || impl.grad_fn.use_count() != 1) continue;
        std::shared_ptr<Node> node = std::move(impl.grad_fn);
        node->backward = nullptr;
        for (Tensor& in : node->inputs) pending.push_back(std::move(in));
        node->inputs.clear();
    }  // each unlinked node is destroyed with no inputs left: no recursion
}

// Every tensor reachable from root through grad_fn, each after all tensors that use it.
static std::vector<TensorImpl*> topological_order(TensorImpl* root) {
    std::vector<TensorImpl*> order;
    std::unordered_set<TensorImpl*> visited{root};
    std::vector<std::pair<TensorImpl*, size_t>> stack{{root, 0}};  // (tensor, next input to visit)
    while (!stack.empty()) {
        auto& [t, next] = stack.back();
        size_t n_inputs = t->grad_fn ? t->grad_fn->inputs.size() : 0;
        if (next < n_inputs) {
            TensorImpl* in = t->grad_fn->inputs[next++].impl().get();
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

static void accumulate_grad(TensorImpl& t, const Array& g) {
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
    std::vector<TensorImpl*> order = topological_order(root.impl().get());
    for (TensorImpl* t : order)
        if (t->grad_fn && t->grad_fn->freed)
            throw std::logic_error("backward: the graph through '" + t->grad_fn->op +
                                   "' was already freed by an earlier backward; pass retain_graph=true "
                                   "to the first backward to run it twice");
    // Gradients flowing in this sweep; a tensor's entry is complete when the sweep reaches it.
    std::unordered_map<TensorImpl*, Array> flowing;
    flowing.emplace(root.impl().get(), grad_root);
    const bool timed = detail::op_times::enabled();
    for (TensorImpl* t : order) {
        auto it = flowing.find(t);
        if (it == flowing.end()) continue;  // nothing flowed here
        Array g = std::move(it->second);
        flowing.erase(it);
        if (!t->grad_fn || t->retains_grad) accumulate_grad(*t, g);  // leaves keep their gradient
        Node* node = t->grad_fn.get();
        if (!node) continue;
        auto start = timed ? detail::op_times::Clock::now() : detail::op_times::Clock::time_point{};
        std::vector<Array> grads = node->backward(g, t->data);
        if (timed) detail::op_times::backward_done(node->op, start);
        if (grads.size() != node->inputs.size())
            throw std::logic_error("backward of '" + node->op + "' returned " + std::to_string(grads.size()) +
                                   " gradients for its " + std::to_string(node->inputs.size()) +
                                   " inputs; return one per input, in the order the inputs were given");
        for (size_t i = 0; i < node->inputs.size(); ++i) {
            TensorImpl* in = node->inputs[i].impl().get();
            if (!in->requires_grad) continue;
            if (detail::shape_of(grads[i]) != detail::shape_of(in->data))
                throw std::logic_error("backward of '" + node->op + "': gradient for input " + std::to_string(i) +
                                       " has shape " + shape_str(detail::shape_of(grads[i])) + " but the input is " +
                                       shape_str(detail::shape_of(in->data)));
            auto [pos, fresh] = flowing.try_emplace(in, std::move(grads[i]));
            if (!fresh) {
                auto sum_start = timed ? detail::op_times::Clock::now() : detail::op_times::Clock::time_point{};
                add_into(pos->second, grads[i]);   // a tensor used twice: its two gradients summed
                if (timed) detail::op_times::backward_done("(gradient sums)", sum_start);
            }
        }
        if (!retain_graph) {
            node->backward = nullptr;  // drops what the closure captured
            node->freed = true;
        }
    }
    if (timed) detail::op_times::backward_pass_done();
}

std::string to_dot(const Tensor& root) {
    std::ostringstream dot;
    dot << "digraph pg {\n  rankdir=BT;\n  node [fontname=\"monospace\"];\n";
    std::unordered_set<const TensorImpl*> seen;
    std::vector<const TensorImpl*> stack{root.impl().get()};
    // nodes numbered in the order they are first written, so the same graph gives the same text
    std::unordered_map<const void*, size_t> number;
    auto id = [&number](const void* p) { return "n" + std::to_string(number.emplace(p, number.size()).first->second); };
    while (!stack.empty()) {
        const TensorImpl* t = stack.back();
        stack.pop_back();
        if (!seen.insert(t).second) continue;
        dot << "  " << id(t) << " [shape=box,label=\"" << shape_str(detail::shape_of(t->data))
            << (t->requires_grad && !t->grad_fn ? " param" : "") << "\"];\n";
        if (!t->grad_fn) continue;
        const Node* n = t->grad_fn.get();
        dot << "  " << id(n) << " [shape=ellipse,label=\"" << n->op << "\"];\n";
        dot << "  " << id(n) << " -> " << id(t) << ";\n";
        for (const Tensor& in : n->inputs) {
            dot << "  " << id(in.impl().get()) << " -> " << id(n) << ";\n";
            stack.push_back(in.impl().get());
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
