#!/usr/bin/env python3
"""build_site.py: the course as a website, generated from the lesson folders (MkDocs + Material).

Writes a build tree (never inside lessons/): SRC/en and SRC/zh, each a docs/ folder and a mkdocs.yml,
then runs `mkdocs build --strict` for both: English to OUT/, Chinese to OUT/zh/. Every page comes from a
README.md / README.zh.md (or docs/*.md, lessons/FORMAT.md, lessons/GLOSSARY.md); links between them are
rewritten to the site's pages, and a link into the source tree (lib/..., tools/..., tests/...) becomes a
generated page holding a copy of that file. A link to a file that does not exist is left as it is, so
strict mode fails on it. Left out on purpose: no theme overrides, nothing fetched from the web.
Uses only Python's standard library (mkdocs and mkdocs-material come from Debian).
"""
import argparse
import os
import posixpath
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LESSONS = os.path.join(ROOT, "lessons")
LESSON_DIR = re.compile(r"^\d\d_[A-Za-z0-9_]+$")

# files a "find the real source" link may point at, and the highlighter's name for each
CODE_LANG = {".cpp": "cpp", ".hpp": "cpp", ".h": "cpp", ".cc": "cpp", ".py": "python", ".sh": "bash",
             ".txt": "text", ".cmake": "cmake", ".csv": "text", ".json": "json", ".yml": "yaml",
             ".yaml": "yaml", ".js": "javascript", "": "text"}

