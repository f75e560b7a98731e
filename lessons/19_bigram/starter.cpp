// Lesson 19 exercise: the bigram's loss in nats per character. `./poet start 19` copies this file to
// exercise.cpp; write pair_probability and bigram_nll there, then `./poet check 19`.
// 第 19 课练习：二元模型的损失，单位是每字奈特。`./poet start 19` 会把这个文件复制成 exercise.cpp；
// 在那里写好 pair_probability 和 bigram_nll，然后运行 `./poet check 19`。
#include "check.hpp"

double exercise::pair_probability(const poet::BigramCounts& counts, int prev, int next, double alpha) {
    // add-alpha smoothing: (count(prev, next) + alpha) / (row_total(prev) + alpha * V),
    // with V = counts.vocab_size()
    // 加 α 平滑：(count(prev, next) + alpha) / (row_total(prev) + alpha * V)，
    // 其中 V = counts.vocab_size()
    throw lesson::NotImplemented("exercise::pair_probability");
}

double exercise::bigram_nll(const poet::BigramCounts& counts, const std::vector<std::vector<int>>& records,
                            double alpha) {
    // each record is BOS k SEP poem EOS (28 ids); the predictions that carry loss are
    // record[t] -> record[t+1] for t = 2 .. 26 (SEP -> poem[0] up to poem[23] -> EOS), 25 per record
    // add up -ln P over all of them (natural log, in double) and divide by how many there are
    // 每条记录是 BOS k SEP poem EOS（28 个编号）；计入损失的预测是 t = 2 .. 26 的
    // record[t] -> record[t+1]（从 SEP -> poem[0] 到 poem[23] -> EOS），每条记录 25 个
    // 把它们的 -ln P 全部加起来（自然对数，用 double），再除以预测的个数
    throw lesson::NotImplemented("exercise::bigram_nll");
}
