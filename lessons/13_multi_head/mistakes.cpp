// mistake 1: split reshapes straight to (B,NH,T,HS), no transpose => you reshaped straight to (B,NH,T,HS), without the transpose
// mistake 2: split reshapes to (B,T,HS,NH) and permutes, so heads take every NH-th channel => every NH-th channel
// mistake 3: split with n_head and HS swapped in the reshape => n_head and HS swapped in the reshape
// mistake 4: split by slices that start at channel h instead of h*HS => head h starts at channel h
// mistake 5: split copied in a loop into pg::tensor(values), no gradient => build it from pg::reshape and pg::transpose
// mistake 6: merge reshapes without the transpose => you merged without the transpose
// mistake 7: merge reads the sizes as if y were (B,T,NH,HS) => the sizes read as if y were (B,T,NH,HS)
// mistake 8: merge swaps dims 2 and 3 instead of 1 and 2 => you swapped dims 2 and 3 (T and HS)
// mistake 9: merge permutes to (B,T,HS,NH), interleaving the heads => head h's channels landed at h, h+NH
// mistake 10: merge copied in a loop into pg::tensor(values), no gradient => training must reach the heads through the merge
// mistake 11: split reshapes to (B,T,n_head,C), sizes whose product is not the element count => x is (B,T,C) = (x.size(0), x.size(1), x.size(2))
// mistake 12: merge's first answer kept in a static and returned ever after => for an earlier, different input
// Lesson 13's planted mistakes, one program: PG_MISTAKE=N runs mistake N (lesson::mistake(N) is then
// true), which must fail the checks with its hint above; with none chosen this is a correct answer.
#include "check.hpp"
using lesson::mistake;

pg::Tensor exercise::split_heads(const pg::Tensor& x, size_t n_head) {
    size_t B = x.size(0), T = x.size(1), C = x.size(2);
    if (n_head == 0 || C % n_head != 0) throw pg::ShapeError("split_heads: C is not a multiple of n_head");
    size_t HS = C / n_head;
    if (mistake(1)) return pg::reshape(x, {B, n_head, T, HS});
    if (mistake(11)) return pg::transpose(pg::reshape(x, {B, T, n_head, C}), 1, 2);
    if (mistake(2)) return pg::permute(pg::reshape(x, {B, T, HS, n_head}), {0, 3, 1, 2});
    if (mistake(3)) return pg::transpose(pg::reshape(x, {B, T, HS, n_head}), 1, 2);
    if (mistake(4)) {
        std::vector<pg::Tensor> heads;
        for (size_t h = 0; h < n_head; ++h)
            heads.push_back(pg::reshape(pg::slice(x, -1, static_cast<long>(h), static_cast<long>(h + HS)), {B, 1, T, HS}));
        return pg::concat(heads, 1);
    }
    if (mistake(5)) {
        std::vector<float> out(x.numel());
        for (size_t b = 0; b < B; ++b)
            for (size_t t = 0; t < T; ++t)
                for (size_t c = 0; c < C; ++c)
                    out[((b * n_head + c / HS) * T + t) * HS + c % HS] = x.ptr()[(b * T + t) * C + c];
        return pg::tensor(out, {B, n_head, T, HS});
    }
    return pg::transpose(pg::reshape(x, {B, T, n_head, HS}), 1, 2);
}

pg::Tensor exercise::merge_heads(const pg::Tensor& y) {
    static pg::Tensor kept;  // mistake 12: the first call's answer
    static bool have = false;
    if (mistake(12) && have) return kept;
    if (mistake(12)) have = true, kept = pg::reshape(pg::transpose(y, 1, 2), {y.size(0), y.size(2), y.size(1) * y.size(3)});
    size_t B = y.size(0), NH = y.size(1), T = y.size(2), HS = y.size(3);
    if (mistake(7)) { T = y.size(1); NH = y.size(2); }  // read as if y were (B,T,NH,HS)
    if (mistake(6)) return pg::reshape(y, {B, T, NH * HS});
    if (mistake(8)) return pg::reshape(pg::transpose(y, 2, 3), {B, T, NH * HS});
    if (mistake(9)) return pg::reshape(pg::permute(y, {0, 2, 3, 1}), {B, T, NH * HS});
    if (mistake(10)) {
        std::vector<float> out(y.numel());
        for (size_t b = 0; b < B; ++b)
            for (size_t h = 0; h < NH; ++h)
                for (size_t t = 0; t < T; ++t)
                    for (size_t i = 0; i < HS; ++i)
                        out[(b * T + t) * NH * HS + h * HS + i] = y.ptr()[((b * NH + h) * T + t) * HS + i];
        return pg::tensor(out, {B, T, NH * HS});
    }
    return pg::reshape(pg::transpose(y, 1, 2), {B, T, NH * HS});
}
