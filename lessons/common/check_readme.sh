#!/usr/bin/env bash
# The README tests (lessons/FORMAT.md, "Tests"):
#   check_readme.sh links FILE.md...        every relative link points to a file that exists, and a
#                                           lesson README has a "Find the real source" section linking into lib/
#   check_readme.sh numbers OUTPUT README.md...
#                                           every decimal number each README states (prose, tables,
#                                           text blocks) appears in OUTPUT, digit for digit; so does
#                                           every whole number of 3 or more digits it states as an exact
#                                           quantity, unless it is a setting (a literal of the lesson's
#                                           experiment.cpp, checks.cpp, check.hpp, or in the README's
#                                           code), a word of a picture it shows, part of a hand
#                                           computation that holds (12 · 64 + 13 · 8 = 768 + 104 = 872),
#                                           or listed in its comment "<!-- not printed: N (why); ... -->"
#                                           (README.zh.md: "<!-- 实验不打印: ... -->"); see WHOLE_NUMBERS.
#                                           Every line of a ```text block appears in OUTPUT as it is.
#                                           OUTPUT is the experiment's saved output (run_saving_output.sh)
#                                           or the experiment program itself, which is then run
#   check_readme.sh pair README.md README.zh.md
#                                           the two languages of one lesson agree: the same number of
#                                           `## ` sections; the same ```cpp and ```bash blocks in the same
#                                           order, comments aside; ```text blocks (each language's own
#                                           output) with the same numbers in the same order; the same
#                                           image targets (NAME.zh.svg standing for NAME.svg); the same
#                                           number of <details> blocks, and the same set of decimal
#                                           numbers in the stated text (as "numbers" reads them)
# Leaves out: web links (not fetched), numbers inside code (inline `code` or cpp/bash blocks) and
# HTML comments, whole numbers of 1 or 2 digits, and what only looks like a whole number (codes and
# names such as U+0800, 0x80, AVX-512, seed 001, a byte's bits 11111000; rounded figures such as
# "about 180", "175 B", "6100 万").
set -uo pipefail

