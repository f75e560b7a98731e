// The lesson helpers declared in lesson.hpp: number and tensor printing, expectations, and the
// check runner's report. Compiled once into lesson_common and linked into every lesson program.
// Portable to Linux and macOS (x86-64, aarch64): where a platform lacks a piece (the faulting
// instruction's address, the hook on thrown exceptions), the report names no line rather than fail.
#include "lesson.hpp"
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <unwind.h>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#if __has_include(<execinfo.h>)
#include <execinfo.h>
#define LESSON_HAS_BACKTRACE 1
#else
static int backtrace(void**, int) { return 0; }   // no stack to report (musl without libexecinfo)
#endif
#if defined(__linux__)
#include <ucontext.h>
#endif
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

namespace lesson {

// ---- what the runner sees: the check now running, and a crash ----
// tools/lessons.sh names a file in PG_CHECK_STATE. Before each check its name is written there;
// a crash appends the signal, the faulting address and the stack's return addresses (as module
// and offset), from which the runner names the check, the signal in words and the learner's line.

namespace {

const char* state_path() { return std::getenv("PG_CHECK_STATE"); }

void write_fd(int fd, const char* s) {
    for (size_t n = std::strlen(s); n > 0;) {
        ssize_t w = ::write(fd, s, n);
        if (w <= 0) return;
        s += w;
        n -= static_cast<size_t>(w);
    }
}

void mark_running(const std::string& what) {
    const char* path = state_path();
    if (!path) return;
    int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return;
    write_fd(fd, ("running " + what + "\n").c_str());
    ::close(fd);
}

// "frame OFFSET MODULE": an address as its module and offset, which addr2line reads.
void write_frame(int fd, void* address, long adjust) {
    Dl_info where;
    if (!dladdr(address, &where) || !where.dli_fname) return;
    char line[64];
    std::snprintf(line, sizeof line, "frame %lx ",
                  static_cast<unsigned long>(static_cast<char*>(address) - static_cast<char*>(where.dli_fbase) + adjust));
    write_fd(fd, line);
    write_fd(fd, where.dli_fname);
    write_fd(fd, "\n");
}

// The interrupted program counter from a signal handler's context; null where this platform's
// register layout is not known here (the report then starts at the handler's callers).
void* faulting_instruction(void* context) {
    if (!context) return nullptr;
    const ucontext_t* uc = static_cast<const ucontext_t*>(context);
#if defined(__linux__) && defined(__x86_64__)
    return reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__linux__) && defined(__aarch64__)
    return reinterpret_cast<void*>(uc->uc_mcontext.pc);
#elif defined(__APPLE__) && defined(__x86_64__)
    return reinterpret_cast<void*>(uc->uc_mcontext->__ss.__rip);
#elif defined(__APPLE__) && defined(__aarch64__) && defined(__darwin_arm_thread_state64_get_pc)
    return reinterpret_cast<void*>(__darwin_arm_thread_state64_get_pc(uc->uc_mcontext->__ss));
#elif defined(__APPLE__) && defined(__aarch64__)
    return reinterpret_cast<void*>(uc->uc_mcontext->__ss.__pc);
#else
    (void)uc;
    return nullptr;
#endif
}

extern "C" void on_crash(int sig, siginfo_t* info, void* context) {
    if (const char* path = state_path()) {
        int fd = ::open(path, O_WRONLY | O_APPEND);
        if (fd >= 0) {
            char line[64];
            std::snprintf(line, sizeof line, "signal %d\nfault %p\n", sig, info ? info->si_addr : nullptr);
            write_fd(fd, line);
            // first the faulting instruction itself, from the interrupted registers, as it is
            if (void* pc = faulting_instruction(context)) write_frame(fd, pc, 0);
            void* frames[64];
            int n = backtrace(frames, 64);
            // then the callers: a return address points after its call, one byte back lands on the call
            for (int i = 0; i < n; ++i) write_frame(fd, frames[i], -1);
            ::close(fd);
        }
    }
    std::signal(sig, SIG_DFL);   // then die of it as we would have, so the exit code tells the signal
    std::raise(sig);
}

// Once per program: the crash handler, on a stack of its own so that a stack overflow is reported too.
void install_crash_report() {
    static bool done = false;
    if (done || !state_path()) return;
    done = true;
    static char alt_stack[1 << 16];
    stack_t ss{};
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa{};
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

// ---- where an exception came from ----
// Every throw in the program (the C++ library's own included) starts the unwinder through
// _Unwind_RaiseException; this one notes the thrower's stack and the object thrown (it lies just
// after the unwinder's header), so that the report can tell the note belongs to its exception.
// Linux only: there the program's definition comes before libgcc's. On macOS the C++ library
// binds to the system's unwinder directly, nothing is noted, and the report names no line.

thread_local const void* thrown_object = nullptr;
thread_local void* thrown_frames[48];
thread_local int thrown_depth = 0;

}  // namespace
}  // namespace lesson

