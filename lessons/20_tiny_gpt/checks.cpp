// Lesson 20's checks for gpt_parameter_count and gpt_forward, shared by starter.cpp, solution.cpp and
// your exercise.cpp: counts against num_parameters(), the forward against pg::nn::GPT with the same
// weights, and probes that tell a missing piece by its behaviour. Leaves out: training, sampling.
#include "check.hpp"
#include "check_tools.hpp"

namespace check20 {

inline std::string no_positions_hint() {
    return lesson::tr("every position gives the same logits, so your forward cannot see positions: the position embedding is "
                      "missing; add it to the token embedding, x = wte(ids) + wpe(arange(T))",
                      "每个位置给出的 logits 都一样，所以你的前向计算看不到位置：缺了位置嵌入；把它加到字嵌入上，x = wte(ids) + wpe(arange(T))");
}
inline std::string positions_from_ids_hint() {
    return lesson::tr("your position vectors change with the token ids: positions looked up with the token ids, wpe(ids); the "
                      "positions are 0..T-1 whatever the tokens are: wpe.forward(pg::arange(T))",
                      "你的位置向量随字的编号而变：位置是用字的编号查出来的，wpe(ids)；不管是哪些字，位置都是 0..T-1：wpe.forward(pg::arange(T))");
}
inline std::string no_final_norm_hint() {
    return lesson::tr("with ln_f's weight 0 and bias b, ln_f(x) = b at every position and every logit row must be head(b): the "
                      "final LayerNorm ln_f is missing, or is not the last step before the head: logits = head(ln_f(x))",
                      "ln_f 的 weight 为 0、bias 为 b 时，每个位置上 ln_f(x) = b，每一行 logits 都必须是 head(b)：缺了最后的 LayerNorm ln_f，或者它不是 head 之前的最后一步：logits = head(ln_f(x))");
}
inline std::string blocks_combined_hint() {
    return lesson::tr("positions, ln_f and every block are there, yet the blocks combine differently from GPT::forward: each "
                      "block already adds its own residual, so x = block->forward(x), not x + block->forward(x); every block "
                      "once, in order",
                      "位置、ln_f 和每个块都在，但块的组合方式与 GPT::forward 不同：每个块已经加上了自己的残差，所以是 x = block->forward(x)，而不是 x + block->forward(x)；每个块按顺序各用一次");
}

inline pg::nn::GPTConfig config(size_t V, size_t context, size_t n_layer, size_t n_head, size_t C) {
    pg::nn::GPTConfig cfg;
    cfg.vocab_size = V;
    cfg.context = context;
    cfg.n_layer = n_layer;
    cfg.n_head = n_head;
    cfg.n_embd = C;
    return cfg;
}

inline std::unique_ptr<pg::nn::GPT> make_gpt(const pg::nn::GPTConfig& cfg, pg::Generator& gen) {
    return std::make_unique<pg::nn::GPT>(cfg, gen);
}

// Gives every LayerNorm and bias its own random numbers (they start as ones and zeros), so that a
// forward that leaves one out, or mixes two up, cannot match GPT::forward by luck.
inline void distinguish(pg::nn::GPT& gpt, pg::Generator& gen) {
    std::vector<pg::Tensor*> weights = {&gpt.ln_f.weight}, biases = {&gpt.ln_f.bias};
    for (auto& b : gpt.blocks) {
        weights.insert(weights.end(), {&b->ln1.weight, &b->ln2.weight});
        biases.insert(biases.end(), {&b->ln1.bias, &b->ln2.bias, &b->attn.qkv.bias, &b->attn.proj.bias,
                                     &b->mlp.fc.bias, &b->mlp.out.bias});
    }
    for (pg::Tensor* w : weights) w->copy_(pg::randn(w->shape(), gen) * 0.3f + 1.f);
    for (pg::Tensor* b : biases) b->copy_(pg::randn(b->shape(), gen) * 0.3f);
}

inline pg::Tensor random_ids(size_t B, size_t T, size_t V, pg::Generator& gen) {
    std::vector<float> ids(B * T);
    for (float& id : ids) id = static_cast<float>(gen.randint(V));
    return pg::tensor(ids, {B, T});
}

// Targets as a record has them: the first two of each row ignored.
inline pg::Tensor record_targets(size_t B, size_t T, size_t V, pg::Generator& gen) {
    std::vector<float> y(B * T);
    for (size_t i = 0; i < B * T; ++i) y[i] = i % T < 2 ? poet::kIgnore : static_cast<float>(gen.randint(V));
    return pg::tensor(y, {B * T});
}

// Your forward, with the errors its ops can throw turned into a hint about the likely cause, and an
// answer that came back from an earlier call (another model or other ids) caught.
inline pg::Tensor call_forward(pg::nn::GPT& gpt, const pg::Tensor& ids) {
    static std::vector<pg::Tensor> earlier;   // the right logits of the earlier calls, copied
    pg::Tensor got;
    try {
        got = exercise::gpt_forward(parts_of(gpt), ids);
    } catch (const pg::ShapeError& e) {
        throw lesson::CheckFailed("gpt_forward" + lesson::str(ids.shape()), "logits (B,T,V)",
                                  lesson::tr("a ShapeError: ", "抛出了 ShapeError：") + e.what(),
                                  lesson::tr("wpe.forward(pg::arange(T)) is (T,C) for this batch's T, not the whole context; "
                                             "the stream stays (B,T,C) through the blocks and ln_f, and only the head makes "
                                             "it (B,T,V)",
                                             "wpe.forward(pg::arange(T)) 是对应这一批的 T 的 (T,C)，而不是整个上下文；"
                                             "残差流经过各个块和 ln_f 时一直是 (B,T,C)，只有 head 才把它变成 (B,T,V)"));
    } catch (const std::out_of_range& e) {
        throw lesson::CheckFailed("gpt_forward" + lesson::str(ids.shape()), "logits (B,T,V)",
                                  lesson::tr("an out_of_range: ", "抛出了 out_of_range：") + e.what(),
                                  lesson::tr("an id reached a table with no row for it: wpe has one row per position "
                                             "(context rows), so positions looked up with the token ids fail once an id "
                                             "passes the context; use wpe.forward(pg::arange(T))",
                                             "有个编号进了一张没有它那一行的表：wpe 每个位置一行（共 context 行），"
                                             "所以一旦编号超过上下文长度，用字的编号去查位置就会失败；"
                                             "请用 wpe.forward(pg::arange(T))"));
    }
    pg::Tensor want;
    {
        pg::NoGradGuard no_grad;
        want = gpt.forward(ids);
    }
    // only right answers are remembered: a probe repeats its input, and a wrong forward its wrong answer
    const bool back = lesson::came_back(
        got.detach(), want, earlier, [](const pg::Tensor& a, const pg::Tensor& b) { return lesson::near(a, b, 0.0); },
        [](const pg::Tensor& a, const pg::Tensor& b) { return !lesson::near(a, b, 1e-5); }, lesson::Remember::right_answers);
    if (back)
        throw lesson::CheckFailed("gpt_forward" + lesson::str(ids.shape()),
                                  lesson::tr("logits computed from this call's model and ids, ", "由这一次调用的模型和 ids 算出的 logits，") +
                                      lesson::str(want.shape()),
                                  lesson::tr("exactly the logits of an earlier call, ", "和先前一次调用的 logits 一模一样，") +
                                      lesson::str(got.shape()),
                                  lesson::came_back_hint({"result", "结果"}, {"parts and ids", "各个部件和 ids"}));
    return got;
}

// The largest |a - b|, infinity when the shapes differ.
inline double max_diff(const pg::Tensor& a, const pg::Tensor& b) {
    if (a.shape() != b.shape()) return std::numeric_limits<double>::infinity();
    double m = 0;
    for (size_t i = 0; i < a.numel(); ++i) m = std::max(m, static_cast<double>(std::fabs(a.ptr()[i] - b.ptr()[i])));
    return m;
}

// ---- probes: each builds a small GPT, sets some weights so one piece shows, and returns the hint
//      when your forward behaves as though that piece were missing ("" when it does not) ----

const size_t kProbeV = 12, kProbeContext = 12;   // V <= context: even wpe(ids) runs

// Zero token embedding: only the positions tell the rows apart.
inline std::string probe_positions_seen() {
    pg::Generator gen(201);
    auto gpt = make_gpt(config(kProbeV, kProbeContext, 2, 2, 8), gen);
    gpt->wte.weight.copy_(pg::zeros(gpt->wte.weight.shape()));
    pg::Tensor y = call_forward(*gpt, pg::tensor({{7.f, 3.f, 9.f, 1.f, 4.f, 6.f}}));   // (1,6) -> (1,6,V)
    if (y.shape() != pg::Shape{1, 6, kProbeV}) return "";
    double spread = 0;
    for (size_t t = 1; t < 6; ++t)
        for (size_t v = 0; v < kProbeV; ++v)
            spread = std::max(spread, static_cast<double>(std::fabs(y.ptr()[t * kProbeV + v] - y.ptr()[v])));
    return spread < 1e-6 ? no_positions_hint() : "";
}

// Zero token embedding: two different sequences must give the same logits, position by position.
inline std::string probe_positions_not_ids() {
    pg::Generator gen(202);
    auto gpt = make_gpt(config(kProbeV, kProbeContext, 2, 2, 8), gen);
    gpt->wte.weight.copy_(pg::zeros(gpt->wte.weight.shape()));
    pg::Tensor a = call_forward(*gpt, pg::tensor({{7.f, 3.f, 9.f, 1.f, 4.f, 6.f}}));
    pg::Tensor b = call_forward(*gpt, pg::tensor({{2.f, 8.f, 5.f, 0.f, 11.f, 10.f}}));
    return a.shape() == b.shape() && max_diff(a, b) > 1e-6 ? positions_from_ids_hint() : "";
}

// ln_f's weight 0, bias b: ln_f(x) = b everywhere, so every row of logits is head(b).
inline std::string probe_final_norm() {
    pg::Generator gen(203);
    auto gpt = make_gpt(config(kProbeV, kProbeContext, 2, 2, 8), gen);
    pg::Tensor b = pg::randn({8}, gen);
    gpt->ln_f.weight.copy_(pg::zeros({8}));
    gpt->ln_f.bias.copy_(b);
    pg::Tensor row = gpt->head.forward(b);                                             // (V)
    pg::Tensor y = call_forward(*gpt, random_ids(2, 5, kProbeV, gen));               // (2,5,V)
    if (y.shape() != pg::Shape{2, 5, kProbeV}) return "";
    for (size_t r = 0; r < 10; ++r)
        for (size_t v = 0; v < kProbeV; ++v)
            if (std::fabs(y.ptr()[r * kProbeV + v] - row.ptr()[v]) > 1e-5) return no_final_norm_hint();
    return "";
}

// Changing block i's weights must change the logits, for every i.
inline std::string probe_every_block() {
    pg::Generator gen(204);
    auto gpt = make_gpt(config(kProbeV, kProbeContext, 3, 2, 8), gen);
    pg::Tensor ids = random_ids(2, 5, kProbeV, gen);
    pg::Tensor before = call_forward(*gpt, ids);
    for (size_t i = 0; i < gpt->blocks.size(); ++i) {
        for (pg::Tensor* w : {&gpt->blocks[i]->attn.proj.weight, &gpt->blocks[i]->mlp.out.weight})
            w->copy_(*w + pg::randn(w->shape(), gen) * 0.3f);
        pg::Tensor after = call_forward(*gpt, ids);
        if (after.shape() == before.shape() && max_diff(after, before) < 1e-7)
            return lesson::tr("changing block ", "改变第 ") + std::to_string(i) + lesson::tr(" of ", " 个块（共 ") +
                   std::to_string(gpt->blocks.size()) +
                   lesson::tr(" does not change your logits, so that block is not used: chain the blocks, each reading the "
                              "stream the one before it wrote: for every block in order, x = block->forward(x)",
                              " 个）不会改变你的 logits，所以这个块没有被用上：把块串起来，每个块读取前一个块写入的"
                              "残差流：按顺序对每个块做 x = block->forward(x)");
        before = after;
    }
    return "";
}

// Which piece the numbers point to: the first probe that fails, else how the blocks are combined.
inline std::string diagnose() {
    try {
        for (auto probe : {probe_positions_seen, probe_positions_not_ids, probe_final_norm, probe_every_block}) {
            std::string hint = probe();
            if (!hint.empty()) return hint;
        }
    } catch (const lesson::CheckFailed& e) {
        return e.hint;
    }
    return blocks_combined_hint();
}

// Your logits against GPT::forward's, within 1e-5; on a mismatch the hint comes from diagnose().
inline void expect_logits(const std::string& what, const pg::Tensor& got, const pg::Tensor& want) {
    lesson::expect_shape(what + lesson::tr(" shape", " 的形状"), got.shape(), want.shape(),
                         lesson::tr("logits are (B,T,V): one row of V scores per position; the head (C -> V) comes last",
                                    "logits 是 (B,T,V)：每个位置一行 V 个分数；head（C -> V）放在最后"));
    double d = max_diff(got, want);
    if (!(d <= 1e-5))
        throw lesson::CheckFailed(what, lesson::tr("GPT::forward's logits (within 0.00001)", "GPT::forward 的 logits（误差不超过 0.00001）"),
                                  lesson::tr("max |difference| ", "最大 |差值| ") + lesson::num(d, 6), diagnose());
}

// The count the formula gives, and the counts a likely slip gives, for any shape.
inline size_t right_count(const pg::nn::GPTConfig& cfg) {
    const size_t V = cfg.vocab_size, C = cfg.n_embd;
    return V * C + cfg.context * C + cfg.n_layer * (12 * C * C + 13 * C) + 2 * C + V * C;
}

// The count's likely slip. The learner's function is called on more shapes (the same with no block,
// and the probes below), and a specific hint is given only when a wrong variant matches on all of them.
inline std::string count_hint(const pg::nn::GPTConfig& cfg, size_t got, size_t want) {
    const size_t low32 = (size_t{1} << 32) - 1;
    if ((got & low32) == (want & low32))
        return lesson::tr("your count is right modulo 2^32 but not in full: it overflowed 32 bits, so some of it was computed "
                          "in int or unsigned; the count must not be done in int or unsigned: compute every term in size_t",
                          "你的计数对 2^32 取模后是对的，但完整的值不对：它溢出了 32 位，说明有一部分是用 int 或 unsigned 算的；"
                          "计数不能用 int 或 unsigned 来做：每一项都用 size_t 计算");
    pg::nn::GPTConfig no_blocks = cfg;
    no_blocks.n_layer = 0;
    const size_t without = exercise::gpt_parameter_count(no_blocks);
    if (cfg.n_layer > 0 && without == right_count(no_blocks)) {
        const double per_block = (static_cast<double>(got) - static_cast<double>(without)) / static_cast<double>(cfg.n_layer);
        const size_t C = cfg.n_embd;
        return lesson::tr("with n_layer 0 your count is right, so the blocks are wrong: your count grows by ",
                          "n_layer 为 0 时你的计数是对的，所以错在块上：你的计数每多一个块就增加 ") +
               lesson::num(per_block, 0) + lesson::tr(" per block, but a block holds 12 C^2 + 13 C = ", "，可一个块有 12 C^2 + 13 C = ") +
               std::to_string(12 * C * C + 13 * C) +
               lesson::tr(" (lesson 17: attention 4 C^2 + 4 C, MLP 8 C^2 + 5 C, two LayerNorms 4 C)",
                          "（第 17 课：注意力 4 C^2 + 4 C，MLP 8 C^2 + 5 C，两个 LayerNorm 4 C）");
    }
    // the whole-model slips, each compared on every probe shape
    std::vector<pg::nn::GPTConfig> shapes = {cfg, config(10, 8, 2, 2, 8), config(65, 64, 1, 4, 32), config(30, 27, 3, 2, 16),
                                             config(12, 5, 0, 1, 4)};
    auto everywhere = [&](const std::function<size_t(const pg::nn::GPTConfig&)>& variant) {
        for (const pg::nn::GPTConfig& s : shapes)
            if (exercise::gpt_parameter_count(s) != variant(s)) return false;
        return true;
    };
    if (everywhere([](const pg::nn::GPTConfig& s) { return right_count(s) - s.vocab_size * s.n_embd; }))
        return lesson::tr("one V x C table short: the head is untied, a second V x C matrix of its own (no bias), "
                          "besides wte",
                          "少了一张 V x C 的表：head 没有与 wte 共享权重，它是除 wte 之外自己的第二个 V x C 矩阵（没有 bias）");
    if (everywhere([](const pg::nn::GPTConfig& s) { return right_count(s) - 2 * s.n_embd; }))
        return lesson::tr("2 C short on every shape: ln_f is missing, its weight and bias hold 2 C",
                          "每种形状都少了 2 C：缺了 ln_f，它的 weight 和 bias 共有 2 C 个");
    if (everywhere([](const pg::nn::GPTConfig& s) { return right_count(s) - s.context * s.n_embd; }))
        return lesson::tr("context x C short on every shape: wpe is missing, one row of C per position",
                          "每种形状都少了 context x C：缺了 wpe，每个位置一行 C 个");
    return lesson::tr("V C (wte) + context C (wpe) + n_layer (12 C^2 + 13 C) (the blocks, lesson 17) + 2 C (ln_f) + V C (head)",
                      "V C (wte) + context C (wpe) + n_layer (12 C^2 + 13 C)（各个块，第 17 课）+ 2 C (ln_f) + V C (head)");
}

inline void expect_count(const pg::nn::GPTConfig& cfg, size_t want) {
    static std::vector<size_t> earlier;   // the right counts of the earlier calls (only right ones, as in call_forward)
    size_t got = exercise::gpt_parameter_count(cfg);
    if (lesson::came_back(got, want, earlier, std::equal_to<size_t>(), std::not_equal_to<size_t>(),
                          lesson::Remember::right_answers))
        throw lesson::CheckFailed("gpt_parameter_count(V " + std::to_string(cfg.vocab_size) + ", context " +
                                      std::to_string(cfg.context) + ", n_layer " + std::to_string(cfg.n_layer) + ", C " +
                                      std::to_string(cfg.n_embd) + ")",
                                  std::to_string(want),
                                  std::to_string(got) + lesson::tr(", the count of an earlier call", "，先前一次调用的计数"),
                                  lesson::came_back_hint({"result", "结果"}, {"cfg", "cfg"}));
    lesson::expect("gpt_parameter_count(V " + std::to_string(cfg.vocab_size) + ", context " +
                       std::to_string(cfg.context) + ", n_layer " + std::to_string(cfg.n_layer) + ", C " +
                       std::to_string(cfg.n_embd) + ")",
                   got == want, std::to_string(want), std::to_string(got), count_hint(cfg, got, want));
}

// Your logits and loss against GPT::forward and poet::batch_loss on one batch.
inline void expect_forward(pg::nn::GPT& gpt, size_t B, size_t T, pg::Generator& gen) {
    const size_t V = gpt.config().vocab_size;
    poet::Batch batch{random_ids(B, T, V, gen), record_targets(B, T, V, gen)};
    pg::Tensor got = call_forward(gpt, batch.inputs);
    expect_logits(lesson::tr("gpt_forward logits at (B,T) = ", "gpt_forward 的 logits，(B,T) = ") + lesson::str(pg::Shape{B, T}), got,
                  gpt.forward(batch.inputs));
    pg::Tensor loss = pg::cross_entropy(pg::reshape(got, {B * T, V}), batch.targets, poet::kIgnore);
    lesson::expect_near(lesson::tr("the loss of your logits", "你的 logits 的损失"), loss.item(), poet::batch_loss(gpt, batch).item(), 1e-5,
                        lesson::tr("the same logits give the same loss: look at the logits first",
                                   "同样的 logits 给出同样的损失：先看 logits"));
}

}  // namespace check20

