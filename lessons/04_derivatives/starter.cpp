// Lesson 04 exercise: derivatives by central differences. `./poet start 4` copies this file to
// exercise.cpp; write both functions there, then `./poet check 4`.
// 第 04 课练习：用中心差分求导数。`./poet start 4` 会把这个文件复制成 exercise.cpp；
// 在那里写好这两个函数，然后运行 `./poet check 4`。
#include "check.hpp"

double exercise::central_difference(const std::function<double(double)>& f, double x, double h) {
    // the slope between the points at x - h and x + h
    // x - h 和 x + h 处两个点之间的斜率
    throw lesson::NotImplemented("exercise::central_difference");
}

std::vector<double> exercise::numeric_gradient(const std::function<double(const std::vector<double>&)>& f,
                                               const std::vector<double>& x, double h) {
    // for each coordinate i: f with x[i] + h, f with x[i] - h (the other coordinates unchanged),
    // and their difference over 2h
    // 对每个坐标 i：分别算 x[i] + h 和 x[i] - h 时的 f（其他坐标不变），
    // 两者之差再除以 2h
    throw lesson::NotImplemented("exercise::numeric_gradient");
}
