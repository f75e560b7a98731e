// Lesson 23 experiment: from logits to a poem. Temperature, greedy and top-k on five hand-made logits
// (poet::allowed_probabilities, poet::sample_token), a seed that repeats a sample, then lesson 22's
// trained model: its next character, the slot masks, where it would put a prompt character
// (placement.svg, from poet::slot_odds), an acrostic and a poem in 格律 with its tones (poet::form::explain).
// Leaves out: evaluation (lesson 24).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <sstream>
#include "../common/small_poet.hpp"
#include "lesson.hpp"
#include "svg.hpp"
#include "poet/commands.hpp"
#include "poet/decode.hpp"
#include "poet/form.hpp"
#include "poet/quatrain.hpp"
#include "poet/rhyme.hpp"
#include "poet/utf8.hpp"
#include "poet/writer.hpp"

namespace q = poet::quatrain;
using lesson::tr;

static std::string list(const std::vector<double>& p, int decimals = 4) {
    std::string out;
    for (size_t i = 0; i < p.size(); ++i) out += (i ? ", " : "") + lesson::num(p[i], decimals);
    return "[" + out + "]";
}

static std::string ids_str(const std::vector<int>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) out += (i ? " " : "") + std::to_string(ids[i]);
    return out;
}

// A bar chart of the five hand-made probabilities at each temperature, one colour per temperature,
// drawn through svg.hpp (coordinates with one decimal) from the probabilities rounded to the four
// decimals the experiment prints.
static void write_temperature_svg(const std::string& path, const std::vector<float>& temps,
                                  const std::vector<std::vector<double>>& probs) {
    const double W = 520, H = 260, left = 40, bottom = 220, top = 20, group = 90, bar = 18;
    const char* colours[] = {"#4e79a7", "#f28e2b", "#e15759", "#59a14f"};
    std::string s = svg::header(W, H, 12);
    s += svg::line(left, bottom, W - 10, bottom, "stroke=\"black\"");
    for (size_t id = 0; id < probs[0].size(); ++id) {
        const double x0 = left + 10 + group * static_cast<double>(id);
        for (size_t t = 0; t < temps.size(); ++t) {
            const double p = std::round(probs[t][id] * 1e4) / 1e4, h = p * (bottom - top),
                         x = x0 + bar * static_cast<double>(t);
            s += svg::rect(x, bottom - h, bar - 2, h, std::string("fill=\"") + colours[t % 4] + "\"");
        }
        s += svg::text(x0 + 30, bottom + 16, 12, "id " + std::to_string(id));
    }
    for (size_t t = 0; t < temps.size(); ++t) {
        const double y = top + 16 * static_cast<double>(t);
        s += svg::rect(W - 130, y, 10, 10, std::string("fill=\"") + colours[t % 4] + "\"");
        s += svg::text(W - 115, y + 9, 12,
                       temps[t] > 0 ? "T = " + lesson::num(temps[t], 1) : lesson::tr("greedy (T = 0)", "贪心（T = 0）"));
    }
    svg::write_file(path, s + svg::footer());
}

// The 20 slots as a 4 x 5 grid: each the draft's character, shaded by q_s (darkest: the largest),
// drawn from q_s rounded to the four decimals printed in each cell.
static void write_placement_svg(const std::string& path, const std::u32string& draft, const std::vector<double>& q,
                                const std::string& k) {
    const double cell = 64;
    std::vector<double> shown;
    for (double v : q) shown.push_back(std::round(v * 1e4) / 1e4);
    const double top = *std::max_element(shown.begin(), shown.end());
    std::string s = svg::header(5 * cell + 20, 4 * cell + 50);
    s += svg::text(10, 22, 14, lesson::tr("q_s: how likely the model writes " + k + " in each slot",
                                          "q_s：模型在每个位置写出“" + k + "”的可能性"));
    for (size_t slot = 0; slot < q::kChars; ++slot) {
        const double x = 10 + cell * static_cast<double>(slot % 5), y = 36 + cell * static_cast<double>(slot / 5);
        const double shade = top > 0 ? shown[slot] / top : 0;
        s += svg::rect(x, y, cell - 2, cell - 2, "fill=\"#c0392b\" fill-opacity=\"" + svg::fixed(0.05 + 0.9 * shade, 3) + "\"");
        s += svg::text(x + 20, y + 30, 22, poet::encode_utf8(draft[q::slot_position(slot)]));
        s += svg::text(x + 6, y + 52, 11, lesson::num(shown[slot], 4));
    }
    svg::write_file(path, s + svg::footer());
}

