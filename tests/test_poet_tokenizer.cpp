// The poet's tokenizer: UTF-8 round trips, clear errors for invalid UTF-8 and unknown characters,
// the vocabulary order and its serialisation, and the prompt character's suggestions.
#include "catch.hpp"
#include "poet/tokenizer.hpp"
#include "poet/utf8.hpp"
#include "poet/variants.hpp"

using poet::Tokenizer;

static Tokenizer small_tokenizer() {
    return Tokenizer::build({U"春眠不觉晓，处处闻啼鸟。", U"夜来风雨声，花落知多少。"});
}

TEST_CASE("utf8: decode and encode round trip, including 4-byte characters", "[poet][tokenizer]") {
    std::string text = "春a，𠀀é";
    std::u32string cps = poet::decode_utf8(text);
    REQUIRE(cps == std::u32string{U'春', U'a', U'，', U'\U00020000', U'é'});
    REQUIRE(poet::encode_utf8(cps) == text);
    REQUIRE(poet::is_han(U'春'));
    REQUIRE_FALSE(poet::is_han(U'，'));
}

TEST_CASE("utf8: invalid input names the byte offset", "[poet][tokenizer]") {
    auto message = [](const std::string& s) {
        try {
            poet::decode_utf8(s, "test");
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // "春" is E6 98 A5; a lone continuation byte at offset 3
    REQUIRE(message("春\x80") == "test: invalid UTF-8 at byte offset 3: byte 0x80 cannot start a character");
    REQUIRE_THAT(message("ab\xE6\x98"), Contains("byte offset 2") && Contains("cut off"));
    REQUIRE_THAT(message("\xE6" "a" "\xA5"), Contains("byte offset 1") && Contains("continuation"));
    REQUIRE_THAT(message("\xC0\xAF"), Contains("byte offset 0"));                 // overlong '/'
    REQUIRE_THAT(message("x\xE0\x80\xAF"), Contains("overlong"));
    REQUIRE_THAT(message("\xED\xA0\x80"), Contains("surrogate"));
    REQUIRE_THAT(message("\xF4\x90\x80\x80"), Contains("beyond U+10FFFF"));
}

TEST_CASE("tokenizer: specials first, then characters by count, ties by code point", "[poet][tokenizer]") {
    Tokenizer tok = small_tokenizer();
    REQUIRE(tok.size() == 5 + 21);   // 19 distinct characters plus ，and 。
    REQUIRE(tok.token_str(Tokenizer::BOS) == "<BOS>");
    // ，。处 appear twice; ，(U+FF0C) sorts after 。(U+3002) and 处 (U+5904)
    REQUIRE(tok.token_str(5) == "。");
    REQUIRE(tok.token_str(6) == "处");
    REQUIRE(tok.token_str(7) == "，");
    REQUIRE(tok.char_of(Tokenizer::EOS) == 0);
    REQUIRE(tok.is_han(tok.id(U'春')));
    REQUIRE_FALSE(tok.is_han(tok.id(U'，')));
    REQUIRE_FALSE(tok.is_han(Tokenizer::UNK));
    REQUIRE_THROWS_AS(tok.char_of(26), std::out_of_range);
    REQUIRE(tok.most_frequent_han(2) == std::vector<char32_t>{U'处', U'不'});
}

TEST_CASE("tokenizer: encode/decode round trip and serialisation", "[poet][tokenizer]") {
    Tokenizer tok = small_tokenizer();
    std::string poem = "春眠不觉晓，处处闻啼鸟。";
    std::vector<int> ids = tok.encode(poem);
    REQUIRE(ids.size() == 12);
    REQUIRE(ids[6] == ids[7]);
    REQUIRE(tok.decode(ids) == poem);

    Tokenizer back = Tokenizer::deserialize(tok.serialize());
    REQUIRE(back.size() == tok.size());
    REQUIRE(back.encode(poem) == ids);
    REQUIRE_THROWS_WITH(Tokenizer::deserialize("春春"), Contains("appears twice"));
    REQUIRE_THROWS_AS(Tokenizer::deserialize(""), std::invalid_argument);
    REQUIRE_THROWS_WITH(Tokenizer::deserialize("春\xFF"), Contains("byte offset 3"));
}

TEST_CASE("tokenizer: unknown characters are named, or become UNK when allowed", "[poet][tokenizer]") {
    Tokenizer tok = small_tokenizer();
    REQUIRE_THROWS_WITH(tok.encode("春月"), Contains("月 (U+6708) at position 1 is not in the vocabulary"));
    REQUIRE(tok.encode("春月", true) == std::vector<int>{tok.id(U'春'), Tokenizer::UNK});
    REQUIRE(tok.decode({Tokenizer::BOS, tok.id(U'春'), Tokenizer::UNK}) == "<BOS>春<UNK>");
    REQUIRE_THROWS_WITH(tok.encode("春\xE6"), Contains("invalid UTF-8 at byte offset 3"));
}

TEST_CASE("prompt: one known character, else an error with something to try", "[poet][tokenizer]") {
    Tokenizer tok = Tokenizer::build({U"风雨春花，干山月明。"});
    REQUIRE(tok.id(U'风') == poet::prompt_char_id("风", tok));
    // the traditional twin of a known character is offered
    REQUIRE_THROWS_WITH(poet::prompt_char_id("風", tok),
                        Contains("風 (U+98A8) is not in the model's vocabulary") && Contains("did you mean 风?"));
    REQUIRE_THROWS_WITH(poet::prompt_char_id("乾", tok), Contains("did you mean 干?"));
    // no twin: frequent characters instead
    REQUIRE_THROWS_WITH(poet::prompt_char_id("龙", tok), Contains("try a frequent one: "));
    REQUIRE_THROWS_WITH(poet::prompt_char_id("a", tok), Contains("not a Chinese character"));
    // a character of the extension blocks is a Chinese character, only not one the model knows
    REQUIRE_THROWS_WITH(poet::prompt_char_id("\xF0\xA0\x80\x80", tok),
                        Contains("(U+20000) is not in the model's vocabulary"));
    REQUIRE_THROWS_WITH(poet::prompt_char_id("\xE3\x90\x80", tok), Contains("(U+3400) is not in the model's vocabulary"));
    REQUIRE_THROWS_WITH(poet::prompt_char_id("春风", tok), Contains("exactly one character, got 2"));
    REQUIRE_THROWS_WITH(poet::prompt_char_id("", tok), Contains("got 0"));
    REQUIRE_THROWS_WITH(poet::prompt_char_id("\xE9\xA3", tok), Contains("invalid UTF-8 at byte offset 0"));
}