#if defined(__linux__)
extern "C" _Unwind_Reason_Code _Unwind_RaiseException(_Unwind_Exception* header) {
    using Raise = _Unwind_Reason_Code (*)(_Unwind_Exception*);
    static Raise real = reinterpret_cast<Raise>(dlsym(RTLD_NEXT, "_Unwind_RaiseException"));
    if (!real) std::abort();   // no unwinder after this one: a throw could not be completed
    lesson::thrown_object = header + 1;
    lesson::thrown_depth = backtrace(lesson::thrown_frames, 48);
    return real(header);
}
#endif

namespace lesson {
namespace {

// This program's file: what the symboliser reads.
std::string program_path() {
    char path[4096];
#if defined(__APPLE__)
    uint32_t size = sizeof path;
    if (_NSGetExecutablePath(path, &size) == 0) return path;
#elif defined(__linux__)
    ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length > 0) return std::string(path, static_cast<size_t>(length));
#endif
    Dl_info self;   // elsewhere: the name the program was loaded under
    if (dladdr(reinterpret_cast<void*>(&program_path), &self) && self.dli_fname) return self.dli_fname;
    return "";
}

// A path inside single quotes for the shell.
std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The innermost line of a lesson file on the stack that threw e, as
// "lessons/08_linear_regression/checks.cpp:113  (in check08::...)": the course's one symboliser,
// lessons/common/symbolize.sh, reads the frames of this program. Empty when it cannot be told
// (another exception's stack, no debug information, no symboliser, no hook on this platform).
std::string where_thrown(const std::exception& e) {
    if (static_cast<const void*>(&e) != thrown_object || thrown_depth == 0) return "";
    Dl_info self;
    const std::string program = program_path();
    if (!dladdr(reinterpret_cast<void*>(&where_thrown), &self) || program.empty()) return "";
    std::string command = "bash " + quoted(std::string(POET_SOURCE_DIR) + "/lessons/common/symbolize.sh") + " " + quoted(program);
    for (int i = 0; i < thrown_depth; ++i) {
        Dl_info where;
        if (!dladdr(thrown_frames[i], &where) || where.dli_fbase != self.dli_fbase) continue;
        char offset[32];  // a return address points after its call: one byte back lands on the call
        std::snprintf(offset, sizeof offset, " 0x%lx",
                      static_cast<unsigned long>(static_cast<char*>(thrown_frames[i]) - static_cast<char*>(where.dli_fbase) - 1));
        command += offset;
    }
    FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
    if (!pipe) return "";
    std::string found;
    char line[4096];
    if (std::fgets(line, sizeof line, pipe)) found = line;
    pclose(pipe);
    if (!found.empty() && found.back() == '\n') found.pop_back();
    return found;
}

// The library functions the exercise calls but must write itself: tools/lessons.sh reads them from
// the compiled exercise (lessons/common/forbidden_calls.sh) and names its file in PG_FORBIDDEN_CALLS,
// one "function<TAB>what to write instead<TAB>the same in Chinese" per line; the pairs are (function,
// what to write instead in the learner's language).
std::vector<std::pair<std::string, std::string>> forbidden_calls() {
    std::vector<std::pair<std::string, std::string>> calls;
    const char* path = std::getenv("PG_FORBIDDEN_CALLS");
    if (!path || !*path) return calls;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        size_t tab = line.find('\t'), tab2 = line.find('\t', tab + 1);
        if (tab == std::string::npos || tab2 == std::string::npos) continue;
        calls.emplace_back(line.substr(0, tab), tr(line.substr(tab + 1, tab2 - tab - 1), line.substr(tab2 + 1)));
    }
    return calls;
}

}  // namespace

