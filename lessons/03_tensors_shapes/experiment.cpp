// Lesson 03 experiment: seed 000's shape table checked in code, the same with a batch and heads,
// then broadcasting, matmul and transpose on small integer tensors, and three ShapeErrors read.
#include <cmath>
#include <iostream>
#include "lesson.hpp"

// One row of the shape table: prints it and stops the experiment if the shape is not the table's.
static void table_row(const std::string& object, const std::string& symbolic, const pg::Tensor& t,
                      const pg::Shape& expected) {
    size_t width = 0;  // display columns: a Chinese character takes two
    for (unsigned char c : object) width += c < 0x80 ? 1 : (c & 0xC0) == 0x80 ? 0 : 2;
    std::cout << "  " << object << std::string(14 - width, ' ') << symbolic
              << std::string(14 - symbolic.size(), ' ') << lesson::str(t.shape()) << "\n";
    lesson::expect_shape(object, t.shape(), expected, "");
}

// Runs f, which must throw a ShapeError, and prints its message.
template <class F>
static void show_error(const std::string& call, F f) {
    try {
        f();
    } catch (const pg::ShapeError& e) {
        std::cout << call << lesson::tr("\n  throws pg::ShapeError: ", "\n  抛出 pg::ShapeError：") << e.what() << "\n";
        return;
    }
    throw std::runtime_error(call + lesson::tr(" did not throw", " 没有抛出错误"));
}

static void run() {
    pg::Generator gen(0);

    lesson::section(lesson::tr("seed 000's shape table, with T = 4, D = 6, d_k = 3, d_v = 5", "源文章 000 的形状表，取 T = 4，D = 6，d_k = 3，d_v = 5"));
    const size_t T = 4, D = 6, d_k = 3, d_v = 5;
    pg::Tensor X = pg::randn({T, D}, gen);
    pg::Tensor Wq = pg::randn({D, d_k}, gen), Wk = pg::randn({D, d_k}, gen), Wv = pg::randn({D, d_v}, gen);
    pg::Tensor Q = pg::matmul(X, Wq), K = pg::matmul(X, Wk), V = pg::matmul(X, Wv);
    pg::Tensor scores = pg::matmul(Q, pg::transpose(K, 0, 1));
    pg::Tensor out = pg::matmul(pg::softmax(scores / std::sqrt(float(d_k)), -1), V);
    std::cout << lesson::tr("  object        table         poetgrad\n", "  对象          表中的形状    poetgrad\n");
    table_row("X", "(T,D)", X, {T, D});
    table_row("Q = X W_Q", "(T,d_k)", Q, {T, d_k});
    table_row("K = X W_K", "(T,d_k)", K, {T, d_k});
    table_row("V = X W_V", "(T,d_v)", V, {T, d_v});
    table_row("Q K^T", "(T,T)", scores, {T, T});
    table_row(lesson::tr("output", "输出"), "(T,d_v)", out, {T, d_v});
    std::cout << lesson::tr("  every shape is the table's\n", "  每个形状都和表里的一致\n");

    lesson::section(lesson::tr("a batch and heads add axes in front: B = 2, NH = 2, T = 4, HS = 3", "批次和多头在前面加轴：B = 2，NH = 2，T = 4，HS = 3"));
    const size_t B = 2, NH = 2, HS = 3;
    pg::Tensor q = pg::randn({B, NH, T, HS}, gen), k = pg::randn({B, NH, T, HS}, gen), v = pg::randn({B, NH, T, HS}, gen);
    pg::Tensor kt = pg::transpose(k, -2, -1);  // swap the last two axes only
    pg::Tensor att = pg::softmax(pg::matmul(q, kt) / std::sqrt(float(HS)), -1);
    pg::Tensor y = pg::matmul(att, v);
    std::cout << lesson::tr("  object        table         poetgrad\n", "  对象          表中的形状    poetgrad\n");
    table_row("q", "(B,NH,T,HS)", q, {B, NH, T, HS});
    table_row("k^T", "(B,NH,HS,T)", kt, {B, NH, HS, T});
    table_row("q k^T", "(B,NH,T,T)", att, {B, NH, T, T});
    table_row(lesson::tr("output", "输出"), "(B,NH,T,HS)", y, {B, NH, T, HS});

    lesson::section(lesson::tr("broadcasting: align shapes at the right; a size 1 (or a missing axis) stretches", "广播：形状靠右对齐；大小为 1 的轴（或缺失的轴）会拉伸"));
    pg::Tensor a = pg::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    pg::Tensor b = pg::tensor({10.f, 20.f, 30.f});
    lesson::show("a", a, 0);
    lesson::show("b", b, 0);
    lesson::show(lesson::tr("a + b: (2,3) + (3) -> (2,3), b added to every row", "a + b：(2,3) + (3) -> (2,3)，b 加到每一行上"), a + b, 0);
    pg::Tensor col = pg::tensor({1.f, 2.f}, {2, 1}), row = pg::tensor({10.f, 20.f, 30.f}, {1, 3});
    lesson::show("col", col, 0);
    lesson::show("row", row, 0);
    lesson::show(lesson::tr("col + row: (2,1) + (1,3) -> (2,3), every pair", "col + row：(2,1) + (1,3) -> (2,3)，每一对都相加"), col + row, 0);
    std::cout << "broadcast_shapes((2,1,4), (3,1)) = "
              << lesson::str(pg::broadcast_shapes({2, 1, 4}, {3, 1}, "lesson 03")) << "\n";

    lesson::section(lesson::tr("matmul: (N,K) @ (K,M) -> (N,M); leading axes broadcast", "矩阵乘法：(N,K) @ (K,M) -> (N,M)；前面的轴广播"));
    pg::Tensor m = pg::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});
    lesson::show("m", m, 0);
    lesson::show("matmul(a, m): (2,3) @ (3,2) -> (2,2)", pg::matmul(a, m), 0);
    pg::Tensor batch = pg::randn({5, 2, 3}, gen);
    std::cout << lesson::tr("matmul((5,2,3), (3,2)) has shape ", "matmul((5,2,3), (3,2)) 的形状是 ") << lesson::str(pg::matmul(batch, m).shape())
              << lesson::tr(": the one m is used for all 5 matrices\n", "：同一个 m 用于全部 5 个矩阵\n");

    lesson::section(lesson::tr("transpose: swap two axes", "转置：交换两个轴"));
    lesson::show("transpose(a, 0, 1): (2,3) -> (3,2)", pg::transpose(a, 0, 1), 0);
    lesson::show(lesson::tr("transpose of the transpose", "转置的转置"), pg::transpose(pg::transpose(a, 0, 1), 0, 1), 0);

    lesson::section(lesson::tr("reading a ShapeError: the op, the shapes, and what does not fit", "读懂 ShapeError：算子、形状，以及哪里对不上"));
    show_error("matmul((3,2), (3,2))", [] { pg::matmul(pg::zeros({3, 2}), pg::zeros({3, 2})); });
    show_error("(2,3) + (2)", [&] { return a + pg::zeros({2}); });
    show_error("softmax((2,3), dim 2)", [&] { return pg::softmax(a, 2); });
    std::cout << lesson::tr("fix for the first: transpose the second operand, (3,2)^T is (2,3): matmul gives shape ",
                            "第一条的改法：转置第二个操作数，(3,2)^T 是 (2,3)：matmul 得到形状 ")
              << lesson::str(pg::matmul(pg::zeros({3, 2}), pg::transpose(pg::zeros({3, 2}), 0, 1)).shape()) << "\n";
}

int main() { return lesson::run_experiment(run); }
