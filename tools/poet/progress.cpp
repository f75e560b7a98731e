// Draws the progress bar of progress.hpp. The ETA divides the time spent so far in this session
// by the steps done in it, so it includes validation pauses.
// Leaves out: terminal width detection (the line stays under 100 columns).
#include "poet/progress.hpp"
#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace poet {

std::string format_duration(double seconds) {
    long s = std::lround(std::max(0.0, seconds));
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
    else if (s >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%lds", s);
    return buf;
}

ProgressBar::ProgressBar(size_t total, size_t first_step, std::FILE* out)
    : total_(total), first_(first_step), out_(out), tty_(isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

std::string ProgressBar::render(size_t step, float loss, float val_loss, double tokens_per_s) const {
    const int width = 24;
    double frac = total_ ? static_cast<double>(step) / static_cast<double>(total_) : 1.0;
    int filled = static_cast<int>(frac * width);
    std::string bar(static_cast<size_t>(filled), '#');
    bar += std::string(static_cast<size_t>(width - filled), '-');
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    size_t done = step - first_;
    std::string eta = done ? format_duration(elapsed / static_cast<double>(done) * static_cast<double>(total_ - step)) : "?";
    char val[32] = "  -  ";
    if (!std::isnan(val_loss)) std::snprintf(val, sizeof val, "%.3f", static_cast<double>(val_loss));
    char buf[200];
    std::snprintf(buf, sizeof buf, "step %*zu/%zu [%s] %3.0f%% | loss %.3f | val %s | %6.0f tok/s | ETA %s",
                  static_cast<int>(std::to_string(total_).size()), step, total_, bar.c_str(), 100 * frac,
                  static_cast<double>(loss), val, tokens_per_s, eta.c_str());
    return buf;
}

void ProgressBar::update(size_t step, float loss, float val_loss, double tokens_per_s) {
    auto now = std::chrono::steady_clock::now();
    if (tty_) {
        bool due = std::chrono::duration<double>(now - last_draw_).count() > 0.1 || step == total_ || !drawn_;
        if (!due) return;
        std::fprintf(out_, "\r\033[K%s", render(step, loss, val_loss, tokens_per_s).c_str());
        drawn_ = true;
    } else {
        size_t every = std::max<size_t>(1, total_ / 20);
        if (step % every != 0 && step != total_) return;
        std::fprintf(out_, "%s\n", render(step, loss, val_loss, tokens_per_s).c_str());
    }
    last_draw_ = now;
    std::fflush(out_);
}

void ProgressBar::note(const std::string& line) {
    if (tty_ && drawn_) std::fprintf(out_, "\r\033[K");
    std::fprintf(out_, "%s\n", line.c_str());
    drawn_ = false;
    std::fflush(out_);
}

void ProgressBar::finish() {
    if (tty_ && drawn_) std::fprintf(out_, "\n");
    drawn_ = false;
    std::fflush(out_);
}

}  // namespace poet
