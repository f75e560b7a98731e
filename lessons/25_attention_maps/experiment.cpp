// Lesson 25 experiment: what each head of the small trained poet looks at. The attention weights of
// every head for one held-out poem (登鹳雀楼), computed from each block's own modules and proven equal
// to the block by recombining them; drawn as heatmaps with svg.hpp (attention.svg, read back and
// checked); then measured over 256 held-out poems. Leaves out: attributions across layers (attention
// rollout).
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <limits>
#include <map>
#include "check_tools.hpp"
#include "lesson.hpp"
#include "poet/corpus.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/rhyme.hpp"
#include "small_poet.hpp"
#include "svg.hpp"

namespace {

constexpr size_t kPoemStart = poet::kPromptLength;   // record position 3 holds the poem's first character
constexpr size_t kLine2Rhyme = kPoemStart + 10;      // 流 in 登鹳雀楼: line 2's last character
constexpr size_t kLine4Rhyme = kPoemStart + 22;      // 楼: line 4's last character
constexpr size_t kWritesRhyme = kLine4Rhyme - 1;     // the query whose output predicts the rhyme

// (T,T) with 1 above the diagonal: the keys s > t that query t may not see.
pg::Tensor future_mask(size_t T) {
    pg::Tensor mask = pg::zeros({T, T});
    float* m = mask.mutable_data().data();
    for (size_t t = 0; t < T; ++t)
        for (size_t s = t + 1; s < T; ++s) m[t * T + s] = 1.f;
    return mask;
}

struct Heads {
    pg::Tensor q, k, v;   // each (B,NH,T,HS)
};

// Every head's q, k and v from the block's own modules: ln1, attn.qkv, chunk, split into heads.
Heads heads_of(const pg::nn::Block& block, const pg::Tensor& x) {
    const size_t B = x.size(0), T = x.size(1), C = x.size(2), NH = block.attn.n_head, HS = C / NH;
    std::vector<pg::Tensor> qkv = pg::chunk(block.attn.qkv.forward(block.ln1.forward(x)), 3, -1);  // 3 x (B,T,C)
    auto split = [&](const pg::Tensor& t) { return pg::transpose(pg::reshape(t, {B, T, NH, HS}), 1, 2); };
    return {split(qkv[0]), split(qkv[1]), split(qkv[2])};
}

// softmax over the keys of q k^T / sqrt(HS), the future masked with -inf: (B,NH,T,T)
pg::Tensor attention_of(const Heads& h) {
    const size_t T = h.q.size(2), HS = h.q.size(3);
    pg::Tensor scores = pg::matmul(h.q, pg::transpose(h.k, -2, -1)) * (1.f / std::sqrt(static_cast<float>(HS)));
    return pg::softmax(pg::masked_fill(scores, future_mask(T), -std::numeric_limits<float>::infinity()), -1);
}

// att @ v, the heads side by side again, then proj: what attn.forward returns. (B,T,C)
pg::Tensor recombine(const pg::nn::Block& block, const pg::Tensor& att, const pg::Tensor& v) {
    const size_t B = v.size(0), T = v.size(2), C = v.size(1) * v.size(3);
    return block.attn.proj.forward(pg::reshape(pg::transpose(pg::matmul(att, v), 1, 2), {B, T, C}));
}

// w[b, head, t, s] of a (B,NH,T,T) tensor
float at(const pg::Tensor& w, size_t b, size_t head, size_t t, size_t s) {
    const size_t NH = w.size(1), T = w.size(2);
    return w.ptr()[((b * NH + head) * T + t) * T + s];
}


// A token as the picture labels it: B for BOS, S for SEP, else the character.
std::string label(const poet::Tokenizer& tok, int id) {
    if (id == poet::Tokenizer::BOS) return "B";
    if (id == poet::Tokenizer::SEP) return "S";
    return tok.token_str(id);
}

// ---- the picture: one heatmap per layer and head, the characters on both axes ----

// Head `head` of a (1,NH,T,T) tensor of weights as a small heatmap: no numbers, the future s > t grey.
svg::Heatmap head_map(const pg::Tensor& w, size_t layer, size_t head, const std::vector<std::string>& labels) {
    const size_t T = labels.size();
    svg::Heatmap m;
    m.title = lesson::tr("layer " + std::to_string(layer) + ", head " + std::to_string(head),
                         "第 " + std::to_string(layer) + " 层，第 " + std::to_string(head) + " 个头");
    m.values.assign(T, std::vector<double>(T));
    m.masked.assign(T, std::vector<bool>(T));
    for (size_t t = 0; t < T; ++t)
        for (size_t s = 0; s < T; ++s) m.values[t][s] = at(w, 0, head, t, s), m.masked[t][s] = s > t;
    m.row_labels = m.col_labels = labels;
    m.row_axis = lesson::tr("query t", "查询 t"), m.col_axis = lesson::tr("key s", "键 s");
    m.decimals = -1;
    m.cell = 12, m.font = 10;
    return m;
}

// Renders the SVG with rsvg-convert when the machine has it (Debian: librsvg2-bin) and reads the
// PNG's size from its header: "a 1692 x 816 PNG", or why not.
std::string render_with_rsvg(const std::string& svg) {
    if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0)
        return lesson::tr("rsvg-convert is not installed: not rendered", "没有安装 rsvg-convert：没有渲染");
    const std::string png =
        (std::filesystem::temp_directory_path() / ("lesson25_" + std::to_string(getpid()) + ".png")).string();
    if (std::system(("rsvg-convert -o '" + png + "' '" + svg + "'").c_str()) != 0)
        throw std::runtime_error("rsvg-convert could not render " + svg);
    std::ifstream in(png, std::ios::binary);
    unsigned char h[24] = {};
    in.read(reinterpret_cast<char*>(h), sizeof h);
    std::filesystem::remove(png);
    if (std::string(reinterpret_cast<char*>(h) + 1, 3) != "PNG" || std::string(reinterpret_cast<char*>(h) + 12, 4) != "IHDR")
        throw std::runtime_error("rsvg-convert wrote something that is not a PNG");
    auto be32 = [&](int o) {   // a big-endian 32-bit number
        return (uint32_t{h[o]} << 24) | (uint32_t{h[o + 1]} << 16) | (uint32_t{h[o + 2]} << 8) | uint32_t{h[o + 3]};
    };
    return lesson::tr("rsvg-convert rendered it: a " + std::to_string(be32(16)) + " x " + std::to_string(be32(20)) + " PNG",
                      "rsvg-convert 渲染成功：一张 " + std::to_string(be32(16)) + " x " + std::to_string(be32(20)) + " 的 PNG");
}

