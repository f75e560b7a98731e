// Writing quatrains for one character k: the record prefix BOS k SEP, format-constrained decoding
// (ideographs in the 20 slots, ，and 。at the line ends, EOS after line 4), and the mechanism that
// puts k into the poem. Placement::Model, the default, works in two passes:
//   1. draft a whole poem, constrained, conditioned on BOS k SEP;
//   2. if the draft lacks k, run the model once over the draft to get, for each slot s, the
//      probability q_s that it would write k there given the draft before s; pick a slot with
//      probability proportional to q_s, keep the draft before it, put k there, and sample the rest
//      again, now conditioned on k.
// So k lands where the model itself finds it most plausible, and every poem contains it.
// Form::Regulated adds 格律 (form.hpp) to both passes: each slot takes only characters whose tone
// fits a template still possible, the rhyme slots keep one level group, and k goes only into a slot
// where it fits; the template is the one the model's own choices lead to, slot by slot.
// Steering (steer.hpp), when asked for, adds a bias toward characters related to k and a penalty on
// characters already written to the logits of every sampled slot.
// Leaves out: beam search over templates (the first fitting choice of the model is kept).
#pragma once
#include <string>
#include <vector>
#include "pg/nn/gpt.hpp"
#include "pg/random.hpp"
#include "poet/decode.hpp"
#include "poet/steer.hpp"
#include "poet/tokenizer.hpp"

namespace poet {

enum class Placement {
    Model,      // the two-pass mechanism above (needs constrained decoding)
    Acrostic,   // k opens the poem (slot 0)
    Prefix,     // only the prefix BOS k SEP: the model alone decides (the baseline eval measures)
};

enum class Form {
    Loose,       // the quatrain's shape (and the character): `./poet write --form loose`
    Regulated,   // 格律 on top: tones and rhyme of a 五言绝句, what `./poet write` does by default
};

struct WriteOptions {
    SamplingOptions sampling;
    bool constrained = true;    // false: --free, any token anywhere, stop at EOS or the context
    Placement placement = Placement::Model;
    // Loose here so that library callers (the demo, lesson 22) keep what they print; the CLI's
    // write and eval ask for Regulated. Needs constrained decoding.
    Form form = Form::Loose;
    // Topical bias and repeat penalty on every sampled slot of both passes (steer.hpp), constrained
    // decoding only; the placement odds stay the model's own. Off here for the same reason as Loose;
    // the CLI's write, eval and demo turn it on.
    Steering steering;
    // The model was trained with the copy token (copy_token.hpp; PoetModel::copy_token): it reads the
    // poem's k as COPY, and COPY's probability counts as k's. Off for a model trained without it.
    bool copy_token = false;
};

struct WrittenPoem {
    std::vector<int> ids;       // everything after SEP, EOS included when the model wrote one
    std::string text;           // the ids before EOS, decoded
    bool well_formed = false;   // 24 tokens in quatrain layout, then EOS
    bool has_char = false;      // k occurs in the poem
    bool drafted_with_char = false;   // the first pass (or the only one) already held k
    int forced_slot = -1;       // the slot k was put into, or -1 when nothing was forced
};

// The ids the 20 slots may hold: every CJK ideograph of the vocabulary.
std::vector<int> han_ids(const Tokenizer& tok);

// One poem per entry of ks, all decoded as one batch (ks may repeat a character, or differ).
// Throws std::invalid_argument when a k is not an ideograph of the vocabulary, Placement::Model or
// Form::Regulated is asked for without constrained decoding, the steering's TopicTable has not
// counted a k, or (never with the four templates, whose free slots take any character) k fits no
// slot of any template.
std::vector<WrittenPoem> write_poems(pg::nn::GPT& gpt, const Tokenizer& tok, const std::vector<int>& ks,
                                     const WriteOptions& opt, pg::Generator& gen);

// The second pass's numbers for one draft: for each of the 20 slots s, may k go there given the
// draft before s (always in the loose form; under 格律 only where its tone, and at a rhyme slot its
// group, fits a template still possible), and q_s, the probability at this temperature (at T = 1
// when it is 0) over the ids allowed at s that the model writes k there; q_s = 0 where k does not fit.
struct SlotOdds {
    std::vector<bool> fits;     // (20)
    std::vector<double> q;      // (20)
};

// SlotOdds for each draft, from one forward pass over them all: the numbers write_poems draws the
// slot from. A draft is a row BOS k SEP and the 24 ids of a poem in the quatrain's layout (EOS after
// them or not), with an ideograph in every slot. Throws std::invalid_argument for any other row, and
// under 格律 for a draft that breaks the form (as form::FormState::advance does).
// copy_token as in WriteOptions.
std::vector<SlotOdds> slot_odds(pg::nn::GPT& gpt, const Tokenizer& tok, const std::vector<std::vector<int>>& drafts,
                                Form form, float temperature, bool copy_token = false);

// Does `ids` (after SEP) hold a well-formed quatrain followed by EOS?
bool is_well_formed(const std::vector<int>& ids, const Tokenizer& tok);

}  // namespace poet
