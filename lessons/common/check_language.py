#!/usr/bin/env python3
"""check_language.py: two README checks that read text as a learner does (lessons/FORMAT.md, "The tests").

  check_language.py hints README.md OUTPUT...
      every hint the README quotes in "When a check fails" (检查没通过时), *"..."* or *“...”*, is a
      whole part of what the checks print: each piece of the quote (split at an ellipsis … or ……)
      is found in one of the OUTPUT files (the planted mistakes' runs in that language) and begins
      and ends where a hint's text or one of its clauses does, not inside a printed value; a quote
      not closed on its line is a finding (it could not be read)
  check_language.py teaching README.md|README.zh.md
      what a lesson gives besides its text: under every picture a step-by-step reading of it in words
      (a paragraph starting "**Reading the figure.**" / "**用文字逐步读这张图。**" within the three lines
      after it), and a section "## Questions" / "## 小练习与答案" of two or three questions, each a
      numbered item followed by its answer folded in <details>
  check_language.py zh README.zh.md
      the Chinese lesson is Chinese where the learner acts: no comment line in a cpp or bash block
      that is English only; no English phrase quoted inside the Chinese prose (“three or more
      English words”) nor given in brackets as a gloss (（two or more English words）); no line break between two Chinese characters (Markdown shows it as a space);
      and no English-only label in a picture the page shows (an SVG <text> holding a Latin word of
      four letters or more and no Chinese character)
  check_language.py zh_output OUTPUT...
      a Chinese output (an experiment's, build/lessons/lesson_NN_experiment.out.zh, or the checks' on
      the planted mistakes under POET_LANG=zh) is Chinese: no line
      holds two or more English words and no Chinese character; code names (poet::train, x.grad,
      layer_norm, solve()), file paths, shapes, numbers and units are not words, and a Graphviz
      graph the experiment prints (from "digraph NAME {" to its closing "}") is code, not read

Uses Python's standard library only. Exit code 1, with one line per finding, when a check fails.
"""
import os
import re
import sys

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
BOUNDARY = set("：:；;。.，,、！!？?（(）)“”\"' \t") | {""}


def fail(findings, where, what):
    findings.append(f"check_language: {where}: {what}")


def fenced(lines):
    """(line number, text, language of the fence or None outside) for every line."""
    lang = None
    for n, line in enumerate(lines, 1):
        m = re.match(r"^\s*```(\S*)", line)
        if m:
            lang = None if lang is not None else (m.group(1) or "")
            continue
        yield n, line, lang


# ---- hints ----

def section(lines, titles, stop_at_details=True):
    """The lines of the sections titled so, up to the next "## " (or the answer's <details>)."""
    out, on = [], False
    for n, line in enumerate(lines, 1):
        if line.startswith("## "):
            on = line[3:].strip() in titles
            continue
        if on and stop_at_details and line.startswith("<details"):
            break
        if on:
            out.append((n, line))
    return out


def quotes_in(item):
    """The quoted hints in a line: *"a"* or *“a”*, possibly several (*"a"* or *"b"*); a hint may hold a *."""
    return [q for pair in re.findall(r'\*"([^"]+?)"\*|\*“([^”]+?)”\*', item) for q in pair if q]


def unclosed_quote(item):
    """A quote opened (*" or *“) and not closed ("* or ”*) on the same line: the check could not read it."""
    rest = re.sub(r'\*"([^"]+?)"\*|\*“([^”]+?)”\*', "", item)
    return '*"' in rest or "*“" in rest


def whole_part(piece, text):
    start = 0
    while True:
        i = text.find(piece, start)
        if i < 0:
            return False
        before = text[i - 1] if i > 0 else ""
        after = text[i + len(piece)] if i + len(piece) < len(text) else ""
        if (before in BOUNDARY or before == "\n") and (after in BOUNDARY or after == "\n"):
            return True
        start = i + 1


def check_hints(readme, outputs):
    lines = open(readme, encoding="utf-8").read().split("\n")
    printed = "\n".join(open(p, encoding="utf-8", errors="replace").read() for p in outputs)
    # a printed hint line is "hint:     TEXT" / "提示：    TEXT": its TEXT starts a hint
    printed = re.sub(r"(hint:|提示：)\s+", "\n", printed)
    findings, count = [], 0
    for n, line in section(lines, {"When a check fails", "检查没通过时"}):
        if unclosed_quote(line):
            fail(findings, f"{readme} line {n}", "a quoted hint is not closed on its line (a hint quote stays on one line)")
        for quote in quotes_in(line):
            count += 1
            for piece in re.split(r"…+|\.\.\.", quote):
                piece = piece.strip()
                if piece and not whole_part(piece, printed):
                    fail(findings, f"{readme} line {n}",
                         f"the quoted hint \"{quote}\" is not what the checks print: \"{piece}\" is not a whole "
                         f"hint or clause of one in the planted mistakes' output")
    return findings, f"{count} quoted hints"


# ---- Chinese where the learner acts ----

def svg_labels(path):
    text = open(path, encoding="utf-8").read()
    for raw in re.findall(r"<text[^>]*>(.*?)</text>", text, flags=re.S):
        label = re.sub(r"<[^>]+>", "", raw)
        label = label.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").strip()
        if label:
            yield label