UI = {
    "en": {"name": "English", "site": "poetgrad: one character, one poem", "home": "Course map",
           "glossary": "Glossary", "docs": "Documents", "more": "Other lessons",
           "copy": "A copy of `{p}` from the poetgrad repository, made when this site was built.",
           "folder": "The folder `{p}` of the poetgrad repository:"},
    "zh": {"name": "中文", "site": "poetgrad：一字一诗", "home": "课程地图",
           "glossary": "术语表", "docs": "文档", "more": "其他课程",
           "copy": "这是 poetgrad 仓库中 `{p}` 的副本，在生成本网站时复制。",
           "folder": "poetgrad 仓库中的文件夹 `{p}`："},
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
        base = target[:-len("index.md")] if target.endswith("index.md") else target[:-3] + "/"
        base += "#" + frag if frag else ""
        depth = page.count("/") + (0 if page.endswith("index.md") else 1)   # folders deep, as served
        if self.lang == "en" and path.endswith(".zh.md"):
            return "../" * depth + "zh/" + base        # a link to the Chinese text: the zh page
        if self.lang == "zh" and path.endswith(".md") and not path.endswith(".zh.md") \
                and pick(os.path.normpath(abs_target), "zh") != os.path.normpath(abs_target) \
                and (src_file.endswith(".zh.md") or ".zh.md" in read(src_file)):
            # "[en](X/README.md)" in a Chinese text, or beside "[中文](X/README.zh.md)": the English page
            return "../" * (depth + 1) + base
        new = posixpath.relpath(target, posixpath.dirname(page) or ".")
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
        for src_en, page in self.pages.items():
            src = pick(src_en, self.lang)
            write(os.path.join(self.docs, page), self.convert(src, page, read(src)))
        for d in self.lessons:           # the pictures beside each README
            for name in sorted(os.listdir(os.path.join(LESSONS, d))):
                if name.lower().endswith((".svg", ".png", ".jpg", ".gif")):
                    shutil.copy(os.path.join(LESSONS, d, name), os.path.join(self.docs, d, name))
        done = set()
        while len(done) < len(self.sources):   # source pages (a folder page adds its files)
            for t, page in list(self.sources.items()):
                if t in done:
                    continue
                done.add(t)
                self.source_page(t, page)

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
                    link = posixpath.relpath(target, posixpath.dirname(page))
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
    def nav(self):
        ui = UI[self.lang]
        home_src = pick(os.path.join(LESSONS, "README.md"), self.lang)
        nav, placed, part = [{ui["home"]: "index.md"}], set(), None
        for line in read(home_src).splitlines():
            h = re.match(r"^##\s+(.*)", line)
            if h:
                part = (h.group(1).strip(), [])
                continue
            for m in re.finditer(r"\]\((?:\./)?(\d\d_[A-Za-z0-9_]+)/README(?:\.zh)?\.md\)", line):
                d = m.group(1)
                if d in self.lessons and d not in placed and part is not None:
                    if not part[1]:
                        nav.append({part[0]: part[1]})
                    part[1].append(d + "/index.md")
                    placed.add(d)
        rest = [{self.title(d): d + "/index.md"} for d in self.lessons if d not in placed]
        if rest:
            nav.append({ui["more"]: rest})
        if "glossary.md" in self.pages.values():
            nav.append({ui["glossary"]: "glossary.md"})
        docs = [p for p in self.pages.values() if p.startswith("docs/") or p in ("format.md", "project.md")]
        nav.append({ui["docs"]: sorted(docs)})
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


def mkdocs_yml(lang, site, site_dir, extra_js):
    ui = UI[lang]
    up = "" if lang == "en" else "../"
    js = ["assets/lang_switch.js"] + ["assets/" + os.path.basename(j) for j in extra_js]
    lines = [
        f"site_name: {yaml_str(ui['site'])}",
        f"docs_dir: docs",
        f"site_dir: {yaml_str(site_dir)}",
        "use_directory_urls: true",
        "strict: true",
        "theme:",
        "  name: material",
        f"  language: {lang}",
        "  font: false",            # no Google Fonts: the site works offline
        "  features:",
        "    - navigation.sections",
        "    - navigation.top",
        "markdown_extensions:",
        "  - toc:",
        "      permalink: true",
        "  - tables",
        "  - md_in_html",
        "  - admonition",
        "  - pymdownx.details",
        "  - pymdownx.superfences",
        "  - pymdownx.highlight:",
        "      use_pygments: true",
        "  - pymdownx.inlinehilite",
        "plugins:",
        "  - search",
        "extra:",
        "  alternate:",
        f"    - name: English\n      link: {up}./\n      lang: en",
        f"    - name: 中文\n      link: {'zh/' if lang == 'en' else './'}\n      lang: zh",
        "extra_javascript:",
    ] + ["  - " + j for j in js] + ["nav:"] + yaml_nav(site.nav(), 2)
    return "\n".join(lines) + "\n"


LANG_SWITCH_JS = """// lang_switch.js: the language menu opens the same page in the other language. Both builds share one
// layout, English at the site's root and Chinese in zh/, so the page's path below its build's root is
// the same in both.
(function () {
  var config = JSON.parse(document.getElementById("__config").textContent);
  var root = new URL(config.base.replace(/\\/?$/, "/"), location.href);      // this build's root
  var zh = document.documentElement.lang === "zh";
  var roots = { en: zh ? new URL("../", root) : root, zh: zh ? root : new URL("zh/", root) };
  var rest = location.href.indexOf(root.href) === 0 ? location.href.slice(root.href.length) : "";
  document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (a) {
    var r = roots[a.getAttribute("hreflang")];
    if (r) a.href = r.href + rest;
  });
})();
"""


def check_links(out):
    """Every relative href/src in the built pages reaches a file, and its #anchor an id on that page.
    (mkdocs 1.4's strict mode checks links to .md files, not anchors nor links to folders.)"""
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
        body = html.split('<article', 1)[-1].split('</article>', 1)[0]   # the page's own text
        for url in re.findall(r'\s(?:href|src)="([^"]+)"', body):
            if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) or url.startswith("//"):
                continue
            path, _, frag = url.partition("#")
            path = path.split("?")[0]
            t = os.path.normpath(os.path.join(os.path.dirname(p), path)) if path else p
            if os.path.isdir(t):
                t = os.path.join(t, "index.html")
            where = os.path.relpath(p, out) + ": " + url
            if not os.path.isfile(t):
                broken.append(where)
            elif frag and t.endswith(".html") and frag not in ids.get(t, set()):
                broken.append(where + " (no such anchor)")
    return broken


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "site"), help="site output (zh in OUT/zh)")
    ap.add_argument("--src", default=None, help="build tree (default: OUT/../site-src)")
    ap.add_argument("--extra-js", action="append", default=[], help="a script added to every page (tests)")
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
        write(os.path.join(base, "docs", "assets", "lang_switch.js"), LANG_SWITCH_JS)
        for j in args.extra_js:
            shutil.copy(j, os.path.join(base, "docs", "assets", os.path.basename(j)))
        site_dir = out if lang == "en" else os.path.join(out, "zh")
        write(os.path.join(base, "mkdocs.yml"), mkdocs_yml(lang, site, site_dir, args.extra_js))
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
