#!/usr/bin/env python3
"""The test behind lesson_NN_pictures: each picture the experiment drew in this test run (under
POET_PICTURES, inside build/) is the one the lesson folder holds, so a README never shows a picture
its program no longer draws. The words and the markup must be the same; a number may differ in its
last printed digits only (another CPU rounds a float's last bit otherwise: a coordinate 0.01 px
off). A picture Graphviz lays out from a .dot file is judged by its .dot: the layout belongs to the
Graphviz version, not to the lesson.

usage: same_pictures.py DRAWN_DIR LESSON_DIR
"""
import os
import re
import sys

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def last_digit(text):
    """the size of one unit in the number's last printed digit: '12.34' -> 0.01, '120' -> 1,
    '1.5e-3' -> 0.0001"""
    fraction, exponent = re.match(r"-?\d+(?:\.(\d+))?(?:[eE]([-+]?\d+))?$", text).groups()
    return 10.0 ** -len(fraction or "") * 10.0 ** int(exponent or 0)


def first_difference(committed, drawn):
    """None when the two agree; else a line saying where they part"""
    words_c, words_d = NUMBER.split(committed), NUMBER.split(drawn)
    nums_c, nums_d = NUMBER.findall(committed), NUMBER.findall(drawn)
    for i, (a, b) in enumerate(zip(words_c, words_d)):
        if a != b:
            return f"the text differs after {i} numbers: {a[:60]!r} here, {b[:60]!r} drawn now"
    if len(words_c) != len(words_d):
        return f"{len(nums_c)} numbers here, {len(nums_d)} drawn now"
    for i, (a, b) in enumerate(zip(nums_c, nums_d)):
        # two units of the last digit: a value near a rounding boundary may round either way
        if abs(float(a) - float(b)) > 2 * max(last_digit(a), last_digit(b)) + 1e-12:
            context = words_c[i][-40:]
            return f"number {i + 1} (after {context!r}) is {a} here, {b} drawn now"
    return None


def main():
    drawn_dir, lesson_dir = sys.argv[1], sys.argv[2]
    lesson = os.path.basename(os.path.normpath(lesson_dir))
    if not os.path.isdir(drawn_dir):
        print(f"lessons/{lesson}: the experiment drew no picture in {drawn_dir}")
        return 1
    names = sorted(os.listdir(drawn_dir))
    failures = 0
    for name in names:
        stem, ext = os.path.splitext(name)
        if ext == ".svg" and stem + ".dot" in names:
            continue  # Graphviz's layout of the .dot beside it
        shown = f"lessons/{lesson}/{name}"
        committed_path = os.path.join(lesson_dir, name)
        if not os.path.exists(committed_path):
            print(f"{shown}: the experiment draws it, the lesson folder lacks it (POET_PICTURES=. ./poet lesson {lesson[:2]}, from the repository root, draws it there: commit it)")
            failures += 1
            continue
        with open(committed_path, encoding="utf-8") as f:
            committed = f.read()
        with open(os.path.join(drawn_dir, name), encoding="utf-8") as f:
            drawn = f.read()
        why = first_difference(committed, drawn)
        if why:
            print(f"{shown} is not the picture the experiment draws now: {why} (POET_PICTURES=. ./poet lesson {lesson[:2]}, from the repository root, redraws it)")
            failures += 1
        else:
            print(f"{shown}: the picture the experiment draws")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