def check_zh(readme):
    lines = open(readme, encoding="utf-8").read().split("\n")
    here = os.path.dirname(readme)
    findings, pictures = [], 0
    rows = list(fenced(lines))
    for i, (n, line, lang) in enumerate(rows):
        if lang in ("cpp", "bash", "sh"):
            m = re.search(r"(//|(?:^|\s)#)\s?(.*)$", line)
            comment = m.group(2) if m else ""
            if comment and len(LATIN_WORD.findall(comment)) >= 2 and not CJK.search(comment) \
                    and not comment.lstrip().startswith(("include", "!")):
                fail(findings, f"{readme} line {n}", f"an English comment in a {lang} block: \"{comment.strip()}\"")
        elif lang is None:
            prose = re.sub(r"`[^`]*`", "", line)
            for q in re.findall(r"“([^”]*)”|\"([^\"]*)\"", prose):
                q = q[0] or q[1]
                if len(LATIN_WORD.findall(q)) >= 3 and not CJK.search(q):
                    fail(findings, f"{readme} line {n}", f"an English phrase quoted in the Chinese text: “{q}”")
            for gloss in re.findall(r"（([A-Za-z][A-Za-z +\-]*)）", prose):
                if len(LATIN_WORD.findall(gloss)) >= 2:
                    fail(findings, f"{readme} line {n}", f"an English gloss in brackets in the Chinese text: （{gloss}） "
                         "(the glossary link carries the English term)")
            nxt = rows[i + 1] if i + 1 < len(rows) else None
            if nxt and nxt[2] is None and line and nxt[1] and CJK.match(line[-1]) and CJK.match(nxt[1].lstrip()[:1] or " ") \
                    and not nxt[1].lstrip().startswith(("-", "|", "#", "*", ">", "<")) and not line.startswith("|"):
                fail(findings, f"{readme} lines {n}-{n + 1}",
                     "a line break between two Chinese characters shows as a space: join the lines")
    for n, line, lang in rows:
        if lang is not None:
            continue
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+\.svg)\)", line):
            path = os.path.join(here, target)
            if not os.path.exists(path):
                continue
            pictures += 1
            for label in svg_labels(path):
                if re.search(r"[A-Za-z]{4,}", label) and not CJK.search(label):
                    fail(findings, f"{readme} line {n}", f"the picture {target} has an English label: \"{label}\"")
    return findings, f"{pictures} pictures"


NOT_A_WORD = re.compile(r"`[^`]*`|\S*(?:::|_|/|\.[A-Za-z]|\(|\[|\d)\S*")


DOT_START = re.compile(r"^\s*(?:strict\s+)?(?:di)?graph\b[^{]*\{\s*$")
DOT_END = re.compile(r"^\s*\}\s*$")


def outside_dot(lines):
    """(line number, text) for every line not inside a printed Graphviz graph."""
    in_dot = False
    for n, line in enumerate(lines, 1):
        if in_dot or DOT_START.match(line):
            in_dot = not DOT_END.match(line)
            continue
        yield n, line


def check_zh_output(output):
    findings = []
    for n, line in outside_dot(open(output, encoding="utf-8", errors="replace").read().split("\n")):
        words = [w for w in re.findall(r"[A-Za-z]{3,}", NOT_A_WORD.sub(" ", line)) if w not in ("nan", "inf")]
        if len(words) >= 2 and not CJK.search(line):
            fail(findings, f"{output} line {n}", f"an English line in the Chinese output: \"{line.strip()}\"")
    return findings, "lines read"


def check_teaching(readme):
    lines = open(readme, encoding="utf-8").read().split("\n")
    zh = readme.endswith(".zh.md")
    reading = "**用文字逐步读这张图。**" if zh else "**Reading the figure.**"
    findings, pictures = [], 0
    outside = [(n, line) for n, line, lang in fenced(lines) if lang is None]
    for i, (n, line) in enumerate(outside):
        if re.search(r"!\[[^\]]*\]\([^)]+\)", line):
            pictures += 1
            after = [l for _, l in outside[i + 1:i + 8] if l.strip()][:3]
            if not any(l.lstrip().startswith(reading) for l in after):
                fail(findings, f"{readme} line {n}", f"the picture has no reading in words under it (a paragraph starting {reading})")
    title = "小练习与答案" if zh else "Questions"
    body = section(lines, {title}, stop_at_details=False)
    if not any(l.startswith("## ") and l[3:].strip() == title for l in lines):
        fail(findings, readme, f"no section \"## {title}\"")
    else:
        questions = [n for n, l in body if re.match(r"^\d+\.\s", l)]
        answers = "\n".join(l for _, l in body).count("<details")
        if not 2 <= len(questions) <= 3:
            fail(findings, readme, f"\"## {title}\" has {len(questions)} numbered questions, not 2 or 3")
        if answers != len(questions):
            fail(findings, readme, f"\"## {title}\": {len(questions)} questions but {answers} folded answers (<details>)")
    return findings, f"{pictures} pictures"


def main(argv):
    if len(argv) >= 3 and argv[1] == "hints":
        findings, what = check_hints(argv[2], argv[3:])
    elif len(argv) == 3 and argv[1] == "zh":
        findings, what = check_zh(argv[2])
    elif len(argv) >= 3 and argv[1] == "zh_output":
        findings = [f for output in argv[2:] for f in check_zh_output(output)[0]]
        what = f"{len(argv) - 2} output(s) read"
    elif len(argv) == 3 and argv[1] == "teaching":
        findings, what = check_teaching(argv[2])
    else:
        print(__doc__)
        return 2
    for f in findings:
        print(f)
    print(f"check_language: {argv[1]} {argv[2]}: {len(findings)} finding(s), {what}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