int main() {
    using namespace check20;
    lesson::Checks checks("20", "tiny_gpt");
    checks.run(lesson::tr("parameter count of the poet's default model: V 7817, context 32, 4 blocks of C 128",
                          "诗人默认模型的参数个数：V 7817，context 32，4 个 C 128 的块"), [] {
        pg::Generator gen(1);
        pg::nn::GPTConfig cfg = config(7817, 32, 4, 4, 128);
        expect_count(cfg, make_gpt(cfg, gen)->num_parameters());
    });
    checks.run(lesson::tr("parameter count against num_parameters() for other shapes (0 to 3 blocks)",
                          "其他形状（0 到 3 个块）的参数个数，与 num_parameters() 对比"), [] {
        for (const pg::nn::GPTConfig& cfg : {config(10, 8, 2, 2, 8), config(65, 64, 1, 4, 32), config(30, 27, 3, 2, 16),
                                             config(12, 5, 0, 1, 4)}) {
            pg::Generator gen(2);
            expect_count(cfg, make_gpt(cfg, gen)->num_parameters());
        }
    });
    checks.run(lesson::tr("parameter count for GPT-3's shape: V 50257, context 2048, 96 blocks of C 12288",
                          "GPT-3 形状的参数个数：V 50257，context 2048，96 个 C 12288 的块"), [] {
        expect_count(config(50257, 2048, 96, 96, 12288), 175221817344ull);
    });
    checks.run(lesson::tr("logits and loss against GPT::forward at (B,T) = (2,5), a small GPT",
                          "logits 和损失与 GPT::forward 对比，(B,T) = (2,5)，一个小 GPT"), [] {
        pg::Generator gen(205);
        auto gpt = make_gpt(config(30, 32, 2, 2, 16), gen);
        distinguish(*gpt, gen);
        expect_forward(*gpt, 2, 5, gen);
    });
    checks.run(lesson::tr("logits and loss against GPT::forward at (B,T) = (3,27), the poet's default shape",
                          "logits 和损失与 GPT::forward 对比，(B,T) = (3,27)，诗人的默认形状"), [] {
        pg::Generator gen(206);
        auto gpt = make_gpt(config(7817, 32, 4, 4, 128), gen);
        distinguish(*gpt, gen);
        expect_forward(*gpt, 3, 27, gen);
    });
    checks.run(lesson::tr("every parameter receives the gradient GPT::forward gives it", "每个参数都得到 GPT::forward 给它的梯度"), [] {
        pg::Generator gen(207);
        auto gpt = make_gpt(config(30, 32, 2, 2, 16), gen);
        distinguish(*gpt, gen);
        poet::Batch batch{random_ids(2, 7, 30, gen), record_targets(2, 7, 30, gen)};
        poet::batch_loss(*gpt, batch).backward();
        std::vector<std::pair<std::string, pg::Tensor>> want;
        for (const auto& [name, p] : gpt->named_parameters()) want.push_back({name, p.grad()});
        gpt->zero_grad();
        pg::Tensor got = call_forward(*gpt, batch.inputs);
        expect_logits(lesson::tr("gpt_forward logits at (B,T) = (2,7)", "gpt_forward 的 logits，(B,T) = (2,7)"), got, gpt->forward(batch.inputs));
        lesson::expect(lesson::tr("gpt_forward's result", "gpt_forward 的结果"), got.requires_grad(),
                       lesson::tr("a tensor that requires grad", "一个需要梯度的张量"),
                       lesson::tr("no gradient history", "没有梯度历史"),
                       lesson::tr("build it from the modules' forward and +: no pg::tensor(values), no detach",
                                  "用各个模块的 forward 和 + 来构建：不要 pg::tensor(values)，不要 detach"));
        pg::cross_entropy(pg::reshape(got, {14, 30}), batch.targets, poet::kIgnore).backward();
        for (const auto& [name, p] : gpt->named_parameters()) {
            pg::Tensor expected;
            for (const auto& [n, g] : want)
                if (n == name) expected = g;
            lesson::expect(name + lesson::tr(" has a gradient", " 有梯度"), p.has_grad(), lesson::tr("a gradient", "有梯度"),
                           lesson::tr("none", "没有"),
                           lesson::tr("every parameter lies on the path from ids to the loss: do not detach any part",
                                      "每个参数都在从 ids 到损失的路径上：不要 detach 任何部分"));
            lesson::expect_near(name + ".grad()", p.grad(), expected, 1e-5,
                                lesson::tr("the gradient follows the forward: with the same logits it is the same, unless a "
                                           "part was detached",
                                           "梯度跟着前向计算走：logits 相同，梯度就相同，除非有哪部分被 detach 了"));
        }
    });
    checks.run(lesson::tr("a token at different positions gives different logits (wte zeroed)",
                          "同一个字在不同位置给出不同的 logits（wte 置零）"), [] {
        std::string hint = probe_positions_seen();
        lesson::expect(lesson::tr("the logits of the six positions", "六个位置的 logits"), hint.empty(),
                       lesson::tr("six different rows", "六行各不相同"), lesson::tr("six equal rows", "六行完全相同"), hint);
    });
    checks.run(lesson::tr("the positions are 0..T-1, whatever the tokens (wte zeroed, two sequences)",
                          "不管是哪些字，位置都是 0..T-1（wte 置零，两个序列）"), [] {
        std::string hint = probe_positions_not_ids();
        lesson::expect(lesson::tr("the logits of 7 3 9 1 4 6 and of 2 8 5 0 11 10", "7 3 9 1 4 6 和 2 8 5 0 11 10 的 logits"),
                       hint.empty(), lesson::tr("the same logits", "相同的 logits"),
                       lesson::tr("different logits", "不同的 logits"), hint);
    });
    checks.run(lesson::tr("ln_f is the last step before the head (ln_f weight 0, bias b)",
                          "ln_f 是 head 之前的最后一步（ln_f 的 weight 为 0，bias 为 b）"), [] {
        std::string hint = probe_final_norm();
        lesson::expect(lesson::tr("every row of logits", "logits 的每一行"), hint.empty(), "head(b)",
                       lesson::tr("other rows", "别的行"), hint);
    });
    checks.run(lesson::tr("every block counts (each of 3 blocks changed in turn)", "每个块都起作用（3 个块轮流改动）"), [] {
        std::string hint = probe_every_block();
        lesson::expect(lesson::tr("the logits after each change", "每次改动之后的 logits"), hint.empty(),
                       lesson::tr("changed every time", "每次都变了"), lesson::tr("unchanged once", "有一次没变"), hint);
    });
    return checks.finish();
}
