// Parses flags for args.hpp; numbers must be whole strings ("12x", " -1" and a number too large to
// hold are errors, not 12, 2^64-1 or a saturated value); "--" ends the options.
// Leaves out: repeated flags (the last one wins).
#include "poet/args.hpp"
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace poet {

Args::Args(int argc, char** argv, int first, const std::string& command, std::set<std::string> valued,
           std::set<std::string> switches)
    : command_(command) {
    bool options_done = false;   // after "--" every argument is positional
    for (int i = first; i < argc; ++i) {
        std::string a = argv[i];
        if (options_done || a.rfind("-", 0) != 0 || a == "-") {
            positional_.push_back(a);
            continue;
        }
        if (a == "--") {
            options_done = true;
            continue;
        }
        if (a.rfind("--", 0) != 0)
            throw std::invalid_argument(command_ + ": unknown option " + a + " (options are spelled --name; see ./poet " +
                                        command_ + " --help)");
        std::string name = a.substr(2), value;
        bool has_value = false;
        size_t eq = name.find('=');
        if (eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            has_value = true;
        }
        if (switches.count(name)) {
            if (has_value) throw std::invalid_argument(command_ + ": --" + name + " takes no value");
            values_[name] = "";
        } else if (valued.count(name)) {
            if (!has_value) {
                if (i + 1 >= argc) throw std::invalid_argument(command_ + ": --" + name + " needs a value");
                value = argv[++i];
                if (value.rfind("--", 0) == 0 && value.size() > 2)
                    throw std::invalid_argument(command_ + ": --" + name + " needs a value, but the next argument is the "
                                                "option " + value);
            }
            values_[name] = value;
        } else {
            throw std::invalid_argument(command_ + ": unknown option --" + name + " (see ./poet " + command_ + " --help)");
        }
    }
}

std::string Args::str(const std::string& name, const std::string& fallback) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

size_t Args::size(const std::string& name, size_t fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    const std::string& s = it->second;
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument(command_ + ": --" + name + " expects a whole number >= 0 (digits only), got '" + s + "'");
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (errno == ERANGE)
        throw std::invalid_argument(command_ + ": --" + name + " " + s + " is too large (at most 18446744073709551615)");
    return static_cast<size_t>(v);
}

float Args::number(const std::string& name, float fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    const std::string& s = it->second;
    char* end = nullptr;
    errno = 0;
    float v = std::strtof(s.c_str(), &end);
    if (s.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(s[0])))
        throw std::invalid_argument(command_ + ": --" + name + " expects a number, got '" + s + "'");
    if (errno == ERANGE || !std::isfinite(v))
        throw std::invalid_argument(command_ + ": --" + name + " " + s + " is outside what a float holds");
    return v;
}

}  // namespace poet
