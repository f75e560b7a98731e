// Lesson 13 reference solution: heads split off the channel dim and moved in front of time, and
// moved back, each a reshape and a transpose.
#include "check.hpp"

pg::Tensor exercise::split_heads(const pg::Tensor& x, size_t n_head) {
    size_t B = x.size(0), T = x.size(1), C = x.size(2);
    if (n_head == 0 || C % n_head != 0)
        throw pg::ShapeError("split_heads: C = " + std::to_string(C) + " is not a multiple of n_head = " +
                             std::to_string(n_head));
    pg::Tensor grouped = pg::reshape(x, {B, T, n_head, C / n_head});  // (B,T,NH,HS)
    return pg::transpose(grouped, 1, 2);                              // (B,NH,T,HS)
}

pg::Tensor exercise::merge_heads(const pg::Tensor& y) {
    size_t B = y.size(0), NH = y.size(1), T = y.size(2), HS = y.size(3);
    return pg::reshape(pg::transpose(y, 1, 2), {B, T, NH * HS});  // (B,T,NH,HS) -> (B,T,C)
}
