#!/usr/bin/env python3
"""build_site.py: the course as a website, generated from the lesson folders (MkDocs + Material).

Writes a build tree (never inside lessons/): SRC/en and SRC/zh, each a docs/ folder and a mkdocs.yml,
then runs `mkdocs build --strict` for both: English to OUT/, Chinese to OUT/zh/. Every page comes from a
README.md / README.zh.md (or docs/*.md, lessons/FORMAT.md, lessons/GLOSSARY.md); links between them are
rewritten to the site's pages, and a link into the source tree (lib/..., tools/..., tests/...) becomes a
generated page holding a copy of that file. A link to a file that does not exist is left as it is, so
strict mode fails on it. Every link names a file (use_directory_urls: false), so the site works opened
from disk (file://) as well as served. Each lesson page gets a breadcrumb from the course map's parts,
download links to its starter.cpp and solution.cpp (shipped beside the page) and, as search tags, the
glossary terms it introduces. Search: site_hook.py (run by mkdocs) segments Chinese with jieba and
assets/pg_search.js feeds Material's search worker; overrides/main.html loads it. Left out on purpose:
nothing fetched from the web (fonts are named, not downloaded: fonts-noto-cjk gives one on Debian).
Uses only Python's standard library (mkdocs, mkdocs-material and python3-jieba come from Debian).
"""
import argparse
import os
import posixpath
import re
import shutil
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LESSONS = os.path.join(ROOT, "lessons")
LESSON_DIR = re.compile(r"^\d\d_[A-Za-z0-9_]+$")
ASSETS = os.path.join(HERE, "assets")          # copied into every build's docs/assets/
OVERRIDES = os.path.join(HERE, "overrides")    # Material's custom_dir: main.html loads the search setup
HOOK = os.path.join(HERE, "site_hook.py")      # mkdocs hook: the search index, links to the other language
OTHER_LANG = "pg-other-lang:"                  # site_hook.py removes it from the built pages
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

# files a "find the real source" link may point at, and the highlighter's name for each
CODE_LANG = {".cpp": "cpp", ".hpp": "cpp", ".h": "cpp", ".cc": "cpp", ".py": "python", ".sh": "bash",
             ".txt": "text", ".cmake": "cmake", ".csv": "text", ".json": "json", ".yml": "yaml",
             ".yaml": "yaml", ".js": "javascript", "": "text"}

UI = {
    "en": {"name": "English", "site": "poetgrad: one character, one poem", "home": "Course map",
           "glossary": "Glossary", "docs": "Documents", "more": "Other lessons",
           "copy": "A copy of `{p}` from the poetgrad repository, made when this site was built.",
           "folder": "The folder `{p}` of the poetgrad repository:",
           "course": "Course", "lesson_of": "Lesson {n} of {total}", "exercise": "Exercise",
           "downloads": "This lesson's code",
           "starter": "the exercise as you start it: its functions throw `lesson::NotImplemented` "
                      "(the file `./poet start {n}` copies)",
           "solution": "the reference answer, passing the same checks (try yours first)",
           "build": "Both include the lesson's `check.hpp` and build inside the repository, in "
                    "`lessons/{d}/`: `./poet start {n}`, then `./poet check {n}`."},
    "zh": {"name": "中文", "site": "poetgrad：一字一诗", "home": "课程地图",
           "glossary": "术语表", "docs": "文档", "more": "其他课程",
           "copy": "这是 poetgrad 仓库中 `{p}` 的副本，在生成本网站时复制。",
           "folder": "poetgrad 仓库中的文件夹 `{p}`：",
           "course": "学习路径", "lesson_of": "第 {n} 课 / {total}", "exercise": "练习",
           "downloads": "下载本课的代码",
           "starter": "起始代码：练习函数还没写，会抛出 `lesson::NotImplemented`（`./poet start {n}` 复制的就是它）",
           "solution": "参考答案，通过同样的检查（先自己试一试）",
           "build": "两个文件都包含本课的 `check.hpp`，要在仓库的 `lessons/{d}/` 里编译："
                    "先 `./poet start {n}`，再 `./poet check {n}`。",
           "english_only": "本页只有英文版",
           "partly_english": "本页除“{h}”一节外只有英文版",
           "english_mark": "（英文）"},
}