# The README as stated text: drop fenced blocks other than ``` and ```text, inline code, link targets.
stated_text() {
    awk '
        /^[[:space:]]*```/ {
            if (!fence) { fence = 1; lang = $0; sub(/^[[:space:]]*```/, "", lang); keep = (lang == "" || lang == "text") }
            else fence = 0
            next
        }
        fence && !keep { next }
        { line = $0; if (!fence) { gsub(/`[^`]*`/, "", line); gsub(/<!--.*-->/, "", line) }; gsub(/\]\([^)]*\)/, "]", line); print NR ": " line }
    ' "$1"
}

check_links() {
    local status=0 file dir target path
    for file in "$@"; do
        [ -f "$file" ] || { echo "check_readme: no such file $file"; status=1; continue; }
        dir="$(dirname "$file")"
        # link targets outside fenced and inline code: ](target) minus any #anchor or "title"
        while IFS= read -r target; do
            case "$target" in http://*|https://*|mailto:*|'#'*|'') continue ;; esac
            path="${target%%#*}"
            path="${path%% *}"
            if [ ! -e "$dir/$path" ]; then
                echo "check_readme: $file links to $target, but $dir/$path does not exist"
                status=1
            fi
        done < <(awk '/^[[:space:]]*```/ { fence = !fence; next } !fence { gsub(/`[^`]*`/, ""); print }' "$file" | grep -oE '\]\([^)]*\)' | sed -E 's/^\]\(//; s/\)$//')
        if [[ "$(basename "$dir")" =~ ^[0-9][0-9]_ ]]; then
            if ! awk '/^#+ *(Find the real source|找到真正的源码)/ { on = 1; next } /^#/ { on = 0 } on' "$file" | grep -qE '\]\((\.\./)+(lib|tools/poet)/'; then
                echo "check_readme: $file has no \"Find the real source\" (找到真正的源码) section with a link into lib/ or tools/poet/"
                status=1
            fi
        fi
    done
    [ $status -eq 0 ] && echo "check_readme: links ok in $*"
    return $status
}

# The whole-number half of "numbers", in Python (Unicode text, exact arithmetic):
#   python3 -c "$WHOLE_NUMBERS" README STATED_TEXT < OUTPUT
# prints one line per whole number the README states that nothing vouches for, then "count N".
read -r -d '' WHOLE_NUMBERS <<'PY'
import ast, html, re, sys
from fractions import Fraction
from pathlib import Path

readme, stated = Path(sys.argv[1]), Path(sys.argv[2]).read_text(encoding="utf-8").splitlines()
output = sys.stdin.buffer.read().decode("utf-8", "replace")
lesson = readme.parent

RUN = re.compile(r"\d+(?:,\d+)*")
THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")

def runs(text):
    """(number, start, end) for each run of digits; 4,294,967,296 is one number, (32,128) two."""
    for m in RUN.finditer(text):
        if THOUSANDS.fullmatch(m.group()) and text[m.start() - 1:m.start()] != "(":
            yield m.group().replace(",", ""), m.start(), m.end()
        else:
            pos = m.start()
            for group in m.group().split(","):
                yield group, pos, pos + len(group)
                pos += len(group) + 1

def decimal_part(text, start, end):
    """Whether the digits at start:end belong to a decimal (1131.5 or the 5 of it; not 1131.00)."""
    if text[start - 2:start - 1].isdigit() and text[start - 1:start] == ".":
        return True
    fraction = re.match(r"\.(\d+)", text[end:])
    return bool(fraction) and fraction.group(1).strip("0") != ""

def whole_numbers(text):
    return {n for n, s, e in runs(text) if not decimal_part(text, s, e)}

APPROXIMATE_BEFORE = re.compile(r"(?:\b(?:about|nearly|roughly|around|almost|approximately)\s+(?:\d+ in )?|[~≈]\s*"
                                r"|(?:约|大约|将近|接近|大概)[\u4e00-\u9fff]{0,2}\s*)$")
ROUNDED_AFTER = re.compile(r"\s?(?:million|billion|thousand|B\b|万|亿|千|左右)")

def quantities(number, start, end, text):
    """Whether a whole number of the README's text reads as a quantity stated exactly, not as a
    name or a code (U+0800, 0x80, F8, 1111xxxx, 12C, fp32, AVX-512, GPT-3), a seed or bit pattern
    (001, 0110, 11111000: a leading zero, a byte's eight bits), or a rounded figure ("about 180",
    "61 million", "175 B", "6100 万", "大约 180 倍")."""
    before, after = text[start - 1:start], text[end:end + 1]
    if re.match(r"[A-Za-z_]", before) or re.match(r"[A-Za-z_]", after) or text[start - 2:start] == "U+":
        return False
    if before == "-" and re.match(r"[A-Za-z]", text[start - 2:start - 1]):
        return False
    if number.startswith("0") or re.fullmatch(r"[01]{8}", number):
        return False
    return not APPROXIMATE_BEFORE.search(text[:start]) and not ROUNDED_AFTER.match(text[end:])

# What vouches for a number besides the output: the settings the lesson is written with (integer
# literals of its experiment.cpp, checks.cpp and check.hpp outside comments; numbers in the
# README's own code), the words of the pictures it shows (which lesson_NN_pictures holds to what
# the experiment draws), and the README's list of numbers it states but the experiment does not
# print: a comment "<!-- not printed: 251 (256 ids less the 5 specials); 3200 (...) -->"
# (README.zh.md: "<!-- 实验不打印: ... -->"), whose entries each start with the number.
LITERAL = re.compile(r"(?<![\w.'])(\d[\d']*)(\.0*)?[fFlLuU]*(?![\w.'])")
def source_literals(path):
    if not path.is_file():
        return set()
    code = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    code = re.sub(r"//.*", "", code)
    return {m.group(1).replace("'", "") for m in LITERAL.finditer(code)}

text = readme.read_text(encoding="utf-8")
settings = set().union(*(source_literals(lesson / f) for f in ("experiment.cpp", "checks.cpp", "check.hpp")))
fence, keep = False, True
for line in text.splitlines():
    if re.match(r"\s*```", line):
        if not fence:
            lang = line.strip()[3:].strip()
            fence, keep = True, lang in ("", "text")
        else:
            fence = False
        continue
    if fence and not keep:
        settings |= whole_numbers(line)
    elif not fence:
        for span in re.findall(r"`([^`]*)`", line):
            settings |= whole_numbers(span)

pictures = set()
for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+\.svg)\)", text):
    svg = lesson / target
    if svg.is_file():
        for words in re.findall(r"<text[^>]*>(.*?)</text>", svg.read_text(encoding="utf-8"), flags=re.S):
            pictures |= whole_numbers(html.unescape(re.sub(r"<[^>]+>", "", words)))

allowed = set()
for body in re.findall(r"<!--\s*(?:not printed|实验不打印)\s*[:：](.*?)-->", text, flags=re.S):
    for entry in re.split(r"[;；]", body):
        first = RUN.search(entry)
        if first:
            allowed.add(first.group().replace(",", ""))

printed = whole_numbers(output)
# a printed decimal rounded to a whole number counts as printed ("276 characters" for 276.1)
rounded = {str(round(Fraction(d))) for d in re.findall(r"\d+\.\d+", output)}

# A hand computation that holds vouches for every number in it: each side of "12 · 64 + 13 · 8 =
# 768 + 104 = 872" or "2³² = 4,294,967,296" (in one paragraph) made of whole numbers, + − · × / ( )
# and powers is evaluated exactly; when two or more sides agree and one of them computes something,
# all their numbers are checked. A side with a letter (8C² + 5C) is not evaluated.
SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
def evaluate(node):
    if isinstance(node, ast.Expression):
        return evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        left, right = evaluate(node.left), evaluate(node.right)
        if isinstance(node.op, ast.Add): return left + right
        if isinstance(node.op, ast.Sub): return left - right
        if isinstance(node.op, ast.Mult): return left * right
        if isinstance(node.op, ast.Div) and right != 0: return left / right
        if isinstance(node.op, ast.Pow) and right.denominator == 1 and 0 <= right <= 64: return left ** int(right)
    raise ValueError("not whole-number arithmetic")

def vouched_by_arithmetic(paragraph):
    norm = re.sub(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+", lambda m: "^" + m.group().translate(SUPERSCRIPT), paragraph)
    for a, b in (("−", "-"), ("·", "*"), ("×", "*"), ("⋅", "*"), ("÷", "/")):
        norm = norm.replace(a, b)
    pieces, last = [], 0
    for number, start, end in runs(norm):
        pieces += [norm[last:start], number]
        last = end
    norm = "".join(pieces) + norm[last:]
    numbers = set()
    for chain in re.findall(r"(?:[\d\s+\-*/()^=]|(?<=\d)\.(?=\d))+", norm):
        values, sides = [], []
        for side in chain.split("="):
            side = side.strip()
            while side.count("(") != side.count(")"):   # a parenthesis of the prose around it
                extra = "(" if side.count("(") > side.count(")") else ")"
                if side.endswith(extra): side = side[:-1].strip()
                elif side.startswith(extra): side = side[1:].strip()
                else: break
            if not re.search(r"\d", side) or "." in side:
                continue
            try:
                values.append(evaluate(ast.parse(side.replace("^", "**"), mode="eval")))
                sides.append(side)
            except (SyntaxError, ValueError, ZeroDivisionError):
                continue
        # two or more sides that agree, one of them a computation (not "C = 128" alone)
        if len(values) >= 2 and all(v == values[0] for v in values) and any(re.search(r"\d\D+\d", x) for x in sides):
            for side in sides:
                numbers |= set(re.findall(r"\d+", side))
    return numbers

# the stated text by paragraphs (runs of consecutive non-blank lines): a hand computation may wrap
paragraph_of, paragraphs, previous = {}, [], None
for entry in stated:
    lineno, _, line = entry.partition(": ")
    if not line.strip() or previous is None or int(lineno) != previous + 1:
        paragraphs.append([])
    if line.strip():
        paragraphs[-1].append(line)
        paragraph_of[lineno] = len(paragraphs) - 1
    previous = int(lineno)
vouched = {}

count = 0
for entry in stated:
    lineno, _, line = entry.partition(": ")
    for number, start, end in runs(line):
        if len(number) < 3 or decimal_part(line, start, end) or not quantities(number, start, end, line):
            continue
        count += 1
        if number in printed or number in rounded or number in settings or number in pictures or number in allowed:
            continue
        k = paragraph_of[lineno]
        if k not in vouched:
            vouched[k] = vouched_by_arithmetic(" ".join(paragraphs[k]))
        if number not in vouched[k]:
            print(f"check_readme: {readme} line {lineno} states {number}, but the experiment never prints it "
                  "(nor is it a literal of its sources, a word of its pictures, part of a hand computation that holds "
                  "or in the README's \"not printed\" comment)")
print("count", count)
PY

check_numbers() {
    local readme="$1" program="$2" out missing=0 count=0 lineno token
    if [ -x "$program" ] && [ ! -d "$program" ]; then
        out="$("$program" 2>&1)" || { printf '%s\n' "$out"; echo "check_readme: $program failed"; return 1; }
    else
        out="$(cat "$program")" || { echo "check_readme: cannot read the saved output $program"; return 1; }
    fi
    # every decimal the program printed, as printed and without its sign
    local printed
    printed="$(grep -oE -- '-?[0-9]+\.[0-9]+' <<<"$out" | sed -E 'p; s/^-//' | sort -u)"
    while IFS= read -r entry; do
        lineno="${entry%%:*}"
        token="${entry#*:}"
        count=$((count + 1))
        if ! grep -qxF -- "$token" <<<"$printed"; then
            echo "check_readme: $readme line $lineno states $token, but the experiment never prints it"
            missing=$((missing + 1))
        fi
    done < <(stated_text "$readme" | awk -F': ' '{
        n = $1; line = substr($0, length($1) + 3)
        while (match(line, /-?[0-9]+\.[0-9]+/)) { print n ":" substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH) }
    }')
    # every whole number of 3 or more digits it states as an exact quantity is printed too, or is
    # vouched for otherwise (WHOLE_NUMBERS above)
    local whole
    whole="$("${POETGRAD_PYTHON:-python3}" -c "$WHOLE_NUMBERS" "$readme" <(stated_text "$readme") <<<"$out")" || return 1
    grep -v '^count ' <<<"$whole"
    count=$((count + $(sed -n 's/^count //p' <<<"$whole")))
    missing=$((missing + $(grep -vc '^count ' <<<"$whole")))
    # every line of a ```text block is quoted output: it must appear in the output as it is
    local quoted=0 bad_quotes=0 qline
    while IFS= read -r qline; do
        quoted=$((quoted + 1))
        if ! grep -qF -- "$qline" <<<"$out"; then
            echo "check_readme: $readme quotes \"$qline\" in a text block, but the experiment never prints it"
            bad_quotes=$((bad_quotes + 1))
        fi
    done < <(awk '/^[[:space:]]*```/ { if (!fence) { fence = 1; quote = ($0 ~ /```text[[:space:]]*$/) } else fence = 0; next }
                  fence && quote { sub(/^[[:space:]]+/, ""); sub(/[[:space:]]+$/, ""); if ($0 != "") print }' "$readme")
    if [ $missing -ne 0 ] || [ $bad_quotes -ne 0 ]; then
        echo "check_readme: $missing of $count numbers and $bad_quotes of $quoted quoted lines in $readme are not in the output of $(basename "$program")"
        return 1
    fi
    echo "check_readme: all $count numbers and $quoted quoted lines in $readme appear in the output of $(basename "$program")"
}

# The fenced blocks of one language (text, cpp, bash) in FILE, each as "@@ block N line L" then its lines.
fenced_blocks() {
    awk -v want="$2" '
        /^[[:space:]]*```/ {
            if (!fence) { fence = 1; lang = $0; sub(/^[[:space:]]*```/, "", lang); sub(/[[:space:]]+$/, "", lang)
                          on = (lang == want); if (on) print "@@ block " (++n) " line " NR }
            else { fence = 0; on = 0 }
            next
        }
        on { print }
    ' "$1"
}

