#!/usr/bin/env python3
"""Build data/poems/ from an unpacked chinese-poetry npm package.

Called by tools/corpus/build_corpus.sh, which fetches and verifies the
package. Standard library only. Output is deterministic: poems are kept in
source order (Tang files, then Song files, each by number, then position in
the file) and the train/validation split is a hash of the poem text.
"""

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

# Line-end punctuation accepted in the source; it is rewritten to the
# canonical ， (odd lines) and 。 (even lines).
SRC_PUNCT = "，。？！；,.?!;"
SRC_LINE = re.compile("([^%s]{5})[%s]" % (SRC_PUNCT, SRC_PUNCT))
WS = re.compile(r"\s+")

HAN = "[\u4e00-\u9fff]"
QUATRAIN_RE = re.compile("^(?:%s{5}，%s{5}。){2}$" % (HAN, HAN))
REGULATED_RE = re.compile("^(?:%s{5}，%s{5}。){4}$" % (HAN, HAN))

VAL_FIRST_BYTE_BELOW = 13  # validation = sha1(text)[0] < 13, about 5 %
MAX_SHARD_BYTES = 3_500_000  # keep every file under 3.5 MB


def numbered(pattern):
    """Files matching poet.<dynasty>.<N>.json, sorted by N."""
    files = glob.glob(pattern)
    return sorted(files, key=lambda f: int(os.path.basename(f).split(".")[2]))


def canonical_lines(paragraphs):
    """Return the list of five-character lines, or None if the poem is not
    made of five-character lines each ended by punctuation."""
    if not isinstance(paragraphs, list) or not all(isinstance(p, str) for p in paragraphs):
        return None
    text = WS.sub("", "".join(paragraphs))
    if len(text) % 6:
        return None
    lines = []
    for i in range(0, len(text), 6):
        m = SRC_LINE.fullmatch(text, i, i + 6)
        if not m:
            return None
        lines.append(m.group(1))
    return lines


def join_lines(lines):
    return "".join(l + ("，" if i % 2 == 0 else "。") for i, l in enumerate(lines))


def is_validation(text):
    return hashlib.sha1(text.encode("utf-8")).digest()[0] < VAL_FIRST_BYTE_BELOW