// ---- what the heads do, over many poems ----

// For every layer and head, the mean weight over N records (inputs (N,T)), over the queries in the
// poem (t = 3..26), on the keys that mean something here: BOS, k, SEP, the query itself, the previous
// position, the last characters of the lines before (all of them together, queries of lines 2-4:
// where a quatrain rhymes); the mean of each row's largest weight
// (1 for a head that looks at one key, 1/(t+1) for one that looks at all); and the weight the query
// that writes line 4's rhyme puts on line 2's rhyme. The last line is a uniform head's.
void print_head_table(pg::nn::GPT& gpt, const pg::Tensor& inputs) {
    gpt.forward_last(inputs);   // runs every block; each keeps its weights in attn.last_attention
    const size_t N = inputs.size(0), T = inputs.size(1), line = poet::quatrain::kLineChars + 1;
    const std::string rhyme_key = std::to_string(kWritesRhyme) + "->" + std::to_string(kLine2Rhyme);
    auto heading = [](const std::string& s, size_t width) { return lesson::pad(s, width, lesson::Align::right); };
    if (lesson::chinese())   // the same columns, each heading right-aligned over its numbers
        std::cout << lesson::pad("层    头", 12) << heading("BOS", 7) << heading("k", 7) << heading("SEP", 7)
                  << heading("自己", 7) << heading("前一个", 7) << heading("句末", 11) << heading("最大", 9)
                  << heading("韵脚 " + rhyme_key, 12) << "\n";
    else
        std::cout << "layer head    BOS      k    SEP   self   prev  line ends  largest  rhyme " << rhyme_key << "\n";
    auto row = [&](const std::string& name, auto weight) {
        double bos = 0, k = 0, sep = 0, self = 0, prev = 0, ends = 0, largest = 0, rhyme = 0;
        for (size_t b = 0; b < N; ++b) {
            for (size_t t = kPoemStart; t < T; ++t) {
                bos += weight(b, t, 0), k += weight(b, t, 1), sep += weight(b, t, 2);
                self += weight(b, t, t), prev += weight(b, t, t - 1);
                const size_t line_start = kPoemStart + (t - kPoemStart) / line * line;
                for (size_t end = kPoemStart + line - 2; end < line_start; end += line)
                    ends += weight(b, t, end);   // 尽, 流, 目 in 登鹳雀楼: t = 7, 13, 19
                double top = 0;
                for (size_t s = 0; s <= t; ++s) top = std::max(top, static_cast<double>(weight(b, t, s)));
                largest += top;
            }
            rhyme += weight(b, kWritesRhyme, kLine2Rhyme);
        }
        const double queries = static_cast<double>(N * (T - kPoemStart)),
                     later_queries = static_cast<double>(N * (T - kPoemStart - line));
        auto col = [](double v, int width) {
            std::string text = lesson::num(v, 2);
            return std::string(static_cast<size_t>(std::max(0, width - static_cast<int>(text.size()))), ' ') + text;
        };
        std::cout << lesson::pad(name, 12) << col(bos / queries, 7) << col(k / queries, 7)
                  << col(sep / queries, 7) << col(self / queries, 7) << col(prev / queries, 7)
                  << col(ends / later_queries, 11) << col(largest / queries, 9) << col(rhyme / static_cast<double>(N), 12)
                  << "\n";
    };
    for (size_t layer = 0; layer < gpt.blocks.size(); ++layer) {
        const pg::Tensor& w = gpt.blocks[layer]->attn.last_attention;   // (N,NH,T,T)
        for (size_t head = 0; head < w.size(1); ++head)
            row(std::to_string(layer) + "     " + std::to_string(head),
                [&](size_t b, size_t t, size_t s) { return at(w, b, head, t, s); });
    }
    row(lesson::tr("uniform", "均匀"), [](size_t, size_t t, size_t) { return 1.0 / static_cast<double>(t + 1); });   // 1/(t+1) each
}

}  // namespace

