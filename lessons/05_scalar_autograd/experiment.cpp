// Lesson 05 experiment: the lesson's scalar engine (value.hpp) on a one-neuron expression: its
// graph, topological order, every gradient, and the picture of the graph (graph.dot, drawn by
// Graphviz into graph.svg; graph.zh.dot and graph.zh.svg, labelled in Chinese, under POET_LANG=zh); then a reused node, and the same neuron in the library for comparison.
#include <iostream>
#include <unordered_map>
#include "lesson.hpp"
#include "svg.hpp"
#include "value.hpp"

using scalar::Node;
using scalar::Value;

// An op's name in the picture: the op itself, with its Chinese name under POET_LANG=zh.
static std::string op_label(const std::string& op) {
    if (!lesson::chinese()) return op;
    if (op == "*") return "乘 *";
    if (op == "+") return "加 +";
    if (op == "tanh") return "双曲正切 tanh";
    return "运算 " + op;
}

// The graph behind `out` in Graphviz DOT: a box per value (label, data, grad), an ellipse per op.
static std::string to_dot(const Value& out) {
    std::string dot = "digraph scalar {\n  rankdir=LR;\n";
    std::unordered_map<Node*, std::string> id;  // v0, v1, ... in topological order
    for (Node* n : out.topological_order()) {
        std::string me = "v" + std::to_string(id.size());
        id[n] = me;
        dot += "  " + me + " [shape=box,label=\"" + scalar::label_of(*n) + lesson::tr(" | data ", " | 值 ") + lesson::num(n->data) +
               lesson::tr(" | grad ", " | 梯度 ") + lesson::num(n->grad) + "\"];\n";
        if (n->op.empty()) continue;
        dot += "  " + me + "_op [label=\"" + op_label(n->op) + "\"];\n  " + me + "_op -> " + me + ";\n";
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
    lesson::section(lesson::tr("one neuron: o = tanh(x*w + b), x = 0.5, w = -2, b = 1.5",
                               "一个神经元：o = tanh(x*w + b)，x = 0.5，w = -2，b = 1.5"));
    Value x(0.5, "x"), w(-2.0, "w"), b(1.5, "b");
    Value xw = (x * w).named("xw");
    Value n = (xw + b).named("n");
    Value o = tanh(n).named("o");
    std::cout << "xw = " << lesson::num(xw.data()) << ", n = " << lesson::num(n.data()) << ", o = tanh(n) = "
              << lesson::num(o.data()) << "\n";

    lesson::section(lesson::tr("topological order: every node after its inputs", "拓扑顺序：每个节点都排在它的输入之后"));
    for (Node* node : o.topological_order())
        std::cout << "  " << scalar::label_of(*node) << (node->op.empty() ? "" : " = " + node->op) << "\n";

    lesson::section(lesson::tr("backward: from o back to the inputs, each op adding its share",
                               "反向：从 o 往回走到各个输入，每个运算加上它的那一份"));
    o.backward(&std::cout);
    std::cout << "do/dx = " << lesson::num(x.grad()) << ", do/dw = " << lesson::num(w.grad())
              << ", do/db = " << lesson::num(b.grad()) << ", do/dn = 1 - o^2 = " << lesson::num(n.grad()) << "\n";
    lesson::confirm("do/dw", w.grad(), x.data() * (1 - o.data() * o.data()), 1e-12, "x (1 - o^2)");

    const std::string stem = lesson::chinese() ? "graph.zh" : "graph";
    lesson::section(lesson::tr("the graph in DOT, drawn by Graphviz: ", "用 DOT 写出的计算图，由 Graphviz 画出：") + "dot -Tsvg " +
                    stem + ".dot > " + stem + ".svg");
    const std::string dot = to_dot(o);
    std::cout << dot;
    const svg::Output dot_file = svg::in_lesson_folder(__FILE__, stem + ".dot"),
                      svg_file = svg::in_lesson_folder(__FILE__, stem + ".svg");
    svg::render_dot(dot, dot_file.path, svg_file.path);
    std::map<std::string, size_t> drawn = svg::check_file(svg_file.path);
    std::cout << lesson::tr("wrote ", "写出 ") << dot_file.shown << lesson::tr(" and ", " 和 ") << svg_file.shown
              << lesson::tr(" (well-formed SVG: ", "（格式正确的 SVG：") << drawn["g"] - 1
              << lesson::tr(" nodes and edges, ", " 个节点和边，") << drawn["polygon"] - 1
              << lesson::tr(" boxes and arrowheads, ", " 个方框和箭头，") << drawn["ellipse"]
              << lesson::tr(" ellipses)\n", " 个椭圆）\n");
    lesson::confirm(lesson::tr("ellipses in ", "椭圆的个数，") + stem + lesson::tr(".svg (one per op: *, +, tanh)", ".svg（每个运算一个：*、+、tanh）"),
                    static_cast<double>(drawn["ellipse"]), 3.0, 0.0, lesson::tr("the graph's 3 ops", "图里的 3 个运算"));

    lesson::section(lesson::tr("a node used twice: y = a*a + a at a = 3, dy/da = 2a + 1",
                               "被使用两次的节点：y = a*a + a，a = 3，dy/da = 2a + 1"));
    Value a(3.0, "a");
    Value y = (a * a + a).named("y");
    y.backward(&std::cout);
    std::cout << "y = " << lesson::num(y.data()) << ", a.grad = " << lesson::num(a.grad()) << lesson::tr(" (1 from +, 3 + 3 from *)\n", "（+ 给 1，* 给 3 + 3）\n");
    lesson::confirm("dy/da", a.grad(), 7.0, 1e-12, "2a + 1");
    Value a2(3.0, "a");
    Value y2 = (mul_that_assigns(a2, a2) + a2).named("y");
    y2.backward(&std::cout);
    std::cout << lesson::tr("with = instead of +=, a.grad = ", "把 += 写成 =，a.grad = ") << lesson::num(a2.grad())
              << lesson::tr(": the other contributions are lost\n", "：其余的贡献都丢了\n");

    lesson::section(lesson::tr("the same neuron in the library", "同一个神经元，用库来算"));
    pg::Tensor tx = pg::scalar(0.5f, true), tw = pg::scalar(-2.f, true), tb = pg::scalar(1.5f, true);
    pg::Tensor to = pg::tanh(tx * tw + tb);
    to.backward();
    std::cout << "o = " << lesson::num(to.item()) << ", x.grad = " << lesson::num(tx.grad().item())
              << ", w.grad = " << lesson::num(tw.grad().item()) << ", b.grad = " << lesson::num(tb.grad().item())
              << "\n";
    lesson::confirm(lesson::tr("library w.grad", "库的 w.grad"), tw.grad().item(), w.grad(), 1e-6,
                    lesson::tr("the scalar engine's do/dw", "标量引擎的 do/dw"));
    std::cout << "pg::to_dot(o):\n" << pg::to_dot(to);
}

int main() { return lesson::run_experiment(run); }
