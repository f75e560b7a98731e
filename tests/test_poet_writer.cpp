// Writing quatrains from an untrained tiny model: constrained decoding always gives a well-formed
// quatrain, the placement mechanism always puts the prompt character into the poem, and slot_odds
// gives the odds it places it by.
#include "catch.hpp"
#include <algorithm>
#include <cmath>
#include "poet/corpus.hpp"
#include "poet/decode.hpp"
#include "poet/eval.hpp"
#include "poet/form.hpp"
#include "poet/model.hpp"
#include "poet/quatrain.hpp"
#include "poet/rhyme.hpp"
#include "poet/utf8.hpp"
#include "poet/writer.hpp"
#include "poet_test_util.hpp"

static poet::PoetModel untrained(uint64_t seed) {
    poet_test::SmallCorpus data("writer", 200, 1);
    poet::Corpus c = poet::load_corpus(data.path, "jueju");
    poet::Tokenizer tok = poet::Tokenizer::build(c.train);
    return poet::make_model(tok, poet::gpt_config(poet_test::tiny_config(), tok.size()), seed);
}

TEST_CASE("writer: constrained decoding is always well formed and always holds the character", "[poet][writer]") {
    poet::PoetModel m = untrained(5);
    poet::WriteOptions opt;   // constrained, Placement::Model
    size_t forced = 0, drafted = 0;
    for (uint64_t seed = 0; seed < 25; ++seed) {
        pg::Generator gen(seed);
        std::vector<int> ks = poet::draw_prompts(m.tok, 8, gen);
        opt.sampling.temperature = seed % 5 == 0 ? 0.f : 0.5f + 0.1f * static_cast<float>(seed % 10);
        opt.sampling.top_k = seed % 3 == 0 ? 20 : 0;
        std::vector<poet::WrittenPoem> poems = poet::write_poems(*m.gpt, m.tok, ks, opt, gen);
        REQUIRE(poems.size() == 8);
        for (size_t i = 0; i < poems.size(); ++i) {
            const poet::WrittenPoem& p = poems[i];
            INFO("seed " << seed << ": " << p.text);
            REQUIRE(p.well_formed);
            REQUIRE(poet::quatrain::well_formed(poet::decode_utf8(p.text)));
            REQUIRE(p.ids.size() == 25);
            REQUIRE(p.ids.back() == poet::Tokenizer::EOS);
            REQUIRE(p.has_char);
            REQUIRE(poet::decode_utf8(p.text).find(m.tok.char_of(ks[i])) != std::u32string::npos);
            if (p.drafted_with_char) {
                REQUIRE(p.forced_slot == -1);
                ++drafted;
            } else {
                REQUIRE(p.forced_slot >= 0);
                REQUIRE(p.forced_slot < 20);
                REQUIRE(poet::decode_utf8(p.text)[poet::quatrain::slot_position(static_cast<size_t>(p.forced_slot))] ==
                        m.tok.char_of(ks[i]));
                ++forced;
            }
        }
    }
    REQUIRE(forced > 150);   // an untrained model almost never writes k by itself
    REQUIRE(forced + drafted == 200);
}

TEST_CASE("writer: acrostic opens with the character, prefix-only and free decoding", "[poet][writer]") {
    poet::PoetModel m = untrained(9);
    pg::Generator gen(3);
    int k = m.tok.id(U'山');
    poet::WriteOptions opt;
    opt.placement = poet::Placement::Acrostic;
    for (const poet::WrittenPoem& p : poet::write_poems(*m.gpt, m.tok, std::vector<int>(6, k), opt, gen)) {
        REQUIRE(p.well_formed);
        REQUIRE(poet::decode_utf8(p.text)[0] == U'山');
        REQUIRE(p.forced_slot == -1);
    }
    opt.placement = poet::Placement::Prefix;
    auto prefix_only = poet::write_poems(*m.gpt, m.tok, std::vector<int>(6, k), opt, gen);
    for (const poet::WrittenPoem& p : prefix_only) REQUIRE(p.well_formed);

    opt.constrained = false;
    auto free = poet::write_poems(*m.gpt, m.tok, std::vector<int>(6, k), opt, gen);
    for (const poet::WrittenPoem& p : free) {
        REQUIRE(p.ids.size() <= 29);   // context 32 minus BOS k SEP
        REQUIRE(p.well_formed == poet::is_well_formed(p.ids, m.tok));
    }
    opt.placement = poet::Placement::Model;
    REQUIRE_THROWS_WITH(poet::write_poems(*m.gpt, m.tok, {k}, opt, gen), Contains("needs constrained decoding"));
    opt.constrained = true;
    REQUIRE_THROWS_WITH(poet::write_poems(*m.gpt, m.tok, {m.tok.id(U'，')}, opt, gen),
                        Contains("not a Chinese character"));
}

