// Export and import of a poet as safetensors: one table from our parameter names to nanoGPT's,
// the metadata both ways, and the checks import makes before it trusts a file. Our Linear stores
// its weight (out, in) like torch.nn.Linear, so every tensor keeps its layout; only names change.
// Leaves out: any transposing (there is none to do), tied heads, files without a "vocab".
#include "poet/torch_export.hpp"
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include "poet/config.hpp"
#include "poet/utf8.hpp"

namespace poet {

namespace {

// Our names -> nanoGPT's, by prefix: outside the blocks, and inside "blocks.N." -> "transformer.h.N.".
const std::vector<std::pair<std::string, std::string>> kOutside = {
    {"wte.", "transformer.wte."}, {"wpe.", "transformer.wpe."}, {"ln_f.", "transformer.ln_f."}, {"head.", "lm_head."}};
const std::vector<std::pair<std::string, std::string>> kInBlock = {
    {"ln1.", "ln_1."},           {"attn.qkv.", "attn.c_attn."}, {"attn.proj.", "attn.c_proj."},
    {"ln2.", "ln_2."},           {"mlp.fc.", "mlp.c_fc."},      {"mlp.out.", "mlp.c_proj."}};

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

std::string renamed(const std::string& name, const std::vector<std::pair<std::string, std::string>>& table) {
    for (const auto& [ours, theirs] : table)
        if (starts_with(name, ours)) return theirs + name.substr(ours.size());
    return "";
}

// Metadata keys of a checkpoint that an export leaves out, and keys an export adds.
bool checkpoint_only(const std::string& key) { return key == "tokenizer" || starts_with(key, "rng."); }
const char* const kExportKeys[] = {"format", "vocab", "step"};

uint64_t step_from(const std::string& text) {
    size_t used = 0;
    unsigned long long v = 0;
    try {
        v = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size() || text[0] == '-')
        throw std::invalid_argument("metadata 'step' = '" + text + "' is not a whole number");
    return v;
}

}  // namespace

std::string torch_name(const std::string& name) {
    std::string outside = renamed(name, kOutside);
    if (!outside.empty()) return outside;
    if (starts_with(name, "blocks.")) {
        size_t dot = name.find('.', 7);
        std::string inside = dot == std::string::npos ? "" : renamed(name.substr(dot + 1), kInBlock);
        if (!inside.empty()) return "transformer.h." + name.substr(7, dot - 7) + "." + inside;
    }
    throw std::logic_error("torch_name: no nanoGPT name for parameter " + name + " (add it to tools/poet/torch_export.cpp)");
}

std::string vocab_json(const Tokenizer& tok) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t id = 0; id < tok.size(); ++id) list.push_back(tok.token_str(static_cast<int>(id)));
    return list.dump();
}

Tokenizer tokenizer_from_vocab_json(const std::string& text) {
    nlohmann::json list;
    try {
        list = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw std::invalid_argument(std::string("metadata 'vocab' is not JSON: ") + e.what());
    }
    if (!list.is_array() || list.size() <= Tokenizer::num_special)
        throw std::invalid_argument("metadata 'vocab' is not a JSON list of the tokens in id order, 5 specials and then characters");
    auto entry = [&](size_t id) {
        if (!list[id].is_string())
            throw std::invalid_argument("metadata 'vocab' entry " + std::to_string(id) + " is " + list[id].dump() + ", not a string");
        return list[id].get<std::string>();
    };
    std::u32string chars;
    for (size_t id = Tokenizer::num_special; id < list.size(); ++id) {
        std::string token = entry(id);
        std::u32string c = decode_utf8(token, "metadata 'vocab' entry " + std::to_string(id));
        if (c.size() != 1)
            throw std::invalid_argument("metadata 'vocab' entry " + std::to_string(id) + " is \"" + token + "\", not one character");
        chars += c;
    }
    Tokenizer tok = Tokenizer::deserialize(encode_utf8(chars));   // refuses a character listed twice
    for (int id = 0; id < Tokenizer::num_special; ++id) {
        const std::string name = entry(static_cast<size_t>(id));
        bool before_copy = id == Tokenizer::COPY && name == "<PAD>";   // files exported before id 0 was COPY
        if (name != tok.token_str(id) && !before_copy)
            throw std::invalid_argument("metadata 'vocab' entry " + std::to_string(id) + " is \"" + name +
                                        "\"; ids 0 to 4 are <COPY> <BOS> <SEP> <EOS> <UNK>");
    }
    return tok;
}

