// Lesson 21's picture: optimizer trajectories over the contour lines of a 2-D function, and beside
// them f against the step on a log scale, as one SVG.
// Contours by marching squares on a grid; every coordinate rounded to 0.1 pixel, so the file is
// the same on every run. Leaves out: labels on the contour lines, zoom, axes beyond ticks.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace valley_svg {

struct Path {
    std::string label, color;
    std::vector<std::pair<float, float>> points;   // (x, y) in the function's coordinates
    std::vector<float> f;                           // f at each point, > 0
};

struct Frame {
    double x0, x1, y0, y1;                     // the region drawn
    double left = 50, top = 30, size = 500;    // the square plot, in pixels
    double px(double x) const { return left + (x - x0) / (x1 - x0) * size; }
    double py(double y) const { return top + (y1 - y) / (y1 - y0) * size; }
};

inline std::string xy(double a, double b) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f %.1f", a, b);
    return buf;
}

// The segments where f crosses `level`, one "M a L b" per crossed grid cell (n x n cells).
inline std::string contour(const std::function<double(double, double)>& f, double level, const Frame& fr, int n) {
    std::string d;
    auto at = [&](int i, int j) { return f(fr.x0 + (fr.x1 - fr.x0) * i / n, fr.y0 + (fr.y1 - fr.y0) * j / n) - level; };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            // corners counter-clockwise from bottom-left, as (i, j) offsets and values
            const int ci[4] = {0, 1, 1, 0}, cj[4] = {0, 0, 1, 1};
            double v[4];
            for (int k = 0; k < 4; ++k) v[k] = at(i + ci[k], j + cj[k]);
            std::vector<std::pair<double, double>> cross;   // where the level cuts the cell's edges
            for (int k = 0; k < 4; ++k) {
                int l = (k + 1) % 4;
                if ((v[k] < 0) == (v[l] < 0)) continue;
                double s = v[k] / (v[k] - v[l]);
                double gi = i + ci[k] + s * (ci[l] - ci[k]), gj = j + cj[k] + s * (cj[l] - cj[k]);
                cross.emplace_back(fr.px(fr.x0 + (fr.x1 - fr.x0) * gi / n), fr.py(fr.y0 + (fr.y1 - fr.y0) * gj / n));
            }
            for (size_t k = 0; k + 1 < cross.size(); k += 2)
                d += "M" + xy(cross[k].first, cross[k].second) + "L" + xy(cross[k + 1].first, cross[k + 1].second);
        }
    return d;
}

// Writes the SVG: contours of f at `levels`, a cross at `target`, each path as a line with a dot
// every `dot_every` points and a large one at its end, a legend, and ticks at the whole numbers;
// under the legend, log10 f against the step for each path, decades from 1e-4 to 100.
inline void write(const std::string& file, const std::string& title, const std::function<double(double, double)>& f,
                  const std::vector<double>& levels, std::pair<double, double> target, const std::vector<Path>& paths,
                  const Frame& fr, size_t dot_every) {
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"920\" height=\"580\" font-family=\"sans-serif\" "
                    "font-size=\"13\">\n<rect width=\"920\" height=\"580\" fill=\"white\"/>\n";
    s += "<text x=\"50\" y=\"20\">" + title + "</text>\n";
    char buf[256];
    const char* frame = "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n";
    std::snprintf(buf, sizeof buf, frame, fr.left, fr.top, fr.size, fr.size);
    s += buf;
    for (double lv : levels)
        s += "<path fill=\"none\" stroke=\"#c8c8c8\" stroke-width=\"1\" d=\"" + contour(f, lv, fr, 160) + "\"/>\n";
    for (int x = static_cast<int>(std::ceil(fr.x0)); x <= fr.x1; ++x) {
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", fr.px(x),
                      fr.top + fr.size + 18, x);
        s += buf;
    }
    for (int y = static_cast<int>(std::ceil(fr.y0)); y <= fr.y1; ++y) {
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", fr.left - 8,
                      fr.py(y) + 4, y);
        s += buf;
    }
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\">x</text><text x=\"%.1f\" y=\"%.1f\">y</text>\n",
                  fr.left + fr.size + 8, fr.top + fr.size + 18, fr.left - 30, fr.top + 12);
    s += buf;
    std::snprintf(buf, sizeof buf, "<path d=\"M%sl8 8m0 -8l-8 8\" stroke=\"black\" stroke-width=\"2\"/>\n",
                  xy(fr.px(target.first) - 4, fr.py(target.second) - 4).c_str());
    s += buf;
    double legend_y = fr.top + 10;
    for (const Path& p : paths) {
        std::string line;
        for (size_t k = 0; k < p.points.size(); ++k)
            line += (k ? "L" : "M") + xy(fr.px(p.points[k].first), fr.py(p.points[k].second));
        s += "<path fill=\"none\" stroke=\"" + p.color + "\" stroke-width=\"1.5\" d=\"" + line + "\"/>\n";
        for (size_t k = 0; k < p.points.size(); k += dot_every) {
            std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>\n",
                          fr.px(p.points[k].first), fr.py(p.points[k].second), p.color.c_str());
            s += buf;
        }
        std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"white\"/>\n",
                      fr.px(p.points.back().first), fr.py(p.points.back().second), p.color.c_str());
        s += buf;
        std::snprintf(buf, sizeof buf, "<path d=\"M%.1f %.1fh24\" stroke=\"%s\" stroke-width=\"3\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\">", fr.left + fr.size + 16, legend_y, p.color.c_str(),
                      fr.left + fr.size + 46, legend_y + 4);
        s += buf + p.label + "</text>\n";
        legend_y += 22;
    }
    const double cl = fr.left + fr.size + 70, ct = legend_y + 30, cw = 260, ch = 300;   // the curves' panel
    auto cx = [&](size_t k, size_t n) { return cl + cw * static_cast<double>(k) / static_cast<double>(n - 1); };
    auto cy = [&](double f) { return ct + ch * (2 - std::log10(std::max(f, 1e-4))) / 6; };
    std::snprintf(buf, sizeof buf, frame, cl, ct, cw, ch);
    s += buf;
    for (int e = -4; e <= 2; ++e) {
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", cl - 6,
                      cy(std::pow(10.0, e)) + 4, e);
        s += buf;
    }
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\">f against the step</text><text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"end\">%zu</text><text x=\"%.1f\" y=\"%.1f\">0</text>\n",
                  cl, ct - 8, cl + cw, ct + ch + 18, paths.front().f.size() - 1, cl, ct + ch + 18);
    s += buf;
    for (const Path& p : paths) {
        std::string line;
        for (size_t k = 0; k < p.f.size(); ++k) line += (k ? "L" : "M") + xy(cx(k, p.f.size()), cy(p.f[k]));
        s += "<path fill=\"none\" stroke=\"" + p.color + "\" stroke-width=\"1.5\" d=\"" + line + "\"/>\n";
    }
    s += "</svg>\n";
    std::ofstream out(file);
    if (!(out << s)) throw std::runtime_error("valley_svg: cannot write " + file);
}

}  // namespace valley_svg
