// The copy token (tools/poet/copy_token.hpp): records with the poem's k written as COPY, COPY's
// probability folded into k's when the model is read (sampling, the validation loss, log p), the
// setting's round trip (a checkpoint from before it means "off"), and what it is for: a small model
// trained with it writes its character by itself, one trained without it mostly does not.
#include "catch.hpp"
#include <cmath>
#include "pg/autograd.hpp"
#include "pg/ops.hpp"
#include "poet/copy_token.hpp"
#include "poet/corpus.hpp"
#include "poet/decode.hpp"
#include "poet/eval.hpp"
#include "poet/model.hpp"
#include "poet/quatrain.hpp"
#include "poet/records.hpp"
#include "poet/val_loss.hpp"
#include "poet/writer.hpp"
#include "poet_test_util.hpp"

using poet::Tokenizer;

static const std::u32string kChunXiao = U"春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。";

TEST_CASE("copy token: the poem's k is written as COPY, nothing else changes", "[poet][copy_token]") {
    Tokenizer tok = Tokenizer::build({kChunXiao});
    poet::Poem poem = poet::encode_poems({kChunXiao}, tok)[0];
    const int chu = tok.id(U'处');
    std::vector<int> plain = poet::make_record(poem, 6);   // k = 处, which the poem holds twice (处处)
    std::vector<int> r = poet::with_copy_token(plain);
    REQUIRE(r.size() == plain.size());
    REQUIRE(r[1] == chu);                                  // the prompt itself stays
    size_t copies = 0;
    for (size_t t = 0; t < r.size(); ++t) {
        INFO("position " << t);
        if (t >= poet::kPromptLength && plain[t] == chu) {
            REQUIRE(r[t] == Tokenizer::COPY);
            ++copies;
        } else {
            REQUIRE(r[t] == plain[t]);
        }
    }
    REQUIRE(copies == 2);
    REQUIRE(poet::with_copy_token(r) == r);                // marking twice changes nothing
    REQUIRE(poet::with_copy_token({Tokenizer::BOS, chu}) == std::vector<int>{Tokenizer::BOS, chu});

    // the batches: inputs and targets both hold COPY where the poem holds k (poem 0's validation slot 0: 春)
    const int chun = tok.id(U'春');
    poet::Batch b = poet::validation_batch({poem}, 0, 1, true);
    std::vector<float> x = b.inputs.to_vector(), y = b.targets.to_vector();
    REQUIRE(x[1] == chun);
    REQUIRE(x[poet::kPromptLength] == Tokenizer::COPY);       // 春 opens the poem
    REQUIRE(y[poet::kPromptLength - 1] == Tokenizer::COPY);   // ... predicted from SEP
    REQUIRE(poet::validation_batch({poem}, 0, 1, false).inputs.to_vector()[poet::kPromptLength] == chun);
    pg::Generator g1(3), g2(3);
    poet::Batch drawn = poet::sample_batch({poem}, 8, g1, true), plain_drawn = poet::sample_batch({poem}, 8, g2, false);
    std::vector<float> dx = drawn.inputs.to_vector(), px = plain_drawn.inputs.to_vector();
    for (size_t i = 0; i < dx.size(); ++i) {
        const size_t t = i % poet::kInputLength, k = static_cast<size_t>(px[i - t + 1]);
        REQUIRE(dx[i] == (t >= poet::kPromptLength && px[i] == static_cast<float>(k) ? Tokenizer::COPY : px[i]));
    }
}

