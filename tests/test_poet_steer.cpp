// Steering (tools/poet/steer.hpp): PPMI counted per poem, by hand on four poems; the logit
// adjustments on one row; and the writer under steering, on an untrained tiny model: off changes
// nothing, a large repeat penalty leaves no repeated character, a large topic weight fills the poem
// with characters related to k, and every poem still holds k and keeps its form.
#include "catch.hpp"
#include <algorithm>
#include <cmath>
#include "poet/corpus.hpp"
#include "poet/eval.hpp"
#include "poet/form.hpp"
#include "poet/model.hpp"
#include "poet/quatrain.hpp"
#include "poet/rhyme.hpp"
#include "poet/steer.hpp"
#include "poet/utf8.hpp"
#include "poet/writer.hpp"
#include "poet_test_util.hpp"

namespace {

const std::vector<std::u32string> kFour = {U"春风花草香，江山丽日长。泥融飞燕子，沙暖睡鸳鸯。",
                                           U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。",
                                           U"白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
                                           U"床前明月光，疑是地上霜。举头望明月，低头思故乡。"};

// The PPMI the table gives for (k, c), 0 when c is not listed as related.
float listed(const poet::TopicTable& t, const poet::Tokenizer& tok, char32_t k, char32_t c) {
    for (const auto& [id, pmi] : t.related(tok.id(k)))
        if (id == tok.id(c)) return pmi;
    return 0.f;
}

bool repeats(const std::u32string& poem) {
    std::u32string chars;
    for (size_t s = 0; s < poet::quatrain::kChars; ++s) chars.push_back(poem[poet::quatrain::slot_position(s)]);
    std::sort(chars.begin(), chars.end());
    return std::adjacent_find(chars.begin(), chars.end()) != chars.end();
}

poet::PoetModel untrained(uint64_t seed, std::vector<std::u32string>* train) {
    poet_test::SmallCorpus data("steer", 200, 1);
    poet::Corpus c = poet::load_corpus(data.path, "jueju");
    *train = c.train;
    poet::Tokenizer tok = poet::Tokenizer::build(c.train);
    return poet::make_model(tok, poet::gpt_config(poet_test::tiny_config(), tok.size()), seed);
}

}  // namespace

TEST_CASE("steer: PPMI per poem over the corpus, pairs below the minimum count left out", "[poet][steer]") {
    poet::Tokenizer tok = poet::Tokenizer::build(kFour);
    const int spring = tok.id(U'春');
    // N = 4 poems; 春 in 2 (the first two). 风 and 花: in those same 2, so PMI = log(4·2 / (2·2)) = log 2.
    // 草: only in the first, log(4·1 / (2·1)) = log 2, one poem. 日: in the first and third,
    // log(4·1 / (2·2)) = 0, not related. 月: never with 春. 处, twice in one poem, counts once.
    poet::TopicTable every(kFour, tok, {spring}, 1);
    REQUIRE(listed(every, tok, U'春', U'风') == Approx(std::log(2.0)));
    REQUIRE(listed(every, tok, U'春', U'花') == Approx(std::log(2.0)));
    REQUIRE(listed(every, tok, U'春', U'草') == Approx(std::log(2.0)));
    REQUIRE(listed(every, tok, U'春', U'处') == Approx(std::log(2.0)));
    REQUIRE(listed(every, tok, U'春', U'日') == 0.f);
    REQUIRE(listed(every, tok, U'春', U'月') == 0.f);
    REQUIRE(listed(every, tok, U'春', U'春') == 0.f);   // k is never its own relative
    // the two poems hold 35 distinct characters besides 春; 日 and 山 are also elsewhere (PMI 0)
    REQUIRE(every.related(spring).size() == 33);
    const auto& r = every.related(spring);
    REQUIRE(std::is_sorted(r.begin(), r.end()));

    poet::TopicTable twice(kFour, tok, {spring}, 2);   // only pairs seen in two poems or more
    REQUIRE(twice.related(spring).size() == 2);
    REQUIRE(listed(twice, tok, U'春', U'风') == Approx(std::log(2.0)));
    REQUIRE(listed(twice, tok, U'春', U'花') == Approx(std::log(2.0)));
    REQUIRE(poet::TopicTable(kFour, tok, {spring}).related(spring).empty());   // the default minimum is 3
    REQUIRE_THROWS_WITH(twice.related(tok.id(U'月')), Contains("was not counted"));
}