// How many ideographs 格律 leaves open at each slot while the poem is written (form::FormState).
static void form_masks(const std::u32string& poem, const std::vector<char32_t>& han_chars) {
    const poet::RhymeTable& table = poet::pingshui();
    std::vector<bool> pool = poet::form::rhyme_pool(table, han_chars);
    poet::form::FormState state(table, pool);
    for (size_t line = 0; line < q::kLines; ++line) {
        std::string counts;
        for (size_t s = line * q::kLineChars; s < (line + 1) * q::kLineChars; ++s) {
            size_t open = static_cast<size_t>(std::count_if(han_chars.begin(), han_chars.end(),
                                                            [&](char32_t c) { return state.allows(c); }));
            counts += (counts.empty() ? "" : " ") + std::to_string(open);
            state.advance(poem[q::slot_position(s)]);
        }
        std::cout << tr("  line ", "  第 ") << line + 1 << tr(": ", " 句：") << counts
                  << tr("   templates still possible: ", "   仍然可能的模板：")
                  << state.possible_templates().size() << "\n";
    }
}

static void run() {
    lesson::section(tr("step 1: logits to probabilities, softmax(z / T)", "第 1 步：从 logits 到概率，softmax(z / T)"));
    const std::vector<float> z = {2.0f, 1.0f, 0.5f, 0.0f, -1.0f};   // V = 5, hand-made
    std::vector<double> e;
    for (float v : z) e.push_back(std::exp(static_cast<double>(v)));
    const double sum = std::accumulate(e.begin(), e.end(), 0.0);
    std::cout << "logits z (V=5): [2.0, 1.0, 0.5, 0.0, -1.0]\n";
    std::cout << "exp(z): " << list(e) << tr(", sum ", "，和 ") << lesson::num(sum, 4) << "\n";
    const std::vector<float> temps = {1.0f, 0.8f, 0.5f, 0.0f};
    std::vector<std::vector<double>> probs;
    for (float T : temps) {
        probs.push_back(poet::allowed_probabilities(z, {}, T));
        std::cout << (T > 0 ? "T = " + lesson::num(T, 1) : tr("greedy (T = 0)", "贪心（T = 0）")) << tr(": p (V=5) = ", "：p (V=5) = ")
                  << list(probs.back()) << "\n";
    }
    std::vector<double> running(probs[0].size());
    std::partial_sum(probs[0].begin(), probs[0].end(), running.begin());
    std::cout << tr("running sums at T = 1 (the CDF): ", "T = 1 时的累计和（CDF）：") << list(running) << "\n";
    lesson::confirm("p[0] at T = 1", probs[0][0], e[0] / sum, 1e-12, tr("the hand computation e^2 / sum", "手算 e^2 / sum"));
    lesson::confirm("p[0] at T = 0.5", probs[2][0], std::exp(4.0) / (std::exp(4.0) + std::exp(2.0) + std::exp(1.0) + 1 + std::exp(-2.0)),
                    1e-7, tr("the hand computation e^4 / (e^4 + e^2 + e^1 + e^0 + e^-2)", "手算 e^4 / (e^4 + e^2 + e^1 + e^0 + e^-2)"));
    const std::string temperature_svg = lesson::chinese() ? "temperature.zh.svg" : "temperature.svg";
    const svg::Output temperature_out = svg::in_lesson_folder(__FILE__, temperature_svg);
    write_temperature_svg(temperature_out.path, temps, probs);
    svg::check_file(temperature_out.path);
    std::cout << tr("wrote ", "写出了 ") << temperature_out.shown << "\n";

    lesson::section(tr("step 2: top-k, then renormalise", "第 2 步：top-k，再重新归一化"));
    std::vector<double> top2 = poet::allowed_probabilities(z, {0, 1}, 1.0f);
    std::cout << tr("k = 2, T = 1: ids 0 and 1 kept, p = ", "k = 2，T = 1：保留 id 0 和 1，p = ") << list(top2) << "\n";
    lesson::confirm("p[0] with k = 2", top2[0], e[0] / (e[0] + e[1]), 1e-12,
                    tr("the hand computation e^2 / (e^2 + e^1)", "手算 e^2 / (e^2 + e^1)"));
    for (size_t k : {size_t{0}, size_t{2}}) {
        pg::Generator gen(23);
        poet::SamplingOptions opt;
        opt.temperature = 1.0f;
        opt.top_k = k;
        std::vector<int> n(z.size(), 0);
        for (int i = 0; i < 20000; ++i) ++n[static_cast<size_t>(poet::sample_token(z, {}, opt, gen))];
        std::cout << "poet::sample_token, k = " << k << tr(", T = 1, 20000 draws, seed 23: counts ", "，T = 1，抽 20000 次，种子 23：次数 ")
                  << ids_str(n) << "\n";
        if (k == 2)
            lesson::confirm(tr("draws of ids 2, 3, 4 with k = 2", "k = 2 时抽到 id 2、3、4 的次数"), n[2] + n[3] + n[4], 0, 0,
                            tr("the cut", "截断"));
    }

    lesson::section(tr("step 3: a seed makes a sample repeatable", "第 3 步：种子让抽样可以重现"));
    poet::SamplingOptions opt;
    opt.temperature = 1.0f;
    std::vector<std::vector<int>> runs;
    for (uint64_t seed : {2023, 2023, 2024}) {
        pg::Generator gen(seed);
        std::vector<int> ids;
        for (int i = 0; i < 16; ++i) ids.push_back(poet::sample_token(z, {}, opt, gen));
        std::cout << tr("seed ", "种子 ") << seed << tr(": ", "：") << ids_str(ids) << "\n";
        runs.push_back(ids);
    }
    lesson::confirm(tr("seed 2023 twice gives the same draws", "种子 2023 两次抽到同样的结果"), runs[0] == runs[1], 1, 0,
                    tr("the seeded generator", "带种子的生成器"));

    poet::PoetModel model = small_poet::model();
    pg::nn::GPT& gpt = *model.gpt;
    const poet::Tokenizer& tok = model.tok;
    const size_t V = tok.size();
    const std::vector<int> han = poet::han_ids(tok);
    std::vector<char32_t> han_chars;
    for (int id : han) han_chars.push_back(tok.char_of(id));

    lesson::section(tr("step 4: the trained model's next character after BOS 春 SEP", "第 4 步：训练过的模型在 BOS 春 SEP 之后的下一个字"));
    const int chun = tok.id(U'春');
    std::vector<float> logits = poet::next_logits(gpt, {{poet::Tokenizer::BOS, chun, poet::Tokenizer::SEP}})[0];
    std::cout << "logits (V=" << V << ")\n";
    std::vector<int> order(V);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
    for (float T : {1.0f, 0.8f, 0.5f}) {
        std::vector<double> p = poet::allowed_probabilities(logits, {}, T);
        std::string top;
        double mass = 0;
        for (size_t i = 0; i < 5; ++i) {
            top += " " + tok.token_str(order[i]) + " " + lesson::num(p[static_cast<size_t>(order[i])], 3);
            mass += p[static_cast<size_t>(order[i])];
        }
        std::cout << "T = " << lesson::num(T, 1) << tr(": top 5", "：前 5 个") << top << tr(" (together ", "（合计 ")
                  << lesson::num(mass, 2) << tr(")\n", "）\n");
    }
    std::cout << tr("greedy: ", "贪心：") << tok.token_str(order[0]) << "\n";

    lesson::section(tr("step 5: the slot masks", "第 5 步：位置的掩码"));
    std::string layout;
    for (size_t p = 0; p < q::kLength; ++p) layout += q::is_punctuation_position(p) ? poet::encode_utf8(q::punctuation_at(p)) : "_";
    std::cout << tr("after BOS k SEP: ", "BOS k SEP 之后：") << layout << tr(" EOS   (_ a slot: one of ", " EOS   （_ 是一个位置：V = ")
              << (lesson::chinese() ? std::to_string(V) + " 里 " + std::to_string(han.size()) + " 个汉字之一"
                                    : std::to_string(han.size()) + " ideographs of V = " + std::to_string(V))
              << tr("; the marks and EOS are fixed)\n", "；标点和 EOS 是固定的）\n");
    double outside = 0;
    std::vector<double> p1 = poet::allowed_probabilities(logits, {}, 1.0f);
    for (size_t id = 0; id < V; ++id)
        if (!tok.is_han(static_cast<int>(id))) outside += p1[id];
    std::cout << tr("slot 0, T = 1: mass the model puts outside the ideographs ", "位置 0，T = 1：模型放在汉字之外的概率 ")
              << lesson::num(outside, 4)
              << tr(", removed by the mask and the rest renormalised\n", "，被掩码去掉，其余的重新归一化\n");

    lesson::section(tr("step 6: placing the prompt character where the model finds it most plausible",
                       "第 6 步：把提示字放在模型认为最合适的位置"));
    const int yue = tok.id(U'月');
    poet::WriteOptions draft_opt;   // the first pass alone: a constrained draft, conditioned on BOS 月 SEP
    draft_opt.placement = poet::Placement::Prefix;
    uint64_t seed = 1;
    poet::WrittenPoem draft;
    for (;; ++seed) {
        pg::Generator gen(seed);
        draft = poet::write_poems(gpt, tok, {yue}, draft_opt, gen)[0];
        if (!draft.has_char) break;
    }
    std::u32string draft_text = poet::decode_utf8(draft.text);
    std::cout << tr("seed ", "种子 ") << seed << tr(", draft without 月: ", "，不含 月 的草稿：") << draft.text << "\n";
    std::vector<int> row = {poet::Tokenizer::BOS, yue, poet::Tokenizer::SEP};
    row.insert(row.end(), draft.ids.begin(), draft.ids.end());
    // q_s: the model's probability of writing 月 at slot s given the draft before it, as writer.cpp's
    // second pass computes it (one forward pass over the draft; in the loose form 月 fits every slot).
    std::vector<double> qs = poet::slot_odds(gpt, tok, {row}, poet::Form::Loose, draft_opt.sampling.temperature)[0].q;
    std::cout << tr("q_s (20) at T = 0.8, four lines of five slots:\n", "T = 0.8 时的 q_s (20)，四句、每句五个位置：\n");
    for (size_t line = 0; line < q::kLines; ++line) {
        std::vector<double> part(qs.begin() + static_cast<long>(line * 5), qs.begin() + static_cast<long>(line * 5 + 5));
        std::cout << "  " << poet::encode_utf8(q::line(draft_text, line)) << "  " << list(part, 4) << "\n";
    }
    size_t best = static_cast<size_t>(std::max_element(qs.begin(), qs.end()) - qs.begin());
    double total = std::accumulate(qs.begin(), qs.end(), 0.0);
    std::cout << tr("most plausible slot ", "最合适的位置是 ") << best << tr(" (line ", "（第 ") << best / 5 + 1
              << tr(", position ", " 句第 ") << best % 5 + 1 << tr("), chosen with probability q_s / sum = ", " 个字），被选中的概率 q_s / sum = ")
              << lesson::num(qs[best] / total, 2) << "\n";
    const std::string placement_svg = lesson::chinese() ? "placement.zh.svg" : "placement.svg";
    const svg::Output placement_out = svg::in_lesson_folder(__FILE__, placement_svg);
    write_placement_svg(placement_out.path, draft_text, qs, "月");
    svg::check_file(placement_out.path);
    std::cout << tr("wrote ", "写出了 ") << placement_out.shown << "\n";
    poet::WriteOptions place_opt;   // both passes, the same seed: the same draft, then 月 placed
    pg::Generator gen_place(seed);
    poet::WrittenPoem placed = poet::write_poems(gpt, tok, {yue}, place_opt, gen_place)[0];
    std::cout << tr("Placement::Model, seed ", "Placement::Model，种子 ") << seed << tr(": 月 went into slot ", "：月 放进了位置 ")
              << placed.forced_slot << "\n"
              << poet::couplets(placed.text, "  ") << "\n";
    const size_t cut = q::slot_position(static_cast<size_t>(placed.forced_slot));
    lesson::confirm(tr("the draft before the chosen slot is kept", "选中位置之前的草稿保持不变"),
                    std::equal(draft.ids.begin(), draft.ids.begin() + static_cast<long>(cut), placed.ids.begin()), 1, 0,
                    tr("writer.hpp's two passes", "writer.hpp 的两遍"));

    lesson::section(tr("step 7: the acrostic, 春 in slot 0", "第 7 步：藏头诗，春 在位置 0"));
    poet::WriteOptions acro;
    acro.placement = poet::Placement::Acrostic;
    acro.form = poet::Form::Regulated;
    pg::Generator gen_acro(7);
    poet::WrittenPoem a = poet::write_poems(gpt, tok, {chun}, acro, gen_acro)[0];
    std::cout << poet::couplets(a.text, "  ") << "\n";
    lesson::confirm(tr("the poem opens with 春", "诗以 春 开头"), poet::decode_utf8(a.text)[0] == U'春', 1, 0, "Placement::Acrostic");

    lesson::section(tr("step 8: 格律, a tonal template and a rhyme group as masks", "第 8 步：格律，把平仄模板和韵部当作掩码"));
    poet::WriteOptions reg;   // ./poet write's defaults: Placement::Model, Form::Regulated, T = 0.8
    reg.form = poet::Form::Regulated;
    pg::Generator gen_reg(8);
    poet::WrittenPoem r = poet::write_poems(gpt, tok, {yue}, reg, gen_reg)[0];
    std::u32string poem = poet::decode_utf8(r.text);
    std::cout << poet::couplets(r.text, "  ") << "\n";
    std::cout << poet::form::explain(poem, poet::pingshui());   // what ./poet write --explain prints
    std::cout << tr("ideographs open at each slot as it was written (of ", "写到每个位置时还允许的汉字数（共 ") << han.size()
              << tr("):\n", " 个）：\n");
    form_masks(poem, han_chars);
    size_t level = 0, oblique = 0, toned = 0;
    for (char32_t c : han_chars) {
        const poet::Tones t = poet::pingshui().tones(c);
        level += (t & poet::kLevel) != 0, oblique += (t & poet::kOblique) != 0, toned += t != poet::kNoTone;
    }
    std::cout << tr("of the ", "在 ") << han.size() << tr(" ideographs, the rhyme table reads ", " 个汉字里，韵表读作平声的有 ")
              << level << tr(" as level, ", " 个，读作仄声的有 ") << oblique
              << tr(" as oblique (both: counted twice), and gives a tone to ", " 个（两读的算两次），有声调的共 ") << toned
              << tr("\n", " 个\n");
    lesson::confirm(tr("form::check calls it regular", "form::check 判定它合律"), poet::form::check(poem, poet::pingshui()).regular, 1, 0,
                    tr("FormState's masks", "FormState 的掩码"));

    if (std::optional<poet::PoetModel> demo = small_poet::demo_model()) {
        lesson::section(tr("extra: ./poet demo's model, the same calls", "附加：./poet demo 的模型，同样的调用"));
        pg::Generator gen_demo(8);
        poet::WriteOptions demo_opt = reg;
        demo_opt.copy_token = demo->copy_token;   // the demo's model writes k as COPY (lesson 27)
        poet::WrittenPoem d = poet::write_poems(*demo->gpt, demo->tok, {demo->tok.id(U'月')}, demo_opt, gen_demo)[0];
        std::cout << poet::couplets(d.text, "  ") << "\n";
        std::cout << poet::form::explain(poet::decode_utf8(d.text), poet::pingshui());
    }
}

int main() { return lesson::run_experiment(run); }
