// Lesson 20 experiment: the poet's whole GPT, logits = head(ln_f(blocks(wte(ids) + wpe(0..T-1)))),
// built from the default config, its 2.8 M parameters counted by formula, one forward step by step,
// the loss at initialisation beside ln V, where the gradient lands, and a gradcheck of a micro GPT.
// Leaves out: training (lessons 21-22) and sampling (lesson 23).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>
#include "lesson.hpp"
#include "poet/config.hpp"
#include "poet/corpus.hpp"
#include "poet/model.hpp"
#include "poet/records.hpp"
#include "poet/tokenizer.hpp"
#include "poet/train.hpp"

// The standard deviation of all of t's numbers (about the mean), accumulated in double.
static double std_of(const pg::Tensor& t) {
    std::vector<float> v = t.to_vector();
    double mean = 0, sq = 0;
    for (float x : v) mean += x;
    mean /= static_cast<double>(v.size());
    for (float x : v) sq += (x - mean) * (x - mean);
    return std::sqrt(sq / static_cast<double>(v.size()));
}

static float max_abs_diff(const pg::Tensor& a, const pg::Tensor& b) {
    std::vector<float> va = a.to_vector(), vb = b.to_vector();
    float m = 0.f;
    for (size_t i = 0; i < va.size(); ++i) m = std::max(m, std::fabs(va[i] - vb[i]));
    return m;
}

// How many rows of a (N, C) gradient hold at least one nonzero number.
static size_t nonzero_rows(const pg::Tensor& grad) {
    size_t N = grad.shape()[0], C = grad.shape()[1], rows = 0;
    for (size_t r = 0; r < N; ++r)
        for (size_t c = 0; c < C; ++c)
            if (grad.ptr()[r * C + c] != 0.f) {
                ++rows;
                break;
            }
    return rows;
}

// The largest difference between position t's logits and position 0's, over t: (1,T,V) -> number.
static float spread_over_positions(const pg::Tensor& logits) {
    size_t T = logits.shape()[1], V = logits.shape()[2];
    float m = 0.f;
    for (size_t t = 1; t < T; ++t)
        for (size_t v = 0; v < V; ++v) m = std::max(m, std::fabs(logits.ptr()[t * V + v] - logits.ptr()[v]));
    return m;
}

static std::string pct(size_t part, size_t total) {
    return lesson::num(100.0 * static_cast<double>(part) / static_cast<double>(total), 2) + "%";
}

