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

mode="${1:-}"
shift || true
case "$mode" in
    links) [ $# -ge 1 ] || { echo "usage: check_readme.sh links FILE.md..."; exit 2; }; check_links "$@" ;;
    numbers)
        [ $# -ge 2 ] || { echo "usage: check_readme.sh numbers OUTPUT|PROGRAM README.md..."; exit 2; }
        output="$1"; shift; status=0
        for readme in "$@"; do check_numbers "$readme" "$output" || status=1; done
        exit $status ;;
    *) echo "usage: check_readme.sh links FILE.md... | numbers OUTPUT|PROGRAM README.md..."; exit 2 ;;
esac
