// Training records BOS k SEP poem EOS: layout, the loss mask, k drawn from the poem, and the
// corpus files read back as well-formed quatrains.
#include "catch.hpp"
#include <set>
#include "poet/corpus.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/utf8.hpp"

using poet::Tokenizer;

static const std::u32string kPoem = U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";

TEST_CASE("quatrain: layout and well-formedness", "[poet][records]") {
    REQUIRE(poet::quatrain::well_formed(kPoem));
    REQUIRE(poet::quatrain::slot_position(5) == 6);
    REQUIRE(poet::quatrain::slot_position(19) == 22);
    REQUIRE(poet::quatrain::line(kPoem, 2) == U"夜来风雨声");
    std::u32string swapped = kPoem;
    swapped[5] = U'。';
    REQUIRE_FALSE(poet::quatrain::well_formed(swapped));
    REQUIRE_FALSE(poet::quatrain::well_formed(kPoem.substr(0, 23)));
    std::u32string latin = kPoem;
    latin[0] = U'a';
    REQUIRE_FALSE(poet::quatrain::well_formed(latin));
}

TEST_CASE("records: BOS k SEP poem EOS, loss only on poem and EOS", "[poet][records]") {
    Tokenizer tok = Tokenizer::build({kPoem});
    poet::Poem poem = poet::encode_poems({kPoem}, tok)[0];
    std::vector<int> r = poet::make_record(poem, 6);   // slot 6 = 处 (second line, second char)
    REQUIRE(r.size() == 28);                           // fits context 32
    REQUIRE(r[0] == Tokenizer::BOS);
    REQUIRE(r[1] == tok.id(U'处'));
    REQUIRE(r[2] == Tokenizer::SEP);
    REQUIRE(r[3] == tok.id(U'春'));
    REQUIRE(r[26] == tok.id(U'。'));
    REQUIRE(r[27] == Tokenizer::EOS);
    REQUIRE_THROWS_AS(poet::make_record(poem, 20), std::out_of_range);

    poet::Batch b = poet::make_batch({r, r});
    REQUIRE(b.inputs.shape() == pg::Shape{2, 27});
    REQUIRE(b.targets.shape() == pg::Shape{54});
    std::vector<float> x = b.inputs.to_vector(), y = b.targets.to_vector();
    REQUIRE(x[0] == Tokenizer::BOS);
    REQUIRE(x[26] == tok.id(U'。'));
    REQUIRE(y[0] == poet::kIgnore);      // BOS -> k: no loss
    REQUIRE(y[1] == poet::kIgnore);      // k -> SEP: no loss
    REQUIRE(y[2] == tok.id(U'春'));       // SEP -> first character
    REQUIRE(y[26] == Tokenizer::EOS);
    size_t counted = 0;
    for (float v : y) counted += v != poet::kIgnore;
    REQUIRE(counted == 2 * poet::kLossTokens);
}

TEST_CASE("records: sampled batches draw k from the poem, validation slots are fixed", "[poet][records]") {
    Tokenizer tok = Tokenizer::build({kPoem});
    std::vector<poet::Poem> poems = poet::encode_poems({kPoem}, tok);
    pg::Generator gen(7);
    poet::Batch b = poet::sample_batch(poems, 64, gen);
    std::vector<float> x = b.inputs.to_vector();
    std::set<float> ks;
    for (size_t i = 0; i < 64; ++i) {
        float k = x[i * 27 + 1];
        REQUIRE(tok.is_han(static_cast<int>(k)));
        ks.insert(k);
    }
    REQUIRE(ks.size() > 8);   // 17 distinct characters, 64 draws
    REQUIRE(poet::validation_slot(0) == 0);
    REQUIRE(poet::validation_slot(3) == 1);
    poet::Batch v = poet::validation_batch(poems, 0, 1);
    REQUIRE(v.inputs.to_vector()[1] == tok.id(U'春'));
}

TEST_CASE("corpus: the embedded files read as quatrains, bad files name the line", "[poet][records]") {
    auto val = poet::read_poems(poet::default_data_dir() + "/jueju_val.txt");
    REQUIRE(val.size() == 854);
    REQUIRE(poet::quatrain::well_formed(val.back()));
    REQUIRE_THROWS_WITH(poet::read_poems("/nonexistent/poems.txt"), Contains("cannot open /nonexistent/poems.txt"));
    REQUIRE_THROWS_WITH(poet::load_corpus(poet::default_data_dir(), "tang"), Contains("unknown corpus 'tang'"));
}
