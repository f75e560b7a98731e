// The count bigram (poet/bigram.hpp): the 25 counted pairs of a record, the sparse count table,
// add-alpha probabilities, the validation loss by hand, and sampling within the quatrain's layout.
#include "catch.hpp"
#include <cmath>
#include "poet/bigram.hpp"
#include "poet/quatrain.hpp"
#include "poet/writer.hpp"

using poet::Tokenizer;

static const std::u32string kSpring = U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";

TEST_CASE("bigram: the counted pairs run from SEP to EOS and skip the prompt", "[poet][bigram]") {
    Tokenizer tok = Tokenizer::build({kSpring});
    poet::Poem poem = poet::encode_poems({kSpring}, tok)[0];
    std::vector<int> record = poet::make_record(poem, 6);   // k = 处
    auto pairs = poet::counted_pairs(record);
    REQUIRE(pairs.size() == poet::kLossTokens);
    REQUIRE(pairs.front() == std::make_pair(int(Tokenizer::SEP), tok.id(U'春')));
    REQUIRE(pairs[5] == std::make_pair(tok.id(U'晓'), tok.id(U'，')));
    REQUIRE(pairs.back() == std::make_pair(tok.id(U'。'), int(Tokenizer::EOS)));
    REQUIRE(pairs == poet::counted_pairs(poet::make_record(poem, 0)));   // k is never part of them
    REQUIRE_THROWS_AS(poet::counted_pairs({Tokenizer::BOS, Tokenizer::SEP}), std::invalid_argument);
}

TEST_CASE("bigram: counts, row totals and distinct pairs", "[poet][bigram]") {
    poet::BigramCounts c(10, {{5, 6}, {5, 6}, {5, 6}, {5, 7}, {6, 5}, {6, 5}});
    REQUIRE(c.count(5, 6) == 3);
    REQUIRE(c.count(5, 7) == 1);
    REQUIRE(c.count(6, 5) == 2);
    REQUIRE(c.count(5, 5) == 0);
    REQUIRE(c.count(9, 9) == 0);
    REQUIRE(c.row_total(5) == 4);
    REQUIRE(c.row_total(7) == 0);
    REQUIRE(c.total() == 6);
    REQUIRE(c.distinct_pairs() == 3);
    REQUIRE(c.vocab_size() == 10);
    REQUIRE_THROWS_AS(c.count(10, 0), std::out_of_range);
    REQUIRE_THROWS_AS(poet::BigramCounts(4, {{1, 4}}), std::out_of_range);
}

TEST_CASE("bigram: add-alpha probabilities by hand, each row a distribution", "[poet][bigram]") {
    poet::BigramCounts c(10, {{5, 6}, {5, 6}, {5, 6}, {5, 7}, {6, 5}, {6, 5}});
    REQUIRE(poet::bigram_probability(c, 5, 6, 0.5) == Approx(3.5 / 9));
    REQUIRE(poet::bigram_probability(c, 5, 8, 0.5) == Approx(0.5 / 9));
    REQUIRE(poet::bigram_probability(c, 7, 3, 0.5) == Approx(0.1));   // an empty row is uniform
    REQUIRE(poet::bigram_probability(c, 5, 6, 0.0) == Approx(0.75));
    REQUIRE(poet::bigram_probability(c, 5, 6, 1.0) == Approx(4.0 / 14));   // add-one
    for (int prev : {5, 6, 7}) {
        double sum = 0;
        for (int next = 0; next < 10; ++next) sum += poet::bigram_probability(c, prev, next, 0.03);
        REQUIRE(sum == Approx(1.0).epsilon(1e-12));
    }
    REQUIRE_THROWS_AS(poet::bigram_probability(c, 5, 6, -0.1), std::invalid_argument);
    REQUIRE_THROWS_AS(poet::bigram_probability(c, 7, 3, 0.0), std::invalid_argument);   // 0 / 0
}

TEST_CASE("bigram: the loss of a poem counted on itself is 6 ln 2 / 25 with alpha 0", "[poet][bigram]") {
    // 处, ，and 。 are each followed by two different ids (处处 处闻, ，处 ，花, 。夜 。EOS); the rest by one
    Tokenizer tok = Tokenizer::build({kSpring});
    std::vector<poet::Poem> poems = poet::encode_poems({kSpring}, tok);
    poet::BigramCounts c = poet::count_bigrams(poems, tok.size());
    REQUIRE(c.total() == 25);
    REQUIRE(c.row_total(tok.id(U'，')) == 2);
    poet::ValLoss v = poet::bigram_validation_loss(c, poems, 0.0);
    REQUIRE(v.records == 1);
    REQUIRE(v.mean == Approx(6 * std::log(2.0) / 25));
    REQUIRE(v.per_position.size() == poet::kLossTokens);
    for (size_t p = 0; p < poet::kLossTokens; ++p) {
        bool half = p == 6 || p == 7 || p == 8 || p == 12 || p == 18 || p == 24;   // the targets after 处, ，, 。
        REQUIRE(v.per_position[p] == Approx(half ? std::log(2.0) : 0.0).margin(1e-12));
    }
    // smoothing moves mass to the unseen cells, so the seen pairs cost more
    REQUIRE(poet::bigram_validation_loss(c, poems, 0.5).mean > v.mean);
}

TEST_CASE("bigram: constrained samples are quatrains that start with k, free ones stop at EOS", "[poet][bigram]") {
    std::u32string night = U"床前明月光，疑是地上霜。举头望明月，低头思故乡。";
    Tokenizer tok = Tokenizer::build({kSpring, night});
    poet::BigramCounts c = poet::count_bigrams(poet::encode_poems({kSpring, night}, tok), tok.size());
    pg::Generator gen(7);
    for (int i = 0; i < 5; ++i) {
        std::vector<int> ids = poet::sample_bigram(c, tok, 0.03, true, tok.id(U'月'), gen);
        REQUIRE(poet::is_well_formed(ids, tok));
        REQUIRE(ids[0] == tok.id(U'月'));
    }
    for (int i = 0; i < 5; ++i) {
        std::vector<int> ids = poet::sample_bigram(c, tok, 0.03, false, -1, gen);
        REQUIRE(!ids.empty());
        REQUIRE(ids.size() <= 2 * poet::quatrain::kLength);
        REQUIRE((ids.back() == Tokenizer::EOS || ids.size() == 2 * poet::quatrain::kLength));
    }
    pg::Generator a(3), b(3);   // seeded: the same poem every time
    REQUIRE(poet::sample_bigram(c, tok, 0.03, true, -1, a) == poet::sample_bigram(c, tok, 0.03, true, -1, b));
    // with alpha 0 a bigram can only retrace the pairs it counted: 。 ends in EOS or a new line
    pg::Generator g0(11);
    std::vector<int> exact = poet::sample_bigram(c, tok, 0.0, false, -1, g0);
    for (size_t i = 0; i + 1 < exact.size(); ++i) REQUIRE(c.count(exact[i], exact[i + 1]) > 0);
}
