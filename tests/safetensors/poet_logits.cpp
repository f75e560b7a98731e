// The poetgrad side of the PyTorch proof (torch_roundtrip.sh): loads a poet checkpoint, runs its
// GPT on seeded ids (a record's prefix BOS k SEP, then random tokens, the whole context long) and
// writes "ids" (B,T) and "logits" (B,T,V) to a safetensors file for safetensors_torch.py verify.
// Leaves out: comparing (the Python side does), sampling.
// usage: poet_logits CHECKPOINT OUT.safetensors [SEED]
#include <cstdio>
#include <exception>
#include <string>
#include "pg/autograd.hpp"
#include "pg/io/safetensors.hpp"
#include "poet/model.hpp"

int main(int argc, char** argv) {
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: poet_logits CHECKPOINT OUT.safetensors [SEED]\n");
        return 1;
    }
    try {
        poet::PoetModel m = poet::load_model(argv[1]);
        pg::Generator gen(argc == 4 ? std::stoull(argv[3]) : 7);
        const size_t B = 2, T = m.gpt->config().context, V = m.tok.size();
        std::vector<float> ids(B * T);
        for (size_t b = 0; b < B; ++b)
            for (size_t t = 0; t < T; ++t) {
                size_t random = poet::Tokenizer::num_special + gen.randint(V - poet::Tokenizer::num_special);
                ids[b * T + t] = static_cast<float>(t == 0 ? poet::Tokenizer::BOS : t == 2 ? poet::Tokenizer::SEP : random);
            }
        pg::Tensor input = pg::tensor(ids, {B, T});
        pg::NoGradGuard no_grad;
        pg::Tensor logits = m.gpt->forward(input);   // (B,T,V)
        pg::save_safetensors(argv[2], {{"ids", input}, {"logits", logits}});
        std::printf("poet_logits: %s: logits (%zu,%zu,%zu) of seeded ids written to %s\n", argv[1], B, T, V, argv[2]);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "poet_logits: %s\n", e.what());
        return 1;
    }
}
