// The one place the tests meet Catch2: version 2 (one header, catch2/catch.hpp: Debian 12) or 3 (a
// compiled library with headers of its own: Homebrew, Arch, Ubuntu 24.04), chosen by CMake
// (POETGRAD_CATCH2_MAJOR). The tests write Approx, CHECK_THAT(s, Contains("...")) and
// StartsWith("...") the same way with either; all_test_tags() lists every case's tags for the
// coverage tests ("every registered op has a gradient check").
// Leaves out: Catch2's other matchers (no test uses them).
#pragma once
#if POETGRAD_CATCH2_MAJOR >= 3
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/interfaces/catch_interfaces_registry_hub.hpp>
#include <catch2/interfaces/catch_interfaces_testcase.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;   // Catch2 2 has it outside its namespace
namespace pg_test {
inline Catch::Matchers::StringContainsMatcher Contains(const std::string& s) { return Catch::Matchers::ContainsSubstring(s); }
inline Catch::Matchers::StartsWithMatcher StartsWith(const std::string& s) { return Catch::Matchers::StartsWith(s); }
inline std::vector<std::set<std::string>> all_test_tags() {
    std::vector<std::set<std::string>> all;
    for (const Catch::TestCaseHandle& tc : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
        std::set<std::string> tags;
        for (const Catch::Tag& tag : tc.getTestCaseInfo().tags) {
            std::string t(tag.original.data(), tag.original.size());
            std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            tags.insert(t);
        }
        all.push_back(tags);
    }
    return all;
}
}  // namespace pg_test
#else
#include <set>
#include <string>
#include <vector>
#include <catch2/catch.hpp>
namespace pg_test {
using Catch::Contains;
using Catch::StartsWith;
inline std::vector<std::set<std::string>> all_test_tags() {   // Catch2 2 keeps them lower case
    std::vector<std::set<std::string>> all;
    for (const Catch::TestCase& tc : Catch::getRegistryHub().getTestCaseRegistry().getAllTests())
        all.emplace_back(tc.tags.begin(), tc.tags.end());
    return all;
}
}  // namespace pg_test
#endif
using pg_test::Contains;
using pg_test::StartsWith;
