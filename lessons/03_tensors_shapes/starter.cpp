// Lesson 03 exercise: the shape of a batched matmul. `./poet start 3` copies this file to
// exercise.cpp; write matmul_shape there, then `./poet check 3`.
// 第 03 课练习：批量矩阵乘法结果的形状。`./poet start 3` 会把这个文件复制成 exercise.cpp；
// 在那里写好 matmul_shape，然后运行 `./poet check 3`。
#include "check.hpp"

pg::Shape exercise::matmul_shape(const pg::Shape& a, const pg::Shape& b) {
    // 1. both need at least 2 axes, and a's last axis must equal b's second-to-last:
    //    otherwise throw pg::ShapeError("matmul_shape: ...")
    // 1. 两个形状都至少要有 2 个轴，而且 a 的最后一个轴必须等于 b 的倒数第二个轴：
    //    否则抛出 pg::ShapeError("matmul_shape: ...")
    // 2. the batch axes (all but the last two) broadcast: align them at the right,
    //    a missing axis counts as 1, sizes must be equal or one of them 1
    // 2. 批次轴（除最后两个以外的所有轴）要广播：靠右对齐，
    //    缺少的轴当作 1，两边的长度必须相等，或者其中一个是 1
    // 3. the result: the broadcast batch axes, then N (a's second-to-last) and M (b's last)
    // 3. 结果：广播后的批次轴，接着是 N（a 的倒数第二个轴）和 M（b 的最后一个轴）
    throw lesson::NotImplemented("exercise::matmul_shape");
}