# Chinese titles for the pages that exist in English only (their nav entries in the Chinese site)
ZH_TITLES = {
    "docs/architecture.md": "poetgrad 的内部结构",
    "docs/sources.md": "课程从哪里来",
    "docs/POET.md": "诗人：一字一诗",
    "docs/PERFORMANCE.md": "性能",
    "docs/DISTRIBUTED.md": "用 MPI 做数据并行训练",
    "docs/PORTABILITY.md": "在哪些系统上构建和运行",
    "docs/TESTING.md": "./poet test 跑什么、花多少时间",
    "format.md": "一课是怎样搭起来的",
    "project.md": "项目简介",
}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def pick(path_en, lang):
    """The Chinese file beside an English one (README.md -> README.zh.md) when it exists."""
    if lang == "zh":
        base, ext = os.path.splitext(path_en)
        zh = base + ".zh" + ext
        if os.path.exists(zh):
            return zh
    return path_en


def slug(text):
    """The anchor pymdownx.slugs.slugify(case="lower") gives a heading (as GitHub does): 第一部分--手算注意力."""
    text = re.sub(r"</?[^>]*>", "", unicodedata.normalize("NFC", text)).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def chinese_headings(text):
    """The ## headings of a text that are mostly Chinese ("中文简介", not "The form: 五言绝句")."""
    return [h.strip() for h in re.findall(r"^##\s+(.+)$", text, re.M)
            if len(CJK.findall(h)) > len(re.findall(r"[A-Za-z]", h))]


def glossary_terms(cell):
    """'自动微分（反向模式）' -> ['自动微分', '反向模式']; 'shape error (ShapeError)' -> ['shape error', 'ShapeError']."""
    cell = cell.replace("`", "").strip()
    m = re.match(r"^(.*?)\s*[（(](.*)[）)]$", cell)
    return [m.group(1).strip(), m.group(2).strip()] if m and m.group(1).strip() else [cell]


def glossary():
    """lessons/GLOSSARY.md's rows: [{"id", "zh": [term, alternative...], "en": [...], "lesson": folder}]."""
    path = os.path.join(LESSONS, "GLOSSARY.md")
    rows = []
    for line in read(path).splitlines() if os.path.isfile(path) else []:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.match(r'^<a id="([^"]+)"></a>\*\*(.+?)\*\*$', cells[0]) if len(cells) >= 5 else None
        lesson = re.search(r"\((\d\d_[A-Za-z0-9_]+)/README(?:\.zh)?\.md\)", cells[-1]) if m else None
        if m and lesson:
            rows.append({"id": m.group(1), "zh": glossary_terms(m.group(2)), "en": glossary_terms(cells[1]),
                         "lesson": lesson.group(1)})
    return rows