static void run() {
    lesson::section(lesson::tr("the poet's default model", "诗人的默认模型"));
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), "all");
    poet::Tokenizer tok = poet::Tokenizer::build(corpus.train);
    std::vector<poet::Poem> poems = poet::encode_poems(corpus.train, tok);
    poet::TrainConfig cfg;
    const size_t V = tok.size();
    pg::nn::GPTConfig gcfg = poet::gpt_config(cfg, V);
    std::cout << lesson::tr("corpus 'all': ", "语料 'all'：") << poems.size()
              << lesson::tr(" training quatrains; the tokenizer's V = ", " 首训练绝句；分词器的 V = ") << V << "\n";
    lesson::confirm("V", static_cast<double>(V), 7817, 0, lesson::tr("`./poet bench` prints vocab_size", "`./poet bench` 打印的 vocab_size"));
    std::cout << lesson::tr("gpt_config: ", "gpt_config 给出的配置：") << "vocab_size " << gcfg.vocab_size << ", context " << gcfg.context << ", n_layer "
              << gcfg.n_layer << ", n_head " << gcfg.n_head << ", n_embd " << gcfg.n_embd << ", dropout "
              << lesson::num(gcfg.dropout, 1) << "\n";
    poet::PoetModel model = poet::make_model(tok, gcfg, cfg.seed);
    pg::nn::GPT& gpt = *model.gpt;

    lesson::section(lesson::tr("the parameters, by formula and by parameters()", "参数：按公式数，再用 parameters() 数"));
    const size_t C = gcfg.n_embd, L = gcfg.n_layer, ctx = gcfg.context;
    const size_t wte = V * C, wpe = ctx * C, block = 12 * C * C + 13 * C, ln_f = 2 * C, head = V * C;
    const size_t total = wte + wpe + L * block + ln_f + head;
    auto row = [&](const std::string& part, const std::string& shape, const std::string& formula, size_t count) {
        std::printf("  %s %s %s %8zu %7s\n", lesson::pad(part, 7).c_str(), lesson::pad(shape, 13).c_str(),
                    lesson::pad(formula, 16).c_str(), count, pct(count, total).c_str());
    };
    std::cout << lesson::tr("  part    shape         formula             count   share",
                            "  部分    形状          公式                 个数    占比") << "\n";
    row("wte", lesson::str(gpt.wte.weight.shape()), "V C", wte);
    row("wpe", lesson::str(gpt.wpe.weight.shape()), lesson::tr("context C", "上下文 C"), wpe);
    row("blocks", std::to_string(L) + lesson::tr(" blocks", " 个块"), "4 (12C^2 + 13C)", L * block);
    row("ln_f", "(128), (128)", "2C", ln_f);
    row("head", lesson::str(gpt.head.weight.shape()), lesson::tr("V C (no bias)", "V C（无偏置）"), head);
    std::printf("  %s %-13s %-16s %8zu\n", lesson::pad(lesson::tr("total", "合计"), 7).c_str(), "", "", total);
    std::vector<pg::Tensor> params = gpt.parameters();
    size_t summed = 0;
    for (const pg::Tensor& p : params) summed += p.numel();
    std::cout << "gpt.parameters(): " << params.size() << lesson::tr(" tensors holding ", " 个张量，共 ") << summed
              << lesson::tr(" numbers; gpt.num_parameters() = ", " 个数；gpt.num_parameters() = ") << gpt.num_parameters() << "\n";
    lesson::confirm("num_parameters against the formula", static_cast<double>(gpt.num_parameters()),
                    static_cast<double>(total), 0, "2 V C + context C + n_layer (12 C^2 + 13 C) + 2 C");
    lesson::confirm("num_parameters", static_cast<double>(gpt.num_parameters()), 2798592, 0,
                    lesson::tr("`./poet bench` prints parameters", "`./poet bench` 打印的 parameters"));
    std::cout << lesson::tr("the embedding and the head together: ", "嵌入表和输出头合起来：") << pct(wte + head, total)
              << lesson::tr(" of the weights", "的权重") << "\n";
    {
        const double V3 = 50257, C3 = 12288, ctx3 = 2048, L3 = 96;  // GPT-3's shape, the same formula
        double untied = 2 * V3 * C3 + ctx3 * C3 + L3 * (12 * C3 * C3 + 13 * C3) + 2 * C3;
        std::printf(lesson::chinese()
                        ? "GPT-3 的形状（V 50257，context 2048，96 层，C 12288）：%.0f = 不共享时 %.1f B，"
                          "head 与 wte 共享权重时 %.1f B（GPT-2 和 GPT-3 就是这样）\n"
                        : "GPT-3's shape (V 50257, context 2048, 96 layers, C 12288): %.0f = %.1f B untied, "
                          "%.1f B with the head tied to wte (as in GPT-2 and GPT-3)\n",
                    untied, untied / 1e9, (untied - V3 * C3) / 1e9);
    }

    lesson::section(lesson::tr("one forward, step by step: a batch of 64 real records", "一次前向，一步一步：一批 64 条真实记录"));
    pg::Generator data_gen(cfg.seed);
    poet::Batch batch = poet::sample_batch(poems, cfg.batch, data_gen);
    const size_t B = batch.inputs.shape()[0], T = batch.inputs.shape()[1];
    std::vector<int> row0;
    for (size_t t = 0; t < T; ++t) row0.push_back(static_cast<int>(batch.inputs.ptr()[t]));
    std::cout << lesson::tr("record 0's inputs: ", "记录 0 的输入：") << tok.decode(row0) << "\n";
    std::cout << "ids " << lesson::str(batch.inputs.shape()) << lesson::tr(", targets ", "，targets ") << lesson::str(batch.targets.shape())
              << "\n";
    pg::Tensor tok_emb = gpt.wte.forward(batch.inputs);            // (B,T,C)
    pg::Tensor pos_emb = gpt.wpe.forward(pg::arange(T));           // (T,C)
    pg::Tensor x = tok_emb + pos_emb;                              // (B,T,C), pos_emb broadcast over B
    std::cout << "tok_emb = wte(ids)          " << lesson::str(tok_emb.shape()) << "  std "
              << lesson::num(std_of(tok_emb)) << "\n";
    std::cout << "pos_emb = wpe(arange(27))   " << lesson::str(pos_emb.shape()) << "    std "
              << lesson::num(std_of(pos_emb)) << "\n";
    std::cout << "x = tok_emb + pos_emb       " << lesson::str(x.shape()) << "  std " << lesson::num(std_of(x))
              << lesson::tr("   (by hand: 0.02 sqrt 2 = ", "   （手算：0.02 sqrt 2 = ") << lesson::num(0.02 * std::sqrt(2.0))
              << lesson::tr(")", "）") << "\n";
    for (size_t i = 0; i < L; ++i) {
        x = gpt.blocks[i]->forward(x);
        std::cout << "x = blocks[" << i << "](x)            " << lesson::str(x.shape()) << "  std "
                  << lesson::num(std_of(x)) << "\n";
    }
    pg::Tensor normed = gpt.ln_f.forward(x);                       // (B,T,C)
    std::cout << "ln_f(x)                     " << lesson::str(normed.shape()) << "  std "
              << lesson::num(std_of(normed)) << "\n";
    pg::Tensor logits = gpt.head.forward(normed);                  // (B,T,V)
    std::cout << "logits = head(ln_f(x))      " << lesson::str(logits.shape()) << " std "
              << lesson::num(std_of(logits)) << lesson::tr("   (by hand: 0.02 sqrt 128 = ", "   （手算：0.02 sqrt 128 = ")
              << lesson::num(0.02 * std::sqrt(128.0)) << lesson::tr(")", "）") << "\n";
    pg::Tensor logits_lib = gpt.forward(batch.inputs);
    lesson::confirm("assembled against gpt.forward, max |difference|", max_abs_diff(logits, logits_lib), 0, 0,
                    "GPT::forward");

    lesson::section(lesson::tr("why the position embedding: 春 five times", "为什么要位置嵌入：春字连写五遍"));
    std::vector<int> spring(5, tok.id(U'春'));
    pg::Tensor ids5 = pg::tensor(std::vector<float>(spring.begin(), spring.end()), {1, 5});
    pg::Tensor with_wpe = gpt.forward(ids5);
    pg::Tensor h = gpt.wte.forward(ids5);                          // (1,5,C), no wpe
    for (auto& blk : gpt.blocks) h = blk->forward(h);
    pg::Tensor without_wpe = gpt.head.forward(gpt.ln_f.forward(h));
    std::cout << "ids " << tok.decode(spring) << " " << lesson::str(ids5.shape())
              << lesson::tr("; max over t of |logits[t] - logits[0]|:\n", "；各位置 t 上 |logits[t] - logits[0]| 的最大值：\n")
              << lesson::tr("  with wpe    ", "  有 wpe      ") << lesson::num(spread_over_positions(with_wpe)) << "\n"
              << lesson::tr("  without wpe ", "  没有 wpe    ") << lesson::num(spread_over_positions(without_wpe))
              << lesson::tr("   (every position sees the same 春 and averages the same values)",
                            "   （每个位置看到的都是同一个春字，平均的也是同样的值）") << "\n";

    lesson::section(lesson::tr("the loss at initialisation, beside ln V", "初始化时的损失，与 ln V 对照"));
    pg::Tensor loss = poet::batch_loss(gpt, batch);
    size_t counted = 0;
    for (float y : batch.targets.to_vector()) counted += y != static_cast<float>(poet::kIgnore);
    double lnV = std::log(static_cast<double>(V)), var = std_of(logits) * std_of(logits);
    std::cout << lesson::tr("poet::batch_loss over ", "poet::batch_loss，计入的目标共 ") << counted
              << lesson::tr(" counted targets (", " 个（") << B << lesson::tr(" records x 25)", " 条记录 x 25）") << "\n";
    std::cout << lesson::tr("loss at init       ", "初始损失           ") << lesson::num(loss.item(), 3) << "\n";
    std::cout << "ln V = ln 7817     " << lesson::num(lnV, 4)
              << lesson::tr("   (the loss of a uniform guess, p = 1/V = ", "   （均匀猜测的损失，p = 1/V = ")
              << lesson::num(1.0 / static_cast<double>(V), 6) << lesson::tr(")", "）") << "\n";
    std::cout << "loss - ln V        " << lesson::num(loss.item() - lnV, 3) << "\n";
    std::cout << "var(logits) / 2    " << lesson::num(var / 2, 3)
              << lesson::tr("   (ln of the mean of e^z for z ~ N(0, var))", "   （z ~ N(0, var) 时 e^z 均值的对数）") << "\n";
    pg::Tensor probs = pg::softmax(logits_lib, -1);
    std::vector<float> pv = probs.to_vector();
    float pmax = *std::max_element(pv.begin(), pv.end()), pmin = *std::min_element(pv.begin(), pv.end());
    std::cout << lesson::tr("softmax over V: every probability between ", "V 上的 softmax：每个概率都在 ") << lesson::num(pmin * V, 2)
              << lesson::tr("/V and ", "/V 与 ") << lesson::num(pmax * V, 2) << lesson::tr("/V", "/V 之间") << "\n";
    // loss = mean over counted rows of (logsumexp(z) - z[target]): split it into its two parts
    std::vector<float> z = logits_lib.to_vector(), y = batch.targets.to_vector();
    double lse_sum = 0, zt_sum = 0, zt_marks = 0;
    size_t marks = 0;
    const int comma = tok.id(U'，'), stop = tok.id(U'。');
    for (size_t r = 0; r < B * T; ++r) {
        if (y[r] == static_cast<float>(poet::kIgnore)) continue;
        const float* row = z.data() + r * V;
        double m = *std::max_element(row, row + V), s = 0;
        for (size_t v = 0; v < V; ++v) s += std::exp(row[v] - m);
        int target = static_cast<int>(y[r]);
        lse_sum += m + std::log(s);
        zt_sum += row[target];
        if (target == comma || target == stop || target == poet::Tokenizer::EOS) {
            zt_marks += row[target];
            ++marks;
        }
    }
    double lse = lse_sum / static_cast<double>(counted), zt = zt_sum / static_cast<double>(counted);
    std::cout << lesson::tr("loss = mean logsumexp(z) - mean z[target]:\n", "损失 = logsumexp(z) 的均值 - z[target] 的均值：\n")
              << "  mean logsumexp(z) - ln V " << lesson::num(lse - lnV, 3) << lesson::tr("   (the var/2 above)", "   （即上面的 var/2）") << "\n"
              << "  mean z[target]           " << lesson::num(zt, 3) << lesson::tr("   (0 on average; ", "   （平均为 0；") << marks
              << lesson::tr(" of the ", " 个目标（共 ") << counted
              << lesson::tr(" targets are ，。 or EOS, read from just three rows of head)", " 个）是 ，。 或 EOS，只从 head 的三行读出）") << "\n"
              << lesson::tr("  of which ，。EOS bring    ", "  其中 ，。EOS 贡献     ") << lesson::num(zt_marks / static_cast<double>(counted), 3) << "\n";
    lesson::confirm("loss against its two parts", loss.item(), lse - zt, 1e-4,
                    lesson::tr("mean logsumexp - mean z[target]", "logsumexp 的均值 - z[target] 的均值"));
    lesson::confirm("mean logsumexp - ln V against var/2", lse - lnV, var / 2, 2e-3,
                    lesson::tr("logsumexp of V small logits: ln V + var/2", "V 个很小的 logit 的 logsumexp：ln V + var/2"));

    lesson::section(lesson::tr("backward: every parameter receives a gradient", "反向：每个参数都收到梯度"));
    loss.backward();
    size_t with_grad = 0;
    for (const pg::Tensor& p : params) with_grad += p.has_grad();
    std::cout << lesson::tr("tensors with a gradient: ", "有梯度的张量：") << with_grad << lesson::tr(" of ", " / ") << params.size() << "\n";
    lesson::confirm("tensors with a gradient", static_cast<double>(with_grad), static_cast<double>(params.size()), 0,
                    lesson::tr("every parameter is on the path to the loss", "每个参数都在通往损失的路径上"));
    std::set<float> distinct(batch.inputs.ptr(), batch.inputs.ptr() + B * T);
    std::cout << lesson::tr("wte.weight  rows with a nonzero gradient: ", "wte.weight  梯度非零的行：") << nonzero_rows(gpt.wte.weight.grad())
              << lesson::tr(" of ", " / ") << V << lesson::tr("   (the batch holds ", "   （这批数据里有 ") << distinct.size()
              << lesson::tr(" different input ids)", " 个不同的输入编号）") << "\n";
    lesson::confirm("wte rows with a gradient", static_cast<double>(nonzero_rows(gpt.wte.weight.grad())),
                    static_cast<double>(distinct.size()), 0, lesson::tr("the ids in the batch", "这批数据里的编号"));
    std::cout << lesson::tr("wpe.weight  rows with a nonzero gradient: ", "wpe.weight  梯度非零的行：") << nonzero_rows(gpt.wpe.weight.grad())
              << lesson::tr(" of ", " / ") << ctx << lesson::tr("   (inputs are T = ", "   （输入长 T = ") << T
              << lesson::tr(" long)", "）") << "\n";
    std::cout << lesson::tr("head.weight rows with a nonzero gradient: ", "head.weight 梯度非零的行：") << nonzero_rows(gpt.head.weight.grad())
              << lesson::tr(" of ", " / ") << V << lesson::tr("   (softmax pushes every logit)", "   （softmax 推动每一个 logit）") << "\n";

    lesson::section(lesson::tr("gradient check of a micro GPT: V 10, context 8, 2 blocks of C 8, 2 heads", "微型 GPT 的梯度检验：V 10，context 8，2 个 C 8 的块，2 个头"));
    pg::nn::GPTConfig micro_cfg;
    micro_cfg.vocab_size = 10;
    micro_cfg.context = 8;
    micro_cfg.n_layer = 2;
    micro_cfg.n_head = 2;
    micro_cfg.n_embd = 8;
    pg::Generator micro_gen(20);
    pg::nn::GPT micro(micro_cfg, micro_gen);
    std::vector<float> ids, targets;
    for (size_t i = 0; i < 2 * 6; ++i) ids.push_back(static_cast<float>(micro_gen.randint(10)));
    for (size_t i = 0; i < 2 * 6; ++i) targets.push_back(i % 6 < 2 ? poet::kIgnore : static_cast<float>(micro_gen.randint(10)));
    poet::Batch micro_batch{pg::tensor(ids, {2, 6}), pg::tensor(targets, {12})};
    std::vector<pg::Tensor> inputs = micro.parameters();
    std::cout << lesson::tr("ids (2,6), loss = poet::batch_loss; inputs: the ", "ids (2,6)，loss = poet::batch_loss；输入：")
              << inputs.size() << lesson::tr(" parameter tensors, ", " 个参数张量，共 ") << micro.num_parameters()
              << lesson::tr(" numbers (80 + 64 + 2 x 872 + 16 + 80)", " 个数（80 + 64 + 2 x 872 + 16 + 80）") << "\n";
    auto loss_of = [&](const std::vector<pg::Tensor>&) { return poet::batch_loss(micro, micro_batch); };
    // one gradcheck per group of tensors, to see where the central difference is least accurate
    std::vector<std::pair<std::string, std::vector<pg::Tensor>>> groups = {
        {"wte", {micro.wte.weight}}, {"wpe", {micro.wpe.weight}}, {"blocks", {}},
        {"ln_f", {micro.ln_f.weight, micro.ln_f.bias}}, {"head", {micro.head.weight}}};
    for (auto& blk : micro.blocks)
        for (const pg::Tensor& p : blk->parameters()) groups[2].second.push_back(p);
    std::cout << lesson::tr("eps (the nudge)  group   numbers  verdict  max |analytic - numeric|",
                            "eps（步长）      参数组     个数  结论     max |解析 - 数值|") << "\n";
    for (double eps : {1e-2, 1e-3}) {
        pg::GradcheckOptions opt;
        opt.eps = eps;
        for (const auto& [name, tensors] : groups) {
            pg::GradcheckResult res = pg::gradcheck(loss_of, tensors, opt);
            size_t n = 0;
            for (const pg::Tensor& t : tensors) n += t.numel();
            // one digit: below about 1e-4 float32 rounding, which differs between machines, takes over
            char err[32];
            std::snprintf(err, sizeof err, "%.0e", res.max_abs_error);
            std::string worst = res.max_abs_error < 1e-4 ? lesson::tr("below 1e-4", "低于 1e-4") : err;
            std::printf("  %-14g %-7s %7zu  %s  %s\n", eps, name.c_str(), n,
                        lesson::pad(res.ok ? lesson::tr("ok", "通过") : lesson::tr("FAILED", "失败"), 7).c_str(), worst.c_str());
            lesson::expect("gradcheck of the micro GPT's " + name, res.ok, "ok", res.report, "");
        }
    }
    std::cout << lesson::tr("(a check passes when |a - n| <= 2e-3 + 2e-2 |n|)", "（|a - n| <= 2e-3 + 2e-2 |n| 时检验通过）") << "\n";
    std::vector<float> g = micro.wpe.weight.grad().to_vector();   // (8,8): rows 6, 7 are positions T never reached
    float unused = 0.f;
    for (size_t i = 6 * 8; i < 8 * 8; ++i) unused = std::max(unused, std::fabs(g[i]));
    std::cout << lesson::tr("wpe rows 6 and 7 (T = 6 never reaches them): max |gradient| ",
                            "wpe 的第 6、7 行（T = 6 够不到它们）：max |梯度| ")
              << lesson::num(unused) << lesson::tr("; rows with a nonzero gradient ", "；梯度非零的行 ")
              << nonzero_rows(micro.wpe.weight.grad()) << lesson::tr(" of 8", " / 8") << "\n";
}

int main() { return lesson::run_experiment(run); }
