// `./poet write 春`: quatrains for one character from a trained checkpoint, in 格律 by default
// (--form loose: the shape only; --free: no constraints). Poems go to stdout, one couplet per line,
// with --explain the template, rhyme group and tone of every character under each; the seed and how
// the character got into each poem go to stderr.
// Leaves out: batch prompts (call it once per character, or see ./poet eval).
#include <cstdio>
#include "poet/commands.hpp"
#include "poet/form.hpp"
#include "poet/model.hpp"
#include "poet/utf8.hpp"
#include "poet/variants.hpp"
#include "poet/writer.hpp"

namespace poet {

// A poem as two couplets on two lines; anything not well formed is printed as it came.
static std::string show(const WrittenPoem& p) {
    return p.well_formed ? couplets(p.text) : p.text + "    (not a well-formed quatrain)";
}

static const char* tone_mark(Tones t) {
    switch (t) {
        case kLevel: return "平";
        case kOblique: return "仄";
        case kBothTones: return "兼";
        default: return "？";
    }
}

static const char* need_mark(form::Need n) {
    return n == form::Need::Free ? "中" : n == form::Need::Level ? "平" : "仄";
}

// "上平声 五微: 归 微 飞": the group(s) the template's rhyme characters share, then the characters.
static std::string rhyme_of(const form::Check& c, const form::Template& t, const std::u32string& poem,
                            const RhymeTable& table) {
    std::string chars, groups;
    for (size_t s : form::rhyme_slots(t))
        chars += (chars.empty() ? "" : " ") + encode_utf8(poem[quatrain::slot_position(s)]);
    if (c.rhyme_groups.empty()) return chars + ": no level group holds them all without a repeat";
    for (int g : c.rhyme_groups) groups += (groups.empty() ? "" : " or ") + group_label(table.group(g));
    return groups + ": " + chars;
}

// "春风得未归  平平仄仄平  中平中仄平  韵": a line, its characters' tones, the template's pattern.
static std::string tones_of_line(size_t line, const form::Template& t, const std::u32string& poem,
                                 const RhymeTable& table) {
    std::string tones, pattern;
    for (size_t s = line * quatrain::kLineChars; s < (line + 1) * quatrain::kLineChars; ++s) {
        tones += tone_mark(table.tones(poem[quatrain::slot_position(s)]));
        pattern += need_mark(t.slots[s]);
    }
    bool rhymes = t.rhymes_at((line + 1) * quatrain::kLineChars - 1);
    return encode_utf8(quatrain::line(poem, line)) + "  " + tones + "  " + pattern + (rhymes ? "  韵" : "");
}

// Under a poem: the template that fits it best and its rhyme group, then each line with the tone
// of each character and the template's pattern, and the characters that break it.
static std::string explain(const std::string& text, const RhymeTable& table) {
    std::u32string poem = decode_utf8(text);
    if (!quatrain::well_formed(poem)) return "  (not a quatrain: nothing to explain)\n";
    form::Check c = form::check(poem, table);
    const form::Template& t = form::templates()[static_cast<size_t>(c.template_index)];
    std::string out = "  " + t.name + (c.regular ? "" : " (the nearest; this poem breaks it)") + ", rhyme " +
                      rhyme_of(c, t, poem, table) + "\n";
    for (size_t line = 0; line < quatrain::kLines; ++line) out += "    " + tones_of_line(line, t, poem, table) + "\n";
    for (size_t s : c.broken)
        out += "    breaks at " + encode_utf8(poem[quatrain::slot_position(s)]) + ": line " +
               std::to_string(s / quatrain::kLineChars + 1) + ", position " +
               std::to_string(s % quatrain::kLineChars + 1) + " wants " + need_mark(t.slots[s]) + "\n";
    return out;
}

static const char* kExplainLegend =
    "[explain: the tone of each character (平 level, 仄 oblique, 兼 both readings, ？ not in the 平水韵 table),\n"
    " then the template (中 either: positions 1 and 3 are free, 一三五不论); 韵 marks a rhyme slot]\n";

int cmd_write(int argc, char** argv) {
    Args a(argc, argv, 2, "write", {"samples", "temperature", "top-k", "seed", "checkpoint", "threads", "form"},
           {"acrostic", "free", "explain", "help"});
    if (a.on("help") || a.positional().empty()) {
        std::printf("usage: ./poet write CHAR [--acrostic] [--form regulated|loose] [--explain] [--samples N (4)]\n"
                    "                  [--temperature T (0.8)] [--top-k K (0: off)] [--seed S (random)]\n"
                    "                  [--checkpoint PATH (runs/poet/model.ckpt)] [--free] [--threads N]\n"
                    "Every poem contains CHAR: the model drafts a poem, then CHAR goes into the slot where the model\n"
                    "finds it most likely and the rest is rewritten around it. --acrostic puts CHAR first.\n"
                    "--form regulated (the default): 格律, the tones of one of the four 五言绝句 templates\n"
                    "and a rhyme in one level group of the 平水韵 on lines 2 and 4; --form loose: the shape only.\n"
                    "--explain prints the template, the rhyme group and each character's tone under every poem.\n"
                    "--free drops all constraints (and the placement): the model alone decides.\n");
        return a.on("help") ? 0 : kExitError;
    }
    if (a.positional().size() > 1)
        throw std::invalid_argument("write: one character at a time, got " + std::to_string(a.positional().size()) +
                                    " arguments");
    std::string form = a.str("form", "regulated");
    if (form != "regulated" && form != "loose")
        throw std::invalid_argument("write: --form must be regulated or loose, got \"" + form + "\"");
    if (a.on("free") && a.has("form")) throw std::invalid_argument("write: --free has no form; drop --form or --free");
    apply_threads(a);
    WriteOptions opt;
    size_t samples = a.size("samples", 4);
    opt.sampling.temperature = a.number("temperature", 0.8f);
    opt.sampling.top_k = a.size("top-k", 0);
    opt.constrained = !a.on("free");
    opt.form = opt.constrained && form == "regulated" ? Form::Regulated : Form::Loose;
    opt.placement = a.on("acrostic") ? Placement::Acrostic : opt.constrained ? Placement::Model : Placement::Prefix;
    if (samples == 0 || samples > kMaxSamples)
        throw std::invalid_argument("write: --samples " + std::to_string(samples) + " must be between 1 and " +
                                    std::to_string(kMaxSamples));
    if (opt.sampling.temperature < 0.f) throw std::invalid_argument("write: --temperature must be >= 0");
    uint64_t seed = seed_or_random(a);

    PoetModel model = load_model(a.str("checkpoint", default_checkpoint()));
    int k = prompt_char_id(a.positional()[0], model.tok);
    pg::Generator gen(seed);
    std::vector<WrittenPoem> poems = write_poems(*model.gpt, model.tok, std::vector<int>(samples, k), opt, gen);
    size_t drafted = 0, forced = 0;
    for (size_t i = 0; i < poems.size(); ++i) {
        std::printf("%s%s\n", i ? "\n" : "", show(poems[i]).c_str());
        if (a.on("explain")) std::printf("%s", explain(poems[i].text, pingshui()).c_str());
        drafted += poems[i].drafted_with_char;
        forced += poems[i].forced_slot >= 0;
    }
    if (a.on("explain")) std::printf("\n%s", kExplainLegend);
    std::fprintf(stderr, "[seed %llu", static_cast<unsigned long long>(seed));
    if (opt.placement == Placement::Model)
        std::fprintf(stderr, "; %s: the model's draft held it in %zu of %zu, placed by the model's own odds in %zu",
                     a.positional()[0].c_str(), drafted, poems.size(), forced);
    std::fprintf(stderr, "]\n");
    return 0;
}

}  // namespace poet