def write_lines(path, lines):
    data = "".join(l + "\n" for l in lines).encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package-dir", required=True)
    ap.add_argument("--package-version", required=True)
    ap.add_argument("--package-sha1", required=True)
    ap.add_argument("--opencc-version", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()

    src = os.path.join(args.package_dir, "dist", "quantangshi")
    tang = numbered(os.path.join(src, "poet.tang.*.json"))
    song = numbered(os.path.join(src, "poet.song.*.json"))
    if not tang or not song:
        sys.exit("build_corpus: no poet.tang.*.json / poet.song.*.json under %s" % src)

    # 1. Select five-character quatrains (4 lines) and regulated verse (8 lines).
    stats = {"poems_read": 0}
    candidates = []  # (kind, traditional text)
    for path in tang + song:
        with open(path, encoding="utf-8") as f:
            poems = json.load(f)
        for poem in poems:
            stats["poems_read"] += 1
            lines = canonical_lines(poem.get("paragraphs"))
            if lines is None:
                continue
            if len(lines) == 4:
                candidates.append(("jueju", join_lines(lines)))
            elif len(lines) == 8:
                candidates.append(("lushi", join_lines(lines)))
    stats["jueju_candidates"] = sum(1 for k, _ in candidates if k == "jueju")
    stats["lushi_candidates"] = sum(1 for k, _ in candidates if k == "lushi")

    # 2. Traditional -> simplified, in one batch.
    t_path = os.path.join(args.work_dir, "traditional.txt")
    s_path = os.path.join(args.work_dir, "simplified.txt")
    write_lines(t_path, [t for _, t in candidates])
    subprocess.run(["opencc", "-c", "t2s", "-i", t_path, "-o", s_path], check=True)
    with open(s_path, encoding="utf-8") as f:
        simplified = f.read().split("\n")
    if simplified and simplified[-1] == "":
        simplified.pop()
    if len(simplified) != len(candidates):
        sys.exit("build_corpus: opencc changed the line count (%d -> %d)"
                 % (len(candidates), len(simplified)))

    # 3. Strict format / character check after conversion, then de-duplicate.
    jueju, lushi = [], []
    seen_jueju = set()
    stats["jueju_bad_chars"] = stats["jueju_duplicates"] = 0
    stats["lushi_bad_chars"] = 0
    for (kind, _), text in zip(candidates, simplified):
        if kind == "jueju":
            if not QUATRAIN_RE.match(text):
                stats["jueju_bad_chars"] += 1
            elif text in seen_jueju:
                stats["jueju_duplicates"] += 1
            else:
                seen_jueju.add(text)
                jueju.append(text)
        else:
            if not REGULATED_RE.match(text):
                stats["lushi_bad_chars"] += 1
            else:
                lushi.append(text)

    # 4. Train / validation split of the quatrains.
    train = [t for t in jueju if not is_validation(t)]
    val = [t for t in jueju if is_validation(t)]
    val_set = set(val)

    # 5. Regulated-verse halves: unique, and never equal to a validation quatrain.
    halves, seen_halves = [], set()
    stats["lushi_poems"] = len(lushi)
    stats["halves_duplicates"] = stats["halves_in_val"] = 0
    for text in lushi:
        for half in (text[:24], text[24:]):
            if half in val_set:
                stats["halves_in_val"] += 1
            elif half in seen_halves:
                stats["halves_duplicates"] += 1
            else:
                seen_halves.add(half)
                halves.append(half)
    train_set = set(train)
    stats["halves_equal_to_train"] = sum(1 for h in halves if h in train_set)

    # 6. Write.
    out = args.out_dir
    os.makedirs(out, exist_ok=True)
    for old in glob.glob(os.path.join(out, "lushi_halves_*.txt")):
        os.remove(old)
    files = []  # (name, lines, bytes)
    files.append(("jueju_train.txt", len(train), write_lines(os.path.join(out, "jueju_train.txt"), train)))
    files.append(("jueju_val.txt", len(val), write_lines(os.path.join(out, "jueju_val.txt"), val)))
    shard, shard_bytes, shards = [], 0, []
    for h in halves:
        n = len(h.encode("utf-8")) + 1
        if shard and shard_bytes + n > MAX_SHARD_BYTES:
            shards.append(shard)
            shard, shard_bytes = [], 0
        shard.append(h)
        shard_bytes += n
    if shard:
        shards.append(shard)
    for i, s in enumerate(shards, 1):
        name = "lushi_halves_%d.txt" % i
        files.append((name, len(s), write_lines(os.path.join(out, name), s)))

    shutil.copyfile(os.path.join(args.package_dir, "LICENSE"),
                    os.path.join(out, "LICENSE.chinese-poetry"))
    with open(os.path.join(args.package_dir, "LICENSE"), encoding="utf-8") as f:
        m = re.search(r"^Copyright .*$", f.read(), re.M)
    copyright_line = m.group(0).strip() if m else "(see LICENSE.chinese-poetry)"

    write_readme(out, args, files, stats, len(tang), len(song), copyright_line,
                 len(halves))

    for k, v in stats.items():
        print("build_corpus: %-24s %d" % (k, v), file=sys.stderr)
    for name, n, size in files:
        print("build_corpus: %-20s %7d lines %9d bytes" % (name, n, size), file=sys.stderr)


def write_readme(out, args, files, stats, n_tang, n_song, copyright_line, n_halves):
    rows = "\n".join("| `%s` | %d | %d | `%s` |" % (name, n, size, sha256(os.path.join(out, name)))
                     for name, n, size in files)
    text = """# Poem corpus

Training data for the tiny GPT that writes five-character quatrains. Every
file in this folder, this README included, is written by
`tools/corpus/build_corpus.sh`; do not edit them by hand.

## Files

One poem per line, UTF-8, simplified Chinese, each line newline-terminated.
Every line has the form `XXXXX，XXXXX。XXXXX，XXXXX。` (four five-character
lines, 24 characters), where each `X` is a CJK Unified Ideograph
(U+4E00 to U+9FFF).

| File | Lines | Bytes | SHA-256 |
|------|------:|------:|---------|
{rows}

- `jueju_train.txt`, `jueju_val.txt`: five-character quatrains (五言绝句),
  split into training and validation sets.
- `lushi_halves_N.txt`: the first and second halves of five-character
  regulated verses (五言律诗), each half in quatrain form. They are extra
  training data. They are split into files of at most {maxb} bytes so that
  no file is large.
- `LICENSE.chinese-poetry`: the licence of the source data, copied from the
  package unchanged.

## Source

npm package [`chinese-poetry`](https://www.npmjs.com/package/chinese-poetry),
version **{version}** (tarball SHA-1 `{sha1}`, checked by the build script).
Licence: MIT, {copyright}. The full text is in `LICENSE.chinese-poetry`.

Only the Tang and Song poem files are read, in traditional script:
`dist/quantangshi/poet.tang.N.json` ({n_tang} files) then
`dist/quantangshi/poet.song.N.json` ({n_song} files), each in increasing
`N`, each poem in file order. Together they hold {poems_read} poems. The
`dist/quantangshi/error/` folder and the other collections in the package are
not used.

## How the poems were selected

1. The poem's `paragraphs` are joined and all whitespace is removed, so
   poems stored as two couplets, four lines or one string are treated the
   same way.
2. The text must split into lines of exactly five characters, each followed
   by one punctuation mark out of `，。？！；,.?!;`. The marks are then
   rewritten to `，` after odd lines and `。` after even lines.
   Four lines make a quatrain ({jc} found); eight lines make a regulated
   verse ({lc} found). Everything else is dropped.
3. All selected poems are converted to simplified script in one batch with
   `opencc -c t2s` ({opencc}).
4. Only after conversion, a poem is dropped if any character other than the
   `，` and `。` at their fixed positions is not a CJK Unified Ideograph
   U+4E00 to U+9FFF. This removes placeholders such as `□` and rare
   characters outside that block. (Poems with bracketed notes or other extra
   text already fail step 2.) Dropped: {jb} quatrains, {lb} regulated verses.
5. Quatrains with exactly the same text as an earlier quatrain are dropped
   ({jd} dropped).
6. Train/validation split: a quatrain goes to `jueju_val.txt` if the first
   byte of the SHA-1 of its UTF-8 text (no newline) is less than {vb}
   (about 5 %); otherwise to `jueju_train.txt`. Each file keeps source order.
7. Each of the {lp} remaining regulated verses is cut into its first and
   second halves (lines 1 to 4 and lines 5 to 8). A half is dropped if it is
   equal to a validation quatrain ({hv} dropped) or to an earlier half
   ({hd} dropped). The {nh} remaining halves keep source order; {ht} of them
   are also in `jueju_train.txt`. Train and validation never share a line.

## Rebuilding

```sh
tools/corpus/build_corpus.sh
```

It needs `npm` (registry access), `python3` (standard library only) and
`opencc` (Debian: `apt-get install -y opencc`). It downloads the pinned
package with `npm pack`, checks its SHA-1, and rewrites every generated file
in this folder, this README included. With the same opencc version the output
is byte-for-byte identical on every run.
""".format(rows=rows, maxb=MAX_SHARD_BYTES, version=args.package_version,
           sha1=args.package_sha1, copyright=copyright_line, n_tang=n_tang,
           n_song=n_song, poems_read=stats["poems_read"],
           jc=stats["jueju_candidates"], lc=stats["lushi_candidates"],
           opencc=args.opencc_version, jb=stats["jueju_bad_chars"],
           lb=stats["lushi_bad_chars"], jd=stats["jueju_duplicates"],
           vb=VAL_FIRST_BYTE_BELOW, lp=stats["lushi_poems"],
           hv=stats["halves_in_val"], hd=stats["halves_duplicates"],
           nh=n_halves, ht=stats["halves_equal_to_train"])
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


if __name__ == "__main__":
    main()
