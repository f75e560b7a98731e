// Lesson 18 exercise: UTF-8 by hand, text to ids and back, and one training record as (inputs,
// targets). `./poet start 18` copies this file to exercise.cpp; write the five functions there, then
// `./poet check 18`.
// 第 18 课练习：手写 UTF-8，把文本变成编号再变回来，并把一条训练记录变成（输入，目标）。
// `./poet start 18` 会把这个文件复制成 exercise.cpp；在那里写好这五个函数，然后运行
// `./poet check 18`。
#include <stdexcept>
#include "check.hpp"

std::u32string exercise::utf8_decode(const std::string& bytes) {
    // i = 0; while i < bytes.size():
    // i = 0；当 i < bytes.size() 时：
    //   lead = (unsigned char)bytes[i]; it gives the length and the payload bits:
    //   lead = (unsigned char)bytes[i]，这个首字节决定长度和有效位：
    //     0x00..0x7F: 1 byte, c = lead           0xC2..0xDF (110xxxxx): 2 bytes, c = lead & 0x1F
    //     0x00..0x7F：1 个字节，c = lead          0xC2..0xDF (110xxxxx)：2 个字节，c = lead & 0x1F
    //     0xE0..0xEF (1110xxxx): 3 bytes, c = lead & 0x0F
    //     0xE0..0xEF (1110xxxx)：3 个字节，c = lead & 0x0F
    //     0xF0..0xF4 (11110xxx): 4 bytes, c = lead & 0x07
    //     0xF0..0xF4 (11110xxx)：4 个字节，c = lead & 0x07
    //     anything else (10xxxxxx, 0xC0, 0xC1, 0xF5..0xFF) cannot start a character
    //     其他字节（10xxxxxx、0xC0、0xC1、0xF5..0xFF）都不能开始一个字符
    //   the text must not end before the character does
    //   文本不能在这个字符结束之前就结束
    //   each continuation byte b must be 10xxxxxx; c = (c << 6) | (b & 0x3F)
    //   每个续字节 b 都必须是 10xxxxxx；c = (c << 6) | (b & 0x3F)
    //   reject overlong forms (c below 0x80, 0x800, 0x10000 for 2, 3, 4 bytes), surrogates
    //   (U+D800..U+DFFF) and c > U+10FFFF
    //   拒绝超长编码（2、3、4 个字节时 c 分别小于 0x80、0x800、0x10000）、代理项
    //   （U+D800..U+DFFF）以及 c > U+10FFFF
    // throw std::invalid_argument("... byte offset " + std::to_string(offset) + ...) for each error
    // 每种错误都抛出 std::invalid_argument("... byte offset " + std::to_string(offset) + ...)
    throw lesson::NotImplemented("exercise::utf8_decode");
}

std::string exercise::utf8_encode(const std::u32string& text) {
    // per code point c: 1 byte below U+0080, 2 below U+0800, 3 below U+10000, else 4;
    // lead = 0xC0 | c >> 6 (or 0xE0 | c >> 12, 0xF0 | c >> 18), then 0x80 | each next 6 bits
    // 对每个码点 c：小于 U+0080 用 1 个字节，小于 U+0800 用 2 个，小于 U+10000 用 3 个，其余用 4 个；
    // 首字节 lead = 0xC0 | c >> 6（或 0xE0 | c >> 12、0xF0 | c >> 18），后面每个字节是 0x80 | 接下来的 6 位
    throw lesson::NotImplemented("exercise::utf8_encode");
}

std::vector<int> exercise::encode(const poet::Tokenizer& tok, const std::string& text) {
    // utf8_decode(text), then tok.id_or_unk(c) for each code point
    // 先 utf8_decode(text)，再对每个码点 c 取 tok.id_or_unk(c)
    throw lesson::NotImplemented("exercise::encode");
}

std::string exercise::decode(const poet::Tokenizer& tok, const std::vector<int>& ids) {
    // ids 0..4 are special: tok.token_str(id) gives <COPY>, <BOS>, <SEP>, <EOS>, <UNK>;
    // any other id: utf8_encode of tok.char_of(id)
    // 编号 0..4 是特殊标记：tok.token_str(id) 给出 <COPY>、<BOS>、<SEP>、<EOS>、<UNK>；
    // 其他编号：对 tok.char_of(id) 做 utf8_encode
    throw lesson::NotImplemented("exercise::decode");
}

exercise::Example exercise::make_example(const std::vector<int>& poem, size_t slot) {
    // record = BOS, k = poem[poet::quatrain::slot_position(slot)], SEP, the 24 poem ids, EOS   (28)
    // inputs = record[0 .. 26]                                                                  (27)
    // targets[t] = record[t + 1], except poet::kIgnore for t = 0 (k) and t = 1 (SEP)            (27)
    // 记录 record = BOS、k = poem[poet::quatrain::slot_position(slot)]、SEP、诗的 24 个编号、EOS   (28)
    // 输入 inputs = record[0 .. 26]                                                              (27)
    // 目标 targets[t] = record[t + 1]，只有 t = 0（k）和 t = 1（SEP）是 poet::kIgnore           (27)
    throw lesson::NotImplemented("exercise::make_example");
}