TEST_CASE("copy token: k's score is log(e^z[k] + e^z[COPY]), exact and finite for large logits", "[poet][copy_token]") {
    const int k = 7;
    std::vector<float> z(10, 0.f);
    REQUIRE(poet::copy_folded_logit(z.data(), k) == Approx(std::log(2.0)).margin(1e-12));
    z[k] = 1000.f;
    z[Tokenizer::COPY] = 1000.f;
    REQUIRE(poet::copy_folded_logit(z.data(), k) == Approx(1000.0 + std::log(2.0)));
    z[k] = 3.f;
    z[Tokenizer::COPY] = -INFINITY;
    REQUIRE(poet::copy_folded_logit(z.data(), k) == 3.0);
    z[k] = -INFINITY;
    REQUIRE(std::isinf(poet::copy_folded_logit(z.data(), k)));

    // folding keeps every other logit and gives k exactly the mass of k and COPY together
    std::vector<float> logits = {0.5f, -1.f, 2.f, 0.f, 1.5f, -3.f, 0.25f, 1.f, -0.5f, 0.75f};
    std::vector<float> folded = logits;
    poet::fold_copy_token(folded, k);
    REQUIRE(std::isinf(folded[Tokenizer::COPY]));
    std::vector<double> p = poet::allowed_probabilities(logits, {}, 1.f), q = poet::allowed_probabilities(folded, {}, 1.f);
    for (size_t v = 1; v < logits.size(); ++v) {
        INFO("id " << v);
        if (static_cast<int>(v) == k) REQUIRE(q[v] == Approx(p[v] + p[Tokenizer::COPY]).epsilon(1e-6));
        else REQUIRE(q[v] == Approx(p[v]).epsilon(1e-6));
    }
    REQUIRE(q[Tokenizer::COPY] == 0.0);
}

static poet::PoetModel tiny_model(const std::vector<std::u32string>& poems, uint64_t seed) {
    poet::Tokenizer tok = poet::Tokenizer::build(poems);
    return poet::make_model(tok, poet::gpt_config(poet_test::tiny_config(), tok.size()), seed);
}

TEST_CASE("copy token: the validation loss counts -log(p(k) + p(COPY)) for k, -log p(c) for the rest",
          "[poet][copy_token]") {
    poet_test::SmallCorpus data("copy_val", 40, 6);
    poet::Corpus c = poet::load_corpus(data.path, "jueju");
    poet::PoetModel m = tiny_model(c.train, 11);
    m.gpt->eval();
    std::vector<poet::Poem> val = poet::encode_poems(c.val, m.tok);
    // by hand: the model reads each record with COPY, and each target character is scored on its own
    double by_hand = 0;
    {
        pg::NoGradGuard no_grad;
        poet::Batch b = poet::validation_batch(val, 0, val.size(), true);
        pg::Tensor logp = pg::log_softmax(m.gpt->forward(b.inputs), -1);   // (B,T,V)
        const size_t T = poet::kInputLength, V = m.tok.size();
        for (size_t i = 0; i < val.size(); ++i) {
            std::vector<int> r = poet::make_record(val[i], poet::validation_slot(i));
            for (size_t t = poet::kPromptLength - 1; t < T; ++t) {
                const float* lp = logp.ptr() + (i * T + t) * V;
                const int target = r[t + 1];
                by_hand -= target == r[1] ? std::log(std::exp(double(lp[target])) + std::exp(double(lp[Tokenizer::COPY])))
                                          : double(lp[target]);
            }
        }
        by_hand /= static_cast<double>(val.size() * poet::kLossTokens);
    }
    poet::ValLoss with_copy = poet::validation_loss(*m.gpt, val, 4, true);
    REQUIRE(with_copy.mean == Approx(by_hand).epsilon(1e-6));
    // without the copy token it is the plain cross-entropy of the plain records
    pg::NoGradGuard no_grad;
    poet::Batch plain = poet::validation_batch(val, 0, val.size(), false);
    float ce = pg::cross_entropy(m.gpt->forward_rows(plain.inputs), plain.targets, poet::kIgnore).item();
    REQUIRE(poet::validation_loss(*m.gpt, val, 4, false).mean == Approx(ce).epsilon(1e-5));
}

