// 格律: the 平水韵 table on known characters, the four templates against a handbook's patterns, the
// checker on real poems, FormState's rhyme bookkeeping, and the writer's poems judged by a checker
// written here from the handbook (not form.cpp's); then eval's new measures on hand-made cases.
#include "catch.hpp"
#include <algorithm>
#include <cmath>
#include <fstream>
#include "poet/corpus.hpp"
#include "poet/eval.hpp"
#include "poet/form.hpp"
#include "poet/model.hpp"
#include "poet/quatrain.hpp"
#include "poet/rhyme.hpp"
#include "poet/utf8.hpp"
#include "poet/writer.hpp"
#include "poet_test_util.hpp"

using poet::form::Need;

namespace {

const poet::RhymeTable& table() { return poet::pingshui(); }

std::vector<std::string> group_names(char32_t c) {
    std::vector<std::string> names;
    for (int g : table().groups(c)) names.push_back(table().group(g).name);
    return names;
}

// The four templates as a handbook of 格律 prints them, every position marked. Positions 1 and 3
// of a line are free (一三五不论); 2, 4 and 5 are what a poem must keep.
const char* const kHandbook[] = {
    "仄仄平平仄，平平仄仄平。平平平仄仄，仄仄仄平平。",   // 仄起首句不入韵
    "仄仄仄平平，平平仄仄平。平平平仄仄，仄仄仄平平。",   // 仄起首句入韵
    "平平平仄仄，仄仄仄平平。仄仄平平仄，平平仄仄平。",   // 平起首句不入韵
    "平平仄仄平，仄仄仄平平。仄仄平平仄，平平仄仄平。",   // 平起首句入韵
};

// The judge of these tests: for one handbook pattern, every character at positions 2, 4 and 5 has a
// reading of the marked tone, and the line ends marked 平 (lines 2 and 4, and 1 in 首句入韵) are
// different characters that share one level group.
bool keeps_pattern(const std::u32string& poem, const std::u32string& pattern) {
    std::u32string rhymes;
    for (size_t p = 0; p < poem.size(); ++p) {
        size_t in_line = p % 6;
        if (in_line == 5 || in_line == 0 || in_line == 2) continue;   // punctuation, positions 1 and 3
        poet::Tones tones = table().tones(poem[p]);
        if ((tones & (pattern[p] == U'平' ? poet::kLevel : poet::kOblique)) == 0) return false;
        if (in_line == 4 && pattern[p] == U'平') rhymes.push_back(poem[p]);
    }
    std::vector<int> shared = table().level_groups(rhymes[0]);
    for (size_t i = 1; i < rhymes.size(); ++i) {
        if (rhymes.find(rhymes[i]) != i) return false;
        std::vector<int> mine = table().level_groups(rhymes[i]), both;
        std::set_intersection(shared.begin(), shared.end(), mine.begin(), mine.end(), std::back_inserter(both));
        shared = both;
    }
    return !shared.empty();
}

// The patterns a poem keeps (indices into kHandbook).
std::vector<size_t> patterns_kept(const std::u32string& poem) {
    std::vector<size_t> kept;
    for (size_t t = 0; t < 4; ++t)
        if (keeps_pattern(poem, poet::decode_utf8(kHandbook[t]))) kept.push_back(t);
    return kept;
}

poet::PoetModel untrained(uint64_t seed) {
    poet_test::SmallCorpus data("form", 200, 1);
    poet::Corpus c = poet::load_corpus(data.path, "jueju");
    poet::Tokenizer tok = poet::Tokenizer::build(c.train);
    return poet::make_model(tok, poet::gpt_config(poet_test::tiny_config(), tok.size()), seed);
}

poet::WriteOptions regulated(poet::Placement placement = poet::Placement::Model) {
    poet::WriteOptions opt;
    opt.form = poet::Form::Regulated;
    opt.placement = placement;
    return opt;
}

}  // namespace