TEST_CASE("steer: topic bonus per nat of PPMI for relatives not yet written, repeat penalty once per written character", "[poet][steer]") {
    poet::Tokenizer tok = poet::Tokenizer::build(kFour);
    poet::TopicTable table(kFour, tok, {tok.id(U'春')}, 2);
    poet::Steering s{&table, 2.f, 0.5f};
    REQUIRE(s.active());
    std::vector<int> row = {poet::Tokenizer::BOS, tok.id(U'春'), poet::Tokenizer::SEP, tok.id(U'风'), tok.id(U'风'),
                            tok.id(U'月'), tok.id(U'，')};
    std::vector<float> logits(tok.size(), 0.f);
    poet::steer_logits(logits, row, s, tok);
    auto at = [&](char32_t c) { return logits[static_cast<size_t>(tok.id(c))]; };
    REQUIRE(at(U'风') == Approx(-0.5));                      // related but written (twice: penalised once)
    REQUIRE(at(U'花') == Approx(2 * std::log(2.0)));         // related
    REQUIRE(at(U'月') == Approx(-0.5));                      // written, unrelated
    REQUIRE(at(U'春') == 0.f);                               // k: neither
    REQUIRE(at(U'，') == 0.f);                               // punctuation is not a character of the poem
    REQUIRE(at(U'草') == 0.f);                               // below the minimum count
    double total = 0;
    for (float v : logits) total += v;
    REQUIRE(total == Approx(2 * std::log(2.0) - 1.0));       // nothing else moved
    row.resize(3);                                           // nothing written yet: both relatives get it
    std::fill(logits.begin(), logits.end(), 0.f);
    poet::steer_logits(logits, row, s, tok);
    REQUIRE(at(U'风') == Approx(2 * std::log(2.0)));
    REQUIRE(at(U'月') == 0.f);

    REQUIRE_FALSE(poet::Steering{}.active());
    REQUIRE_FALSE((poet::Steering{&table, 0.f, 0.f}.active()));
    REQUIRE((poet::Steering{nullptr, 0.f, 1.f}.active()));
}

TEST_CASE("steer: the writer under steering keeps the form and the character", "[poet][steer][writer]") {
    std::vector<std::u32string> train;
    poet::PoetModel m = untrained(5, &train);
    const std::vector<int> ks = {m.tok.id(U'山'), m.tok.id(U'春'), m.tok.id(U'月'), m.tok.id(U'风')};
    poet::TopicTable table(train, m.tok, ks, 1);
    for (poet::Form form : {poet::Form::Loose, poet::Form::Regulated}) {
        poet::WriteOptions opt;
        opt.form = form;
        INFO((form == poet::Form::Loose ? "loose" : "regulated"));

        // steering that is off writes what no steering writes, seed for seed
        pg::Generator g1(7), g2(7);
        auto plain = poet::write_poems(*m.gpt, m.tok, ks, opt, g1);
        opt.steering = {&table, 0.f, 0.f};
        auto off = poet::write_poems(*m.gpt, m.tok, ks, opt, g2);
        for (size_t i = 0; i < ks.size(); ++i) REQUIRE(plain[i].text == off[i].text);

        // a repeat penalty far above the logits: no character twice (with and without it, counted)
        size_t repeated_plain = 0, repeated_steered = 0;
        for (uint64_t seed = 0; seed < 10; ++seed) {
            pg::Generator ga(seed), gb(seed);
            opt.steering = {};
            for (const auto& p : poet::write_poems(*m.gpt, m.tok, ks, opt, ga)) repeated_plain += repeats(poet::decode_utf8(p.text));
            opt.steering = {nullptr, 0.f, 1000.f};
            std::vector<poet::WrittenPoem> poems = poet::write_poems(*m.gpt, m.tok, ks, opt, gb);
            for (size_t i = 0; i < poems.size(); ++i) {
                std::u32string text = poet::decode_utf8(poems[i].text);
                INFO(poems[i].text);
                REQUIRE(poems[i].well_formed);
                REQUIRE(poems[i].has_char);
                if (form == poet::Form::Regulated) REQUIRE(poet::form::check(text, poet::pingshui()).regular);
                repeated_steered += repeats(text);
            }
        }
        INFO("repeats in 40 poems: " << repeated_plain << " unsteered, " << repeated_steered << " steered");
        REQUIRE(repeated_plain >= 5);   // an untrained model repeats now and then (7 loose, 6 regulated)
        REQUIRE(repeated_steered == 0);

        // a k the table has not counted is refused before decoding, the model left as it was
        opt.steering = {&table, 1.f, 0.f};
        bool was_training = m.gpt->is_training();
        pg::Generator gd(1);
        REQUIRE_THROWS_WITH(poet::write_poems(*m.gpt, m.tok, {m.tok.id(U'花')}, opt, gd), Contains("was not counted"));
        REQUIRE(m.gpt->is_training() == was_training);

        // a topic weight far above the logits: every character but k is one of k's relatives
        opt.steering = {&table, 1000.f, 0.f};
        pg::Generator gc(3);
        std::vector<poet::WrittenPoem> poems = poet::write_poems(*m.gpt, m.tok, ks, opt, gc);
        for (size_t i = 0; i < poems.size(); ++i) {
            const auto& rel = table.related(ks[i]);
            std::u32string text = poet::decode_utf8(poems[i].text);
            INFO(poems[i].text);
            REQUIRE(poems[i].has_char);
            size_t related = 0;
            for (size_t s = 0; s < poet::quatrain::kChars; ++s) {
                int id = m.tok.id(text[poet::quatrain::slot_position(s)]);
                related += std::any_of(rel.begin(), rel.end(), [&](const auto& e) { return e.first == id; });
            }
            if (form == poet::Form::Loose) REQUIRE(related == 19);   // all but k
            else REQUIRE(related >= 15);                            // the rhyme group may have no relative
        }
    }
}