TEST_CASE("copy token: a model's next-token logits read COPY for k and fold COPY into k", "[poet][copy_token]") {
    poet_test::SmallCorpus data("copy_logits", 40, 1);
    poet::PoetModel m = tiny_model(poet::load_corpus(data.path, "jueju").train, 4);
    m.gpt->eval();
    const std::vector<char32_t> common = m.tok.most_frequent_han(2);
    const int k = m.tok.id(common[0]);
    std::vector<int> row = {Tokenizer::BOS, k, Tokenizer::SEP, m.tok.id(common[1]), k};   // the poem so far: two characters, k second
    std::vector<float> got = poet::next_logits(*m.gpt, {row}, true)[0];
    std::vector<float> want = poet::next_logits(*m.gpt, {poet::with_copy_token(row)}, false)[0];
    poet::fold_copy_token(want, k);
    REQUIRE(got == want);
    REQUIRE(poet::next_logits(*m.gpt, {row}, false)[0] != poet::next_logits(*m.gpt, {poet::with_copy_token(row)}, false)[0]);
    // free sampling never writes the COPY id itself: its mass is k's
    poet::WriteOptions opt;
    opt.constrained = false;
    opt.placement = poet::Placement::Prefix;
    opt.copy_token = true;
    pg::Generator gen(9);
    for (const poet::WrittenPoem& p : poet::write_poems(*m.gpt, m.tok, std::vector<int>(16, k), opt, gen))
        REQUIRE(std::find(p.ids.begin(), p.ids.end(), Tokenizer::COPY) == p.ids.end());
}

TEST_CASE("copy token: a setting of its own, 'off' for a checkpoint from before it", "[poet][copy_token][config]") {
    poet::TrainConfig cfg;
    REQUIRE(cfg.copy_token == "on");
    pg::Metadata meta;
    poet::to_metadata(cfg, meta);
    REQUIRE(meta.at("train.copy_token") == "on");
    cfg.copy_token = "off";
    poet::to_metadata(cfg, meta);
    REQUIRE(poet::train_config_from(meta).copy_token == "off");
    meta.erase("train.copy_token");   // a checkpoint written before the setting existed
    REQUIRE(poet::train_config_from(meta).copy_token == "off");
    REQUIRE_FALSE(poet::uses_copy_token(poet::train_config_from(meta)));
    meta.erase("train.corpus");       // a setting without a `before` value must be there
    REQUIRE_THROWS_WITH(poet::train_config_from(meta), Contains("train.corpus"));
    cfg.copy_token = "yes";
    REQUIRE_THROWS_WITH(poet::validate(cfg), Contains("--copy-token must be one of on|off, not 'yes'"));
}

// The share of free poems (no constraints, no placement: the model alone) that hold their character.
static double holds_own_character(poet::PoetModel& m, const std::vector<int>& ks, bool copy_token) {
    poet::WriteOptions opt;
    opt.constrained = false;
    opt.placement = poet::Placement::Prefix;
    opt.copy_token = copy_token;
    pg::Generator gen(21);
    size_t holds = 0;
    for (const poet::WrittenPoem& p : poet::write_poems(*m.gpt, m.tok, ks, opt, gen)) holds += p.has_char;
    return static_cast<double>(holds) / static_cast<double>(ks.size());
}

// [long]: two training runs and 80 free poems, over a minute under AddressSanitizer (the copy token's
// code paths all run there in the cases above); the release build runs it.
TEST_CASE("copy token: a small model trained with it writes its character by itself, one without it seldom",
          "[poet][copy_token][train][long]") {
    poet_test::SmallCorpus data("copy_learns", 300, 8);
    poet::TrainConfig cfg = poet_test::tiny_config();
    cfg.n_embd = 32;
    cfg.dropout = 0.f;
    cfg.steps = 150;
    cfg.batch = 16;
    cfg.warmup = 10;
    cfg.eval_every = cfg.save_every = 150;
    double rate[2];
    for (bool copy : {true, false}) {
        poet_test::TempDir out(copy ? "copy_on" : "copy_off");
        cfg.copy_token = copy ? "on" : "off";
        REQUIRE(poet::train(cfg, poet_test::quiet_options(out.path, data.path)).status == poet::TrainStatus::Finished);
        poet::PoetModel m = poet::load_model(out.path + "/model.ckpt");
        REQUIRE(m.copy_token == copy);
        // prompts: one character of each of the first 40 training poems (what the records condition on)
        std::vector<int> ks;
        std::vector<std::u32string> train = poet::load_corpus(data.path, "jueju").train;
        for (size_t i = 0; i < 40; ++i) ks.push_back(m.tok.id(train[i][poet::quatrain::slot_position((7 * i) % 20)]));
        rate[copy] = holds_own_character(m, ks, copy);
    }
    INFO("free poems holding their character: with the copy token " << rate[1] << ", without " << rate[0]);
    REQUIRE(rate[1] >= 0.6);
    REQUIRE(rate[0] <= 0.3);
}