TEST_CASE("rhyme table: known characters, their tones and groups", "[poet][form]") {
    REQUIRE(table().group_count() == 106);   // 105 upstream, and 三讲 from data/rhyme/additions.json
    REQUIRE(group_names(U'东') == std::vector<std::string>{"一东"});
    REQUIRE(group_names(U'风') == std::vector<std::string>{"一东"});
    REQUIRE(group_names(U'春') == std::vector<std::string>{"十一真"});
    REQUIRE(group_names(U'山') == std::vector<std::string>{"十五删"});
    REQUIRE(group_names(U'月') == std::vector<std::string>{"入声六月"});
    REQUIRE(table().tones(U'东') == poet::kLevel);
    REQUIRE(table().tones(U'月') == poet::kOblique);
    REQUIRE(table().level_groups(U'月').empty());
    REQUIRE(table().group(table().groups(U'东')[0]).part == "上平声部");
    REQUIRE(poet::group_label(table().group(table().groups(U'春')[0])) == "上平声 十一真");
    REQUIRE(poet::group_label(table().group(table().groups(U'月')[0])) == "入声六月");
    // two readings: 看 kān (十四寒) and kàn (十五翰), 思 sī (四支) and sì (四寘)
    REQUIRE(table().tones(U'看') == poet::kBothTones);
    REQUIRE(group_names(U'看') == std::vector<std::string>{"十四寒", "十五翰"});
    REQUIRE(table().tones(U'思') == poet::kBothTones);
    REQUIRE(group_names(U'思') == std::vector<std::string>{"四支", "四寘"});
    // poetgrad's additions: 先 is missing from its own group upstream, 溪 from the table
    REQUIRE(group_names(U'先') == std::vector<std::string>{"一先", "十七霰"});
    REQUIRE(group_names(U'溪') == std::vector<std::string>{"八齐"});
    REQUIRE(table().tones(U'隠') == poet::kNoTone);   // a variant form the table does not list
}

TEST_CASE("rhyme table: a bad file is named with what is wrong", "[poet][form]") {
    poet_test::TempDir dir("rhyme");
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir.path + "/" + name) << text;
    };
    REQUIRE_THROWS_WITH(poet::RhymeTable::load(dir.path),
                        Contains("cannot open") && Contains("Pingshui_Rhyme.json"));
    write("Pingshui_Rhyme.json", "{\"上平声部\": {\"一东\": [\"东\", ");
    REQUIRE_THROWS_WITH(poet::RhymeTable::load(dir.path), Contains("is not valid JSON"));
    write("Pingshui_Rhyme.json", "{\"上平声部\": {\"一东\": [\"东风\"]}}");
    REQUIRE_THROWS_WITH(poet::RhymeTable::load(dir.path),
                        Contains("\"东风\", which is not one Chinese character"));
    write("Pingshui_Rhyme.json", "{\"平声\": {}}");
    REQUIRE_THROWS_WITH(poet::RhymeTable::load(dir.path), Contains("unknown part \"平声\""));
    write("Pingshui_Rhyme.json", "{\"上平声部\": {\"一东\": [\"东\", \"风\"]}, \"入声部\": {\"入声六月\": [\"月\"]}}");
    write("additions.json", "{\"上平声部\": {\"一东\": [\"葱\"]}}");
    poet::RhymeTable small = poet::RhymeTable::load(dir.path);
    REQUIRE(small.group_count() == 2);
    REQUIRE(small.tones(U'葱') == poet::kLevel);
    REQUIRE(small.groups(U'葱') == small.groups(U'东'));
}

TEST_CASE("templates: the four of a handbook, 一三五不论, 粘 and 对, rhyme slots", "[poet][form]") {
    const auto& ts = poet::form::templates();
    REQUIRE(ts.size() == 4);
    for (size_t t = 0; t < 4; ++t) {
        std::u32string book = poet::decode_utf8(kHandbook[t]);
        INFO(ts[t].name);
        for (size_t s = 0; s < poet::quatrain::kChars; ++s) {
            char32_t mark = book[poet::quatrain::slot_position(s)];
            Need want = s % 5 == 0 || s % 5 == 2 ? Need::Free : mark == U'平' ? Need::Level : Need::Oblique;
            REQUIRE(ts[t].slots[s] == want);
        }
        for (size_t line = 0; line < 4; ++line) REQUIRE(ts[t].slots[line * 5 + 1] != ts[t].slots[line * 5 + 3]);
        REQUIRE(ts[t].slots[6] != ts[t].slots[1]);    // 对: line 2 answers line 1
        REQUIRE(ts[t].slots[11] == ts[t].slots[6]);   // 粘: line 3 sticks to line 2
        REQUIRE(ts[t].slots[16] != ts[t].slots[11]);  // 对
        std::vector<size_t> rhymes = t % 2 ? std::vector<size_t>{4, 9, 19} : std::vector<size_t>{9, 19};
        REQUIRE(poet::form::rhyme_slots(ts[t]) == rhymes);
        REQUIRE(ts[t].slots[0] == Need::Free);        // the acrostic's slot
    }
    REQUIRE(ts[0].name == "仄起首句不入韵");
    REQUIRE(ts[3].name == "平起首句入韵");
}

