#!/usr/bin/env bash
# test_site.sh: the course website builds in strict mode (a broken link, a link to a folder or a missing
# picture fails), loads nothing from the web, and works in headless Chromium the way a learner uses it
# (tests/site/site_check.py): every lesson page of both languages, read from disk, has its breadcrumb
# (part, lesson N of 27) and download links to its starter.cpp and solution.cpp, files of the site;
# lessons 01 and 22 in both languages in the browser (title, a number the README quotes, pictures,
# breadcrumb, downloads, folded answers, language menu, a Chinese sidebar); every name of every glossary
# term (自动微分 and 反向模式, backpropagation and backward) typed into the search box lists the lesson that
# introduces it, in Chinese and in English, and no copy of a source file; file://…/zh/index.html ->
# lesson 1 -> next lesson by clicks, and a search from disk; a screenshot of a Chinese lesson and of
# Chinese search results, drawn with a Chinese font, kept in build/site-test/ with chromium's log.
# `--break MODE` breaks the site on purpose and the test must then fail (a self-check of the test; ctest
# does not run it): picture, page, link, folder, search (the Chinese index in another language), crumb
# (zh/17's breadcrumb removed, 11's with lesson 1), download (zh/09's starter.cpp deleted, 20's link to
# solution.cpp removed), name (the search worker trims a word at any letter but ASCII and Chinese, as it
# did: gelü is indexed as gel, and typed in finds nothing).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/build/site-test"
SITE="$OUT/site"
BREAK=""
[ "${1:-}" = "--break" ] && BREAK="${2:?--break picture|page|link|folder|search|crumb|download|name}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v mkdocs >/dev/null || fail "mkdocs is not installed (./poet test installs it)"
[ -x "$CHROMIUM" ] || fail "chromium is not installed (./poet test installs it)"

# lesson folder:a number both its READMEs quote
PAGES=("01_hand_attention:1.3395" "22_training_loop:8.6406")

rm -rf "$OUT"; mkdir -p "$OUT"
start=$SECONDS

# 1. the strict build
if [ "$BREAK" = link ] || [ "$BREAK" = folder ]; then   # the build tree broken, then built as build_site.py does
    python3 "$ROOT/tools/site/build_site.py" --out "$SITE" --no-build >/dev/null
    [ "$BREAK" = link ] && echo "A link to [a lesson that is not there](../99_missing/README.md)." \
        >> "$SITE-src/en/docs/22_training_loop/index.md"
    [ "$BREAK" = folder ] && echo "A link to [a folder](../02_dot_softmax/)." >> "$SITE-src/zh/docs/01_hand_attention/index.md"
    for lang in en zh; do               # en first: it empties the site folder, zh/ included
        mkdocs build --strict --quiet -f "$SITE-src/$lang/mkdocs.yml" || fail "mkdocs build --strict failed ($lang)"
    done
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import build_site; b = build_site.check_links(sys.argv[2]);
print(*b, sep="\n"); sys.exit(1 if b else 0)' "$ROOT/tools/site" "$SITE" || fail "the links above name no file"
else
    python3 "$ROOT/tools/site/build_site.py" --out "$SITE" >/dev/null || fail "the site does not build in strict mode"
fi
[ "$BREAK" = picture ] && rm -f "$SITE/22_training_loop/loss.svg"
[ "$BREAK" = page ] && rm -f "$SITE/zh/22_training_loop/index.html"
[ "$BREAK" = search ] && sed -i 's/"lang":\["pg"\]/"lang":["ja"]/' "$SITE/zh/search/search_index.js"
if [ "$BREAK" = crumb ]; then
    sed -i 's|<nav class="pg-breadcrumb"[^>]*>.*</nav>||' "$SITE/zh/17_transformer_block/index.html"
    sed -i 's|Lesson 11 of 27|Lesson 1 of 27|' "$SITE/11_qkv/index.html"
fi
if [ "$BREAK" = download ]; then
    rm -f "$SITE/zh/09_softmax_cross_entropy/starter.cpp"
    sed -i 's|<a download="download" href="solution.cpp">solution.cpp</a>|solution.cpp|' "$SITE/20_tiny_gpt/index.html"
fi
[ "$BREAK" = name ] && sed -i 's|\\\\p{L}\\\\p{M}\\\\p{N}_|\\\\w\\\\u3400-\\\\u4dbf\\\\u4e00-\\\\u9fff\\\\uf900-\\\\ufaff|g' \
    "$SITE/assets/pg_search_worker.js" "$SITE/zh/assets/pg_search_worker.js"
echo "ok  built in strict mode, every link names a file ($((SECONDS - start)) s)"

# 2. nothing fetched from the web: no remote script, stylesheet, font or image
if grep -rlE '<(script|link|img)[^>]*(src|href)="(https?:)?//' --include='*.html' "$SITE" | head -3 | grep .; then
    fail "pages above load something from the web"
fi
if grep -rlE '@import|url\((https?:)?//' --include='*.css' "$SITE/assets" | head -3 | grep .; then
    fail "stylesheets above load something from the web"
fi

# 3. in the browser
args=(); for p in "${PAGES[@]}"; do args+=(--page "$p"); done
python3 "$ROOT/tests/site/site_check.py" --site "$SITE" --out "$OUT" --chromium "$CHROMIUM" "${args[@]}" \
    || fail "the site does not work as it should (above; chromium's log: $OUT/chromium.log)"
echo "site test passed in $((SECONDS - start)) s; screenshots in $OUT"