void export_safetensors(const PoetModel& m, const std::string& path) {
    pg::NamedTensors tensors;
    for (auto& [name, t] : m.gpt->named_parameters()) tensors.emplace_back(torch_name(name), t);
    pg::Metadata meta;
    for (const auto& [key, value] : m.metadata)
        if (!checkpoint_only(key)) meta[key] = value;   // val_loss, and any key a later checkpoint adds
    // The settings: the checkpoint's (a fresh model has none: the defaults), the shape the GPT's own.
    TrainConfig c = m.metadata.empty() ? TrainConfig{} : train_config_from(m.metadata);
    const pg::nn::GPTConfig& g = m.gpt->config();
    c.n_layer = g.n_layer, c.n_head = g.n_head, c.n_embd = g.n_embd, c.context = g.context, c.dropout = g.dropout;
    to_metadata(c, meta);
    model_metadata(m, meta);   // poet.format, model.vocab_size (and the tokenizer, which "vocab" replaces)
    meta.erase("tokenizer");
    meta["format"] = "pt";     // what safetensors' own torch writer puts there
    meta["vocab"] = vocab_json(m.tok);
    meta["step"] = std::to_string(m.step);
    pg::save_safetensors(path, tensors, meta);
}

// Every parameter of gpt from the file, under its nanoGPT name; checks every name and shape (and
// that the file holds nothing else) before it copies any.
static void load_weights(pg::nn::GPT& gpt, const pg::SafetensorsFile& file) {
    std::map<std::string, const pg::Tensor*> in_file;
    for (const auto& [name, t] : file.tensors) in_file[name] = &t;
    std::set<std::string> used;
    auto params = gpt.named_parameters();
    for (auto& [name, p] : params) {
        std::string want = torch_name(name);
        auto it = in_file.find(want);
        if (it == in_file.end())
            throw std::runtime_error("has no tensor '" + want + "', which a GPT of model.n_layer " +
                                     std::to_string(gpt.config().n_layer) + " needs");
        if (it->second->shape() != p.shape())
            throw std::runtime_error("tensor '" + want + "' has shape " + pg::shape_str(it->second->shape()) + ", but " +
                                     pg::shape_str(p.shape()) + " in the GPT its metadata describes");
        used.insert(want);
    }
    for (const auto& [name, t] : file.tensors)
        if (!used.count(name))
            throw std::runtime_error("tensor '" + name + "' is not a parameter of the GPT (the names: docs/POET.md)");
    for (auto& [name, p] : params) p.copy_(*in_file.at(torch_name(name)));
}

// The poet a checked file describes; throws std::runtime_error or std::invalid_argument (without
// the path) for the first thing that does not fit.
static PoetModel poet_of(const pg::SafetensorsFile& file) {
    pg::Metadata meta = file.metadata;
    Tokenizer tok = tokenizer_from_vocab_json(metadata_at(meta, "vocab"));
    uint64_t step = meta.count("step") ? step_from(meta.at("step")) : 0;
    for (const char* key : kExportKeys) meta.erase(key);
    pg::Metadata defaults;
    to_metadata(TrainConfig{}, defaults);
    for (const Setting& s : settings())   // keeps the file's own; a setting with a `before` value keeps its absence
        if (starts_with(s.key, "train.") && !s.before) meta.insert({s.key, defaults.at(s.key)});
    const TrainConfig train_cfg = train_config_from(meta);
    validate(train_cfg);   // every size within its limit before anything is built
    pg::nn::GPTConfig cfg = gpt_config_from(meta);
    if (cfg.vocab_size != tok.size())
        throw std::runtime_error("model.vocab_size " + std::to_string(cfg.vocab_size) + " differs from the " +
                                 std::to_string(tok.size()) + " tokens of 'vocab'");

    PoetModel m = make_model(tok, cfg, 0);
    m.copy_token = uses_copy_token(train_cfg);
    pg::Metadata own;
    model_metadata(m, own);   // poet.format, the tokenizer as a checkpoint keeps it, model.vocab_size
    if (meta.count("poet.format") && meta.at("poet.format") != own.at("poet.format"))
        throw std::runtime_error("metadata 'poet.format' is " + meta.at("poet.format") + ", but this poet reads " +
                                 own.at("poet.format"));
    load_weights(*m.gpt, file);
    for (auto& [key, value] : own) meta[key] = value;
    m.metadata = meta;
    m.step = step;
    m.gpt->eval();
    return m;
}

PoetModel import_safetensors(const std::string& path) {
    pg::SafetensorsFile file = pg::load_safetensors(path);
    try {
        return poet_of(file);
    } catch (const std::exception& e) {
        throw pg::SafetensorsError(path + ": " + e.what());
    }
}

}  // namespace poet