class Site:
    """One language's docs tree: which repository file becomes which page."""

    def __init__(self, lang, docs):
        self.lang, self.docs = lang, docs
        self.pages = {}      # repository file (absolute, English name) -> page path inside docs/
        self.sources = {}    # repository file or folder (absolute) -> generated page path
        self.lessons = sorted(d for d in os.listdir(LESSONS)
                              if LESSON_DIR.match(d) and os.path.isfile(os.path.join(LESSONS, d, "README.md")))
        self.pages[os.path.join(LESSONS, "README.md")] = "index.md"
        for d in self.lessons:
            self.pages[os.path.join(LESSONS, d, "README.md")] = d + "/index.md"
        for name, page in (("GLOSSARY.md", "glossary.md"), ("FORMAT.md", "format.md")):
            if os.path.isfile(os.path.join(LESSONS, name)):
                self.pages[os.path.join(LESSONS, name)] = page
        docs_dir = os.path.join(ROOT, "docs")
        for name in sorted(os.listdir(docs_dir)) if os.path.isdir(docs_dir) else []:
            if name.endswith(".md") and not name.endswith(".zh.md"):
                self.pages[os.path.join(docs_dir, name)] = "docs/" + name
        if os.path.isfile(os.path.join(ROOT, "README.md")):
            self.pages[os.path.join(ROOT, "README.md")] = "project.md"

    # ---- links ----
    def target_page(self, abs_target):
        """The docs/ path a link to abs_target should point at, or None to leave the link alone."""
        t = os.path.normpath(abs_target)
        if t.endswith(".zh.md"):
            t = t[:-6] + ".md"
        if t in self.pages:
            return self.pages[t]
        if os.path.isdir(t) and os.path.isfile(os.path.join(t, "README.md")) \
                and os.path.join(t, "README.md") in self.pages:
            return self.pages[os.path.join(t, "README.md")]
        if not t.startswith(ROOT + os.sep) or not os.path.exists(t):
            return None                  # missing: left broken for strict mode to report
        rel = os.path.relpath(t, ROOT)
        if rel.split(os.sep)[0] in ("build", ".git") or rel.startswith("build"):
            return None
        if os.path.isdir(t):
            page = "src/" + rel.replace(os.sep, "/") + "/index.md"
        else:
            page = "src/" + rel.replace(os.sep, "/") + ".md"
        self.sources[t] = page
        return page

    def rewrite_link(self, src_file, page, url):
        if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) or url.startswith("#") or url.startswith("/"):
            return url
        path, frag = (url.split("#", 1) + [""])[:2]
        if not path:
            return url
        abs_target = os.path.join(os.path.dirname(src_file), path)
        if path.lower().endswith((".svg", ".png", ".jpg", ".gif")) and \
                os.path.normpath(os.path.dirname(abs_target)) == os.path.dirname(src_file):
            return url                   # a picture beside the README: copied beside the page
        target = self.target_page(abs_target)
        if target is None:
            return url
        html = target[:-3] + ".html" + ("#" + frag if frag else "")   # a file, so file:// works too
        depth = page.count("/")                                       # folders below the build's root
        # a link into the other language's build: mkdocs would look for it among this build's files, so it
        # goes out as OTHER_LANG + url, which site_hook.py turns back into url in the built page
        if self.lang == "en" and path.endswith(".zh.md"):
            return OTHER_LANG + "../" * depth + "zh/" + html        # a link to the Chinese text: the zh page
        if self.lang == "zh" and path.endswith(".md") and not path.endswith(".zh.md") \
                and pick(os.path.normpath(abs_target), "zh") != os.path.normpath(abs_target) \
                and (src_file.endswith(".zh.md") or ".zh.md" in read(src_file)):
            # "[en](X/README.md)" in a Chinese text, or beside "[中文](X/README.zh.md)": the English page
            return OTHER_LANG + "../" * (depth + 1) + html
        new = posixpath.relpath("/" + target, "/" + posixpath.dirname(page))   # no cwd needed
        return new + ("#" + frag if frag else "")

    def convert(self, src_file, page, text):
        """Rewrites links outside code, keeps <details> folded with markdown rendered inside."""
        out, prose, fence = [], [], None

        def flush():
            out.append(self.rewrite_prose(src_file, page, "".join(prose)))
            prose.clear()
        for line in text.splitlines(keepends=True):
            m = re.match(r"^\s*(`{3,}|~{3,})", line)
            if fence:
                out.append(line)
                rest = line.strip()[len(m.group(1)):] if m else "x"
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not rest.strip():
                    fence = None
                continue
            if m:
                flush()
                fence = m.group(1)
                out.append(line)
                continue
            prev = prose[-1] if prose else (out[-1] if out else "\n")
            if re.match(r"^(    |\t)", line) and (prev.strip() == "" or re.match(r"^(    |\t)", prev)) \
                    and not re.match(r"^\s*([-*+]|\d+\.)\s", line):
                flush()
                out.append(line)         # indented code block
                continue
            prose.append(line)
        flush()
        return "".join(out)

    def rewrite_prose(self, src_file, page, text):
        text = re.sub(r"<details(\s[^>]*)?>", lambda mm: "<details markdown=\"1\">"
                      if "markdown" not in (mm.group(1) or "") else mm.group(0), text)
        code = [m.span() for m in re.finditer(r"(`+)[\s\S]*?\1", text)]   # inline code stays untouched

        def fix(mm):
            if any(a <= mm.start() < b for a, b in code):
                return mm.group(0)
            return mm.group(1) + self.rewrite_link(src_file, page, mm.group(2)) + mm.group(3)
        text = re.sub(r"(!?\[(?:[^\]`]|`[^`]*`)*\]\()([^)\s]+)((?:\s+\"[^\"]*\")?\))", fix, text)
        return re.sub(r"(<img\s[^>]*src=\")([^\"]+)(\")", fix, text)

    # ---- pages ----
    def build(self):
        terms = {}                       # lesson folder -> the glossary terms it introduces (search tags)
        for row in glossary():
            terms.setdefault(row["lesson"], []).extend(row[self.lang])
        for src_en, page in self.pages.items():
            src = pick(src_en, self.lang)
            text = self.convert(src, page, read(src))
            d = page.split("/")[0]
            if page == d + "/index.md" and d in self.lessons:
                text = self.lesson_page(d, text, terms.get(d, []))
            elif self.lang == "zh" and src == src_en and page in ZH_TITLES:
                text = self.english_only(text)
            write(os.path.join(self.docs, page), text)
        for d in self.lessons:           # the pictures beside each README, and the code to download
            for name in sorted(os.listdir(os.path.join(LESSONS, d))):
                if name.lower().endswith((".svg", ".png", ".jpg", ".gif")) or name in ("starter.cpp", "solution.cpp"):
                    shutil.copy(os.path.join(LESSONS, d, name), os.path.join(self.docs, d, name))
        done = set()
        while len(done) < len(self.sources):   # source pages (a folder page adds its files)
            for t, page in list(self.sources.items()):
                if t in done:
                    continue
                done.add(t)
                self.source_page(t, page)

    def lesson_page(self, d, text, tags):
        """Front matter (title, the breadcrumb above the title, the glossary terms it introduces as search
        tags), and the downloads at the end of the exercise section (or of the page)."""
        ui, n, total = UI[self.lang], int(d[:2]), len(self.lessons)
        crumbs = [(ui["course"], "index.html")]          # links from the build's root (overrides/main.html)
        crumbs += [(title, "index.html#" + slug(title)) for title, lessons in self.parts() if d in lessons]
        crumbs.append((ui["lesson_of"].format(n=n, total=total), ""))
        front = ["---", "title: " + yaml_str(self.title(d)), "pg_breadcrumb:"]
        front += [f"  - [{yaml_str(t)}, {yaml_str(link)}]" for t, link in crumbs]
        if tags:
            front += ["tags:"] + ["  - " + yaml_str(t) for t in dict.fromkeys(tags)]
        front += ["---", "", ""]
        files = [f for f in ("starter.cpp", "solution.cpp") if os.path.isfile(os.path.join(LESSONS, d, f))]
        if files:
            box = [f'!!! example "{ui["downloads"]}"', ""]
            box += [f"    - [{f}]({f}){{: download }}: " + ui[f[:-4]].format(n=n) for f in files]
            box += ["", "    " + ui["build"].format(n=n, d=d), "", ""]
            lines, fence, at, in_exercise = text.splitlines(keepends=True), None, None, False
            for i, line in enumerate(lines):
                m = re.match(r"^\s*(`{3,}|~{3,})", line)
                if m:
                    fence = None if fence and m.group(1)[0] == fence[0] else (fence or m.group(1))
                if fence or not line.startswith("## "):
                    continue
                if in_exercise:
                    at = i
                    break
                in_exercise = re.match(r"^## " + ui["exercise"] + r"\b", line) is not None
            if at is None:
                lines.append("\n")
                at = len(lines)
            text = "".join(lines[:at] + [x + "\n" for x in box] + lines[at:])
        return "\n".join(front) + text

    def english_only(self, text):
        """A note under the title of a page the Chinese site has only in English."""
        cjk = chinese_headings(text)
        note = UI["zh"]["partly_english"].format(h=cjk[0]) if cjk else UI["zh"]["english_only"]
        lines = text.splitlines(keepends=True)
        first = next((i for i, x in enumerate(lines) if x.startswith("# ")), -1)
        return "".join(lines[:first + 1] + ["\n", f'!!! note "{note}"\n', "\n"] + lines[first + 1:])

    def source_page(self, t, page):
        rel = os.path.relpath(t, ROOT).replace(os.sep, "/")
        ui = UI[self.lang]
        if os.path.isdir(t):
            lines = ["# " + rel + "/\n\n", ui["folder"].format(p=rel + "/") + "\n\n"]
            for name in sorted(os.listdir(t)):
                p = os.path.join(t, name)
                if name.startswith(".") or (os.path.isdir(p) and not os.listdir(p)):
                    continue
                target = self.target_page(p)
                if target:
                    link = posixpath.relpath("/" + target, "/" + posixpath.dirname(page))
                    lines.append(f"- [{name}{'/' if os.path.isdir(p) else ''}]({link})\n")
            write(os.path.join(self.docs, page), "".join(lines))
            return
        try:
            body = read(t)
        except UnicodeDecodeError:
            body = "(binary file)\n"
        fence = "`" * max(3, 1 + max((len(x) for x in re.findall(r"`+", body)), default=0))
        lang = CODE_LANG.get(os.path.splitext(t)[1], "text")
        if os.path.basename(t) == "CMakeLists.txt":
            lang = "cmake"
        write(os.path.join(self.docs, page),
              f"# {rel}\n\n{ui['copy'].format(p=rel)}\n\n{fence}{lang}\n{body.rstrip()}\n{fence}\n")

    def title(self, d):
        src = pick(os.path.join(LESSONS, d, "README.md"), self.lang)
        for line in read(src).splitlines():
            if line.startswith("# "):
                return line[2:].strip()
        return d

    # ---- navigation: the course map's parts, in its order ----
    def parts(self):
        """[(part heading, [lesson folders])] from the course map, each lesson in its first part."""
        home_src = pick(os.path.join(LESSONS, "README.md"), self.lang)
        parts, placed, part = [], set(), None
        for line in read(home_src).splitlines():
            h = re.match(r"^##\s+(.*)", line)
            if h:
                part = (h.group(1).strip(), [])
                continue
            for m in re.finditer(r"\]\((?:\./)?(\d\d_[A-Za-z0-9_]+)/README(?:\.zh)?\.md\)", line):
                d = m.group(1)
                if d in self.lessons and d not in placed and part is not None:
                    if not part[1]:
                        parts.append(part)
                    part[1].append(d)
                    placed.add(d)
        return parts

    def nav(self):
        ui = UI[self.lang]
        nav = [{ui["home"]: "index.md"}]
        parts = self.parts()
        for title, lessons in parts:
            nav.append({title: [d + "/index.md" for d in lessons]})
        placed = {d for _, lessons in parts for d in lessons}
        rest = [{self.title(d): d + "/index.md"} for d in self.lessons if d not in placed]
        if rest:
            nav.append({ui["more"]: rest})
        if "glossary.md" in self.pages.values():
            nav.append({ui["glossary"]: "glossary.md"})
        docs = sorted(p for p in self.pages.values() if p.startswith("docs/") or p in ("format.md", "project.md"))
        if self.lang == "zh":            # Chinese titles; "（英文）" where the page is English only
            entries = []
            for p in docs:
                src_en = next(k for k, v in self.pages.items() if v == p)
                if pick(src_en, "zh") != src_en or p not in ZH_TITLES:
                    entries.append(p)    # a Chinese text (its own title), or a page without a Chinese title
                    continue
                english = not chinese_headings(read(src_en))
                entries.append({ZH_TITLES[p] + (ui["english_mark"] if english else ""): p})
            docs = entries
        nav.append({ui["docs"]: docs})
        return nav


