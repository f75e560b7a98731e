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
        std::cout << indent << lesson::str(t.shape()) << (t.requires_grad() ? " leaf, requires grad" : " constant")
                  << "\n";
        return;
    }
    std::cout << indent << lesson::str(t.shape()) << " = " << node->op;
    if (!shown.insert(node).second) {
        std::cout << " (shown above)\n";
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

static void run() {
    lesson::section("the forward: Z = X @ W, Y = Z + b, S = Y * Y, L = sum(S)");
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
    lesson::confirm("L", L.item(), 28.0, 1e-6, "by hand");

    lesson::section("the graph behind L: each op, and below it the tensors it read");
    std::set<const pg::Node*> shown;
    print_graph(L, "  ", shown);

    lesson::section("the same graph, as the library exports it: pg::to_dot(L), drawn by Graphviz");
    const std::string dot = pg::to_dot(L);
    std::cout << dot;
    const svg::Output dot_file = svg::in_lesson_folder(__FILE__, "graph.dot"),
                      svg_file = svg::in_lesson_folder(__FILE__, "graph.svg");
    svg::render_dot(dot, dot_file.path, svg_file.path);
    std::map<std::string, size_t> drawn = svg::check_file(svg_file.path);
    std::cout << "wrote " << dot_file.shown << " and " << svg_file.shown << " (dot -Tsvg; well-formed SVG: "
              << drawn["ellipse"] << " ellipses, the ops sum, reshape, mul, add, matmul)\n";
    lesson::confirm("ellipses in graph.svg", static_cast<double>(drawn["ellipse"]), 5.0, 0.0, "the graph's 5 ops");

    lesson::section("L.backward(): each op turns its output's gradient into its inputs'");
    for (pg::Tensor t : {Z, Y, S}) t.retain_grad();  // keep the gradients of the intermediates too
    L.backward();
    lesson::show("dL/dS  (sum: gy spread to every element)", S.grad(), 0);
    lesson::show("dL/dY  (mul, Y twice: gS * Y + gS * Y = 2Y)", Y.grad(), 0);
    lesson::confirm("dL/dY", Y.grad(), pg::tensor({{3.f, -2.f, -1.f}, {5.f, -8.f, -3.f}}), 1e-6, "2Y by hand");
    lesson::show("dL/dZ  (add: gy passes through unchanged)", Z.grad(), 0);
    lesson::show("dL/db  (add, b broadcast over 2 rows: sum_to sums gy over them)", b.grad(), 0);
    lesson::confirm("dL/db", b.grad(), pg::tensor({8.f, -10.f, -4.f}), 1e-6, "column sums of dL/dY by hand");
    lesson::show("dL/dW  (matmul: X^T @ gZ)", W.grad(), 0);
    lesson::confirm("dL/dW", W.grad(), pg::tensor({{13.f, -18.f, -7.f}, {-5.f, 8.f, 3.f}}), 1e-6, "X^T @ 2Y by hand");
    lesson::show("dL/dX  (matmul: gZ @ W^T)", X.grad(), 0);
    lesson::confirm("dL/dX", X.grad(), pg::tensor({{5.f, -5.f}, {13.f, -19.f}}), 1e-6, "2Y @ W^T by hand");

    lesson::section("the matmul rule, recomputed with plain ops outside the graph");
    {
        pg::NoGradGuard no_grad;
        pg::Tensor gZ = Z.grad();
        lesson::confirm("gZ @ W^T", pg::matmul(gZ, pg::transpose(W, 0, 1)), X.grad(), 1e-6, "dL/dX from backward");
        lesson::confirm("X^T @ gZ", pg::matmul(pg::transpose(X, 0, 1), gZ), W.grad(), 1e-6, "dL/dW from backward");
        lesson::confirm("sum of gZ over rows", pg::sum(gZ, 0), b.grad(), 1e-6, "dL/db from backward");
    }

    lesson::section("broadcasting undone: A (2,3) plus a bias of each shape, backward with G");
    pg::Tensor G = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    lesson::show("G = the gradient arriving at A + bias", G, 0);
    pg::Tensor A = pg::zeros({2, 3});
    pg::Tensor row = pg::zeros({3}, true), column = pg::zeros({2, 1}, true), one = pg::scalar(0.f, true);
    (A + row).backward(G);
    (A + column).backward(G);
    (A + one).backward(G);
    lesson::show("row bias (3): summed over the 2 rows", row.grad(), 0);
    lesson::show("column bias (2,1): summed over the 3 columns", column.grad(), 0);
    lesson::show("scalar bias (): summed over everything", one.grad(), 0);
    lesson::confirm("scalar bias grad", one.grad().item(), 21.0, 1e-6, "1 + 2 + ... + 6");

    lesson::section("a backward that forgets sum_to: the engine stops it");
    pg::Tensor bias = pg::zeros({3}, true);
    pg::Tensor bad = pg::sum(add_without_sum_to(pg::ones({2, 3}), bias));
    try {
        bad.backward();
        std::cout << "no error?\n";
    } catch (const std::logic_error& e) {
        std::cout << e.what() << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