TEST_CASE("writer: slot_odds gives q_s, the odds write_poems places the character by", "[poet][writer]") {
    poet::PoetModel m = untrained(5);   // tiny_config's dropout: slot_odds must run in eval mode
    REQUIRE(m.gpt->is_training());
    const std::vector<int> han = poet::han_ids(m.tok);
    const int k = m.tok.id(U'山');
    poet::WriteOptions opt;
    opt.placement = poet::Placement::Prefix;   // the first pass alone
    opt.sampling.temperature = 0.f;            // greedy: the draft Placement::Model starts from too
    pg::Generator gen(1);
    poet::WrittenPoem draft = poet::write_poems(*m.gpt, m.tok, {k}, opt, gen)[0];
    REQUIRE_FALSE(draft.has_char);
    std::vector<int> row = {poet::Tokenizer::BOS, k, poet::Tokenizer::SEP};
    row.insert(row.end(), draft.ids.begin(), draft.ids.end());

    // q_s is the model's probability over the ideographs of writing k at slot s after the draft before s
    for (float T : {1.0f, 0.7f}) {
        poet::SlotOdds odds = poet::slot_odds(*m.gpt, m.tok, {row}, poet::Form::Loose, T)[0];
        REQUIRE(m.gpt->is_training());   // put back as it was
        REQUIRE(odds.q.size() == 20);
        m.gpt->eval();
        for (size_t s = 0; s < 20; ++s) {
            size_t pos = 3 + poet::quatrain::slot_position(s);
            std::vector<int> before(row.begin(), row.begin() + static_cast<long>(pos));
            std::vector<double> p = poet::allowed_probabilities(poet::next_logits(*m.gpt, {before})[0], han, T);
            size_t at = static_cast<size_t>(std::lower_bound(han.begin(), han.end(), k) - han.begin());
            REQUIRE(odds.fits[s]);   // the loose form takes any ideograph anywhere
            REQUIRE(odds.q[s] > 0);
            REQUIRE(odds.q[s] == Approx(p[at]).epsilon(1e-4));
        }
        m.gpt->train();
    }
    // at T = 0 q is taken at T = 1, and greedy placement puts k where q_s is largest
    std::vector<double> q0 = poet::slot_odds(*m.gpt, m.tok, {row}, poet::Form::Loose, 0.f)[0].q;
    REQUIRE(q0 == poet::slot_odds(*m.gpt, m.tok, {row}, poet::Form::Loose, 1.f)[0].q);
    opt.placement = poet::Placement::Model;
    pg::Generator gen_placed(1);
    poet::WrittenPoem placed = poet::write_poems(*m.gpt, m.tok, {k}, opt, gen_placed)[0];
    REQUIRE(placed.forced_slot == std::max_element(q0.begin(), q0.end()) - q0.begin());
    // a batch gives each draft its own odds
    std::vector<poet::SlotOdds> both = poet::slot_odds(*m.gpt, m.tok, {row, row}, poet::Form::Loose, 0.f);
    REQUIRE(both.size() == 2);
    for (size_t s = 0; s < 20; ++s) REQUIRE(both[1].q[s] == Approx(q0[s]).epsilon(1e-5));

    // under 格律 k fits only where a template still possible after the draft before it allows k
    poet::WriteOptions reg = opt;
    reg.form = poet::Form::Regulated;
    reg.placement = poet::Placement::Prefix;
    const int yue = m.tok.id(U'月');   // oblique only: never at a level slot
    for (uint64_t seed = 0; seed < 4; ++seed) {
        pg::Generator g(seed);
        reg.sampling.temperature = 0.8f;
        poet::WrittenPoem d = poet::write_poems(*m.gpt, m.tok, {yue}, reg, g)[0];
        std::vector<int> r = {poet::Tokenizer::BOS, yue, poet::Tokenizer::SEP};
        r.insert(r.end(), d.ids.begin(), d.ids.end());
        poet::SlotOdds odds = poet::slot_odds(*m.gpt, m.tok, {r}, poet::Form::Regulated, 0.8f)[0];
        std::vector<char32_t> han_chars;
        for (int id : han) han_chars.push_back(m.tok.char_of(id));
        std::vector<bool> pool = poet::form::rhyme_pool(poet::pingshui(), han_chars);
        poet::form::FormState state(poet::pingshui(), pool);
        std::u32string poem = poet::decode_utf8(d.text);
        size_t fitting = 0;
        for (size_t s = 0; s < 20; ++s) {
            INFO(d.text << ", slot " << s);
            REQUIRE(odds.fits[s] == state.allows(U'月'));
            REQUIRE((odds.fits[s] ? odds.q[s] > 0 : odds.q[s] == 0));
            fitting += odds.fits[s];
            state.advance(poem[poet::quatrain::slot_position(s)]);
        }
        REQUIRE(fitting > 0);
        REQUIRE(fitting < 20);
    }

    // rows that are not drafts are refused
    std::vector<int> short_row(row.begin(), row.begin() + 20), not_han = row, no_bos = row;
    not_han[4] = m.tok.id(U'，');
    no_bos[0] = poet::Tokenizer::SEP;
    for (const std::vector<int>& bad : {short_row, not_han, no_bos})
        REQUIRE_THROWS_WITH(poet::slot_odds(*m.gpt, m.tok, {row, bad}, poet::Form::Loose, 1.f),
                            Contains("slot_odds: draft 1 is not BOS k SEP"));
}