// ---- the learner's language ----

// tools/lessons.sh decides (its zh()) and tells every program it starts through POET_LANG.
bool chinese() {
    static const bool zh = [] {
        const char* lang = std::getenv("POET_LANG");
        return lang && std::strncmp(lang, "zh", 2) == 0;
    }();
    return zh;
}

std::string tr(const std::string& english, const std::string& chinese_text) {
    return chinese() ? chinese_text : english;
}

namespace {

// A {N} of reword's pattern and the fixed text after it.
struct Slot {
    int number;
    std::string then;
};

bool is_blank(char c) { return c == ' ' || c == '\n' || c == '\t'; }

// Does the pattern (`first`, then `slots`) match `message` at `at`? If so, each slot's text goes to
// `found` and the end of the match to `end`.
bool match_at(const std::string& message, size_t at, const std::string& first, const std::vector<Slot>& slots,
              std::string (&found)[10], size_t& end) {
    if (message.compare(at, first.size(), first) != 0) return false;
    size_t pos = at + first.size();
    for (const Slot& slot : slots) {
        size_t stop = pos;  // the slot's text: pos .. stop, one character or more, no blank
        if (slot.then.empty()) {
            while (stop < message.size() && !is_blank(message[stop])) ++stop;
        } else {
            stop = message.find(slot.then, pos + 1);
            if (stop == std::string::npos) return false;
        }
        if (stop == pos) return false;
        for (size_t i = pos; i < stop; ++i)
            if (is_blank(message[i])) return false;
        found[slot.number] = message.substr(pos, stop - pos);
        pos = stop + slot.then.size();
    }
    end = pos;
    return true;
}

}  // namespace

std::string reword(const std::string& message, const std::string& pattern, const std::string& replacement) {
    auto is_slot = [](const std::string& s, size_t i) {
        return i + 2 < s.size() && s[i] == '{' && s[i + 1] >= '1' && s[i + 1] <= '9' && s[i + 2] == '}';
    };
    std::string first;
    std::vector<Slot> slots;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (is_slot(pattern, i)) {
            slots.push_back({pattern[i + 1] - '0', ""});
            i += 2;
        } else {
            (slots.empty() ? first : slots.back().then) += pattern[i];
        }
    }
    std::string out, found[10];
    size_t at = 0, end = 0;
    while (at < message.size()) {
        if (!match_at(message, at, first, slots, found, end)) {
            out += message[at++];
            continue;
        }
        for (size_t i = 0; i < replacement.size(); ++i) {
            if (is_slot(replacement, i)) {
                out += found[replacement[i + 1] - '0'];
                i += 2;
            } else {
                out += replacement[i];
            }
        }
        at = end;
    }
    return out;
}

// ---- printing ----

std::string num(double v, int decimals) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);  // "-0.0000" -> "0.0000"
    return s;
}

std::string str(const pg::Shape& s) { return pg::shape_str(s); }

size_t columns(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += c < 0x80 ? 1 : (c & 0xC0) == 0x80 ? 0 : 2;   // (a continuation byte: none)
    return n;
}

std::string pad(const std::string& s, size_t width, Align align) {
    const std::string spaces(columns(s) < width ? width - columns(s) : 0, ' ');
    return align == Align::left ? s + spaces : spaces + s;
}

std::string gradcheck_report(const pg::GradcheckResult& result) {
    if (!chinese()) return result.report;
    std::ostringstream out;   // (the library's own formatting of the numbers)
    for (const pg::GradcheckMismatch& m : result.mismatches)
        out << "输入 " << m.input << " 的元素 " << m.element << "：解析梯度 " << m.analytic << "，数值梯度 " << m.numeric << "\n";
    return out.str();
}

