#!/usr/bin/env bash
# test_site.sh: the course website builds in strict mode (a broken link or a missing picture fails) and
# renders: the English and Chinese pages of lessons 01 and 22, opened in headless Chromium from a local
# server, show the lesson's title and a number its README quotes, and every picture on them loaded.
# The screenshots of lesson 22 (en, zh) are kept in build/site-test/ as the artifact.
# `--break picture|page|link` breaks the site on purpose and the test must then fail (a self-check of
# the test; ctest does not run it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/build/site-test"
SITE="$OUT/site"
BREAK=""
[ "${1:-}" = "--break" ] && BREAK="${2:?--break picture|page|link}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v mkdocs >/dev/null || fail "mkdocs is not installed (./poet test installs it)"
[ -x "$CHROMIUM" ] || fail "chromium is not installed (./poet test installs it)"

# lesson folder, then a number both its READMEs quote
CASES=("01_hand_attention 1.3395" "22_training_loop 8.6406")

rm -rf "$OUT"; mkdir -p "$OUT"
TMP="$(mktemp -d)"; SERVER=""
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

# 1. the strict build (the test build adds img_check.js to every page)
if [ "$BREAK" = link ]; then
    python3 "$ROOT/tools/site/build_site.py" --out "$SITE" --extra-js "$ROOT/tests/site/img_check.js" --no-build >/dev/null
    echo "A link to [a lesson that is not there](../99_missing/README.md)." >> "$SITE-src/en/docs/22_training_loop/index.md"
    for lang in en zh; do
        mkdocs build --strict --quiet -f "$SITE-src/$lang/mkdocs.yml" || fail "mkdocs build --strict failed ($lang)"
    done
else
    python3 "$ROOT/tools/site/build_site.py" --out "$SITE" --extra-js "$ROOT/tests/site/img_check.js" >/dev/null \
        || fail "the site does not build in strict mode"
fi
[ "$BREAK" = picture ] && rm -f "$SITE/22_training_loop/loss.svg"
[ "$BREAK" = page ] && rm -f "$SITE/zh/22_training_loop/index.html"

# 2. nothing fetched from the web: no remote script, stylesheet, font or image
if grep -rlE '<(script|link|img)[^>]*(src|href)="(https?:)?//' --include='*.html' "$SITE" | head -3 | grep .; then
    fail "pages above load something from the web"
fi

# 3. serve it on a free port
python3 -u -m http.server --bind 127.0.0.1 0 --directory "$SITE" >"$TMP/server.log" 2>&1 &
SERVER=$!
PORT=""
for _ in $(seq 50); do
    PORT="$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$TMP/server.log" | head -1)"
    [ -n "$PORT" ] && break
    sleep 0.1
done
[ -n "$PORT" ] || fail "the local server did not start: $(cat "$TMP/server.log")"

chrome() {  # chrome PROFILE ARGS... URL: one headless run, never longer than 30 s
    local profile="$1"; shift
    timeout -k 5 30 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --mute-audio \
        --user-data-dir="$TMP/profile-$profile" --window-size=1280,1600 "$@" 2>>"$TMP/chromium-$profile.log"
}

check_page() {  # check_page LESSON NUMBER LANG: title, number, pictures; the screenshot of lesson 22
    local lesson="$1" number="$2" lang="$3" readme="$ROOT/lessons/$1/README.md" prefix="" name="$1_$3"
    if [ "$lang" = zh ]; then prefix="zh/"; [ -f "$ROOT/lessons/$lesson/README.zh.md" ] && readme="$ROOT/lessons/$lesson/README.zh.md"; fi
    local title pictures url="http://127.0.0.1:$PORT/$prefix$lesson/" dom="$OUT/$name.html" check
    title="$(sed -n 's/^# //p' "$readme" | head -1)"
    pictures="$({ grep -oE '!\[[^]]*\]\([^)]+\)' "$readme" || true; } | wc -l)"
    chrome "$name" --virtual-time-budget=5000 --dump-dom "$url" >"$dom" || fail "chromium failed or timed out on $url"
    grep -qF "<title>$title" "$dom" || fail "$url: the page title is not '$title' ($(grep -o '<title>[^<]*' "$dom"))"
    grep -qF "$number" "$dom" || fail "$url: the number $number is not on the page"
    check="$(grep -o 'pg-img-check loaded=[0-9]* total=[0-9]* failed=\[[^]]*\]' "$dom" || true)"
    [ -n "$check" ] || fail "$url: the picture check did not run"
    [ "$check" = "pg-img-check loaded=$pictures total=$pictures failed=[]" ] \
        || fail "$url: $pictures picture(s) expected, $check"
    local other="zh/$lesson/"; [ "$lang" = zh ] && other="$lesson/"
    grep -qF "href=\"http://127.0.0.1:$PORT/$other\"" "$dom" || fail "$url: the language menu does not lead to /$other"
    local shot=""
    if [ "$lesson" = 22_training_loop ]; then
        chrome "$name" --virtual-time-budget=5000 --screenshot="$OUT/$name.png" "$url" >/dev/null \
            || fail "chromium could not take a screenshot of $url"
        [ -s "$OUT/$name.png" ] || fail "no screenshot of $url"
        shot="  screenshot build/site-test/$name.png"
    fi
    echo "ok  $url  '$title'  $number  pictures $pictures/$pictures$shot"
}

# 4. the pages, side by side (each chromium run is mostly start-up time)
pids=()
for case in "${CASES[@]}"; do
    read -r lesson number <<<"$case"
    for lang in en zh; do
        check_page "$lesson" "$number" "$lang" >"$TMP/result-${lesson}_$lang" 2>&1 &
        pids+=($!)
    done
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
cat "$TMP"/result-*
[ $status -eq 0 ] || fail "the site does not render as it should (above)"
echo "site test passed; screenshots in $OUT"
