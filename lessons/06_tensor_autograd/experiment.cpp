// Lesson 06 experiment: the library's tensors flowing backward through Y = X @ W + b and
// L = sum(Y * Y), every intermediate gradient kept and checked against the hand computation; a bias's
// gradient summed back to its shape (broadcasting undone); and what the engine says when a backward forgets to.
// The graph is drawn from the library's own DOT export (pg::to_dot) by Graphviz: graph.dot -> graph.svg.
#include <iostream>
#include <set>
#include "lesson.hpp"
#include "svg.hpp"

// Prints the graph behind t: each op with the shapes of its inputs, each input's op below it.
static void print_graph(const pg::Tensor& t, const std::string& indent, std::set<const pg::Node*>& shown) {
    const pg::Node* node = t.grad_fn().get();
    if (!node) {
        std::cout << indent << lesson::str(t.shape()) << (t.requires_grad() ? lesson::tr(" leaf, requires grad", " 叶子，需要梯度") : lesson::tr(" constant", " 常量"))
                  << "\n";
        return;
    }
    std::cout << indent << lesson::str(t.shape()) << " = " << node->op;
    if (!shown.insert(node).second) {
        std::cout << lesson::tr(" (shown above)", "（上面已列出）") << "\n";
        return;
    }
    std::cout << "\n";
    for (const pg::Tensor& in : node->inputs) print_graph(in, indent + "    ", shown);
}

// y = a + b with a backward that hands gy to b as it is, forgetting to sum it back to b's shape.
static pg::Tensor add_without_sum_to(const pg::Tensor& a, const pg::Tensor& b) {
    pg::Tensor y = a.detach() + b.detach();
    return pg::make_result(y.data(), "add_without_sum_to", {a, b},
                           [](const pg::BackwardContext& ctx) { return std::vector<pg::Array>{ctx.gy, ctx.gy}; });
}

// The engine's shape error ("backward of 'add': gradient for input 1 has shape (2,3) but the input is
// (3)"), in the learner's language.
static std::string engine_error_text(const std::string& message) {
    return lesson::chinese() ? lesson::reword(message, "backward of '{1}': gradient for input {2} has shape {3} but the input is {4}",
                                              "'{1}' 的 backward：给输入 {2} 的梯度形状是 {3}，而这个输入是 {4}")
                             : message;
}

