// Lesson 03 experiment: seed 000's shape table checked in code, the same with a batch and heads,
// then broadcasting, matmul and transpose on small integer tensors, and three ShapeErrors read.
#include <cmath>
#include <iostream>
#include "lesson.hpp"

// One row of the shape table: prints it and stops the experiment if the shape is not the table's.
static void table_row(const std::string& object, const std::string& symbolic, const pg::Tensor& t,
                      const pg::Shape& expected) {
    std::cout << "  " << object << std::string(14 - object.size(), ' ') << symbolic
              << std::string(14 - symbolic.size(), ' ') << lesson::str(t.shape()) << "\n";
    lesson::expect_shape(object, t.shape(), expected, "");
}

// Runs f, which must throw a ShapeError, and prints its message.
template <class F>
static void show_error(const std::string& call, F f) {
    try {
        f();
    } catch (const pg::ShapeError& e) {
        std::cout << call << "\n  throws pg::ShapeError: " << e.what() << "\n";
        return;
    }
    throw std::runtime_error(call + " did not throw");
}

static void run() {
    pg::Generator gen(0);

    lesson::section("seed 000's shape table, with T = 4, D = 6, d_k = 3, d_v = 5");
    const size_t T = 4, D = 6, d_k = 3, d_v = 5;
    pg::Tensor X = pg::randn({T, D}, gen);
    pg::Tensor Wq = pg::randn({D, d_k}, gen), Wk = pg::randn({D, d_k}, gen), Wv = pg::randn({D, d_v}, gen);
    pg::Tensor Q = pg::matmul(X, Wq), K = pg::matmul(X, Wk), V = pg::matmul(X, Wv);
    pg::Tensor scores = pg::matmul(Q, pg::transpose(K, 0, 1));
    pg::Tensor out = pg::matmul(pg::softmax(scores / std::sqrt(float(d_k)), -1), V);
    std::cout << "  object        table         poetgrad\n";
    table_row("X", "(T,D)", X, {T, D});
    table_row("Q = X W_Q", "(T,d_k)", Q, {T, d_k});
    table_row("K = X W_K", "(T,d_k)", K, {T, d_k});
    table_row("V = X W_V", "(T,d_v)", V, {T, d_v});
    table_row("Q K^T", "(T,T)", scores, {T, T});
    table_row("output", "(T,d_v)", out, {T, d_v});
    std::cout << "  every shape is the table's\n";

    lesson::section("a batch and heads add axes in front: B = 2, NH = 2, T = 4, HS = 3");
    const size_t B = 2, NH = 2, HS = 3;
    pg::Tensor q = pg::randn({B, NH, T, HS}, gen), k = pg::randn({B, NH, T, HS}, gen), v = pg::randn({B, NH, T, HS}, gen);
    pg::Tensor kt = pg::transpose(k, -2, -1);  // swap the last two axes only
    pg::Tensor att = pg::softmax(pg::matmul(q, kt) / std::sqrt(float(HS)), -1);
    pg::Tensor y = pg::matmul(att, v);
    std::cout << "  object        table         poetgrad\n";
    table_row("q", "(B,NH,T,HS)", q, {B, NH, T, HS});
    table_row("k^T", "(B,NH,HS,T)", kt, {B, NH, HS, T});
    table_row("q k^T", "(B,NH,T,T)", att, {B, NH, T, T});
    table_row("output", "(B,NH,T,HS)", y, {B, NH, T, HS});

    lesson::section("broadcasting: align shapes at the right; a size 1 (or a missing axis) stretches");
    pg::Tensor a = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    pg::Tensor b = pg::tensor({10.f, 20.f, 30.f});
    lesson::show("a", a, 0);
    lesson::show("b", b, 0);
    lesson::show("a + b: (2,3) + (3) -> (2,3), b added to every row", a + b, 0);
    pg::Tensor col = pg::tensor({1.f, 2.f}, {2, 1}), row = pg::tensor({10.f, 20.f, 30.f}, {1, 3});
    lesson::show("col", col, 0);
    lesson::show("row", row, 0);
    lesson::show("col + row: (2,1) + (1,3) -> (2,3), every pair", col + row, 0);
    std::cout << "broadcast_shapes((2,1,4), (3,1)) = "
              << lesson::str(pg::broadcast_shapes({2, 1, 4}, {3, 1}, "lesson 03")) << "\n";

    lesson::section("matmul: (N,K) @ (K,M) -> (N,M); leading axes broadcast");
    pg::Tensor m = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
    lesson::show("m", m, 0);
    lesson::show("matmul(a, m): (2,3) @ (3,2) -> (2,2)", pg::matmul(a, m), 0);
    pg::Tensor batch = pg::randn({5, 2, 3}, gen);
    std::cout << "matmul((5,2,3), (3,2)) has shape " << lesson::str(pg::matmul(batch, m).shape())
              << ": the one m is used for all 5 matrices\n";

    lesson::section("transpose: swap two axes");
    lesson::show("transpose(a, 0, 1): (2,3) -> (3,2)", pg::transpose(a, 0, 1), 0);
    lesson::show("transpose of the transpose", pg::transpose(pg::transpose(a, 0, 1), 0, 1), 0);

    lesson::section("reading a ShapeError: the op, the shapes, and what does not fit");
    show_error("matmul((3,2), (3,2))", [] { pg::matmul(pg::zeros({3, 2}), pg::zeros({3, 2})); });
    show_error("(2,3) + (2)", [&] { return a + pg::zeros({2}); });
    show_error("softmax((2,3), dim 2)", [&] { return pg::softmax(a, 2); });
    std::cout << "fix for the first: transpose the second operand, (3,2)^T is (2,3): matmul gives shape "
              << lesson::str(pg::matmul(pg::zeros({3, 2}), pg::transpose(pg::zeros({3, 2}), 0, 1)).shape()) << "\n";
}

int main() { return lesson::run_experiment(run); }