// Nested brackets over dims [d, rank); `sep` goes between the rows of the last two dims.
static std::string block(const float* p, const pg::Shape& s, size_t d, int decimals, const std::string& sep) {
    std::string out = "[";
    size_t stride = 1;
    for (size_t i = d + 1; i < s.size(); ++i) stride *= s[i];
    for (size_t i = 0; i < s[d]; ++i) {
        if (i) out += d + 1 == s.size() ? ", " : sep;
        out += d + 1 == s.size() ? num(p[i], decimals) : block(p + i * stride, s, d + 1, decimals, sep + " ");
    }
    return out + "]";
}

std::string str(const pg::Tensor& t, int decimals) {
    if (t.dim() == 0) return num(t.item(), decimals);
    return block(t.ptr(), t.shape(), 0, decimals, ", ");
}

void show(const std::string& name, const pg::Tensor& t, int decimals) {
    std::cout << name << tr("  shape ", "  形状 ") << str(t.shape()) << "\n";
    if (t.dim() == 0) {
        std::cout << "  " << num(t.item(), decimals) << "\n";
        return;
    }
    std::cout << "  " << block(t.ptr(), t.shape(), 0, decimals, ",\n   ") << "\n";
}

void show(const std::string& name, double v, int decimals) { std::cout << name << " = " << num(v, decimals) << "\n"; }

void section(const std::string& title) { std::cout << "\n== " << title << " ==\n"; }

pg::Tensor from_rows(const std::vector<std::vector<float>>& rows) {
    size_t cols = rows.empty() ? 0 : rows[0].size();
    std::vector<float> flat;
    for (const auto& r : rows) {
        if (r.size() != cols)
            throw pg::ShapeError("from_rows: rows of " + std::to_string(cols) + " and " + std::to_string(r.size()) +
                                 " values");
        flat.insert(flat.end(), r.begin(), r.end());
    }
    return pg::tensor(flat, {rows.size(), cols});
}

// ---- expectations ----

int planted_mistake() {
    static const int chosen = [] {
        const char* v = std::getenv("PG_MISTAKE");
        if (!v || !*v) return 0;
        char* end = nullptr;
        long n = std::strtol(v, &end, 10);
        if (*end != '\0' || n < 0 || n > 1000) {
            std::cerr << "PG_MISTAKE=" << v << " is not a mistake number (0 to 1000)\n";
            std::exit(2);
        }
        return static_cast<int>(n);
    }();
    return chosen;
}

NotImplemented::NotImplemented(const std::string& what)
    : std::logic_error(what + tr(" is not implemented yet", " 还没有实现")) {}

CheckFailed::CheckFailed(std::string what, std::string exp, std::string act, std::string h)
    : std::runtime_error(what + ": expected " + exp + ", got " + act),
      what_checked(std::move(what)), expected(std::move(exp)), actual(std::move(act)), hint(std::move(h)) {}

// A tolerance as it was meant: "1e-09", "0.0001", "0.5" (never "0.000000" for a small one).
static std::string tol_str(double tol) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", tol);
    return buf;
}

// A number with enough digits to show a difference of tol: 6 decimals, more for a finer tolerance.
static std::string num_for(double v, double tol) {
    int decimals = 6;
    while (decimals < 12 && tol > 0 && tol < std::pow(10.0, -decimals)) ++decimals;
    return num(v, decimals);
}

void expect_near(const std::string& what, double actual, double expected, double tol, const std::string& hint) {
    if (!(std::fabs(actual - expected) <= tol))  // also fails on nan
        throw CheckFailed(what, num_for(expected, tol) + tr(" (within ", "（误差不超过 ") + tol_str(tol) + tr(")", "）"), num_for(actual, tol), hint);
}