static void run() {
    lesson::section(lesson::tr("the forward: Z = X @ W, Y = Z + b, S = Y * Y, L = sum(S)", "前向：Z = X @ W，Y = Z + b，S = Y * Y，L = sum(S)"));
    pg::Tensor X = pg::tensor({{1.f, 0.f}, {2.f, -1.f}}).requires_grad_();
    pg::Tensor W = pg::tensor({{1.f, -1.f, 0.f}, {0.f, 2.f, 1.f}}).requires_grad_();
    pg::Tensor b = pg::tensor({0.5f, 0.f, -0.5f}).requires_grad_();
    lesson::show("X", X, 0);
    lesson::show("W", W, 0);
    lesson::show("b", b, 1);
    pg::Tensor Z = pg::matmul(X, W);  // (2,2) @ (2,3) -> (2,3)
    pg::Tensor Y = Z + b;             // (2,3) + (3) -> (2,3): b is added to both rows
    pg::Tensor S = Y * Y;             // Y is used twice
    pg::Tensor L = pg::sum(S);        // () : one number
    lesson::show("Z = X @ W", Z, 0);
    lesson::show("Y = Z + b", Y, 1);
    lesson::show("S = Y * Y", S, 2);
    lesson::show("L = sum(S)", L, 0);
    lesson::confirm("L", L.item(), 28.0, 1e-6, lesson::tr("by hand", "手算"));

    lesson::section(lesson::tr("the graph behind L: each op, and below it the tensors it read", "L 背后的计算图：每个运算，下面缩进的是它读的张量"));
    std::set<const pg::Node*> shown;
    print_graph(L, "  ", shown);

    lesson::section(lesson::tr("the same graph, as the library exports it: pg::to_dot(L), drawn by Graphviz",
                               "同一张图，库用 pg::to_dot(L) 导出，由 Graphviz 画出"));
    std::string dot = pg::to_dot(L);
    if (lesson::chinese()) {  // the Chinese page's picture: each op and leaf also named in Chinese
        for (const auto& [en, zh] : std::vector<std::pair<std::string, std::string>>{
                 {"label=\"sum\"", "label=\"sum 求和\""}, {"label=\"reshape\"", "label=\"reshape 变形\""},
                 {"label=\"mul\"", "label=\"mul 乘法\""}, {"label=\"add\"", "label=\"add 加法\""},
                 {"label=\"matmul\"", "label=\"matmul 矩阵乘法\""}, {" param\"", " 参数\""}})
            for (size_t at = dot.find(en); at != std::string::npos; at = dot.find(en, at + zh.size()))
                dot.replace(at, en.size(), zh);
    }
    std::cout << dot;
    const std::string name = lesson::chinese() ? "graph.zh" : "graph";
    const svg::Output dot_file = svg::in_lesson_folder(__FILE__, name + ".dot"),
                      svg_file = svg::in_lesson_folder(__FILE__, name + ".svg");
    svg::render_dot(dot, dot_file.path, svg_file.path);
    std::map<std::string, size_t> drawn = svg::check_file(svg_file.path);
    std::cout << lesson::tr("wrote ", "写出了 ") << dot_file.shown << lesson::tr(" and ", " 和 ") << svg_file.shown
              << lesson::tr(" (dot -Tsvg; well-formed SVG: ", "（dot -Tsvg；SVG 格式正确：") << drawn["ellipse"]
              << lesson::tr(" ellipses, the ops sum, reshape, mul, add, matmul)", " 个椭圆，即运算 sum、reshape、mul、add、matmul）")
              << "\n";
    lesson::confirm(lesson::tr("ellipses in graph.svg", "graph.zh.svg 里的椭圆"), static_cast<double>(drawn["ellipse"]), 5.0,
                    0.0, lesson::tr("the graph's 5 ops", "图中的 5 个运算"));

    lesson::section(lesson::tr("L.backward(): each op turns its output's gradient into its inputs'", "L.backward()：每个运算把输出的梯度变成各个输入的梯度"));
    for (pg::Tensor t : {Z, Y, S}) t.retain_grad();  // keep the gradients of the intermediates too
    L.backward();
    lesson::show(lesson::tr("dL/dS  (sum: gy spread to every element)", "dL/dS  （sum：gy 铺到每个元素上）"), S.grad(), 0);
    lesson::show(lesson::tr("dL/dY  (mul, Y twice: gS * Y + gS * Y = 2Y)", "dL/dY  （mul，Y 用了两次：gS * Y + gS * Y = 2Y）"), Y.grad(), 0);
    lesson::confirm("dL/dY", Y.grad(), pg::tensor({{3.f, -2.f, -1.f}, {5.f, -8.f, -3.f}}), 1e-6, lesson::tr("2Y by hand", "手算的 2Y"));
    lesson::show(lesson::tr("dL/dZ  (add: gy passes through unchanged)", "dL/dZ  （add：gy 原样传过去）"), Z.grad(), 0);
    lesson::show(lesson::tr("dL/db  (add, b broadcast over 2 rows: sum_to sums gy over them)", "dL/db  （add，b 被广播到 2 行上：sum_to 把 gy 在这两行上求和）"), b.grad(), 0);
    lesson::confirm("dL/db", b.grad(), pg::tensor({8.f, -10.f, -4.f}), 1e-6, lesson::tr("column sums of dL/dY by hand", "手算的 dL/dY 各列之和"));
    lesson::show(lesson::tr("dL/dW  (matmul: X^T @ gZ)", "dL/dW  （matmul：X^T @ gZ）"), W.grad(), 0);
    lesson::confirm("dL/dW", W.grad(), pg::tensor({{13.f, -18.f, -7.f}, {-5.f, 8.f, 3.f}}), 1e-6, lesson::tr("X^T @ 2Y by hand", "手算的 X^T @ 2Y"));
    lesson::show(lesson::tr("dL/dX  (matmul: gZ @ W^T)", "dL/dX  （matmul：gZ @ W^T）"), X.grad(), 0);
    lesson::confirm("dL/dX", X.grad(), pg::tensor({{5.f, -5.f}, {13.f, -19.f}}), 1e-6, lesson::tr("2Y @ W^T by hand", "手算的 2Y @ W^T"));

    lesson::section(lesson::tr("the matmul rule, recomputed with plain ops outside the graph", "matmul 的规则，在计算图之外用普通运算重算一遍"));
    {
        pg::NoGradGuard no_grad;
        pg::Tensor gZ = Z.grad();
        lesson::confirm("gZ @ W^T", pg::matmul(gZ, pg::transpose(W, 0, 1)), X.grad(), 1e-6, lesson::tr("dL/dX from backward", "backward 给出的 dL/dX"));
        lesson::confirm("X^T @ gZ", pg::matmul(pg::transpose(X, 0, 1), gZ), W.grad(), 1e-6, lesson::tr("dL/dW from backward", "backward 给出的 dL/dW"));
        lesson::confirm("sum of gZ over rows", pg::sum(gZ, 0), b.grad(), 1e-6, lesson::tr("dL/db from backward", "backward 给出的 dL/db"));
    }

    lesson::section(lesson::tr("broadcasting undone: A (2,3) plus a bias of each shape, backward with G", "撤销广播：A (2,3) 加上三种形状的偏置，用 G 做反向"));
    pg::Tensor G = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    lesson::show(lesson::tr("G = the gradient arriving at A + bias", "G = 传到 A + bias 的梯度"), G, 0);
    pg::Tensor A = pg::zeros({2, 3});
    pg::Tensor row = pg::zeros({3}, true), column = pg::zeros({2, 1}, true), one = pg::scalar(0.f, true);
    (A + row).backward(G);
    (A + column).backward(G);
    (A + one).backward(G);
    lesson::show(lesson::tr("row bias (3): summed over the 2 rows", "行偏置 (3)：在 2 行上求和"), row.grad(), 0);
    lesson::show(lesson::tr("column bias (2,1): summed over the 3 columns", "列偏置 (2,1)：在 3 列上求和"), column.grad(), 0);
    lesson::show(lesson::tr("scalar bias (): summed over everything", "标量偏置 ()：对全部元素求和"), one.grad(), 0);
    lesson::confirm("scalar bias grad", one.grad().item(), 21.0, 1e-6, "1 + 2 + ... + 6");

    lesson::section(lesson::tr("a backward that forgets sum_to: the engine stops it", "忘了 sum_to 的 backward：引擎把它拦下"));
    pg::Tensor bias = pg::zeros({3}, true);
    pg::Tensor bad = pg::sum(add_without_sum_to(pg::ones({2, 3}), bias));
    try {
        bad.backward();
        std::cout << lesson::tr("no error?", "没有报错？") << "\n";
    } catch (const std::logic_error& e) {
        std::cout << engine_error_text(e.what()) << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
