// The whole GPT training loop on any UTF-8 text file: one token per character (code point),
// random batches, AdamW with warmup and cosine lr, clipping, then a little sampled text.
// Usage: gpt_minimal FILE [STEPS]. Exits with 1 if the loss did not fall (ctest runs it briefly).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <pg/pg.hpp>

// UTF-8 -> code points; a byte that starts no valid sequence stands for itself.
std::vector<uint32_t> decode_utf8(const std::string& s) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < s.size();) {
        unsigned char c = s[i];
        size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = n > 0 && i + n <= s.size();
        for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
        if (!ok) n = 1;
        uint32_t cp = n == 1 ? c : c & (0x7F >> n);
        for (size_t k = 1; ok && k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(cp);
        i += n;
    }
    return out;
}

std::string encode_utf8(uint32_t cp) {
    if (cp < 0x80) return std::string(1, static_cast<char>(cp));
    if (cp < 0x800) return {static_cast<char>(0xC0 | cp >> 6), static_cast<char>(0x80 | (cp & 0x3F))};
    if (cp < 0x10000)
        return {static_cast<char>(0xE0 | cp >> 12), static_cast<char>(0x80 | (cp >> 6 & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
    return {static_cast<char>(0xF0 | cp >> 18), static_cast<char>(0x80 | (cp >> 12 & 0x3F)),
            static_cast<char>(0x80 | (cp >> 6 & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE [STEPS]\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::vector<uint32_t> text = decode_utf8(buffer.str());
    const size_t steps = argc > 2 ? std::stoul(argv[2]) : 1000;

    // vocabulary: every distinct character, in code point order
    std::map<uint32_t, size_t> id_of;
    for (uint32_t cp : text) id_of.emplace(cp, 0);
    std::vector<uint32_t> char_of;
    for (auto& [cp, id] : id_of) {
        id = char_of.size();
        char_of.push_back(cp);
    }
    std::vector<float> data;
    for (uint32_t cp : text) data.push_back(static_cast<float>(id_of[cp]));

    pg::nn::GPTConfig cfg;
    cfg.vocab_size = char_of.size();
    cfg.context = 32;
    cfg.n_layer = 2;
    cfg.n_head = 4;
    cfg.n_embd = 64;
    cfg.dropout = 0.1f;
    const size_t B = 8, T = cfg.context, V = cfg.vocab_size;
    if (data.size() < T + 2) {
        std::fprintf(stderr, "%s: need at least %zu characters of text\n", argv[1], T + 2);
        return 2;
    }
    pg::Generator gen(1337);
    pg::nn::GPT model(cfg, gen);
    pg::optim::AdamWOptions options;
    options.weight_decay = 0.1f;
    pg::optim::AdamW opt(model.parameters(), options);
    std::printf("%zu characters, vocabulary %zu, %zu parameters\n", data.size(), V, model.num_parameters());

    // B random windows of T+1 characters: x is the first T, y the same shifted by one
    auto batch = [&](pg::Tensor& x, pg::Tensor& y) {
        std::vector<float> xs, ys;
        for (size_t b = 0; b < B; ++b) {
            size_t start = gen.randint(data.size() - T - 1);
            xs.insert(xs.end(), data.begin() + start, data.begin() + start + T);
            ys.insert(ys.end(), data.begin() + start + 1, data.begin() + start + T + 1);
        }
        x = pg::tensor(xs, {B, T});
        y = pg::tensor(ys, {B * T});
    };

    float first_loss = 0.f, recent_loss = 0.f;
    for (size_t step = 0; step < steps; ++step) {
        pg::Tensor x, y;
        batch(x, y);
        opt.zero_grad();
        pg::Tensor loss = pg::cross_entropy(pg::reshape(model.forward(x), {B * T, V}), y);
        loss.backward();
        pg::optim::clip_grad_norm(model.parameters(), 1.f);
        opt.set_lr(pg::optim::warmup_cosine_lr(step, steps / 10, steps, 3e-3f, 3e-4f));
        opt.step();
        if (step == 0) first_loss = loss.item();
        recent_loss = step == 0 ? loss.item() : 0.9f * recent_loss + 0.1f * loss.item();  // smoothed
        if (step % 10 == 0 || step + 1 == steps)
            std::printf("step %4zu  loss %.4f  (smoothed %.4f, lr %.2e)\n", step, loss.item(), recent_loss, opt.lr());
    }

    // sample 60 characters, one at a time, from the model's distribution
    model.eval();
    pg::NoGradGuard no_grad;
    std::vector<float> context{data[0]};
    std::string sample = encode_utf8(char_of[static_cast<size_t>(data[0])]);
    for (int i = 0; i < 60; ++i) {
        size_t n = std::min(context.size(), T);
        std::vector<float> window(context.end() - static_cast<long>(n), context.end());
        pg::Tensor probs = pg::softmax(model.forward(pg::tensor(window, {1, n})), -1);  // (1,n,V)
        const float* last = probs.ptr() + (n - 1) * V;
        float r = gen.uniform(), total = 0.f;
        size_t next = V - 1;
        for (size_t v = 0; v < V; ++v)
            if ((total += last[v]) > r) {
                next = v;
                break;
            }
        context.push_back(static_cast<float>(next));
        sample += encode_utf8(char_of[next]);
    }
    std::printf("sample: %s\n", sample.c_str());
    if (!(recent_loss < first_loss)) {
        std::printf("FAILED: the loss did not fall (%.4f -> %.4f)\n", first_loss, recent_loss);
        return 1;
    }
    return 0;
}