def yaml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def yaml_nav(items, indent=0):
    out = []
    for it in items:
        if isinstance(it, str):
            out.append(" " * indent + "- " + it)
        else:
            (k, v), = it.items()
            if isinstance(v, str):
                out.append(" " * indent + f"- {yaml_str(k)}: {v}")
            else:
                out.append(" " * indent + f"- {yaml_str(k)}:")
                out.extend(yaml_nav(v, indent + 4))
    return out


def mkdocs_yml(lang, site, site_dir):
    ui = UI[lang]
    lines = [
        f"site_name: {yaml_str(ui['site'])}",
        f"docs_dir: docs",
        f"site_dir: {yaml_str(site_dir)}",
        "use_directory_urls: false",     # links name files (…/index.html): the site works from disk too
        "strict: true",
        "theme:",
        "  name: material",
        f"  custom_dir: {yaml_str(OVERRIDES)}",
        f"  language: {lang}",
        "  font: false",            # no Google Fonts: the site works offline (assets/pg.css names the fonts)
        "  features:",
        "    - navigation.sections",
        "    - navigation.top",
        "markdown_extensions:",
        "  - toc:",
        "      permalink: true",
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}",
        "  - tables",
        "  - attr_list",
        "  - md_in_html",
        "  - admonition",
        "  - pymdownx.details",
        "  - pymdownx.superfences",
        "  - pymdownx.highlight:",
        "      use_pygments: true",
        "  - pymdownx.inlinehilite",
        "plugins:",
        "  - search",
        "hooks:",
        f"  - {yaml_str(HOOK)}",
        "extra:",
        "  alternate:",
        f"    - name: English\n      link: {'index.html' if lang == 'en' else '../index.html'}\n      lang: en",
        f"    - name: 中文\n      link: {'zh/index.html' if lang == 'en' else 'index.html'}\n      lang: zh",
        "extra_css:",
        "  - assets/pg.css",
        "extra_javascript:",
        "  - assets/lang_switch.js",
        "nav:",
    ] + yaml_nav(site.nav(), 2)
    return "\n".join(lines) + "\n"


