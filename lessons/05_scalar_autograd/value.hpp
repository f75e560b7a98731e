// Lesson 05's scalar autograd engine, written for the lesson (not part of the library): a Value is
// one number in a graph; backward() fills every node's grad with d(output)/d(node).
// Leaves out: tensors, freeing the graph, no-grad mode; lesson 06 meets the library's versions.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <iomanip>
#include <ostream>
#include <string>
#include <unordered_set>
#include <vector>
#include "lesson.hpp"

namespace scalar {

struct Node {
    double data = 0;
    double grad = 0;  // d(output)/d(this node), filled by backward()
    std::string op;   // the op that made this node; "" for an input
    std::string label;
    std::vector<std::shared_ptr<Node>> inputs;
    std::function<void(Node& out)> backward;  // adds out.grad * d(out)/d(input) to each input's grad
};

inline std::string label_of(const Node& n) { return n.label.empty() ? "(" + n.op + ")" : n.label; }

class Value {
public:
    Value(double data, std::string label = "") : node_(std::make_shared<Node>()) {
        node_->data = data;
        node_->label = std::move(label);
    }
    // An op's result: its value, the op's name, its inputs, and how its gradient flows back.
    static Value make(double data, std::string op, const std::vector<Value>& inputs,
                      std::function<void(Node& out)> backward) {
        Value out(data);
        out.node_->op = std::move(op);
        for (const Value& v : inputs) out.node_->inputs.push_back(v.node_);
        out.node_->backward = std::move(backward);
        return out;
    }
    double data() const { return node_->data; }
    double grad() const { return node_->grad; }
    Value& named(std::string label) { node_->label = std::move(label); return *this; }

    // Every node this one depends on, each after all of its inputs (depth-first, post-order).
    std::vector<Node*> topological_order() const {
        std::vector<Node*> order;
        std::unordered_set<Node*> visited;
        std::function<void(Node*)> visit = [&](Node* n) {
            if (!visited.insert(n).second) return;
            for (auto& in : n->inputs) visit(in.get());
            order.push_back(n);
        };
        visit(node_.get());
        return order;
    }

    // d(this)/d(node) into every node's grad. Grads start at 0 and each op's backward *adds*
    // its share, so a node used twice receives both contributions. `trace` prints each step.
    void backward(std::ostream* trace = nullptr) const {
        std::vector<Node*> order = topological_order();
        for (Node* n : order) n->grad = 0;
        node_->grad = 1;  // d(out)/d(out)
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            Node* n = *it;
            if (!n->backward) continue;  // an input: nothing to pass on
            std::vector<double> before;
            for (auto& in : n->inputs) before.push_back(in->grad);
            n->backward(*n);
            if (!trace) continue;
            *trace << std::fixed << std::setprecision(4) << "  " << label_of(*n) << " = " << n->op << ":";
            for (size_t i = 0; i < n->inputs.size(); ++i)  // each distinct input once
                if (std::find(n->inputs.begin(), n->inputs.begin() + i, n->inputs[i]) == n->inputs.begin() + i)
                    *trace << "  " << label_of(*n->inputs[i]) << ".grad += " << n->inputs[i]->grad - before[i]
                           << lesson::tr(" (now ", "（现在 ") << n->inputs[i]->grad
                           << lesson::tr(")", "）");
            *trace << "\n";
        }
    }

private:
    std::shared_ptr<Node> node_;
};

inline Value operator+(const Value& a, const Value& b) {
    return Value::make(a.data() + b.data(), "+", {a, b}, [](Node& out) {
        // out = a + b  =>  da += out.grad, db += out.grad
        out.inputs[0]->grad += out.grad;
        out.inputs[1]->grad += out.grad;
    });
}

inline Value operator*(const Value& a, const Value& b) {
    return Value::make(a.data() * b.data(), "*", {a, b}, [](Node& out) {
        // out = a * b  =>  da += out.grad * b, db += out.grad * a
        Node& a = *out.inputs[0];
        Node& b = *out.inputs[1];
        a.grad += out.grad * b.data;
        b.grad += out.grad * a.data;
    });
}

inline Value tanh(const Value& x) {
    return Value::make(std::tanh(x.data()), "tanh", {x}, [](Node& out) {
        // out = tanh(x)  =>  dx += out.grad * (1 - out^2)
        out.inputs[0]->grad += out.grad * (1 - out.data * out.data);
    });
}

}  // namespace scalar
