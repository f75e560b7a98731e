// Lesson 22 experiment: the poet's training loop on the real corpus. One batch and one step
// (poet::sample_batch, poet::train_step), then poet::train for 200 steps of a small GPT (the run
// small_poet.hpp keeps for lessons 23 to 27) with its metrics.csv and loss curve, the same run
// stopped as Ctrl-C stops it and resumed to the same bits, and a first poem.
// Leaves out: the full-size run (./poet train), sampling itself (lesson 23).
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include "lesson.hpp"
#include "small_poet.hpp"
#include "svg.hpp"
#include "poet/config.hpp"
#include "poet/corpus.hpp"
#include "poet/loss_svg.hpp"
#include "poet/metrics.hpp"
#include "poet/model.hpp"
#include "poet/records.hpp"
#include "poet/train.hpp"
#include "poet/utf8.hpp"
#include "poet/val_loss.hpp"
#include "poet/writer.hpp"

namespace fs = std::filesystem;
using lesson::tr;

// A fresh folder under the system's temporary directory, removed with everything in it at the end
// (also when the experiment stops on an error).
struct TempDir {
    std::string path = (fs::temp_directory_path() / ("poet_lesson22_" + std::to_string(getpid()))).string();
    TempDir() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    // The path with the temporary folder written as <tmp>, so the output is the same on every run.
    std::string shown(std::string text) const {
        for (size_t at; (at = text.find(path)) != std::string::npos;) text.replace(at, path.size(), "<tmp>");
        return text;
    }
};

static poet::TrainOptions options(const std::string& out_dir) {
    poet::TrainOptions o;
    o.out_dir = out_dir;
    o.data_dir = poet::default_data_dir();
    o.threads = 2;              // the same thread count on every machine: the same bits
    o.show_progress = false;    // the progress bar is for the terminal; this prints its own lines
    return o;
}

// The joint L2 norm of every gradient the parameters hold (what clip_grad_norm measures).
static double grad_norm(const std::vector<pg::Tensor>& params) {
    double squares = 0;
    for (const pg::Tensor& p : params)
        if (p.has_grad())
            for (float g : p.grad().to_vector()) squares += static_cast<double>(g) * g;
    return std::sqrt(squares);
}

// The record as tokens, "·" where the target is kIgnore.
static std::string targets_str(const pg::Tensor& targets, size_t row, const poet::Tokenizer& tok) {
    std::vector<float> y = targets.to_vector();
    std::string out;
    for (size_t t = 0; t < poet::kInputLength; ++t) {
        int id = static_cast<int>(y[row * poet::kInputLength + t]);
        out += id == poet::kIgnore ? "·" : tok.token_str(id);
    }
    return out;
}

static std::string poem_lines(const std::string& text) {
    std::u32string t = poet::decode_utf8(text);
    return poet::encode_utf8(t.substr(0, 12)) + " " + poet::encode_utf8(t.substr(12));
}