TEST_CASE("checker: regular, broken and 仄-rhymed real quatrains", "[poet][form]") {
    auto check = [](const char* poem) { return poet::form::check(poet::decode_utf8(poem), table()); };
    poet::form::Check stork = check("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。");   // 王之涣《登鹳雀楼》
    REQUIRE(stork.regular);
    REQUIRE(stork.tones);
    REQUIRE(stork.rhyme);
    REQUIRE(poet::form::templates()[static_cast<size_t>(stork.template_index)].name == "仄起首句不入韵");
    REQUIRE(table().group(stork.rhyme_groups.at(0)).name == "十一尤");
    REQUIRE(stork.broken.empty());
    poet::form::Check frontier = check("月黑雁飞高，单于夜遁逃。欲将轻骑逐，大雪满弓刀。");   // 卢纶《塞下曲》
    REQUIRE(frontier.regular);
    REQUIRE(poet::form::templates()[static_cast<size_t>(frontier.template_index)].name == "仄起首句入韵");
    REQUIRE(table().group(frontier.rhyme_groups.at(0)).name == "四豪");
    poet::form::Check night = check("床前明月光，疑是地上霜。举头望明月，低头思故乡。");   // 李白《静夜思》, a 古绝
    REQUIRE(night.rhyme);
    REQUIRE_FALSE(night.tones);
    REQUIRE_FALSE(night.regular);
    REQUIRE_FALSE(night.broken.empty());
    poet::form::Check dawn = check("春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。");   // 孟浩然《春晓》: 仄 rhymes
    REQUIRE_FALSE(dawn.rhyme);
    REQUIRE_FALSE(dawn.regular);
    poet::form::Check same = check("白日依山尽，黄河入海流。欲穷千里目，更上一层流。");   // a rhyme repeated
    REQUIRE_FALSE(same.rhyme);
    REQUIRE_FALSE(same.regular);
    REQUIRE(same.tones);
    REQUIRE_THROWS_WITH(check("白日依山尽，"), Contains("not a well-formed quatrain"));
}

TEST_CASE("explain: the template, the rhyme, every line's tones and pattern, the broken slots", "[poet][form]") {
    auto marks = [](const std::u32string& chars) {   // the tones as --explain's legend names them
        std::string out;
        for (char32_t c : chars) {
            poet::Tones t = table().tones(c);
            out += t == poet::kLevel ? "平" : t == poet::kOblique ? "仄" : t == poet::kBothTones ? "兼" : "？";
        }
        return out;
    };
    auto lines = [](const std::string& text) {
        std::vector<std::string> out;
        for (size_t at = 0, end; at < text.size(); at = end + 1) {
            end = text.find('\n', at);
            REQUIRE(end != std::string::npos);   // every line ends in a newline
            out.push_back(text.substr(at, end - at));
        }
        return out;
    };
    std::u32string stork = poet::decode_utf8("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。");
    std::vector<std::string> got = lines(poet::form::explain(stork, table()));
    const char* patterns[] = {"中仄中平仄", "中平中仄平", "中平中仄仄", "中仄中平平"};   // 仄起首句不入韵
    REQUIRE(got.size() == 5);
    REQUIRE(got[0] == "  仄起首句不入韵, rhyme 下平声 十一尤: 流 楼");
    for (size_t line = 0; line < 4; ++line) {
        std::u32string chars = poet::quatrain::line(stork, line);
        REQUIRE(got[line + 1] == "    " + poet::encode_utf8(chars) + "  " + marks(chars) + "  " + patterns[line] +
                                     (line % 2 == 1 ? "  韵" : ""));
    }

    std::u32string night = poet::decode_utf8("床前明月光，疑是地上霜。举头望明月，低头思故乡。");   // a 古绝
    poet::form::Check c = poet::form::check(night, table());
    const poet::form::Template& t = poet::form::templates()[static_cast<size_t>(c.template_index)];
    got = lines(poet::form::explain(night, table()));
    REQUIRE(got.size() == 5 + c.broken.size());
    REQUIRE(got[0].rfind("  " + t.name + " (the nearest; this poem breaks it), rhyme ", 0) == 0);
    for (size_t i = 0; i < c.broken.size(); ++i) {
        size_t s = c.broken[i];
        std::string wants = t.slots[s] == Need::Level ? "平" : "仄";
        REQUIRE(got[5 + i] == "    breaks at " + poet::encode_utf8(night[poet::quatrain::slot_position(s)]) + ": line " +
                                  std::to_string(s / 5 + 1) + ", position " + std::to_string(s % 5 + 1) + " wants " +
                                  wants);
    }

    std::u32string same = poet::decode_utf8("白日依山尽，黄河入海流。欲穷千里目，更上一层流。");   // a rhyme repeated
    REQUIRE(lines(poet::form::explain(same, table()))[0] ==
            "  仄起首句不入韵 (the nearest; this poem breaks it), rhyme 流 流: no level group holds them all without a "
            "repeat");
    REQUIRE(poet::form::explain(poet::decode_utf8("白日依山尽，"), table()) == "  (not a quatrain: nothing to explain)\n");
}