void expect_near(const std::string& what, const pg::Tensor& actual, const pg::Tensor& expected, double tol,
                 const std::string& hint) {
    if (actual.shape() != expected.shape())
        throw CheckFailed(what, tr("shape ", "形状 ") + str(expected.shape()) + " " + str(expected),
                          tr("shape ", "形状 ") + str(actual.shape()) + " " + str(actual), hint);
    for (size_t i = 0; i < actual.numel(); ++i)
        if (!(std::fabs(actual.ptr()[i] - expected.ptr()[i]) <= tol))
            throw CheckFailed(what, str(expected) + tr(" (within ", "（误差不超过 ") + tol_str(tol) + tr(")", "）"),
                              str(actual) + tr("  (element ", "  （第 ") + std::to_string(i) + tr(" differs)", " 个元素不同）"), hint);
}

void expect_not_called(const std::string& what, const pg::Tensor& t, const std::string& op, const std::string& instead) {
    if (ops_in(t).count(op))
        throw CheckFailed(what, tr("your own code, without pg::", "你自己写的代码，不用 pg::") + op,
                          tr("the result comes from pg::", "结果来自 pg::") + op,
                          tr("you called pg::", "你调用了 pg::") + op + tr("; ", "；") + instead);
}

void expect_shape(const std::string& what, const pg::Shape& actual, const pg::Shape& expected,
                  const std::string& hint) {
    if (actual != expected) throw CheckFailed(what, tr("shape ", "形状 ") + str(expected), tr("shape ", "形状 ") + str(actual), hint);
}

void expect(const std::string& what, bool ok, const std::string& expected, const std::string& actual,
            const std::string& hint) {
    if (!ok) throw CheckFailed(what, expected, actual, hint);
}

// ---- the check runner ----

namespace {

// The lesson's Chinese title, from README.zh.md's first heading, "# 第 24 课：评估：留出集损失，以及读诗"
// -> "评估" (up to the next full-width colon); the folder name when the README cannot be read.
std::string chinese_title(const std::string& number, const std::string& name) {
    std::ifstream in(std::string(POET_SOURCE_DIR) + "/lessons/" + number + "_" + name + "/README.zh.md");
    std::string heading;
    const std::string prefix = "# 第 " + number + " 课：", colon = "：";
    if (!std::getline(in, heading) || heading.rfind(prefix, 0) != 0) return name;
    const std::string title = heading.substr(prefix.size());
    return title.substr(0, title.find(colon));
}

}  // namespace

Checks::Checks(std::string number, std::string name) : number_(std::move(number)), name_(std::move(name)) {
    install_crash_report();
    std::cout << tr("lesson ", "第 ") << number_ << tr(" ", " 课 ") << (chinese() ? chinese_title(number_, name_) : name_)
              << tr(": checking", "：检查中") << std::endl;
    const auto calls = forbidden_calls();
    if (calls.empty()) return;
    run(tr("your own code, not the library's", "你自己的代码，不是库里现成的"), [&] {
        std::string called, instead;
        for (const auto& [function, hint] : calls) {
            called += (called.empty() ? "" : ", ") + function;
            instead += (instead.empty() ? "" : tr("; ", "；")) + hint;
        }
        throw CheckFailed(tr("the library functions your compiled exercise calls", "编译后的练习调用的库函数"),
                          tr("none of those this lesson asks you to write (forbidden.txt)",
                             "这一课要你自己写的函数一个也不调用（forbidden.txt）"),
                          tr("it calls ", "它调用了 ") + called, tr("you called the library's version; ", "你调用了库里现成的版本；") + instead);
    });
}