static void run() {
    pg::set_num_threads(2);
    const poet::TrainConfig cfg = small_poet::config();   // ./poet train's settings, a smaller model and run
    TempDir tmp;

    lesson::section(tr("the settings: ./poet train's, with a small model and 200 steps",
                       "设置：./poet train 的那一套，换成小模型，训练 200 步"));
    std::cout << tr("corpus ", "语料 ") << cfg.corpus << tr(", ", "，") << cfg.n_layer << tr(" layers, width ", " 层，宽 ")
              << cfg.n_embd << tr(", ", "，") << cfg.n_head << tr(" heads, context ", " 个头，上下文 ") << cfg.context
              << tr(", dropout ", "，dropout ") << lesson::num(cfg.dropout, 1) << "\n"
              << cfg.steps << tr(" steps of batch ", " 步，每批 ") << cfg.batch << tr(", AdamW lr ", "，AdamW lr ")
              << lesson::num(cfg.lr, 4) << tr(" (warmup ", "（预热 ") << cfg.warmup
              << tr(" steps = default_warmup(200), cosine down to ", " 步 = default_warmup(200)，余弦降到 ")
              << lesson::num(cfg.min_lr, 4) << tr("), betas ", "），betas ") << lesson::num(cfg.beta1, 2) << " "
              << lesson::num(cfg.beta2, 2) << tr(", weight decay ", "，权重衰减 ") << lesson::num(cfg.weight_decay, 1)
              << tr(", clip ", "，clip ") << lesson::num(cfg.clip, 1) << tr(", seed ", "，种子 ") << cfg.seed
              << tr(", ", "，") << pg::num_threads() << tr(" threads\n", " 个线程\n");

    lesson::section(tr("the corpus and one batch: poet::sample_batch", "语料和一批：poet::sample_batch"));
    poet::Corpus corpus = poet::load_corpus(poet::default_data_dir(), cfg.corpus);
    poet::Tokenizer tok = poet::Tokenizer::build(corpus.train);
    std::vector<poet::Poem> train_poems = poet::encode_poems(corpus.train, tok);
    std::vector<poet::Poem> val_poems = poet::encode_poems(corpus.val, tok);
    const size_t V = tok.size();
    std::cout << train_poems.size() << tr(" training poems, ", " 首训练诗，") << val_poems.size()
              << tr(" validation poems, V = ", " 首验证诗，V = ") << V << tr(" tokens (5 special + ", " 个词元（5 个特殊标记 + ")
              << V - 5 << tr(" characters)\n", " 个字）\n");
    pg::Generator data_gen(22);
    poet::Batch batch = poet::sample_batch(train_poems, cfg.batch, data_gen);
    std::cout << tr("inputs ", "输入 ") << lesson::str(batch.inputs.shape()) << tr(" = (B,T), targets ", " = (B,T)，目标 ")
              << lesson::str(batch.targets.shape()) << " = (B*T)\n";
    std::vector<float> row0 = batch.inputs.to_vector();
    std::vector<int> ids0(row0.begin(), row0.begin() + poet::kInputLength);
    std::cout << tr("row 0 inputs:  ", "第 0 行输入：") << tok.decode(ids0) << "\n"
              << tr("row 0 targets: ", "第 0 行目标：") << targets_str(batch.targets, 0, tok)
              << tr("   (· = kIgnore, no loss)\n", "   （· = kIgnore，不计损失）\n");
    std::vector<float> y = batch.targets.to_vector();
    size_t counted = static_cast<size_t>(std::count_if(y.begin(), y.end(), [](float v) { return v != poet::kIgnore; }));
    std::cout << tr("counted targets: ", "计入损失的目标：") << counted << " = B * 25 = " << cfg.batch << " * "
              << poet::kLossTokens << tr(" (24 poem characters and EOS per record)\n", "（每条记录 24 个字加 EOS）\n");
    lesson::confirm(tr("counted targets", "计入损失的目标"), static_cast<double>(counted), static_cast<double>(cfg.batch * poet::kLossTokens),
                    0.0, "B * 25");

    lesson::section(tr("the loss before training: about ln V", "训练之前的损失：约为 ln V"));
    poet::PoetModel fresh = poet::make_model(tok, poet::gpt_config(cfg, V), cfg.seed);
    pg::nn::GPT& gpt = *fresh.gpt;
    std::cout << tr("parameters: ", "参数：") << gpt.num_parameters() << " = wte " << V << "*64 + wpe 32*64 + 2 blocks * 49984 + ln_f 128 + head "
              << V << "*64\n";
    lesson::confirm("num_parameters", static_cast<double>(gpt.num_parameters()),
                    static_cast<double>(2 * V * 64 + 32 * 64 + 2 * (12 * 64 * 64 + 13 * 64) + 128), 0.0,
                    tr("the count by hand (lesson 17)", "手数的结果（第 17 课）"));
    lesson::show(tr("ln V, the loss of a uniform guess", "ln V，均匀乱猜的损失"), std::log(static_cast<double>(V)));
    lesson::show(tr("batch_loss(fresh model, batch)", "batch_loss(新模型, 这一批)"), poet::batch_loss(gpt, batch).item());
    lesson::show(tr("validation loss of the fresh model (854 poems)", "新模型的验证损失（854 首诗）"),
                 poet::validation_loss(gpt, val_poems, 64).mean);

    lesson::section(tr("the schedule: warmup_cosine_lr(step, 20, 200, 0.002, 0.0002)",
                       "学习率调度：warmup_cosine_lr(step, 20, 200, 0.002, 0.0002)"));
    for (size_t step : {0, 1, 9, 19, 20, 110, 199})
        std::cout << tr("step ", "第 ") << step + 1 << tr(" (step index ", " 步（下标 ") << step << tr("): lr ", "）：lr ")
                  << lesson::num(pg::optim::warmup_cosine_lr(step, cfg.warmup, cfg.steps, cfg.lr, cfg.min_lr), 6) << "\n";
    lesson::confirm(tr("lr at step index 0", "下标 0 的 lr"), pg::optim::warmup_cosine_lr(0, 20, 200, 2e-3f, 2e-4f),
                    2e-3 / 20, 1e-9, "max_lr * 1 / warmup");
    lesson::confirm(tr("lr at step index 110", "下标 110 的 lr"), pg::optim::warmup_cosine_lr(110, 20, 200, 2e-3f, 2e-4f),
                    (2e-3 + 2e-4) / 2, 1e-9,
                    tr("halfway down the cosine: (max_lr + min_lr) / 2", "余弦下降的一半：(max_lr + min_lr) / 2"));

    lesson::section(tr("one step: poet::train_step(gpt, opt, batch, lr, clip)", "一步：poet::train_step(gpt, opt, batch, lr, clip)"));
    pg::optim::AdamW opt(gpt.parameters(), {cfg.lr, cfg.beta1, cfg.beta2, 1e-8f, cfg.weight_decay});
    std::vector<float> w0 = gpt.head.weight.to_vector();   // (V,C), every entry gets a gradient
    float lr0 = pg::optim::warmup_cosine_lr(0, cfg.warmup, cfg.steps, cfg.lr, cfg.min_lr);
    poet::StepStats s = poet::train_step(gpt, opt, batch, lr0, cfg.clip);
    std::cout << "StepStats: lr " << lesson::num(s.lr, 6) << tr(", loss ", "，loss ") << lesson::num(s.loss)
              << tr(", grad_norm (before clipping) ", "，grad_norm（裁剪之前）") << lesson::num(s.grad_norm)
              << tr(", diverged \"", "，diverged \"") << s.diverged << "\"\n";
    std::cout << tr("the gradients' norm after the step: ", "这一步之后梯度的范数：") << lesson::num(grad_norm(opt.params()))
              << (s.grad_norm > cfg.clip ? tr(" (clipped to clip = 1.0)", "（裁剪到 clip = 1.0）")
                                         : tr(" (below clip = 1.0: left as it was)", "（低于 clip = 1.0：保持原样）"))
              << "\n";
    std::vector<float> w1 = gpt.head.weight.to_vector();
    std::vector<double> moved;
    for (size_t j = 0; j < w0.size(); ++j) moved.push_back(std::fabs(static_cast<double>(w1[j]) - w0[j]));
    std::nth_element(moved.begin(), moved.begin() + moved.size() / 2, moved.end());
    std::cout << "head.weight " << lesson::str(gpt.head.weight.shape())
              << tr(": median |change| / lr = ", "：|变化量| 的中位数 / lr = ") << lesson::num(moved[moved.size() / 2] / lr0, 2)
              << tr("   (Adam's first step is lr * g / (|g| + eps): about lr for every weight, whatever g's size)\n",
                    "   （Adam 的第一步是 lr * g / (|g| + eps)：不管 g 多大，每个权重都移动约 lr）\n");
    lesson::show(tr("batch_loss on the same batch after the step", "这一步之后同一批上的 batch_loss"),
                 poet::batch_loss(gpt, batch).item());

    // The run lessons 23 to 27 read: trained here the first time (poet::train into build/lessons/small_poet,
    // a note on stderr), read back after that; its step lines come from the losses train returned, so
    // both print the same.
    lesson::section(tr("200 steps: poet::train into build/lessons/small_poet, the run lessons 23 to 27 read",
                       "200 步：poet::train，写进 build/lessons/small_poet，第 23 到 27 课读的就是这次训练"));
    small_poet::Run kept = small_poet::run();
    poet::PoetModel& trained = kept.model;
    const small_poet::Losses& a = kept.losses;
    const std::string run_dir = small_poet::cache_dir();
    for (size_t step = 1; step <= a.steps.size(); ++step)
        if (step == 1 || step % 20 == 0)
            std::cout << tr("step ", "第 ") << step << tr(": train loss ", " 步：训练损失 ") << lesson::num(a.steps[step - 1], 2)
                      << "\n";
    std::cout << tr("status ", "状态 ") << (poet::is_finished_checkpoint(run_dir + "/model.ckpt") ? "Finished" : "not finished")
              << tr(", ", "，") << a.steps.size() << tr(" steps, checkpoint at step ", " 步，检查点在第 ")
              << trained.step << tr("\n", " 步\n");
    std::cout << tr("first train loss ", "第一步的训练损失 ") << lesson::num(a.steps.front()) << tr(", last ", "，最后一步 ")
              << lesson::num(a.steps.back(), 2) << tr(", mean of the last 20 ", "，最后 20 步的平均 ")
              << lesson::num(std::accumulate(a.steps.end() - 20, a.steps.end(), 0.0) / 20, 2) << "\n";
    lesson::expect("the loss falls", a.steps.back() < a.steps.front() - 2.f, "at least 2 lower", "less", "");

    lesson::section(tr("metrics.csv, one row per step, and the loss curve", "metrics.csv（每步一行）和损失曲线"));
    std::ifstream csv(run_dir + "/metrics.csv");
    std::string line;
    for (int i = 0; i < 3 && std::getline(csv, line); ++i) std::cout << "  " << line << "\n";
    std::cout << tr("  ...   (tokens_per_s and elapsed_s are timings: they differ on every run)\n",
                    "  ...   （tokens_per_s 和 elapsed_s 是计时：每次运行都不同）\n");
    std::vector<poet::MetricRow> rows = poet::read_metrics(run_dir + "/metrics.csv", cfg.steps);
    size_t clipped = 0, last_clipped = 0;
    for (const poet::MetricRow& r : rows) {
        if (r.grad_norm > cfg.clip) ++clipped, last_clipped = r.step;
        if (!std::isnan(r.val_loss))
            std::cout << tr("step ", "第 ") << r.step << tr(": validation loss ", " 步：验证损失 ")
                      << lesson::num(r.val_loss, 2) << tr(", train loss ", "，训练损失 ") << lesson::num(r.loss, 2) << "\n";
    }
    std::cout << rows.size() << tr(" rows. grad_norm before clipping:", " 行。裁剪之前的 grad_norm：");
    for (size_t step : {1, 25, 50, 100, 150, 200})
        std::cout << tr(" step ", " 第 ") << step << tr(" ", " 步 ") << lesson::num(rows[step - 1].grad_norm, 2);
    std::cout << tr("\nabove clip = 1.0, so clipped, at ", "\n超过 clip = 1.0、因而被裁剪的有 ") << clipped
              << tr(" steps, the last of them step ", " 步，最后一次在第 ") << last_clipped << tr("\n", " 步\n");
    // The picture is drawn from the values rounded to the two decimals the README quotes: another CPU
    // moves a loss's last digits, and must not move a coordinate of the tracked file.
    std::vector<poet::MetricRow> drawn = rows;
    for (poet::MetricRow& r : drawn) {
        r.loss = static_cast<float>(std::round(r.loss * 100.0) / 100.0);
        if (!std::isnan(r.val_loss)) r.val_loss = static_cast<float>(std::round(r.val_loss * 100.0) / 100.0);
    }
    const std::string name = lesson::chinese() ? "loss.zh.svg" : "loss.svg";
    poet::LossLabels labels;
    if (lesson::chinese()) labels = {"步", "交叉熵（每个字的奈特数）", "训练（平滑后）", "验证", "还没有训练步"};
    const svg::Output picture = svg::in_lesson_folder(__FILE__, name);
    poet::write_loss_svg(picture.path, drawn,
                         tr("lesson 22: 2 layers, width 64, 200 steps of 16 records",
                            "第 22 课：2 层、宽 64，200 步，每步 16 条记录"),
                         labels);
    std::cout << tr("wrote ", "写出了 ") << picture.shown
              << tr(" from the rows' step, loss and val_loss rounded to 2 decimals (no timings)\n",
                    "，只用每行的 step、loss 和 val_loss（四舍五入到两位小数，不用计时）\n");

    lesson::section(tr("Ctrl-C: the same run stopped after step 120, saved, resumed", "Ctrl-C：同一次训练在第 120 步之后停下、保存、续训"));
    const std::string stop_dir = tmp.path + "/stopped";
    std::atomic<bool> stop{false};   // ./poet train's SIGINT handler sets such a flag
    poet::TrainOptions first = options(stop_dir);
    first.stop = &stop;
    first.on_step = [&](size_t step, float) {
        if (step == 120) stop = true;   // "Ctrl-C" during step 120: seen before step 121 starts
    };
    poet::TrainResult b1 = poet::train(cfg, first);
    std::cout << tr("status ", "状态 ") << (b1.status == poet::TrainStatus::Interrupted ? "Interrupted" : "not interrupted")
              << tr(": ", "：") << tmp.shown(b1.message) << "\n";
    std::vector<std::string> files;
    for (const auto& f : fs::directory_iterator(stop_dir)) files.push_back(f.path().filename().string());
    std::sort(files.begin(), files.end());
    std::cout << tr("the folder holds:", "文件夹里有：");
    for (size_t i = 0; i < files.size(); ++i) std::cout << (i || !lesson::chinese() ? " " : "") << files[i];
    std::cout << tr("   (no model.ckpt.tmp: pg::save wrote that, then renamed it)\n",
                    "   （没有 model.ckpt.tmp：pg::save 先写它，再把它改名）\n");
    pg::LoadedCheckpoint info = pg::read_checkpoint_info(b1.checkpoint);
    const bool rngs = info.metadata.count("rng.data") && info.metadata.count("rng.model");
    std::cout << tr("model.ckpt: step ", "model.ckpt：第 ") << info.step << tr(", optimizer state ", " 步，优化器状态")
              << (info.has_optimizer ? tr("yes", "有") : tr("no", "无")) << tr(", ", "，") << info.metadata.size()
              << tr(" metadata entries, among them rng.data and rng.model: ", " 条元数据，其中有 rng.data 和 rng.model：")
              << (rngs ? tr("yes", "是") : tr("no", "否")) << "\n";

    // What a reader would meet if the file were written in place and the program died halfway.
    const std::string torn = stop_dir + "/torn.ckpt";
    {
        std::ifstream in(b1.checkpoint, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream(torn, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    try {
        poet::load_model(torn);
        std::cout << tr("a half-written checkpoint loaded?!\n", "写了一半的检查点居然读进来了？！\n");
    } catch (const pg::CheckpointError& e) {
        std::cout << tr("half of model.ckpt, loaded: CheckpointError: ", "读入半个 model.ckpt：CheckpointError: ")
                  << tmp.shown(e.what()) << "\n";
    }
    fs::remove(torn);

    poet::TrainOptions second = options(stop_dir);
    second.resume = true;   // ./poet train --resume: the settings come from the checkpoint
    poet::TrainResult b2 = poet::train(poet::TrainConfig{}, second);
    std::vector<float> joined = b1.losses;
    joined.insert(joined.end(), b2.losses.begin(), b2.losses.end());
    size_t same = 0;
    for (size_t i = 0; i < a.steps.size() && i < joined.size(); ++i)
        if (joined[i] == a.steps[i]) ++same;   // equal as floats: the same bits
    std::cout << tr("stopped run: ", "停下的训练：") << b1.losses.size() << tr(" steps, resumed run: ", " 步，续训：")
              << b2.losses.size() << tr(" steps; equal bit for bit to the uninterrupted run: ", " 步；与不间断的训练逐位相同的损失：")
              << same << tr(" of ", " / ") << a.steps.size() << tr(" losses, validation loss ", "，验证损失")
              << (b2.val_loss == a.val_loss ? tr("equal", "相同") : tr("different", "不同")) << "\n";
    lesson::expect("resume repeats the uninterrupted losses", same == a.steps.size() && joined.size() == same,
                   "all 200 equal", std::to_string(same),
                   "a run kept in build/lessons/small_poet from before a change to lib/ or the poet's training "
                   "is not trained again: delete that folder");

    lesson::section(tr("a first poem: poet::write_poems, seeded", "第一首诗：poet::write_poems，带种子"));
    std::cout << tr("load_model(model.ckpt): step ", "load_model(model.ckpt)：第 ") << trained.step << tr(", V = ", " 步，V = ")
              << trained.tok.size() << "\n";
    poet::PoetModel untrained = poet::make_model(tok, poet::gpt_config(cfg, V), cfg.seed);
    std::vector<int> ks;
    for (const char* k : {"春", "月", "山"}) ks.push_back(tok.id(poet::decode_utf8(k)[0]));
    for (auto [name, model] : {std::pair{tr("untrained", "未训练"), &untrained},
                               std::pair{tr("after 200 steps", "训练 200 步之后"), &trained}}) {
        pg::Generator gen(22);
        std::vector<poet::WrittenPoem> poems = poet::write_poems(*model->gpt, tok, ks, poet::WriteOptions{}, gen);
        std::cout << name << tr(":\n", "：\n");
        for (size_t i = 0; i < poems.size(); ++i)
            std::cout << "  " << tok.token_str(ks[i]) << "  " << poem_lines(poems[i].text)
                      << (poems[i].well_formed ? tr("   well-formed", "   格式完整") : tr("   NOT well-formed", "   格式不完整"))
                      << "\n";
    }
}

int main() { return lesson::run_experiment(run); }