TEST_CASE("writer: sampling helpers respect the allowed set, temperature and top-k", "[poet][writer]") {
    std::vector<float> logits = {0.f, 5.f, 1.f, 3.f, 2.f};
    pg::Generator gen(1);
    poet::SamplingOptions greedy;
    greedy.temperature = 0.f;
    REQUIRE(poet::sample_token(logits, {}, greedy, gen) == 1);
    REQUIRE(poet::sample_token(logits, {0, 2, 4}, greedy, gen) == 4);
    poet::SamplingOptions top2;
    top2.top_k = 2;
    for (int i = 0; i < 50; ++i) {
        int id = poet::sample_token(logits, {0, 2, 3, 4}, top2, gen);
        REQUIRE((id == 3 || id == 4));
    }
    // a tie at the k-th logit keeps the smaller id, whatever order the ids come in
    std::vector<float> tied = {1.f, 4.f, 2.f, 4.f, 4.f};
    poet::SamplingOptions top1;
    top1.top_k = 1;
    for (int i = 0; i < 20; ++i) {
        REQUIRE(poet::sample_token(tied, {}, top1, gen) == 1);
        REQUIRE(poet::sample_token(tied, {4, 3, 0, 1}, top1, gen) == 1);
    }
    std::vector<double> p = poet::allowed_probabilities(logits, {1, 3}, 1.f);
    REQUIRE(p[0] == Approx(1 / (1 + std::exp(-2.0))));
    REQUIRE(p[0] + p[1] == Approx(1.0));
}

TEST_CASE("eval: copied lines and rates are counted per poem and per line", "[poet][writer]") {
    poet::Tokenizer tok = poet::Tokenizer::build({U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"});
    auto lines = poet::training_lines({U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"});
    REQUIRE(lines.size() == 4);
    auto poem = [&](const std::string& text, int k) {
        poet::WrittenPoem p;
        p.ids = tok.encode(text);
        p.ids.push_back(poet::Tokenizer::EOS);
        p.text = text;
        p.well_formed = poet::is_well_formed(p.ids, tok);
        p.has_char = poet::decode_utf8(text).find(tok.char_of(k)) != std::u32string::npos;
        return p;
    };
    int spring = tok.id(U'春');
    std::vector<poet::WrittenPoem> poems = {poem("春眠不觉晓，花落知多少。夜来风雨声，处处闻啼鸟。", spring),
                                            poem("晓觉不眠春，鸟啼闻处处。声雨风来夜，少多知落花。", spring),
                                            poem("花落知多少，", spring)};
    poet::SampleStats s = poet::sample_stats(poems, tok, lines);
    REQUIRE(s.poems == 3);
    REQUIRE(s.well_formed == Approx(2.0 / 3));
    REQUIRE(s.contains_char == Approx(2.0 / 3));
    REQUIRE(s.copied_lines == Approx(4.0 / 8));
    REQUIRE(s.poems_with_copy == Approx(0.5));
}