void Checks::run(const std::string& name, const std::function<void()>& body) {
    mark_running(name);
    try {
        body();
        ++passed_;
        std::cout << tr("  ok    ", "  通过  ") << name << "\n";
    } catch (const NotImplemented& e) {
        ++todo_;
        std::cout << tr("  TODO  ", "  待写  ") << name << ": " << e.what() << "\n";
    } catch (const CheckFailed& e) {
        ++failed_;
        std::cout << tr("  FAIL  ", "  失败  ") << name << "\n"
                  << tr("        check:    ", "        检查：    ") << e.what_checked << "\n"
                  << tr("        expected: ", "        应为：    ") << e.expected << "\n"
                  << tr("        actual:   ", "        实际：    ") << e.actual << "\n"
                  << tr("        hint:     ", "        提示：    ") << e.hint << "\n";
    } catch (const std::exception& e) {
        ++failed_;
        std::string where = where_thrown(e);
        bool by_check = where.find("/checks.cpp:") != std::string::npos;
        std::cout << tr("  FAIL  ", "  失败  ") << name << "\n"
                  << tr("        an error was thrown: ", "        抛出了错误：") << e.what() << "\n";
        if (where.empty())
            std::cout << tr("        hint:     it comes from your code, or from the check reading what your code returned\n"
                            "                  (a result of the wrong shape, or a tensor without the gradient it should have)\n",
                            "        提示：    错误来自你的代码，或者来自检查读取你的代码返回的结果时\n"
                            "                  （结果形状不对，或者张量没有它应有的梯度）\n");
        else if (by_check)
            std::cout << tr("        thrown by the check itself, at ", "        抛出错误的是检查本身，位置 ") << where << "\n"
                      << tr("        hint:     the check could not read what your code returned: look at its shape, and\n"
                            "                  whether it still carries gradients (a tensor made from plain numbers has none)\n",
                            "        提示：    检查读不了你的代码返回的结果：看看它的形状，以及它是否还带着梯度\n"
                            "                  （用普通数字新建的张量没有梯度）\n");
        else
            std::cout << tr("        thrown by your code, at ", "        抛出错误的是你的代码，位置 ") << where << "\n"
                      << tr("        hint:     look at that line: the error names the op and what it was given\n",
                            "        提示：    看那一行：错误信息写明了是哪个运算、给了它什么\n");
    }
    std::cout.flush();  // if the next check crashes, this one's report is already out
}

int Checks::finish() const {
    int total = passed_ + failed_ + todo_;
    if (failed_ == 0 && todo_ == 0) {
        std::cout << tr("PASS  lesson ", "通过  第 ") << number_ << tr(" ", " 课 ") << name_
                  << tr(": all " + std::to_string(total) + " checks passed", "：全部 " + std::to_string(total) + " 项检查通过")
                  << "\n";
        return 0;
    }
    std::cout << tr("NOT YET  lesson ", "未通过  第 ") << number_ << tr(" ", " 课 ") << name_ << tr(": ", "：")
              << tr(std::to_string(passed_) + " of " + std::to_string(total) + " checks passed",
                    std::to_string(total) + " 项检查通过 " + std::to_string(passed_) + " 项");
    if (failed_) std::cout << tr(", " + std::to_string(failed_) + " failed", "，" + std::to_string(failed_) + " 项失败");
    if (todo_) std::cout << tr(", " + std::to_string(todo_) + " not implemented yet", "，" + std::to_string(todo_) + " 项还没有实现");
    std::cout << "\n";
    if (todo_)
        std::cout << tr("        write the missing code in lessons/", "        在 lessons/") << number_ << "_" << name_
                  << tr("/exercise.cpp (./poet start " + number_ + " makes it), then ./poet check " + number_,
                        "/exercise.cpp 里写出缺少的代码（./poet start " + number_ + " 会创建它），然后运行 ./poet check " + number_)
                  << "\n";
    return 1;
}

int run_experiment(const std::function<void()>& body) {
    install_crash_report();
    mark_running("the experiment");
    try {
        body();
        return 0;
    } catch (const CheckFailed& e) {
        std::cout << "\nexperiment stopped: " << e.what_checked << "\n  expected: " << e.expected
                  << "\n  actual:   " << e.actual << "\n";
    } catch (const std::exception& e) {
        std::cout << "\nexperiment stopped by an error: " << e.what() << "\n";
    }
    return 1;
}

void confirm(const std::string& what, const pg::Tensor& actual, const pg::Tensor& expected, double tol,
             const std::string& source) {
    expect_near(what, actual, expected, tol, "");
    std::cout << "  = " << source << ": " << str(expected) << "\n";
}

void confirm(const std::string& what, double actual, double expected, double tol, const std::string& source) {
    expect_near(what, actual, expected, tol, "");
    std::cout << "  = " << source << ": " << num(expected, 4) << "\n";
}

}  // namespace lesson