# Lines outside fenced blocks (headings, prose, tables, <details>), as "NR: line".
outside_fences() {
    awk '/^[[:space:]]*```/ { fence = !fence; next } !fence { print NR ": " $0 }' "$1"
}

# The decimal numbers of FILE's stated text, one per line, sorted and unique.
stated_numbers() {
    stated_text "$1" | sed -E 's/^[0-9]+: //' | grep -oE -- '-?[0-9]+\.[0-9]+' | sort -u
}

# A code block without its comments (// in cpp, # after a blank or at the start in bash) and
# trailing blanks: what must be the same in both languages.
without_comments() {
    if [ "$1" = cpp ]; then sed -E 's@[[:space:]]*//.*$@@; s/[[:space:]]+$//'
    else sed -E 's/(^|[[:space:]])#.*$//; s/[[:space:]]+$//'; fi
}

check_pair() {
    local en="$1" zh="$2" status=0 a b lang
    for f in "$en" "$zh"; do [ -f "$f" ] || { echo "check_readme: no such file $f"; return 1; }; done
    # sections
    a="$(outside_fences "$en" | grep -cE '^[0-9]+: ## ')"; b="$(outside_fences "$zh" | grep -cE '^[0-9]+: ## ')"
    if [ "$a" != "$b" ]; then
        echo "check_readme: $en has $a '## ' sections, $zh has $b"; status=1
    fi
    # fenced blocks, verbatim and in order
    for lang in text cpp bash; do
        local ea za na nb i ablk bblk
        ea="$(fenced_blocks "$en" "$lang")"; za="$(fenced_blocks "$zh" "$lang")"
        na="$(grep -c '^@@ block ' <<<"$ea")"; nb="$(grep -c '^@@ block ' <<<"$za")"
        [ -n "$ea" ] || na=0; [ -n "$za" ] || nb=0
        if [ "$na" != "$nb" ]; then
            echo "check_readme: $en has $na \`\`\`$lang blocks, $zh has $nb"; status=1
        fi
        for ((i = 1; i <= (na < nb ? na : nb); i++)); do
            ablk="$(awk -v k="$i" '/^@@ block / { on = ($3 == k); if (on) hdr = $0; next } on' <<<"$ea")"
            bblk="$(awk -v k="$i" '/^@@ block / { on = ($3 == k); next } on' <<<"$za")"
            if [ "$lang" = text ]; then    # quoted output, in each language: the same numbers in order
                ablk="$(grep -oE -- '-?[0-9]+\.[0-9]+' <<<"$ablk")"; bblk="$(grep -oE -- '-?[0-9]+\.[0-9]+' <<<"$bblk")"
            else                           # the code the same; its comments are translated
                ablk="$(without_comments "$lang" <<<"$ablk")"; bblk="$(without_comments "$lang" <<<"$bblk")"
            fi
            if [ "$ablk" != "$bblk" ]; then
                local la lb
                la="$(grep "^@@ block $i line " <<<"$ea" | sed 's/.* line //')"
                lb="$(grep "^@@ block $i line " <<<"$za" | sed 's/.* line //')"
                echo "check_readme: \`\`\`$lang block $i differs (comments aside): $en line $la, $zh line $lb; first difference:"
                diff <(printf '%s\n' "$ablk") <(printf '%s\n' "$bblk") | grep -E '^[<>]' | head -2 | sed 's/^/    /'
                status=1
            fi
        done
    done
    # image targets
    a="$(outside_fences "$en" | grep -oE '!\[[^]]*\]\([^)]*\)' | sed -E 's/^.*\]\(//; s/\)$//' | sort)"
    # (a Chinese page may show a picture's Chinese drawing, NAME.zh.svg for NAME.svg)
    b="$(outside_fences "$zh" | grep -oE '!\[[^]]*\]\([^)]*\)' | sed -E 's/^.*\]\(//; s/\)$//; s/\.zh\.svg$/.svg/' | sort)"
    if [ "$a" != "$b" ]; then
        echo "check_readme: the image targets differ: only in $en: $(comm -23 <(printf '%s\n' "$a") <(printf '%s\n' "$b") | tr '\n' ' ')only in $zh: $(comm -13 <(printf '%s\n' "$a") <(printf '%s\n' "$b") | tr '\n' ' ')"
        status=1
    fi
    # <details> blocks
    a="$(outside_fences "$en" | grep -o '<details' | wc -l)"; b="$(outside_fences "$zh" | grep -o '<details' | wc -l)"
    if [ "$a" != "$b" ]; then
        echo "check_readme: $en has $a <details> blocks, $zh has $b"; status=1
    fi
    # decimal numbers in the stated text
    a="$(stated_numbers "$en")"; b="$(stated_numbers "$zh")"
    if [ "$a" != "$b" ]; then
        local only
        only="$(comm -23 <(printf '%s\n' "$a") <(printf '%s\n' "$b") | grep . | tr '\n' ' ')"
        [ -n "$only" ] && echo "check_readme: numbers only in $en: $only"
        only="$(comm -13 <(printf '%s\n' "$a") <(printf '%s\n' "$b") | grep . | tr '\n' ' ')"
        [ -n "$only" ] && echo "check_readme: numbers only in $zh: $only"
        status=1
    fi
    if [ $status -eq 0 ]; then echo "check_readme: $en and $zh agree (sections, text/cpp/bash blocks, images, <details>, numbers)"
    else echo "check_readme: $en and $zh differ (see above)"; fi
    return $status
}

mode="${1:-}"
shift || true
case "$mode" in
    links) [ $# -ge 1 ] || { echo "usage: check_readme.sh links FILE.md..."; exit 2; }; check_links "$@" ;;
    numbers)
        [ $# -ge 2 ] || { echo "usage: check_readme.sh numbers OUTPUT|PROGRAM README.md..."; exit 2; }
        output="$1"; shift; status=0
        for readme in "$@"; do check_numbers "$readme" "$output" || status=1; done
        exit $status ;;
    pair) [ $# -eq 2 ] || { echo "usage: check_readme.sh pair README.md README.zh.md"; exit 2; }; check_pair "$1" "$2" ;;
    *) echo "usage: check_readme.sh links FILE.md... | numbers OUTPUT|PROGRAM README.md... | pair README.md README.zh.md"; exit 2 ;;
esac