static void run() {
    lesson::section(lesson::tr("the model: lesson 22's run (small_poet.hpp), trained once and kept in build/lessons/small_poet/",
                               "模型：第 22 课的那一次训练（small_poet.hpp），训练一次，存在 build/lessons/small_poet/"));
    poet::PoetModel model = small_poet::model();
    pg::NoGradGuard no_grad;   // from here on only forward passes
    pg::nn::GPT& gpt = *model.gpt;
    const pg::nn::GPTConfig& cfg = gpt.config();
    const size_t NH = cfg.n_head, HS = cfg.n_embd / NH;
    const std::string val_loss = lesson::num(std::stod(model.metadata.at("val_loss")), 2);
    std::cout << lesson::tr(std::to_string(cfg.n_layer) + " layers, width C = " + std::to_string(cfg.n_embd) + ", NH = " +
                                std::to_string(NH) + " heads of HS = " + std::to_string(HS) + ", step " +
                                std::to_string(model.step) + ", validation loss " + val_loss + ", " +
                                std::to_string(pg::num_threads()) + " threads\n",
                            std::to_string(cfg.n_layer) + " 层，宽度 C = " + std::to_string(cfg.n_embd) + "，NH = " +
                                std::to_string(NH) + " 个头，每个 HS = " + std::to_string(HS) + "，第 " +
                                std::to_string(model.step) + " 步，验证损失 " + val_loss + "，" +
                                std::to_string(pg::num_threads()) + " 个线程\n");

    lesson::section(lesson::tr("one poem: 登鹳雀楼, a validation poem the model never trained on",
                               "一首诗：《登鹳雀楼》，一首模型从没训练过的验证诗"));
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), "jueju");
    const std::u32string wanted = U"白日依山尽，黄河入海流。欲穷千里目，更上一层楼。";
    const size_t index = static_cast<size_t>(std::find(corpus.val.begin(), corpus.val.end(), wanted) - corpus.val.begin());
    lesson::expect("登鹳雀楼 is in the validation set", index < corpus.val.size(), "found", "missing", "");
    std::vector<poet::Poem> val_poems = poet::encode_poems(corpus.val, model.tok);
    std::vector<int> record = poet::make_record(val_poems[index], poet::validation_slot(index));
    const size_t T = poet::kInputLength;
    std::vector<int> input(record.begin(), record.begin() + T);
    std::cout << lesson::tr("validation poem " + std::to_string(index) + ", slot " +
                                std::to_string(poet::validation_slot(index)) + ": k = " + model.tok.token_str(record[1]) +
                                "; the model reads the record's first " + std::to_string(T) + " ids\n",
                            "验证诗 " + std::to_string(index) + "，槽位 " + std::to_string(poet::validation_slot(index)) +
                                "：k = " + model.tok.token_str(record[1]) + "；模型读这条记录的前 " + std::to_string(T) +
                                " 个 id\n");
    std::vector<std::string> labels;
    for (size_t t = 0; t < T; ++t) {
        labels.push_back(label(model.tok, input[t]));
        std::cout << t << " " << model.tok.token_str(input[t]) << (t % 9 == 8 ? "\n" : "   ");
    }
    pg::Tensor ids = pg::tensor(std::vector<float>(input.begin(), input.end()), {1, T});   // (B,T) = (1,27)
    const poet::RhymeTable& rhymes = poet::pingshui();
    std::vector<int> line2 = rhymes.level_groups(U'流'), line4 = rhymes.level_groups(U'楼'), shared;
    std::set_intersection(line2.begin(), line2.end(), line4.begin(), line4.end(), std::back_inserter(shared));
    lesson::expect("流 and 楼 rhyme", !shared.empty(), "a level rhyme group in common", "none", "");
    const std::string l2 = std::to_string(kLine2Rhyme), l4 = std::to_string(kLine4Rhyme),
                      group = poet::group_label(rhymes.group(shared[0]));
    std::cout << lesson::tr("line 2 ends in " + labels[kLine2Rhyme] + " (t = " + l2 + "), line 4 in " + labels[kLine4Rhyme] +
                                " (t = " + l4 + "): both in the 平水韵 group " + group + "\n",
                            "第二句以" + labels[kLine2Rhyme] + "结尾（t = " + l2 + "），第四句以" + labels[kLine4Rhyme] +
                                "结尾（t = " + l4 + "）：同属平水韵 " + group + "\n");

    lesson::section(lesson::tr("layer 0, from the block's own modules", "第 0 层，用块自己的模块算"));
    pg::Tensor x = gpt.wte.forward(ids) + gpt.wpe.forward(pg::arange(T));   // the stream entering block 0
    std::vector<pg::Tensor> maps;   // per layer (1,NH,T,T)
    for (size_t layer = 0; layer < cfg.n_layer; ++layer) {
        pg::nn::Block& block = *gpt.blocks[layer];
        Heads h = heads_of(block, x);
        pg::Tensor att = attention_of(h);
        if (layer == 0) {
            std::cout << "x = wte(ids) + wpe(0..26) " << lesson::str(x.shape()) << " -> ln1 -> attn.qkv "
                      << lesson::str(block.attn.qkv.forward(block.ln1.forward(x)).shape())
                      << lesson::tr(" -> chunk(3): q, k, v ", " -> chunk(3)：q、k、v 各是 ") << lesson::str(x.shape())
                      << lesson::tr(" each\n", "\n") << lesson::tr("split into heads: q, k, v ", "拆成多头：q、k、v 是 ")
                      << lesson::str(h.q.shape()) << " = (B,NH,T,HS)\n"
                      << lesson::tr("scores q k^T ", "分数 q k^T ") << lesson::str(att.shape())
                      << lesson::tr(" = (B,NH,T,T), times 1/sqrt(HS) = 1/sqrt(", " = (B,NH,T,T)，乘以 1/sqrt(HS) = 1/sqrt(")
                      << HS << ") = " << lesson::num(1.0 / std::sqrt(static_cast<double>(HS)), 2)
                      << lesson::tr(", the future set to -inf, softmax over the keys\n",
                                    "，未来设为 -inf，沿键做 softmax\n");
            lesson::section(lesson::tr("by hand: row 2 (SEP) of layer 0, head 0, the three keys it sees",
                                       "手算：第 0 层第 0 个头的第 2 行（SEP），它看得到的三个键"));
            std::vector<double> scaled, e;
            double z = 0;
            for (size_t s = 0; s < 3; ++s) {
                double dot = 0;
                for (size_t d = 0; d < HS; ++d) dot += h.q.ptr()[2 * HS + d] * h.k.ptr()[s * HS + d];   // head 0, b 0
                scaled.push_back(dot / std::sqrt(static_cast<double>(HS)));
                std::cout << "q_2 . k_" << s << " = " << lesson::num(dot, 2) << lesson::tr(", / 4 = ", "，除以 4 = ")
                          << lesson::num(scaled.back(), 2) << "\n";
            }
            const double top = *std::max_element(scaled.begin(), scaled.end());
            for (double v : scaled) z += (e.emplace_back(std::exp(v - top)), e.back());
            for (size_t s = 0; s < 3; ++s) {
                std::cout << lesson::tr("weight on ", "放在 ") << labels[s] << lesson::tr(" = exp(", " 上的权重 = exp(")
                          << lesson::num(scaled[s] - top, 2) << ") / " << lesson::num(z, 2) << " = " << lesson::num(e[s] / z, 2)
                          << "\n";
                lesson::confirm("weight (2," + std::to_string(s) + ") by hand", e[s] / z, at(att, 0, 0, 2, s), 1e-5,
                                lesson::tr("pg::softmax's weight [0, 0, 2, ", "pg::softmax 给出的权重 [0, 0, 2, ") +
                                    std::to_string(s) + "]");
            }
        }
        lesson::section(lesson::tr("layer " + std::to_string(layer) + ": the weights are the block's own",
                                   "第 " + std::to_string(layer) + " 层：这些权重就是块自己的"));
        pg::Tensor ones = pg::sum(att, -1);   // (B,NH,T)
        float above = 0.f;
        for (size_t head = 0; head < NH; ++head)
            for (size_t t = 0; t < T; ++t)
                for (size_t s = t + 1; s < T; ++s) above = std::max(above, at(att, 0, head, t, s));
        std::cout << lesson::tr("max |row sum - 1| = ", "max |行和 - 1| = ")
                  << lesson::num(lesson::max_abs_diff(ones, pg::ones(ones.shape())), 6)
                  << lesson::tr(", largest weight above the diagonal = ", "，对角线以上最大的权重 = ") << lesson::num(above, 6)
                  << "\n";
        lesson::confirm("every row sums to 1", lesson::max_abs_diff(ones, pg::ones(ones.shape())), 0.0, 1e-5, "softmax");
        lesson::confirm("nothing above the diagonal", above, 0.0, 0.0, lesson::tr("the causal mask", "因果掩码"));
        pg::Tensor a = block.ln1.forward(x);
        pg::Tensor out = block.attn.forward(a);   // (B,T,C); keeps its weights in attn.last_attention
        lesson::confirm("against attn.last_attention", lesson::max_abs_diff(att, block.attn.last_attention), 0.0, 1e-6,
                        lesson::tr("CausalSelfAttention::forward's own weights", "CausalSelfAttention::forward 自己的权重"));
        lesson::confirm("recombined, proj(merge(att @ v)), against attn.forward(ln1(x))",
                        lesson::max_abs_diff(recombine(block, att, h.v), out), 0.0, 1e-5,
                        lesson::tr("the block's attention output", "块的注意力输出"));
        maps.push_back(att);
        x = block.forward(x);   // the stream entering the next block
    }

    const std::string picture = lesson::chinese() ? "attention.zh.svg" : "attention.svg";   // README.zh.md shows the Chinese one
    lesson::section(lesson::tr("the heatmaps: ", "热力图：") + picture);
    std::vector<svg::Heatmap> panels;   // a row of NH maps per layer
    for (size_t layer = 0; layer < cfg.n_layer; ++layer)
        for (size_t head = 0; head < NH; ++head) panels.push_back(head_map(maps[layer], layer, head, labels));
    svg::HeatmapCounts drawn;
    const svg::Output out = svg::in_lesson_folder(__FILE__, picture);
    svg::write_file(out.path, svg::heatmaps(panels,
                                            lesson::tr("登鹳雀楼 (k = 山): row t = the query, column s = the key it reads; "
                                                       "darker = more weight, grey = the masked future",
                                                       "登鹳雀楼（k = 山）：第 t 行是查询，第 s 列是它读的键；"
                                                       "越深权重越大，灰色是掩码遮住的未来"),
                                            NH, &drawn));
    const std::string n = std::to_string(T), on_below = std::to_string(T * (T + 1) / 2), above = std::to_string(T * (T - 1) / 2);
    std::cout << lesson::tr("wrote " + out.shown + ": " + std::to_string(drawn.maps) + " maps of " + n + " x " + n + ", " +
                                std::to_string(drawn.cells) + " cells (in each map the " + on_below +
                                " on and below the diagonal shaded, the " + above + " above it grey: " +
                                std::to_string(drawn.masked) + " grey, the masked future), " + std::to_string(drawn.labels) +
                                " character labels\n",
                            "写出了 " + out.shown + "：" + std::to_string(drawn.maps) + " 张 " + n + " x " + n + " 的图，" +
                                std::to_string(drawn.cells) + " 个格子（每张图里对角线上和对角线以下的 " + on_below +
                                " 个按权重着色，对角线以上的 " + above + " 个是灰色：共 " + std::to_string(drawn.masked) +
                                " 个灰格子，即掩码遮住的未来），" + std::to_string(drawn.labels) + " 个字的标签\n");
    std::map<std::string, size_t> elements = svg::check_file(out.path);
    std::cout << lesson::tr("read back: well-formed XML, one <svg>, ", "读回来检查：格式良好的 XML，一个 <svg>，")
              << elements["rect"] << lesson::tr(" <rect> (cells, borders, background), ", " 个 <rect>（格子、边框、背景），")
              << elements["text"] << lesson::tr(" <text> (labels, titles, axis names)\n", " 个 <text>（标签、标题、坐标轴名）\n");
    lesson::confirm("<rect> elements", static_cast<double>(elements["rect"]), static_cast<double>(drawn.rects()), 0.0,
                    lesson::tr("one per cell, a border per map, a background", "每个格子一个、每张图一个边框、一个背景"));
    lesson::confirm("<text> elements", static_cast<double>(elements["text"]), static_cast<double>(drawn.texts(true)), 0.0,
                    lesson::tr("two labels per position, a title and two axis names per map, one title",
                               "每个位置两个标签、每张图一个标题和两个坐标轴名、整张图一个标题"));
    std::cout << render_with_rsvg(out.path) << "\n";

    lesson::section(lesson::tr("this poem: the query at " + labels[kWritesRhyme] + " (t = 24), whose output predicts the rhyme " +
                                   labels[kLine4Rhyme],
                               "这首诗：" + labels[kWritesRhyme] + "（t = 24）处的查询，它的输出预测韵脚" + labels[kLine4Rhyme]));
    const double uniform = 1.0 / static_cast<double>(kWritesRhyme + 1);
    const std::string keys_seen = std::to_string(kWritesRhyme + 1);
    std::cout << lesson::tr("a uniform head would give each of its " + keys_seen + " keys 1/" + keys_seen + " = ",
                            "一个均匀的头会给它的 " + keys_seen + " 个键各 1/" + keys_seen + " = ")
              << lesson::num(uniform, 2) << "\n";
    lesson::confirm("the uniform share", uniform, 0.04, 1e-12, "1/25");
    for (size_t layer = 0; layer < cfg.n_layer; ++layer)
        for (size_t head = 0; head < NH; ++head) {
            std::vector<size_t> keys(kWritesRhyme + 1);
            for (size_t s = 0; s < keys.size(); ++s) keys[s] = s;
            std::sort(keys.begin(), keys.end(), [&](size_t a, size_t b) {
                return at(maps[layer], 0, head, kWritesRhyme, a) > at(maps[layer], 0, head, kWritesRhyme, b);
            });
            std::cout << lesson::tr("layer " + std::to_string(layer) + " head " + std::to_string(head) + ": on " +
                                        labels[kLine2Rhyme] + " (t = 13) ",
                                    "第 " + std::to_string(layer) + " 层第 " + std::to_string(head) + " 个头：放在" +
                                        labels[kLine2Rhyme] + "（t = 13）上 ")
                      << lesson::num(at(maps[layer], 0, head, kWritesRhyme, kLine2Rhyme), 2)
                      << lesson::tr("; most on", "；最多的是");
            for (size_t j = 0; j < 3; ++j)
                std::cout << " " << labels[keys[j]] << lesson::tr(" (t = ", "（t = ") << keys[j] << lesson::tr(") ", "）")
                          << lesson::num(at(maps[layer], 0, head, kWritesRhyme, keys[j]), 2);
            std::cout << "\n";
        }

    lesson::section(lesson::tr("what each head does, over the first 256 validation poems (mean weights, queries t = 3..26)",
                               "每个头在做什么：前 256 首验证诗上的平均权重（查询 t = 3..26）"));
    pg::Tensor inputs = poet::validation_batch(val_poems, 0, 256).inputs;   // (256,27)
    print_head_table(gpt, inputs);

    lesson::section(lesson::tr("the same table for the demo's model (runs/poet/model.ckpt), when ./poet demo has made one",
                               "demo 模型（runs/poet/model.ckpt）的同一张表，如果 ./poet demo 已经训练出了它"));
    if (std::optional<poet::PoetModel> demo = small_poet::demo_model()) {
        std::cout << lesson::tr("step " + std::to_string(demo->step) + ", " + std::to_string(demo->gpt->config().n_layer) +
                                    " layers, width " + std::to_string(demo->gpt->config().n_embd) +
                                    " (differs with every demo run: the README quotes none of it)\n",
                                "第 " + std::to_string(demo->step) + " 步，" + std::to_string(demo->gpt->config().n_layer) +
                                    " 层，宽度 " + std::to_string(demo->gpt->config().n_embd) +
                                    "（每跑一次 demo 都不一样：README 一个数也不引用）\n");
        print_head_table(*demo->gpt,
                         poet::validation_batch(poet::encode_poems(corpus.val, demo->tok), 0, 256, demo->copy_token).inputs);
    } else {
        std::cout << lesson::tr("no runs/poet/model.ckpt: run ./poet demo, then this lesson again\n",
                                "没有 runs/poet/model.ckpt：先运行 ./poet demo，再运行这一课\n");
    }
}

int main() { return lesson::run_experiment(run); }