TEST_CASE("form state: the first rhyme picks the group, later rhymes keep it and never repeat", "[poet][form]") {
    std::vector<bool> every(table().group_count(), true);
    poet::form::FormState state(table(), every);
    REQUIRE(state.allows(U'隠'));          // slot 0 is free: any character, even one the table lacks
    std::u32string poem = poet::decode_utf8("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。");
    for (size_t s = 0; s < 19; ++s) {
        char32_t c = poem[poet::quatrain::slot_position(s)];
        REQUIRE(state.allows(c));
        state.advance(c);
        if (s == 0) REQUIRE_FALSE(state.allows(U'隠'));   // slot 1 asks for a tone
    }
    REQUIRE(state.possible_templates() == std::vector<int>{0});
    REQUIRE(state.allows(U'楼'));        // 十一尤, like 流
    REQUIRE(state.allows(U'秋'));
    REQUIRE_FALSE(state.allows(U'流'));  // the rhyme of line 2 again
    REQUIRE_FALSE(state.allows(U'春'));  // level, but 十一真
    REQUIRE_FALSE(state.allows(U'月'));  // oblique
    REQUIRE_THROWS_WITH(state.advance(U'春'), Contains("春 fits slot 19 of no template"));
    state.advance(U'楼');
    REQUIRE(state.slot() == 20);

    std::vector<bool> none(table().group_count(), false);   // no group has enough characters
    poet::form::FormState starved(table(), none);
    for (char32_t c : poet::decode_utf8("白日依山尽黄河入海")) starved.advance(c);
    REQUIRE_FALSE(starved.allows(U'流'));
}

TEST_CASE("writer: every 格律 poem of a seeded run of 50 passes the test's own checker", "[poet][form]") {
    poet::PoetModel m = untrained(5);   // untrained: regularity comes from the decoder alone
    pg::Generator gen(14);
    std::vector<int> ks = poet::draw_prompts(m.tok, 50, gen);
    poet::WriteOptions opt = regulated();
    std::vector<poet::WrittenPoem> poems = poet::write_poems(*m.gpt, m.tok, ks, opt, gen);
    REQUIRE(poems.size() == 50);
    std::vector<size_t> template_count(4);
    for (size_t i = 0; i < poems.size(); ++i) {
        std::u32string poem = poet::decode_utf8(poems[i].text);
        INFO(poems[i].text << " for " << m.tok.token_str(ks[i]));
        REQUIRE(poems[i].well_formed);
        REQUIRE(poem.find(m.tok.char_of(ks[i])) != std::u32string::npos);
        std::vector<size_t> kept = patterns_kept(poem);
        REQUIRE_FALSE(kept.empty());
        ++template_count[kept[0]];
        REQUIRE(poet::form::check(poem, table()).regular);
    }
    REQUIRE(std::count(template_count.begin(), template_count.end(), 0) < 4);
    // greedy and top-k decoding keep the form too
    for (auto [temperature, top_k] : {std::pair{0.f, size_t{0}}, std::pair{1.2f, size_t{20}}}) {
        opt.sampling.temperature = temperature;
        opt.sampling.top_k = top_k;
        for (const poet::WrittenPoem& p : poet::write_poems(*m.gpt, m.tok, {ks[0], ks[1], ks[2]}, opt, gen))
            REQUIRE_FALSE(patterns_kept(poet::decode_utf8(p.text)).empty());
    }
}

TEST_CASE("writer: 格律 acrostic opens with the character and keeps the form", "[poet][form]") {
    poet::PoetModel m = untrained(9);
    pg::Generator gen(3);
    for (char32_t c : {U'山', U'月', U'春'}) {
        int k = m.tok.id(c);
        for (const poet::WrittenPoem& p : poet::write_poems(*m.gpt, m.tok, std::vector<int>(8, k),
                                                            regulated(poet::Placement::Acrostic), gen)) {
            INFO(p.text);
            REQUIRE(poet::decode_utf8(p.text)[0] == c);
            REQUIRE_FALSE(patterns_kept(poet::decode_utf8(p.text)).empty());
        }
    }
}

