// Builds and loads PoetModel; every failure to read a checkpoint becomes one CheckpointError
// whose message starts with the path.
// Leaves out: converting checkpoints between formats.
#include "poet/model.hpp"
#include <filesystem>
#include <fstream>
#include "poet/config.hpp"

namespace poet {

static const char* const kFormat = "poet-1";

PoetModel make_model(const Tokenizer& tok, const pg::nn::GPTConfig& cfg, uint64_t seed) {
    PoetModel m;
    m.tok = tok;
    m.gen = std::make_unique<pg::Generator>(seed);
    m.gpt = std::make_unique<pg::nn::GPT>(cfg, *m.gen);
    return m;
}

void model_metadata(const PoetModel& m, pg::Metadata& meta) {
    meta["poet.format"] = kFormat;
    meta["tokenizer"] = m.tok.serialize();
    meta["model.vocab_size"] = std::to_string(m.gpt->config().vocab_size);
}

const std::string& metadata_at(const pg::Metadata& meta, const std::string& key) {
    auto it = meta.find(key);
    if (it == meta.end()) throw std::runtime_error("checkpoint metadata has no '" + key + "' (not a poet checkpoint?)");
    return it->second;
}

PoetModel load_model(const std::string& path) {
    if (!std::filesystem::exists(path))
        throw pg::CheckpointError(path + ": no such checkpoint (train one with ./poet train, or pass --checkpoint PATH)");
    pg::LoadedCheckpoint info = pg::read_checkpoint_info(path);
    try {
        auto format = info.metadata.find("poet.format");
        if (format == info.metadata.end() || format->second != kFormat)
            throw std::runtime_error("not a poet checkpoint (metadata 'poet.format' is not " + std::string(kFormat) + ")");
        Tokenizer tok = Tokenizer::deserialize(metadata_at(info.metadata, "tokenizer"));
        TrainConfig train_cfg = train_config_from(info.metadata);
        validate(train_cfg);   // every size within its limit before anything is built
        pg::nn::GPTConfig cfg = gpt_config_from(info.metadata);
        if (cfg.vocab_size != tok.size())
            throw std::runtime_error("model.vocab_size " + std::to_string(cfg.vocab_size) + " differs from the " +
                                     std::to_string(tok.size()) + " tokens of its tokenizer");
        PoetModel m = make_model(tok, cfg, 0);
        pg::LoadedCheckpoint loaded = pg::load(path, *m.gpt);
        m.metadata = loaded.metadata;
        m.step = loaded.step;
        m.copy_token = uses_copy_token(train_cfg);
        m.gpt->eval();
        return m;
    } catch (const pg::CheckpointError&) {
        throw;
    } catch (const std::exception& e) {
        throw pg::CheckpointError(path + ": " + e.what());
    }
}

bool is_finished_checkpoint(const std::string& path) {
    if (!std::ifstream(path)) return false;
    try {
        pg::LoadedCheckpoint info = pg::read_checkpoint_info(path);
        auto steps = info.metadata.find("train.steps");
        return steps != info.metadata.end() && std::to_string(info.step) == steps->second;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace poet
