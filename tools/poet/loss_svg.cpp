// Plots metrics rows into SVG by hand: a frame, ticks at round numbers, three polylines.
// The smoothed curve is an exponential moving average (0.95) with bias correction, as TensorBoard.
// Leaves out: text measurement (labels use fixed sizes and anchors).
#include "poet/loss_svg.hpp"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace poet {

namespace {

const double kW = 720, kH = 420, kLeft = 60, kRight = 20, kTop = 40, kBottom = 50;

// A "nice" tick spacing (1, 2 or 5 times a power of ten) giving about n ticks over span.
double tick_step(double span, int n) {
    double raw = span / n, p = std::pow(10.0, std::floor(std::log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

std::string escape_xml(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else out += c;
    }
    return out;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace

std::string loss_curve_svg(const std::vector<MetricRow>& rows, const std::string& title) {
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW << "\" height=\"" << kH
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kW / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << escape_xml(title) << "</text>\n";
    if (rows.empty()) {
        s << "<text x=\"" << kW / 2 << "\" y=\"" << kH / 2 << "\" text-anchor=\"middle\">no steps yet</text>\n</svg>\n";
        return s.str();
    }
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

    s << "<g stroke=\"#ccc\" stroke-width=\"1\">\n";
    double ys = tick_step(hi - lo, 5);
    for (double v = std::ceil(lo / ys) * ys; v <= hi; v += ys)
        s << "<line x1=\"" << kLeft << "\" y1=\"" << Y(v) << "\" x2=\"" << kLeft + pw << "\" y2=\"" << Y(v) << "\"/>\n";
    s << "</g>\n<g text-anchor=\"end\">\n";
    for (double v = std::ceil(lo / ys) * ys; v <= hi; v += ys)
        s << "<text x=\"" << kLeft - 6 << "\" y=\"" << Y(v) + 4 << "\">" << num(v) << "</text>\n";
    s << "</g>\n<g text-anchor=\"middle\">\n";
    double xs = tick_step(x_max, 6);
    for (double v = 0; v <= x_max; v += xs)
        s << "<text x=\"" << X(v) << "\" y=\"" << kTop + ph + 18 << "\">" << num(v) << "</text>\n";
    s << "<text x=\"" << kLeft + pw / 2 << "\" y=\"" << kH - 10 << "\">step</text>\n</g>\n"
      << "<text transform=\"translate(16," << kTop + ph / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
      << "cross-entropy (nats per character)</text>\n"
      << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << pw << "\" height=\"" << ph
      << "\" fill=\"none\" stroke=\"#333\"/>\n";

    auto polyline = [&](const std::string& style, auto value, auto keep) {
        s << "<polyline fill=\"none\" " << style << " points=\"";
        for (size_t i = 0; i < rows.size(); ++i)
            if (keep(i)) s << X(static_cast<double>(rows[i].step)) << ',' << Y(value(i)) << ' ';
        s << "\"/>\n";
    };
    auto all = [](size_t) { return true; };
    polyline("stroke=\"#9ecae1\" stroke-width=\"1\"", [&](size_t i) { return static_cast<double>(rows[i].loss); }, all);
    polyline("stroke=\"#08519c\" stroke-width=\"2\"", [&](size_t i) { return smooth[i]; }, all);
    auto has_val = [&](size_t i) { return !std::isnan(rows[i].val_loss); };
    polyline("stroke=\"#d94801\" stroke-width=\"2\"", [&](size_t i) { return static_cast<double>(rows[i].val_loss); }, has_val);
    for (size_t i = 0; i < rows.size(); ++i)
        if (has_val(i))
            s << "<circle cx=\"" << X(static_cast<double>(rows[i].step)) << "\" cy=\"" << Y(rows[i].val_loss)
              << "\" r=\"3\" fill=\"#d94801\"><title>step " << rows[i].step << ": val " << num(rows[i].val_loss)
              << "</title></circle>\n";

    double lx = kLeft + pw - 170, ly = kTop + 14;
    s << "<g font-size=\"12\">\n"
      << "<line x1=\"" << lx << "\" y1=\"" << ly << "\" x2=\"" << lx + 24 << "\" y2=\"" << ly
      << "\" stroke=\"#08519c\" stroke-width=\"2\"/><text x=\"" << lx + 30 << "\" y=\"" << ly + 4
      << "\">train (smoothed)</text>\n"
      << "<line x1=\"" << lx << "\" y1=\"" << ly + 18 << "\" x2=\"" << lx + 24 << "\" y2=\"" << ly + 18
      << "\" stroke=\"#d94801\" stroke-width=\"2\"/><text x=\"" << lx + 30 << "\" y=\"" << ly + 22
      << "\">validation</text>\n</g>\n</svg>\n";
    return s.str();
}

void write_loss_svg(const std::string& path, const std::vector<MetricRow>& rows, const std::string& title) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << loss_curve_svg(rows, title);
        if (!out) throw std::runtime_error("loss curve: cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("loss curve: cannot rename " + tmp + " to " + path);
}

}  // namespace poet
