// Command-line flags for the poet's commands: `--name value`, `--name=value` and bare switches,
// each command declaring which it accepts, so a typo is an error rather than silently ignored.
// Leaves out: short options, option bundling, environment variables.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

namespace poet {

class Args {
public:
    // Parses argv[first..argc). `valued`: flags that take a value; `switches`: flags that do not.
    // Throws std::invalid_argument for an unknown flag or a missing value.
    Args(int argc, char** argv, int first, const std::string& command, std::set<std::string> valued,
         std::set<std::string> switches);

    const std::vector<std::string>& positional() const { return positional_; }
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    bool on(const std::string& name) const { return has(name); }   // a switch

    // The flag's value, else `fallback`; throws std::invalid_argument naming the flag when the
    // value is not a number of the right kind.
    std::string str(const std::string& name, const std::string& fallback) const;
    size_t size(const std::string& name, size_t fallback) const;
    float number(const std::string& name, float fallback) const;

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

}  // namespace poet
