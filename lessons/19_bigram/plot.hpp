// Lesson 19's picture: loss curves against the step, with the level each should reach drawn as a
// dashed line, written as a standalone SVG. Leaves out: ticks at round numbers (five even ones).
#pragma once
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace plot {

struct Curve {
    std::string label, color;
    std::vector<std::pair<double, double>> points;   // (step, loss)
    bool dashed = false;                             // a level: draw it across the whole width
};

inline std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// y runs from lo to hi; a curve above hi is drawn along the top edge.
inline void write_svg(const std::string& path, const std::string& title, const std::vector<Curve>& curves, double lo,
                      double hi) {
    const double W = 720, H = 420, left = 60, right = 20, top = 40, bottom = 50, pw = W - left - right,
                 ph = H - top - bottom;
    double x_max = 1;
    for (const Curve& c : curves)
        for (auto [x, y] : c.points) x_max = std::max(x_max, x);
    auto X = [&](double x) { return fixed(left + pw * x / x_max, 1); };
    auto Y = [&](double y) { return fixed(top + ph * (1 - (std::clamp(y, lo, hi) - lo) / (hi - lo)), 1); };

    std::ofstream out(path);
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << title << "</text>\n"
        << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << pw << "\" height=\"" << ph
        << "\" fill=\"none\" stroke=\"#333\"/>\n";
    for (int i = 0; i <= 4; ++i) {
        double y = lo + (hi - lo) * i / 4, x = x_max * i / 4;
        out << "<text x=\"" << left - 6 << "\" y=\"" << Y(y) << "\" text-anchor=\"end\">" << fixed(y, 2) << "</text>\n"
            << "<text x=\"" << X(x) << "\" y=\"" << top + ph + 18 << "\" text-anchor=\"middle\">" << fixed(x, 0)
            << "</text>\n";
    }
    out << "<text x=\"" << left + pw / 2 << "\" y=\"" << H - 10 << "\" text-anchor=\"middle\">step</text>\n"
        << "<text transform=\"translate(16," << top + ph / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
        << "cross-entropy (nats per character)</text>\n";
    for (size_t i = 0; i < curves.size(); ++i) {
        const Curve& c = curves[i];
        std::string style = "fill=\"none\" stroke=\"" + c.color + "\" stroke-width=\"2\"" +
                            (c.dashed ? " stroke-dasharray=\"6 4\"" : "");
        out << "<polyline " << style << " points=\"";
        if (c.dashed) out << X(0) << ',' << Y(c.points[0].second) << ' ' << X(x_max) << ',' << Y(c.points[0].second);
        else
            for (auto [x, y] : c.points) out << X(x) << ',' << Y(y) << ' ';
        double ly = top + 16 + 18 * static_cast<double>(i), lx = left + pw - 260;
        out << "\"/>\n<line x1=\"" << lx << "\" y1=\"" << ly << "\" x2=\"" << lx + 24 << "\" y2=\"" << ly << "\" "
            << style << "/><text x=\"" << lx + 30 << "\" y=\"" << ly + 4 << "\">" << c.label << "</text>\n";
    }
    out << "</svg>\n";
    if (!out) throw std::runtime_error("plot: cannot write " + path);
}

}  // namespace plot
