// Checkpoints: save -> load -> save gives the same bytes; a loaded model and optimizer continue
// exactly; and every damaged file (truncated, flipped, wrong fields, 1,000 random corruptions)
// ends in a CheckpointError naming the file while the model and optimizer stay untouched.
#include "catch.hpp"
#include <cstdio>
#include <pg/pg.hpp>
#include "file_bytes.hpp"

namespace {

using pg_test::Bytes;
using pg_test::read_bytes;
using pg_test::write_bytes;

std::string temp_path(const std::string& name) { return pg_test::temp_path("checkpoint", name); }

// The format's checksum, FNV-1a 64 over every byte before the last 8, written again here so tests
// can forge files whose damage only the header checks can find.
void fix_checksum(Bytes& b) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 < b.size(); ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    for (int i = 0; i < 8; ++i) b[b.size() - 8 + i] = static_cast<uint8_t>(h >> (8 * i));
}

void put_u32(Bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void put_u64(Bytes& b, size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// A tiny model, so that a test can try every byte of its file.
struct Tiny : pg::nn::Module {
    pg::nn::Linear lin;
    pg::nn::LayerNorm ln;
    explicit Tiny(pg::Generator& gen) : lin(3, 2, true, gen), ln(2) {
        register_module("lin", lin);
        register_module("ln", ln);
    }
};

// One optimizer step, so that the model and optimizer state hold distinctive values.
void train_one_step(pg::optim::Optimizer& opt, const pg::Tensor& loss) {
    opt.zero_grad();
    loss.backward();
    opt.step();
}

// Everything load() could change, to compare before and after a failed load.
struct Snapshot {
    std::vector<std::vector<float>> params;
    std::vector<std::pair<std::string, pg::Array>> state;
    Snapshot(const pg::nn::Module& m, const pg::optim::Optimizer& opt) : state(opt.state()) {
        for (auto& p : m.parameters()) params.push_back(p.to_vector());
    }
    bool operator==(const Snapshot& o) const {
        if (params != o.params || state.size() != o.state.size()) return false;
        for (size_t i = 0; i < state.size(); ++i)
            if (state[i].first != o.state[i].first || !(state[i].second == o.state[i].second)) return false;
        return true;
    }
};

// Loads `bytes` from `path` into (model, opt): must throw a CheckpointError naming the file and
// leave both untouched. Returns the message.
std::string expect_rejected(const std::string& path, const Bytes& bytes, pg::nn::Module& model, pg::optim::Optimizer& opt) {
    Snapshot before(model, opt);
    write_bytes(path, bytes);
    std::string message;
    try {
        pg::load(path, model, &opt);
        message = "(loaded without error)";
    } catch (const pg::CheckpointError& e) {
        message = e.what();
    }
    INFO("file of " << bytes.size() << " bytes: " << message);
    CHECK(message.rfind(path + ": ", 0) == 0);
    CHECK(Snapshot(model, opt) == before);
    return message;
}

pg::nn::GPTConfig gpt_config(size_t n_embd = 8, size_t n_layer = 2) {
    pg::nn::GPTConfig cfg;
    cfg.vocab_size = 11;
    cfg.context = 6;
    cfg.n_layer = n_layer;
    cfg.n_head = 2;
    cfg.n_embd = n_embd;
    return cfg;
}

pg::Tensor gpt_loss(pg::nn::GPT& model) {
    pg::Tensor ids = pg::tensor({{1.f, 2.f, 3.f, 4.f}, {5.f, 6.f, 7.f, 8.f}});
    pg::Tensor targets = pg::tensor({2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f});
    return pg::cross_entropy(pg::reshape(model.forward(ids), {8, 11}), targets);
}

}  // namespace

TEST_CASE("checkpoint: save -> load -> save gives identical bytes, values, step and metadata return", "[checkpoint]") {
    pg::Generator gen(1);
    pg::nn::GPT model(gpt_config(), gen);
    pg::optim::AdamW opt(model.parameters());
    train_one_step(opt, gpt_loss(model));
    pg::Metadata meta{{"config", "n_embd=8 n_layer=2"}, {"tokenizer", "春 夏 秋 冬"}, {"empty", ""}};
    std::string a = temp_path("a.ckpt"), b = temp_path("b.ckpt");
    pg::save(a, model, &opt, 77, meta);
    CHECK(std::ifstream(a + ".tmp").fail());  // the temporary was renamed away

    pg::Generator other(99);
    pg::nn::GPT model2(gpt_config(), other);
    pg::optim::AdamW opt2(model2.parameters());
    pg::LoadedCheckpoint info = pg::load(a, model2, &opt2);
    CHECK(info.step == 77);
    CHECK(info.metadata == meta);
    CHECK(info.has_optimizer);
    auto p1 = model.named_parameters(), p2 = model2.named_parameters();
    for (size_t i = 0; i < p1.size(); ++i) CHECK(p1[i].second.to_vector() == p2[i].second.to_vector());
    CHECK(Snapshot(model, opt) == Snapshot(model2, opt2));

    pg::save(b, model2, &opt2, info.step, info.metadata);
    CHECK(read_bytes(a) == read_bytes(b));

    pg::LoadedCheckpoint only_info = pg::read_checkpoint_info(a);
    CHECK(only_info.step == 77);
    CHECK(only_info.metadata.at("tokenizer") == "春 夏 秋 冬");

    // without an optimizer: the weights alone, in both directions
    pg::save(b, model);
    CHECK_FALSE(pg::read_checkpoint_info(b).has_optimizer);
    pg::nn::GPT model3(gpt_config(), other);
    pg::load(a, model3);  // the file's optimizer state is ignored
    CHECK(model3.head.weight.to_vector() == model.head.weight.to_vector());
    std::remove(a.c_str());
    std::remove(b.c_str());
}

TEST_CASE("checkpoint: a loaded model and optimizer continue training exactly", "[checkpoint]") {
    pg::Generator gen(1);
    pg::nn::GPT model(gpt_config(), gen);
    pg::optim::AdamW opt(model.parameters());
    for (int i = 0; i < 3; ++i) train_one_step(opt, gpt_loss(model));
    std::string path = temp_path("resume.ckpt");
    pg::save(path, model, &opt, 3);
    pg::Generator other(5);
    pg::nn::GPT resumed(gpt_config(), other);
    pg::optim::AdamW resumed_opt(resumed.parameters());
    pg::load(path, resumed, &resumed_opt);
    for (int i = 0; i < 3; ++i) {
        pg::Tensor l1 = gpt_loss(model), l2 = gpt_loss(resumed);
        CHECK(l1.item() == l2.item());
        train_one_step(opt, l1);
        train_one_step(resumed_opt, l2);
    }
    std::remove(path.c_str());
}

TEST_CASE("checkpoint: another architecture or optimizer is named in the error", "[checkpoint]") {
    pg::Generator gen(1);
    pg::nn::GPT model(gpt_config(8), gen);
    pg::optim::AdamW opt(model.parameters());
    std::string path = temp_path("arch.ckpt");
    pg::save(path, model, &opt);

    pg::nn::GPT wider(gpt_config(16), gen);
    pg::optim::AdamW wider_opt(wider.parameters());
    std::string msg = expect_rejected(path, read_bytes(path), wider, wider_opt);
    CHECK(msg == path + ": parameter wte.weight has shape (11,8) in the file but (11,16) in the model");

    pg::nn::GPT deeper(gpt_config(8, 3), gen);
    pg::optim::AdamW deeper_opt(deeper.parameters());
    msg = expect_rejected(path, read_bytes(path), deeper, deeper_opt);
    CHECK_THAT(msg, Contains("parameter 26 is ln_f.weight in the file but blocks.2.ln1.weight in the model"));

    pg::nn::GPT same(gpt_config(8), gen);
    pg::optim::SGD sgd(same.parameters());
    msg = expect_rejected(path, read_bytes(path), same, sgd);
    CHECK_THAT(msg, Contains("optimizer state 0 is step in the file but velocity.0 in the optimizer"));

    pg::save(path, model);  // no optimizer state in the file
    msg = expect_rejected(path, read_bytes(path), same, sgd);
    CHECK_THAT(msg, Contains("holds no optimizer state"));

    CHECK_THROWS_WITH(pg::load(temp_path("missing.ckpt"), same), Contains("missing.ckpt: cannot open"));
    CHECK_THROWS_AS(pg::save("/nonexistent-dir/x.ckpt", model), pg::CheckpointError);
    std::remove(path.c_str());
}

TEST_CASE("checkpoint: truncation at every offset is an error, the model untouched", "[checkpoint]") {
    pg::Generator gen(2);
    Tiny model(gen);
    pg::optim::Adam opt(model.parameters());
    train_one_step(opt, pg::sum(model.ln.forward(model.lin.forward(pg::ones({1, 3}))) * pg::tensor({1.f, 2.f})));
    std::string path = temp_path("tiny.ckpt");
    pg::save(path, model, &opt, 5, {{"k", "v"}});
    Bytes good = read_bytes(path);
    REQUIRE(good.size() > 100);
    for (size_t n = 0; n < good.size(); ++n) {
        std::string msg = expect_rejected(path, Bytes(good.begin(), good.begin() + static_cast<long>(n)), model, opt);
        CHECK_THAT(msg, Contains("truncated"));
    }
    Bytes longer = good;
    longer.push_back(0);
    CHECK_THAT(expect_rejected(path, longer, model, opt), Contains("unexpected bytes after the checksum"));
    std::remove(path.c_str());
}

TEST_CASE("checkpoint: a flipped bit or byte at every offset is an error, the model untouched", "[checkpoint]") {
    pg::Generator gen(2);
    Tiny model(gen);
    pg::optim::Adam opt(model.parameters());
    train_one_step(opt, pg::sum(model.ln.forward(model.lin.forward(pg::ones({1, 3}))) * pg::tensor({1.f, 2.f})));
    std::string path = temp_path("flip.ckpt");
    pg::save(path, model, &opt, 5, {{"k", "v"}});
    Bytes good = read_bytes(path);
    for (size_t i = 0; i < good.size(); ++i)
        for (uint8_t mask : {0x01, 0x80}) {
            Bytes bad = good;
            bad[i] ^= mask;
            expect_rejected(path, bad, model, opt);
        }
    std::remove(path.c_str());
}

TEST_CASE("checkpoint: wrong magic, version and header fields give clear errors", "[checkpoint]") {
    pg::Generator gen(2);
    Tiny model(gen);
    pg::optim::SGD opt(model.parameters());
    std::string path = temp_path("fields.ckpt");
    pg::save(path, model, &opt);  // no metadata: the first tensor record starts at byte 35
    const Bytes good = read_bytes(path);
    auto with = [&](auto edit) {
        Bytes b = good;
        edit(b);
        fix_checksum(b);
        return expect_rejected(path, b, model, opt);
    };
    // Layout: "PGCKPT" 0..5, version 6..9, header length 10..17, step 18..25, metadata count 26..29,
    // optimizer flag 30, tensor count 31..34, then section 35, name length 36..39, "lin.weight" 40..49,
    // rank 50..53, dims 54..69.
    REQUIRE(std::string(good.begin() + 40, good.begin() + 50) == "lin.weight");
    CHECK_THAT(with([](Bytes& b) { b[0] = 'X'; }), Contains("not a poetgrad checkpoint"));
    CHECK_THAT(with([](Bytes& b) { put_u32(b, 6, 2); }), Contains("format version 2, but this build reads version 1"));
    CHECK_THAT(with([](Bytes& b) { put_u64(b, 10, ~0ull); }), Contains("truncated: the header needs"));
    CHECK_THAT(with([](Bytes& b) { put_u64(b, 10, 3); }), Contains("unexpected bytes after the checksum"));
    CHECK_THAT(with([](Bytes& b) { put_u32(b, 26, 0xffffffffu); }), Contains("truncated"));
    CHECK_THAT(with([](Bytes& b) { b[30] = 7; }), Contains("optimizer flag is 7"));
    CHECK_THAT(with([](Bytes& b) { put_u32(b, 31, 1000000); }), Contains("truncated"));
    CHECK_THAT(with([](Bytes& b) { b[35] = 9; }), Contains("unknown section 9"));
    CHECK_THAT(with([](Bytes& b) { put_u32(b, 36, 0x7fffffffu); }), Contains("truncated: a tensor name needs 2147483647 bytes"));
    CHECK_THAT(with([](Bytes& b) { b[40] = 'L'; }), Contains("parameter 0 is Lin.weight in the file but lin.weight in the model"));
    CHECK_THAT(with([](Bytes& b) { put_u32(b, 50, 0xffffffffu); }), Contains("lin.weight has more values than the payload holds"));
    CHECK_THAT(with([](Bytes& b) { put_u64(b, 54, 1ull << 62); }), Contains("lin.weight has more values than the payload holds"));
    CHECK_THAT(with([](Bytes& b) { put_u64(b, 54, 1); }), Contains("the payload holds"));
    CHECK_THAT(with([](Bytes& b) { put_u64(b, 62, 2); }), Contains("the payload holds"));
    std::remove(path.c_str());
}

TEST_CASE("checkpoint: 1,000 random corruptions, each a clear error with the model untouched", "[checkpoint]") {
    pg::Generator gen(3);
    Tiny model(gen);
    pg::optim::AdamW opt(model.parameters());
    train_one_step(opt, pg::sum(model.ln.forward(model.lin.forward(pg::ones({1, 3}))) * pg::tensor({1.f, 2.f})));
    std::string path = temp_path("random.ckpt");
    pg::save(path, model, &opt, 9, {{"config", "tiny"}, {"note", "x"}});
    const Bytes good = read_bytes(path);
    pg::Generator rng(2024);
    auto pick = [&](size_t n) { return rng.randint(n); };
    size_t messages_with_checksum = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        Bytes bad = good;
        switch (pick(5)) {
        case 0:  // a few flipped bits anywhere
            for (size_t k = 0, n = 1 + pick(4); k < n; ++k) bad[pick(bad.size())] ^= static_cast<uint8_t>(1u << pick(8));
            break;
        case 1:  // a run of random bytes anywhere
            for (size_t at = pick(bad.size()), k = 0, n = 1 + pick(16); k < n && at + k < bad.size(); ++k)
                bad[at + k] = static_cast<uint8_t>(pick(256));
            break;
        case 2:  // cut short
            bad.resize(pick(bad.size()));
            break;
        case 3:  // bytes removed from the middle
            bad.erase(bad.begin() + static_cast<long>(pick(bad.size() - 1)), bad.begin() + static_cast<long>(bad.size() - 1));
            break;
        default:  // garbage inserted
            bad.insert(bad.begin() + static_cast<long>(pick(bad.size())), 1 + pick(8), static_cast<uint8_t>(pick(256)));
            break;
        }
        if (bad == good) continue;
        messages_with_checksum += expect_rejected(path, bad, model, opt).find("checksum mismatch") != std::string::npos;
    }
    CHECK(messages_with_checksum > 100);

    // The same again with the checksum recomputed, so only the header's own checks can catch the
    // damage: any byte of the header's structure (not the step at 18..25, not the metadata's text)
    // and of the payload length after it.
    const size_t header_end = 18 + static_cast<size_t>(good[10]) + (static_cast<size_t>(good[11]) << 8);
    std::vector<bool> free_text(good.size(), false);
    for (size_t i = 18; i < 26; ++i) free_text[i] = true;
    for (size_t pos = 30, strings = 0; strings < 4; ++strings) {  // 2 entries: key, value, key, value
        size_t len = good[pos];
        for (size_t i = pos + 4; i < pos + 4 + len; ++i) free_text[i] = true;
        pos += 4 + len;
    }
    size_t caught = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        Bytes bad = good;
        size_t at = pick(header_end + 8);
        if (free_text[at]) continue;
        bad[at] = static_cast<uint8_t>(bad[at] ^ (1 + pick(255)));
        fix_checksum(bad);
        expect_rejected(path, bad, model, opt);
        ++caught;
    }
    CHECK(caught > 900);
    std::remove(path.c_str());
}
