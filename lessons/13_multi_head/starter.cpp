// Lesson 13 exercise: splitting into heads and merging them back. `./poet start 13` copies this
// file to exercise.cpp; write split_heads and merge_heads there, then `./poet check 13`.
#include "check.hpp"

pg::Tensor exercise::split_heads(const pg::Tensor& x, size_t n_head) {
    // B, T, C = x.size(0), x.size(1), x.size(2); HS = C / n_head
    // reshape to (B, T, NH, HS), then swap dims 1 and 2 -> (B, NH, T, HS)
    throw lesson::NotImplemented("exercise::split_heads");
}

pg::Tensor exercise::merge_heads(const pg::Tensor& y) {
    // swap dims 1 and 2 -> (B, T, NH, HS), then reshape to (B, T, NH * HS)
    throw lesson::NotImplemented("exercise::merge_heads");
}
