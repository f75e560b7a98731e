// Lesson 05 experiment: the lesson's scalar engine (value.hpp) on a one-neuron expression: its
// graph, topological order, every gradient, and the picture of the graph (graph.dot, drawn by
// Graphviz into graph.svg); then a reused node, and the same neuron in the library for comparison.
#include <iostream>
#include <unordered_map>
#include "lesson.hpp"
#include "svg.hpp"
#include "value.hpp"

using scalar::Node;
using scalar::Value;

// The graph behind `out` in Graphviz DOT: a box per value (label, data, grad), an ellipse per op.
static std::string to_dot(const Value& out) {
    std::string dot = "digraph scalar {\n  rankdir=LR;\n";
    std::unordered_map<Node*, std::string> id;  // v0, v1, ... in topological order
    for (Node* n : out.topological_order()) {
        std::string me = "v" + std::to_string(id.size());
        id[n] = me;
        dot += "  " + me + " [shape=box,label=\"" + scalar::label_of(*n) + " | data " + lesson::num(n->data) +
               " | grad " + lesson::num(n->grad) + "\"];\n";
        if (n->op.empty()) continue;
        dot += "  " + me + "_op [label=\"" + n->op + "\"];\n  " + me + "_op -> " + me + ";\n";
        for (auto& in : n->inputs) dot += "  " + id[in.get()] + " -> " + me + "_op;\n";
    }
    return dot + "}\n";
}

// The same as value.hpp's *, but with = where it must be +=: the bug this lesson warns about.
static Value mul_that_assigns(const Value& a, const Value& b) {
    return Value::make(a.data() * b.data(), "*", {a, b}, [](Node& out) {
        out.inputs[0]->grad = out.grad * out.inputs[1]->data;
        out.inputs[1]->grad = out.grad * out.inputs[0]->data;
    });
}

static void run() {
    lesson::section("one neuron: o = tanh(x*w + b), x = 0.5, w = -2, b = 1.5");
    Value x(0.5, "x"), w(-2.0, "w"), b(1.5, "b");
    Value xw = (x * w).named("xw");
    Value n = (xw + b).named("n");
    Value o = tanh(n).named("o");
    std::cout << "xw = " << lesson::num(xw.data()) << ", n = " << lesson::num(n.data()) << ", o = tanh(n) = "
              << lesson::num(o.data()) << "\n";

    lesson::section("topological order: every node after its inputs");
    for (Node* node : o.topological_order())
        std::cout << "  " << scalar::label_of(*node) << (node->op.empty() ? "" : " = " + node->op) << "\n";

    lesson::section("backward: from o back to the inputs, each op adding its share");
    o.backward(&std::cout);
    std::cout << "do/dx = " << lesson::num(x.grad()) << ", do/dw = " << lesson::num(w.grad())
              << ", do/db = " << lesson::num(b.grad()) << ", do/dn = 1 - o^2 = " << lesson::num(n.grad()) << "\n";
    lesson::confirm("do/dw", w.grad(), x.data() * (1 - o.data() * o.data()), 1e-12, "x (1 - o^2)");

    lesson::section("the graph in DOT, drawn by Graphviz: dot -Tsvg graph.dot > graph.svg");
    const std::string dot = to_dot(o);
    std::cout << dot;
    const svg::Output dot_file = svg::in_lesson_folder(__FILE__, "graph.dot"),
                      svg_file = svg::in_lesson_folder(__FILE__, "graph.svg");
    svg::render_dot(dot, dot_file.path, svg_file.path);
    std::map<std::string, size_t> drawn = svg::check_file(svg_file.path);
    std::cout << "wrote " << dot_file.shown << " and " << svg_file.shown << " (well-formed SVG: " << drawn["g"] - 1
              << " nodes and edges, " << drawn["polygon"] - 1 << " boxes and arrowheads, " << drawn["ellipse"]
              << " ellipses)\n";
    lesson::confirm("ellipses in graph.svg (one per op: *, +, tanh)", static_cast<double>(drawn["ellipse"]), 3.0, 0.0,
                    "the graph's 3 ops");

    lesson::section("a node used twice: y = a*a + a at a = 3, dy/da = 2a + 1");
    Value a(3.0, "a");
    Value y = (a * a + a).named("y");
    y.backward(&std::cout);
    std::cout << "y = " << lesson::num(y.data()) << ", a.grad = " << lesson::num(a.grad()) << " (1 from +, 3 + 3 from *)\n";
    lesson::confirm("dy/da", a.grad(), 7.0, 1e-12, "2a + 1");
    Value a2(3.0, "a");
    Value y2 = (mul_that_assigns(a2, a2) + a2).named("y");
    y2.backward(&std::cout);
    std::cout << "with = instead of +=, a.grad = " << lesson::num(a2.grad()) << ": the other contributions are lost\n";

    lesson::section("the same neuron in the library");
    pg::Tensor tx = pg::scalar(0.5f, true), tw = pg::scalar(-2.f, true), tb = pg::scalar(1.5f, true);
    pg::Tensor to = pg::tanh(tx * tw + tb);
    to.backward();
    std::cout << "o = " << lesson::num(to.item()) << ", x.grad = " << lesson::num(tx.grad().item())
              << ", w.grad = " << lesson::num(tw.grad().item()) << ", b.grad = " << lesson::num(tb.grad().item())
              << "\n";
    lesson::confirm("library w.grad", tw.grad().item(), w.grad(), 1e-6, "the scalar engine's do/dw");
    std::cout << "pg::to_dot(o):\n" << pg::to_dot(to);
}

int main() { return lesson::run_experiment(run); }
