#!/usr/bin/env python3
"""check_starter.py: every comment in a starter is in Chinese too (lessons/FORMAT.md, "check.hpp, checks.cpp,
starter.cpp, solution.cpp").

  check_starter.py LESSONS_DIR|starter.cpp...
      a directory stands for the starter.cpp of each of its lesson folders (NN_name/starter.cpp)

`./poet start N` copies starter.cpp to the learner's exercise.cpp, so its comments are the steps a
Chinese learner reads there. Each is written in both languages: the English line (or lines), then
the Chinese line (or lines). A block is a run of lines that are only a // comment, or the // comment
after code on one line. Within a block, every run of English lines (an English word, no Chinese
character) must be followed by a Chinese line (one with a Han character) before the next English
line; the finding names the first line of the run. Formula lines (`T = ids.size(1)`,
`(B,T,C) -> (B,T,4C)`) are neither and need no translation (english_words says what is code).
A /* */ comment is a finding: the check reads // comments only.

Uses Python's standard library only. Exit code 1, with one line per finding (file and line), when a
check fails, and 2 when it is given no starter at all or a file that does not exist.
"""
import glob
import os
import re
import sys

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
TOKEN = re.compile(r"[A-Za-z0-9_]+")


def english_words(comment):
    """The words of a comment that are English rather than code: a word is code when it touches
    `.`, `::` or `->` (a member, a namespace), is followed by `(`, `[`, `{`, `<` or `=` (a call, an
    index, a variable), or sits between operators as in `f(ids)` or `2/pi`; names with `_`, a digit
    or a capital inside (`no_grad`, `ln1`, `kIgnore`) and capitals alone (`SEP`) are never English."""
    text = re.sub(r"`[^`]*`", " ", comment)
    words = []
    for m in TOKEN.finditer(text):
        w, before, after = m.group(), text[:m.start()], text[m.end():]
        if len(w) < 2 or not w.isalpha() or w.isupper() or any(c.isupper() for c in w[1:]):
            continue
        if re.search(r"([\w)\]]\.|::|->)$", before) or re.match(r"(\.\w|::|->|[(\[{<]|\s*=(?!=))", after) \
                or (before[-1:] in ("(", "/", "*", "^", "@", ",") and after[:1] in (")", "/", "*", "^", "@", ",")):
            continue
        words.append(w)
    return words


def comments(lines):
    """(line number, comment text, True for a whole-line comment) for each // comment outside strings."""
    for n, line in enumerate(lines, 1):
        i, quote = 0, None
        while i < len(line):
            c = line[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = None
            elif c in "\"'":
                quote = c
            elif line.startswith("//", i):
                yield n, line[i + 2:], line[:i].strip() == ""
                break
            elif line.startswith("/*", i):
                yield n, None, False
                break
            i += 1


def check(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    findings, blocks, last = [], [], None
    for n, text, whole in comments(lines):
        if text is None:
            findings.append(f"check_starter: {path} line {n}: a /* */ comment: write // lines, "
                            "the English line and then the Chinese one")
            continue
        if whole and last == n - 1:
            blocks[-1].append((n, text, whole))
        else:
            blocks.append([(n, text, whole)])
        last = n if whole else None
    for block in blocks:
        waiting = None  # the first line of English not yet followed by a Chinese line
        for n, text, _ in block:
            if HAN.search(text):
                waiting = None
            elif english_words(text) and waiting is None:
                waiting = (n, text)
        if waiting:
            n, text = waiting
            findings.append(f"check_starter: {path} line {n}: an English comment with no Chinese line after it "
                            f"in its comment block: \"{text.strip()}\"")
    return findings


def main(args):
    paths = []
    for a in args:
        paths += sorted(glob.glob(os.path.join(a, "[0-9][0-9]_*", "starter.cpp"))) if os.path.isdir(a) else [a]
    missing = [p for p in paths if not os.path.isfile(p)]
    if not paths or missing:
        print("usage: check_starter.py LESSONS_DIR|starter.cpp... "
              + (f"(no such file: {' '.join(missing)})" if missing else "(no starter.cpp found)"))
        return 2
    findings = [f for p in paths for f in check(p)]
    for f in findings:
        print(f)
    print(f"check_starter: {len(paths)} starters, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
