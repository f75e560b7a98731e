// A poet as a safetensors file that PyTorch opens, and back: the GPT's weights under nanoGPT's
// names in torch's layouts, and in "__metadata__" the settings and the vocabulary, enough for
// import to rebuild a checkpoint `./poet write` uses. docs/POET.md has the table of names;
// tools/reference/safetensors_torch.py is the PyTorch side.
// Leaves out: the optimizer state and the random generators' states (an imported checkpoint
// writes and evaluates; it does not resume training), other models' files (nanoGPT's own GPT
// ties its head and uses the exact GELU, so its weights would give other logits here).
#pragma once
#include <string>
#include "pg/io/safetensors.hpp"
#include "poet/model.hpp"

namespace poet {

// The nanoGPT name of one of our GPT's parameters: "blocks.0.attn.qkv.weight" ->
// "transformer.h.0.attn.c_attn.weight", "head.weight" -> "lm_head.weight". Throws
// std::logic_error for a name the table does not know (a parameter added without a name here).
std::string torch_name(const std::string& poetgrad_name);

// The vocabulary as "__metadata__" holds it, a JSON list of the tokens in id order:
// ["<COPY>","<BOS>","<SEP>","<EOS>","<UNK>","，","。","不",...]; and back (throws
// std::invalid_argument naming the entry that is not a special in its place or one character;
// "<PAD>", id 0's name before it was COPY, is read as COPY).
std::string vocab_json(const Tokenizer& tok);
Tokenizer tokenizer_from_vocab_json(const std::string& json);

// Writes `m` to path (atomically; refuses non-finite weights). The metadata: "format" "pt",
// "vocab", "step", and the checkpoint's own keys but "tokenizer" and "rng.*" (the model's shape
// as "model.*", the training settings as "train.*", "poet.format", "val_loss").
void export_safetensors(const PoetModel& m, const std::string& path);

// Reads a file export_safetensors wrote, or one made elsewhere with the same names and keys
// ("vocab" and every "model.*" required; "train.*" settings it lacks take the defaults, "step"
// 0). Checks every name and shape against the GPT the metadata describes before any weight is
// used. Throws pg::CheckpointError (pg::SafetensorsError) whose message starts with the path.
PoetModel import_safetensors(const std::string& path);

}  // namespace poet