def check_links(out):
    """Every relative href/src in the built pages names a file (not a folder: opened from disk, a folder
    shows a directory listing), and its #anchor an id on that page. (mkdocs 1.4's strict mode checks
    links to .md files, not anchors nor links to folders.)"""
    ids, pages = {}, []
    for d, _, names in os.walk(out):
        for n in names:
            if n.endswith(".html"):
                p = os.path.join(d, n)
                html = read(p)
                pages.append((p, html))
                ids[p] = set(re.findall(r'\sid="([^"]+)"', html))
    broken = []
    for p, html in pages:
        if os.path.basename(p) == "404.html":
            continue                     # served for any missing path: its links are absolute
        body = re.sub(r"(<script\b[^>]*>)[\s\S]*?</script>", r"\1", html)    # attributes only
        for url in re.findall(r'\s(?:href|src)="([^"]+)"', body):
            if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) or url.startswith("//"):
                continue
            path, _, frag = url.partition("#")
            path = path.split("?")[0]
            t = os.path.normpath(os.path.join(os.path.dirname(p), path)) if path else p
            where = os.path.relpath(p, out) + ": " + url
            if os.path.isdir(t):
                broken.append(where + " (a folder, not a file)")
            elif not os.path.isfile(t):
                broken.append(where)
            elif frag and t.endswith(".html") and frag not in ids.get(t, set()):
                broken.append(where + " (no such anchor)")
    return broken


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "site"), help="site output (zh in OUT/zh)")
    ap.add_argument("--src", default=None, help="build tree (default: OUT/../site-src)")
    ap.add_argument("--no-build", action="store_true", help="write the build tree only")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    src = os.path.abspath(args.src or os.path.join(os.path.dirname(out), os.path.basename(out) + "-src"))
    if os.path.commonpath([src, LESSONS]) == LESSONS or os.path.commonpath([out, LESSONS]) == LESSONS:
        sys.exit("build_site: the build tree must not be inside lessons/")
    if os.path.isdir(src):
        shutil.rmtree(src)
    for lang in ("en", "zh"):
        base = os.path.join(src, lang)
        site = Site(lang, os.path.join(base, "docs"))
        site.build()
        os.makedirs(os.path.join(base, "docs", "assets"), exist_ok=True)
        for name in sorted(os.listdir(ASSETS)):
            shutil.copy(os.path.join(ASSETS, name), os.path.join(base, "docs", "assets", name))
        site_dir = out if lang == "en" else os.path.join(out, "zh")
        write(os.path.join(base, "mkdocs.yml"), mkdocs_yml(lang, site, site_dir))
    if args.no_build:
        print(src)
        return 0
    # both builds at once; zh goes to a folder of its own first, since the en build empties OUT
    zh_tmp = out + ".zh-tmp"
    jobs = {lang: subprocess.Popen(["mkdocs", "build", "--strict", "--quiet", "-f",
                                    os.path.join(src, lang, "mkdocs.yml"), "-d", out if lang == "en" else zh_tmp])
            for lang in ("en", "zh")}
    failed = [lang for lang, p in jobs.items() if p.wait() != 0]
    if failed:
        sys.exit(f"build_site: mkdocs build --strict failed for {', '.join(failed)} (build tree: {src})")
    shutil.rmtree(os.path.join(out, "zh"), ignore_errors=True)
    os.rename(zh_tmp, os.path.join(out, "zh"))
    broken = check_links(out)
    for b in broken[:40]:
        print("build_site: broken link:", b, file=sys.stderr)
    if broken:
        sys.exit(f"build_site: {len(broken)} broken link(s) or anchor(s) in the built site")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
