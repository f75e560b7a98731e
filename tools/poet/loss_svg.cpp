// Plots metrics rows with tools/svg/svg.hpp: a frame, ticks at round numbers, the raw and smoothed
// training loss and the validation loss. The smoothed curve is an exponential moving average (0.95)
// with bias correction, as TensorBoard. Coordinates have one decimal (svg::px), so a run whose
// losses differ in their last bits (another instruction set) draws the same picture.
// Leaves out: text measurement (labels use fixed sizes and anchors).
#include "poet/loss_svg.hpp"
#include <algorithm>
#include <cmath>
#include "svg/svg.hpp"

namespace poet {

namespace {

const double kW = 720, kH = 420, kLeft = 60, kRight = 20, kTop = 40, kBottom = 50;

// A "nice" tick spacing (1, 2 or 5 times a power of ten) giving about n ticks over span.
double tick_step(double span, int n) {
    double raw = span / n, p = std::pow(10.0, std::floor(std::log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

// a tick's label: as few decimals as the step needs
std::string tick(double v, double step) { return svg::fixed(v, step >= 1 ? 0 : step >= 0.1 ? 1 : 2); }

}  // namespace

std::string loss_curve_svg(const std::vector<MetricRow>& rows, const std::string& title, const LossLabels& labels) {
    std::string s = svg::header(kW, kH, 12) + svg::text(kW / 2, 22, 15, title, "middle");
    if (rows.empty()) return s + svg::text(kW / 2, kH / 2, 12, labels.empty, "middle") + svg::footer();
    // smoothed training loss, and the y range it and the validation loss span
    std::vector<double> smooth;
    double ema = 0, lo = 1e30, hi = -1e30;
    for (size_t i = 0; i < rows.size(); ++i) {
        ema = 0.95 * ema + 0.05 * rows[i].loss;
        smooth.push_back(ema / (1 - std::pow(0.95, static_cast<double>(i + 1))));
        lo = std::min(lo, smooth.back());
        hi = std::max(hi, smooth.back());
        if (!std::isnan(rows[i].val_loss)) {
            lo = std::min(lo, static_cast<double>(rows[i].val_loss));
            hi = std::max(hi, static_cast<double>(rows[i].val_loss));
        }
    }
    double pad = std::max(0.05, 0.05 * (hi - lo));
    lo -= pad;
    hi += pad;
    double x_max = static_cast<double>(std::max<size_t>(rows.back().step, 1));
    double pw = kW - kLeft - kRight, ph = kH - kTop - kBottom;
    auto X = [&](double step) { return kLeft + pw * step / x_max; };
    auto Y = [&](double loss) { return kTop + ph * (1 - (std::clamp(loss, lo, hi) - lo) / (hi - lo)); };

    double ys = tick_step(hi - lo, 5), xs = tick_step(x_max, 6);
    for (double v = std::ceil(lo / ys) * ys; v <= hi; v += ys) {
        s += svg::line(kLeft, Y(v), kLeft + pw, Y(v), "stroke=\"#ccc\"");
        s += svg::text(kLeft - 6, Y(v) + 4, 12, tick(v, ys), "end");
    }
    for (double v = 0; v <= x_max; v += xs) s += svg::text(X(v), kTop + ph + 18, 12, tick(v, xs), "middle");
    s += svg::text(kLeft + pw / 2, kH - 10, 12, labels.x_axis, "middle");
    s += svg::text(0, 0, 12, labels.y_axis, "middle", "transform=\"translate(16," + svg::px(kTop + ph / 2) + ") rotate(-90)\"");
    s += svg::rect(kLeft, kTop, pw, ph, "fill=\"none\" stroke=\"#333\"");

    std::vector<std::pair<double, double>> raw, smoothed, val;
    for (size_t i = 0; i < rows.size(); ++i) {
        double x = X(static_cast<double>(rows[i].step));
        raw.emplace_back(x, Y(rows[i].loss));
        smoothed.emplace_back(x, Y(smooth[i]));
        if (!std::isnan(rows[i].val_loss)) val.emplace_back(x, Y(rows[i].val_loss));
    }
    s += svg::polyline(raw, "fill=\"none\" stroke=\"#9ecae1\" stroke-width=\"1\"");
    s += svg::polyline(smoothed, "fill=\"none\" stroke=\"#08519c\" stroke-width=\"2\"");
    s += svg::polyline(val, "fill=\"none\" stroke=\"#d94801\" stroke-width=\"2\"");
    for (const auto& [x, y] : val) s += svg::circle(x, y, 3, "fill=\"#d94801\"");

    double lx = kLeft + pw - 170, ly = kTop + 14;
    s += svg::line(lx, ly, lx + 24, ly, "stroke=\"#08519c\" stroke-width=\"2\"") + svg::text(lx + 30, ly + 4, 12, labels.train);
    s += svg::line(lx, ly + 18, lx + 24, ly + 18, "stroke=\"#d94801\" stroke-width=\"2\"") +
         svg::text(lx + 30, ly + 22, 12, labels.validation);
    return s + svg::footer();
}

void write_loss_svg(const std::string& path, const std::vector<MetricRow>& rows, const std::string& title,
                    const LossLabels& labels) {
    try {
        svg::write_file(path, loss_curve_svg(rows, title, labels));
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("loss curve: ") + e.what());
    }
}

}  // namespace poet
