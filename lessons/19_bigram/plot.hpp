// Lesson 19's picture: loss curves against the step, with the level each should reach drawn as a
// dashed line, made of svg.hpp's shapes. Leaves out: ticks at round numbers (five even ones).
#pragma once
#include <algorithm>
#include <string>
#include <utility>
#include <vector>
#include "svg.hpp"

namespace plot {

struct Curve {
    std::string label, color;
    std::vector<std::pair<double, double>> points;   // (step, loss)
    bool dashed = false;                             // a level: draw it across the whole width
};

// The SVG text; y runs from lo to hi, and a curve above hi is drawn along the top edge.
// x_label, y_label: the axes' names, in the reader's language.
inline std::string svg_of(const std::string& title, const std::vector<Curve>& curves, double lo, double hi,
                          const std::string& x_label, const std::string& y_label) {
    const double W = 720, H = 420, left = 60, right = 20, top = 40, bottom = 50, pw = W - left - right,
                 ph = H - top - bottom;
    double x_max = 1;
    for (const Curve& c : curves)
        for (auto [x, y] : c.points) x_max = std::max(x_max, x);
    auto X = [&](double x) { return left + pw * x / x_max; };
    auto Y = [&](double y) { return top + ph * (1 - (std::clamp(y, lo, hi) - lo) / (hi - lo)); };

    std::string s = svg::header(W, H, 12) + svg::text(W / 2, 22, 15, title, "middle") +
                    svg::rect(left, top, pw, ph, "fill=\"none\" stroke=\"#333\"");
    for (int i = 0; i <= 4; ++i) {
        double y = lo + (hi - lo) * i / 4, x = x_max * i / 4;
        s += svg::text(left - 6, Y(y), 12, lesson::num(y, 2), "end") +
             svg::text(X(x), top + ph + 18, 12, lesson::num(x, 0), "middle");
    }
    s += svg::text(left + pw / 2, H - 10, 12, x_label, "middle") +
         svg::text(0, 0, 12, y_label, "middle",
                   "transform=\"translate(16," + svg::px(top + ph / 2) + ") rotate(-90)\"");
    for (size_t i = 0; i < curves.size(); ++i) {
        const Curve& c = curves[i];
        const std::string style = "fill=\"none\" stroke=\"" + c.color + "\" stroke-width=\"2\"" +
                                  (c.dashed ? " stroke-dasharray=\"6 4\"" : "");
        std::vector<std::pair<double, double>> at;
        if (c.dashed) at = {{X(0), Y(c.points[0].second)}, {X(x_max), Y(c.points[0].second)}};
        else
            for (auto [x, y] : c.points) at.emplace_back(X(x), Y(y));
        const double ly = top + 16 + 18 * static_cast<double>(i), lx = left + pw - 260;
        s += svg::polyline(at, style) + svg::line(lx, ly, lx + 24, ly, style) + svg::text(lx + 30, ly + 4, 12, c.label);
    }
    return s + svg::footer();
}

}  // namespace plot
