"""site_hook.py: an mkdocs hook (build_site.py's mkdocs.yml names it under `hooks:`) for the course site.

A link into the other language's build (English at the site's root, Chinese in zh/) is written by
build_site.py as "pg-other-lang:" + its relative URL, since mkdocs would look for it among the files of
this build; each built page gets the URL back.

The rest makes the site's search work in Chinese and from disk, with Material 8.2 as Debian ships it (its
search splits text at spaces only, and it has no per-page search exclusion). After the build it rewrites
search/search_index.json:
- pages under src/ (the copies of repository files) are left out: results are lessons and documents;
- the Chinese in titles and text is cut into words by jieba (Debian's python3-jieba), with the
  lesson pages' tags (the glossary terms each introduces) and the glossary's bold terms added to its
  dictionary; the words are joined by U+200B, which shows as nothing and is part of the separator;
- the index's language becomes "pg" (lunr_pg.js) and its separator includes U+200B and Chinese punctuation.
It writes the same index as search/search_index.js (a script: a page opened from disk can load it, not
the .json) and assets/pg_search_worker.js, Material's search worker with lunr_pg.js appended, as a string
that assets/pg_search.js starts from a blob. Runs inside mkdocs, so in the Python that has mkdocs.
"""
import glob
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
ZW = "\u200b"
# what separates words in the index (and, in Material, what a highlighted term must follow): spaces, U+200B,
# ASCII and Chinese punctuation; a dot only when no digit follows (1.3395 stays one word)
SEPARATOR = (r"[\s\u200b\-,:;!?=\[\]()\"'/<>{}|`*~^+#&@$%\\"
             "\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\u2014\u2018\u2019\u201c\u201d\u2026\u00b7"
             r"]+|\.(?!\d)")

_words = set()


def on_pre_build(config):
    _words.clear()


def on_page_markdown(markdown, page, config, files):
    _words.update(t for t in page.meta.get("tags") or [] if isinstance(t, str))
    if page.file.src_path == "glossary.md":
        for term in re.findall(r"\*\*([^*]+)\*\*", markdown):
            _words.update(w for w in re.split(r"[（）()、，,\s]+", term) if HAN_RUN.fullmatch(w or "x"))
    return markdown


def on_post_page(output, page, config):
    return output.replace('href="pg-other-lang:', 'href="')


def _tokenizer():
    try:
        import jieba
    except ImportError as e:
        from mkdocs.exceptions import PluginError
        raise PluginError("site_hook: jieba is missing (Debian: apt-get install python3-jieba)") from e
    jieba.setLogLevel(60)                        # no "Building prefix dict..." lines
    tokenizer = jieba.Tokenizer()
    for w in sorted(_words):
        if HAN_RUN.fullmatch(w):
            tokenizer.add_word(w)
    return tokenizer


def on_post_build(config):
    site = config["site_dir"]
    path = os.path.join(site, "search", "search_index.json")
    with open(path, encoding="utf-8") as f:
        index = json.load(f)
    tokenizer = _tokenizer()

    def cut(text):
        text = HAN_RUN.sub(lambda m: ZW + ZW.join(tokenizer.cut(m.group(0))) + ZW, text)
        return re.sub(r"^\u200b|\u200b$|\u200b(?=\s)|(?<=\s)\u200b", "", text)
    docs = []
    for doc in index["docs"]:
        if doc["location"].startswith("src/"):
            continue
        doc["title"], doc["text"] = cut(doc["title"]), cut(doc["text"])
        docs.append(doc)
    index["docs"] = docs
    index["config"].update(lang=["pg"], separator=SEPARATOR)
    text = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(site, "search", "search_index.js"), "w", encoding="utf-8") as f:
        f.write("window.__pgSearchIndex = " + text + ";\n")

    workers = glob.glob(os.path.join(site, "assets", "javascripts", "workers", "search.*.min.js"))
    if len(workers) != 1:
        from mkdocs.exceptions import PluginError
        raise PluginError(f"site_hook: expected one Material search worker, found {workers}")
    with open(workers[0], encoding="utf-8") as f:
        worker = re.sub(r"//# sourceMappingURL=\S+\s*$", "", f.read())
    with open(os.path.join(HERE, "lunr_pg.js"), encoding="utf-8") as f:
        language = f.read()
    # importScripts does nothing: the language Material would load (lunr.pg.min.js) is appended instead
    code = "self.importScripts = function () {};\n" + worker + "\n" + language
    with open(os.path.join(site, "assets", "pg_search_worker.js"), "w", encoding="utf-8") as f:
        f.write("// Material's search worker with tools/site/lunr_pg.js appended (site_hook.py)\n"
                "window.__pgSearchWorker = " + json.dumps(code) + ";\n")