TEST_CASE("writer: a character with no level reading is placed, in a 仄 slot", "[poet][form]") {
    poet::PoetModel m = untrained(11);
    REQUIRE(table().tones(U'月') == poet::kOblique);
    pg::Generator gen(8);
    std::vector<int> ks(40, m.tok.id(U'月'));
    std::vector<poet::WrittenPoem> poems = poet::write_poems(*m.gpt, m.tok, ks, regulated(), gen);
    size_t in_oblique_slot = 0;
    for (const poet::WrittenPoem& p : poems) {
        std::u32string poem = poet::decode_utf8(p.text);
        INFO(p.text);
        REQUIRE(poem.find(U'月') != std::u32string::npos);
        std::vector<size_t> kept = patterns_kept(poem);
        REQUIRE_FALSE(kept.empty());
        if (p.forced_slot < 0) continue;
        size_t slot = static_cast<size_t>(p.forced_slot), position = slot % 5;
        char32_t mark = poet::decode_utf8(kHandbook[kept[0]])[poet::quatrain::slot_position(slot)];
        REQUIRE((position == 0 || position == 2 || mark == U'仄'));   // a free position, or a 仄 one
        in_oblique_slot += position != 0 && position != 2;
    }
    REQUIRE(in_oblique_slot > 0);
}

TEST_CASE("writer: 格律 needs constrained decoding, and the loose form is unchanged", "[poet][form]") {
    poet::PoetModel m = untrained(5);
    int k = m.tok.id(U'山');
    poet::WriteOptions opt = regulated(poet::Placement::Prefix);
    opt.constrained = false;
    pg::Generator gen(1);
    REQUIRE_THROWS_WITH(poet::write_poems(*m.gpt, m.tok, {k}, opt, gen), Contains("needs constrained decoding"));
    poet::WriteOptions loose;   // the library's default: today's behaviour, seed for seed
    REQUIRE(loose.form == poet::Form::Loose);
}

TEST_CASE("eval: form rates, PPMI with a poem held out, topicality and log-probability", "[poet][form]") {
    std::vector<std::u32string> poems = {poet::decode_utf8("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"),
                                         poet::decode_utf8("床前明月光，疑是地上霜。举头望明月，低头思故乡。"),
                                         poet::decode_utf8("春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"),
                                         poet::decode_utf8("月黑雁飞高，单于夜遁逃。欲将轻骑逐，大雪满弓刀。")};
    poet::FormStats f = poet::form_stats(poems, table());
    REQUIRE(f.poems == 4);
    REQUIRE(f.rhyme == Approx(0.75));
    REQUIRE(f.tones == Approx(0.5));
    REQUIRE(f.regular == Approx(0.5));
    REQUIRE(f.repeated_char == Approx(0.5));   // 明, 月 and 头 twice in 《静夜思》, 处处 in 《春晓》
    REQUIRE(f.template_share[0] == Approx(0.5));
    REQUIRE(f.template_share[1] == Approx(0.5));

    poet::Cooccurrence co(poems, {U'月', U'白'});
    // 月 is in poems 2 and 4, 光 only in 2: PMI = log(4 * 1 / (2 * 1)) = log 2
    REQUIRE(co.ppmi(U'月', U'光') == Approx(std::log(2.0)));
    REQUIRE(co.ppmi(U'月', U'日') == Approx(0.0));          // 日 (poem 1) never with 月: no evidence
    REQUIRE(co.ppmi(U'月', U'光', &poems[1]) == Approx(0.0));   // without poem 2 the pair never meets
    REQUIRE(co.ppmi(U'月', U'欲', &poems[0]) == Approx(std::log(3.0 * 1 / (2 * 1))));
    REQUIRE_THROWS_WITH(co.ppmi(U'山', U'白'), Contains("山 was not counted"));

    poet::Prompted own{{U'月', U'白'}, {poems[1], poems[0]}};
    poet::Topicality t = poet::topicality(co, own, false);
    REQUIRE(t.own > t.others);
    REQUIRE(t.contrast() == Approx(t.own - t.others));

    poet::PoetModel m = untrained(5);
    poet::Prompted written;
    pg::Generator gen(2);
    int k = m.tok.id(U'山');
    for (const poet::WrittenPoem& p : poet::write_poems(*m.gpt, m.tok, {k, k}, regulated(), gen)) {
        written.ks.push_back(U'山');
        written.poems.push_back(poet::decode_utf8(p.text));
    }
    double log_p = poet::mean_log_prob(*m.gpt, m.tok, written);
    REQUIRE(std::isfinite(log_p));
    REQUIRE(log_p < 0);
    REQUIRE(log_p > -3 * std::log(static_cast<double>(m.tok.size())));   // near uniform when untrained
}
