#!/usr/bin/env bash
# The README tests (lessons/FORMAT.md, "Tests"):
#   check_readme.sh links FILE.md...        every relative link points to a file that exists, and a
#                                           lesson README has a "Find the real source" section linking into lib/
#   check_readme.sh numbers OUTPUT README.md...
#                                           every decimal number each README states (prose, tables,
#                                           text blocks) appears in OUTPUT, digit for digit, and every
#                                           line of a ```text block appears in it as it is. OUTPUT is
#                                           the experiment's saved output (run_saving_output.sh) or
#                                           the experiment program itself, which is then run
#   check_readme.sh pair README.md README.zh.md
#                                           the two languages of one lesson agree: the same number of
#                                           `## ` sections; the same ```cpp and ```bash blocks in the same
#                                           order, comments aside; ```text blocks (each language's own
#                                           output) with the same numbers in the same order; the same
#                                           image targets (NAME.zh.svg standing for NAME.svg); the same
#                                           number of <details> blocks, and the same set of decimal
#                                           numbers in the stated text (as "numbers" reads them)
# Leaves out: web links (not fetched) and numbers inside code (inline `code` or cpp/bash blocks).
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
        { line = $0; if (!fence) gsub(/`[^`]*`/, "", line); gsub(/\]\([^)]*\)/, "]", line); print NR ": " line }
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
