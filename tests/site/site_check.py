#!/usr/bin/env python3
"""site_check.py: the built course site in headless Chromium, used the way a learner uses it (test_site.sh
runs it on a fresh build). Every check that fails is printed; the exit code is the number of failures.

0. Every lesson page of both languages, read from disk: its breadcrumb (part, lesson N of 27) and download
   links to its starter.cpp and solution.cpp, each a file of the site equal to the lesson's file.
1. Pages, served: each lesson given (both languages) shows its README's title and a number it quotes,
   loads every picture, has the breadcrumb from the course map, download links that fetch its
   starter.cpp and solution.cpp, every <details> answer folded, and a language menu leading to the same
   lesson in the other language; every entry of the Chinese sidebar is Chinese.
2. Search, served: every name of every term of lessons/GLOSSARY.md (自动微分 and 反向模式), typed key by key into the search box (Chinese on
   zh/, committed as an input method does; English on the English site), lists the lesson the glossary
   says introduces it, among the first RANK results; no copy of a source file (src/) is ever listed.
   Chinese text search without the tags' help: each Chinese name of 4 or more characters less its first (向传播,
   归一化) lists the lesson whose text has the term.
   Reported, not failed: terms whose lesson is listed by its search tag only, its indexed text never
   using the term (the glossary and the lesson disagree).
3. From disk: file://…/zh/index.html, a click on lesson 1 in the course map, a click on "next" (lesson 2),
   its language menu; a search there.
4. A screenshot of a Chinese lesson and of Chinese search results (OUT/*.png), the lesson's title drawn
   with a Chinese font (the one the browser used, asked through the DevTools protocol).
No page may throw a JavaScript error. Uses Python's standard library and cdp.py only.
"""
import argparse
import functools
import html.parser
import http.server
import json
import os
import posixpath
import re
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "site"))
import cdp                      # noqa: E402
import build_site               # noqa: E402  (the glossary and the course map's parts, read as the site reads them)

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
CJK_FONT = re.compile(r"CJK|PingFang|YaHei|Source Han|WenQuanYi|Hiragino|Heiti|SimHei|SimSun|Droid Sans Fallback", re.I)
RANK = 3

# recorded in every page before its own scripts: the search worker's queries and answers, so a check
# reads the results of the query it typed, not of one typed before it; __pgTest.until(cond, ms) is a
# promise, true once cond() holds, checked now and after each message of the worker, false after ms (no
# polling: the test waits exactly as long as the page takes)
INSTRUMENT = """(() => {
  const W = window.Worker, t = window.__pgTest = { ready: false, sent: 0, received: 0 };
  let waiting = [];
  // the conditions are checked a task after each message, once all its listeners ran (Material's draws
  // the results); a MessageChannel, not setTimeout, whose delay a browser may stretch
  const later = new MessageChannel();
  later.port1.onmessage = () => { waiting = waiting.filter(w => !w()); };
  window.Worker = function (url, options) {
    const w = new W(url, options), post = w.postMessage.bind(w);
    w.postMessage = m => { if (m && m.type === 2) t.sent++; post(m); };
    w.addEventListener("message", e => {
      if (e.data.type === 1) t.ready = true;
      if (e.data.type === 3) t.received++;
      later.port2.postMessage(null);
    });
    return w;
  };
  t.until = (cond, ms) => new Promise(resolve => {
    const w = () => cond() && (clearTimeout(timer), resolve(true), true);
    const timer = setTimeout(() => { waiting = waiting.filter(x => x !== w); resolve(false); }, ms);
    if (!w()) waiting.push(w);
  });
})();"""

RESULTS = r"""[...document.querySelectorAll(".md-search-result__item")].map(li => {
  const a = li.querySelector("a.md-search-result__link");
  return { href: a.href, title: a.querySelector(".md-search-result__title").textContent.replace(/\u200b/g, ""),
           tags: [...li.querySelectorAll(".md-tag")].map(t => t.textContent) };
})"""


class Check:
    def __init__(self):
        self.failures, self.notes, self.lock = [], [], threading.Lock()

    def fail(self, what):
        with self.lock:
            self.failures.append(what)
            print("FAIL:", what, flush=True)

    def ok(self, cond, what):
        if not cond:
            self.fail(what)
        return cond


def readme(lesson, lang):
    base = os.path.join(ROOT, "lessons", lesson)
    path = os.path.join(base, "README.zh.md") if lang == "zh" else os.path.join(base, "README.md")
    return open(path if os.path.isfile(path) else os.path.join(base, "README.md"), encoding="utf-8").read()


def serve(site):
    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def page_errors(browser, tab):
    return [e["params"]["exceptionDetails"].get("exception", {}).get("description", "?")
            for e in browser._events if e.get("sessionId") == tab.s and e.get("method") == "Runtime.exceptionThrown"]


def new_tab(browser):
    tab = browser.tab()
    tab.send("Page.addScriptToEvaluateOnNewDocument", {"source": INSTRUMENT})
    return tab


@functools.lru_cache(maxsize=None)
def breadcrumb(lesson, lang):
    """The breadcrumb a lesson page shows: 学习路径 / 第二部分 · 从零实现自动微分 / 第 5 课 / 27."""
    ui, site = build_site.UI[lang], build_site.Site(lang, "")
    return " / ".join([ui["course"]] + [t for t, ls in site.parts() if lesson in ls]
                      + [ui["lesson_of"].format(n=int(lesson[:2]), total=len(site.lessons))])


# ---- 0. every lesson page, read from disk ----
class LessonHTML(html.parser.HTMLParser):
    """A built lesson page: the text of its breadcrumb (None without one) and its download links."""

    def __init__(self, text):
        super().__init__()
        self.crumb, self.downloads, self._in_crumb = None, [], False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "nav" and "pg-breadcrumb" in (a.get("class") or "").split():
            self.crumb, self._in_crumb = "", True
        elif tag == "a" and "download" in a and a.get("href"):
            self.downloads.append(a["href"])

    def handle_endtag(self, tag):
        if tag == "nav":
            self._in_crumb = False

    def handle_data(self, data):
        if self._in_crumb:
            self.crumb += data


def check_lesson_pages(c, site):
    """Every lesson page in both languages has the breadcrumb with its part and number, and download links
    to its starter.cpp and solution.cpp, each naming a file of the built site that is the lesson's file."""
    failures, pages = len(c.failures), 0
    for lang in ("en", "zh"):
        prefix = "zh/" if lang == "zh" else ""
        for lesson in build_site.Site(lang, "").lessons:
            where, path = f"{prefix}{lesson}/index.html", os.path.join(site, prefix, lesson, "index.html")
            if not c.ok(os.path.isfile(path), f"{where}: the page is missing"):
                continue
            pages += 1
            page = LessonHTML(open(path, encoding="utf-8").read())
            crumb = breadcrumb(lesson, lang)
            if page.crumb is None:
                c.fail(f"{where}: no breadcrumb ('{crumb}' expected)")
            else:
                got = " ".join(page.crumb.split())
                c.ok(got == crumb, f"{where}: the breadcrumb is '{got}', not '{crumb}'")
            for name in ("starter.cpp", "solution.cpp"):
                hrefs = [h for h in page.downloads if posixpath.basename(h.split("#")[0]) == name]
                if not c.ok(hrefs, f"{where}: no download link to {name} (download links: {page.downloads})"):
                    continue
                for href in hrefs:
                    target = os.path.normpath(os.path.join(os.path.dirname(path), href.split("#")[0]))
                    if c.ok(os.path.isfile(target), f"{where}: the download link {href} names no file of the site"):
                        c.ok(open(target, "rb").read() == open(os.path.join(ROOT, "lessons", lesson, name), "rb").read(),
                             f"{where}: the download link {href} gives something else than lessons/{lesson}/{name}")
    if len(c.failures) == failures:
        print(f"ok  {pages} lesson pages (en, zh): breadcrumb with part and lesson number, downloads of starter.cpp "
              f"and solution.cpp that are the lessons' files", flush=True)


# ---- 1. pages ----
def check_page(c, tab, base, lesson, number, lang):
    prefix = "zh/" if lang == "zh" else ""
    url = f"{base}{prefix}{lesson}/index.html"
    text = readme(lesson, lang)
    title = re.search(r"^# (.+)$", text, re.M).group(1).strip()
    tab.goto(url)
    if not c.ok(tab.eval('!!document.querySelector("article.md-content__inner")'),
                f"{prefix}{lesson}/index.html: not a page of the site ({tab.eval('document.title')!r})"):
        return
    got = tab.eval("""({ title: document.title, body: document.querySelector("article").innerText,
        pictures: [...document.querySelectorAll(".md-content img")].map(i => [i.getAttribute("src"), i.complete && i.naturalWidth > 0]),
        other: (document.querySelector('a.md-select__link[hreflang="%s"]') || {}).href,
        crumb: (document.querySelector(".pg-breadcrumb") || {}).innerText,
        downloads: [...document.querySelectorAll("article a[download]")].map(a => a.href),
        details: [...document.querySelectorAll("article details")].map(d => [d.open, !!d.querySelector("summary")]),
        nav: [...document.querySelectorAll(".md-nav--primary .md-nav__link")].map(a => a.innerText.trim()).filter(Boolean) })"""
                   % ("en" if lang == "zh" else "zh"))
    where = f"{prefix}{lesson}/index.html"
    c.ok(got["title"].startswith(title), f"{where}: the page title is '{got['title']}', not '{title}'")
    c.ok(number in got["body"], f"{where}: the number {number} is not on the page")
    pictures = len(re.findall(r"!\[[^\]]*\]\([^)]+\)", text))
    loaded = [src for src, ok in got["pictures"] if ok]
    c.ok(len(got["pictures"]) == pictures and len(loaded) == pictures,
         f"{where}: {pictures} picture(s) expected, {len(loaded)} of {len(got['pictures'])} loaded "
         f"(failed: {[s for s, ok in got['pictures'] if not ok]})")
    other = f"{base}{'' if lang == 'zh' else 'zh/'}{lesson}/index.html"
    c.ok(got["other"] == other, f"{where}: the language menu leads to {got['other']}, not {other}")
    crumb = breadcrumb(lesson, lang)
    c.ok(got["crumb"] == crumb, f"{where}: the breadcrumb is '{got['crumb']}', not '{crumb}'")
    for name in ("starter.cpp", "solution.cpp"):
        href = next((h for h in got["downloads"] if h.endswith("/" + name)), None)
        if c.ok(href == f"{base}{prefix}{lesson}/{name}", f"{where}: no download link to {name} ({got['downloads']})"):
            body = tab.eval(f"fetch({json.dumps(href)}).then(r => r.text())")
            c.ok(body == open(os.path.join(ROOT, "lessons", lesson, name), encoding="utf-8").read(),
                 f"{where}: {name} downloads something else than lessons/{lesson}/{name}")
    folded = len(re.findall(r"<details", text)) + len(re.findall(r"^\s*\?\?\?(?!\+)", text, re.M))
    opened = len(re.findall(r"^\s*\?\?\?\+", text, re.M))           # "???+": open as its author asked
    c.ok(len(got["details"]) == folded + opened and sum(o for o, _ in got["details"]) == opened
         and all(s for _, s in got["details"]),
         f"{where}: {folded} folded answer(s) expected, found (open, summary) {got['details']}")
    c.ok("```" not in got["body"], f"{where}: a code fence shows as text (markdown not rendered)")
    if lang == "zh":
        english = [t for t in got["nav"] if not HAN.search(t)]
        c.ok(not english, f"{where}: sidebar entries not in Chinese: {english}")
    print(f"ok  {where}  '{title}'  {number}  pictures {pictures}/{pictures}  breadcrumb '{got['crumb']}'"
          f"  downloads 2  folded answers {folded}", flush=True)


def check_english_only(c, site):
    """Each page the Chinese site has in English only says so under its title."""
    zh, marked = build_site.Site("zh", ""), []
    for src_en, page in zh.pages.items():
        if page in build_site.ZH_TITLES and build_site.pick(src_en, "zh") == src_en:
            html = open(os.path.join(site, "zh", page[:-3] + ".html"), encoding="utf-8").read()
            c.ok(re.search(r'class="admonition note"[^>]*>\s*<p class="admonition-title">本页(只有英文版|除“)', html),
                 f"zh/{page[:-3]}.html: no note that the page is in English only")
            marked.append(page[:-3] + ".html")
    print(f"ok  zh: {len(marked)} English-only pages say so under their title ({', '.join(marked)})", flush=True)


# ---- 2. search ----
def until(tab, cond, timeout):
    """Whether the JavaScript condition cond came to hold on the page within timeout seconds (it is checked
    after each message of the search worker)."""
    return tab.eval(f"window.__pgTest.until(() => {cond}, {int(timeout * 1000)})", timeout=timeout + 10)


def open_search(tab, url):
    tab.goto(url)
    tab.eval('document.querySelector(".md-search__input").focus()')
    return until(tab, "window.__pgTest.ready", 20)


# select all (ctrl+A), then Backspace
CLEAR = [("Input.dispatchKeyEvent", {"type": "rawKeyDown", "key": "a", "code": "KeyA", "windowsVirtualKeyCode": 65,
                                     "modifiers": 2, "commands": ["selectAll"]}),
         ("Input.dispatchKeyEvent", {"type": "keyUp", "key": "a", "code": "KeyA", "windowsVirtualKeyCode": 65,
                                     "modifiers": 2})] + \
        [("Input.dispatchKeyEvent", {"type": t, "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8,
                                     "modifiers": 0}) for t in ("rawKeyDown", "keyUp")]


def clear(tab):
    tab.send_all(CLEAR)


def type_like_a_learner(tab, text):
    """Latin letters key by key; a run of Chinese committed at once, as an input method does. The keys go
    in one batch (send_all): the page gets each as before, with no round trip to the test between them."""
    keys = []
    for run in re.findall(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]+|.", text):
        if HAN.search(run) or len(run) > 1:
            keys += [("Input.imeSetComposition", {"text": run, "selectionStart": len(run), "selectionEnd": len(run)}),
                     ("Input.insertText", {"text": run}),
                     ("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Process", "code": "Space",
                                                 "windowsVirtualKeyCode": 229})]
        else:
            keys += [("Input.dispatchKeyEvent", {"type": "keyDown", "key": run, "text": run, "unmodifiedText": run}),
                     ("Input.dispatchKeyEvent", {"type": "keyUp", "key": run})]
    tab.send_all(keys)


def all_results(tab):
    """Every result, scrolling the list as a reader does (Material shows 10, then more as one scrolls)."""
    for _ in range(50):
        results = tab.eval(RESULTS)
        total = int((re.findall(r"\d+", tab.eval('document.querySelector(".md-search-result__meta").textContent'))
                     or [0])[0])
        if len(results) >= total:
            return results
        for where in ("0", "e.scrollHeight"):     # away from the bottom and back: the next few results
            tab.eval(f'(e => e.scrollTop = {where})(document.querySelector(".md-search__scrollwrap"))')
            time.sleep(0.03)
    return results


def search(tab, term):
    """Types term into the search box; the results of that query once the worker has answered it."""
    clear(tab)
    before = tab.eval("window.__pgTest.sent")
    type_like_a_learner(tab, term)
    got = tab.eval(f"""window.__pgTest.until(() => window.__pgTest.sent > {before}
                                                && window.__pgTest.received === window.__pgTest.sent, 10000)
        .then(answered => ({{ answered, value: document.querySelector(".md-search__input").value, results: {RESULTS},
                              meta: document.querySelector(".md-search-result__meta").textContent }}))""", timeout=20)
    if got["value"] != term:
        raise cdp.Error(f"the search box holds '{got['value']}', not '{term}'")
    if not got["answered"]:
        raise cdp.Error(f"search: no answer to '{term}'")
    return got["results"], got["meta"]


def lesson_text(site, lang):
    """lesson folder -> the text the search indexes for it (every section), as one lowercase string."""
    path = os.path.join(site, "zh" if lang == "zh" else "", "search", "search_index.json")
    text = {}
    for doc in json.load(open(path, encoding="utf-8"))["docs"]:
        d = doc["location"].split("/")[0]
        text[d] = text.get(d, "") + " " + (doc["title"] + " " + doc["text"]).replace("\u200b", "").lower()
    return text


def typed(c, tab, lang, pairs):
    """(term, lesson, results, meta) for each (term, lesson) typed into the search box; errors are failures."""
    for term, lesson in pairs:
        try:
            results, meta = search(tab, term)
        except cdp.Error as e:
            c.fail(f"{lang} search '{term}': {e}")
            continue
        yield term, lesson, results, meta


def check_search(c, tab, base, lang, rows, site, out):
    """Appends its report lines to out (it runs beside the other language's, in a tab of its own)."""
    prefix = "zh/" if lang == "zh" else ""
    if not c.ok(open_search(tab, f"{base}{prefix}index.html"), f"{prefix}index.html: search never got ready"):
        return
    t0, ranks, tag_only, texts = time.time(), [], [], lesson_text(site, lang)
    names = [(name, r["lesson"]) for r in rows for name in r[lang]]
    for term, lesson, results, meta in typed(c, tab, lang, names):
        want = f"{base}{prefix}{lesson}/index.html"
        rank = next((i + 1 for i, r in enumerate(results) if r["href"] == want), None)
        src = [r["href"] for r in results if f"{base}{prefix}src/" in r["href"]]
        c.ok(not src, f"{lang} search '{term}': copies of source files among the results: {src}")
        if not c.ok(rank is not None and rank <= RANK,
                    f"{lang} search '{term}' ({meta}): lesson {lesson} is not among the first {RANK} results: "
                    + "; ".join(r["title"] for r in results[:5])):
            continue
        ranks.append(rank)
        if term.lower() not in texts.get(lesson, ""):
            tag_only.append(f"{term} ({lesson[:2]})")
    # the text alone (no tag is a part of a word): a Chinese name of 4 or more characters less its first,
    # where its lesson's text has the name, lists the lesson (反向传播 -> 向传播)
    parts = [(name[1:], r["lesson"]) for r in rows for name in r["zh"] if lang == "zh" and len(name) >= 4
             and HAN.match(name) and name.lower() in texts.get(r["lesson"], "")]
    listed = 0
    for term, lesson, results, meta in typed(c, tab, lang, parts):
        want = f"{base}{prefix}{lesson}/index.html"
        if want not in [r["href"] for r in results]:
            results = all_results(tab)
        listed += c.ok(want in [r["href"] for r in results],
                       f"{lang} search '{term}' ({meta}): lesson {lesson}, whose text has its whole term, is not "
                       f"among the results: " + "; ".join(r["title"] for r in results[:5]))
    if ranks:
        if parts:
            out.append(f"ok  {lang} search in the text: {listed}/{len(parts)} terms of 4+ characters less their first "
                       f"(向传播, 归一化, ...) list the lesson whose text has the term")
        out.append(f"ok  {lang} search: {len(ranks)}/{len(names)} names of the {len(rows)} glossary terms typed in "
                   f"list their lesson "
                   f"(first: {ranks.count(1)}, second or third: {len(ranks) - ranks.count(1)}), no source copies "
                   f"listed, {time.time() - t0:.1f} s")
    if tag_only:
        note = (f"{lang}: {len(tag_only)} term(s) whose lesson is listed by its search tag only, its text never "
                f"using the term (lessons/GLOSSARY.md and the lesson disagree): " + ", ".join(tag_only))
        c.notes.append(note)
        out.append("note: " + note)


# ---- 3. from disk ----
def click_and_wait(browser, tab, selector):
    since = browser.events()
    tab.click(selector)
    browser.wait_event("Page.loadEventFired", tab.s, 15, since)


def check_disk(c, browser, tab, site):
    root, failures = "file://" + site + "/", len(c.failures)
    first, second = (build_site.Site("zh", "").lessons + ["", ""])[:2]
    tab.goto(root + "zh/index.html")
    steps = [("zh/index.html", None)]
    try:
        click_and_wait(browser, tab, f'article a[href$="{first}/index.html"]')
        steps.append((tab.eval("location.href"), tab.eval('document.querySelector("article h1").innerText')))
        click_and_wait(browser, tab, "a.md-footer__link--next")
        steps.append((tab.eval("location.href"), tab.eval('document.querySelector("article h1").innerText')))
    except cdp.Error as e:
        c.fail(f"file://: {e} (at {tab.eval('location.href')})")
        return
    for (href, h1), lesson in zip(steps[1:], (first, second)):
        title = re.search(r"^# (.+)$", readme(lesson, "zh"), re.M).group(1).strip()
        c.ok(href == f"{root}zh/{lesson}/index.html" and h1.replace("¶", "").strip() == title,
             f"file://: expected zh/{lesson}/index.html '{title}', got {href} '{h1}'")
    other = tab.eval('document.querySelector(\'a.md-select__link[hreflang="en"]\').href')
    c.ok(other == f"{root}{second}/index.html", f"file://: the language menu leads to {other}")
    if not c.ok(until(tab, "window.__pgTest.ready", 20), "file://: search never got ready"):
        return
    tab.eval('document.querySelector(".md-search__input").focus()')
    results, _ = search(tab, "反向传播")
    want = next(r["lesson"] for r in build_site.glossary() if r["zh"][0] == "反向传播")
    listed = [r["href"] for r in results]
    c.ok(f"{root}zh/{want}/index.html" in listed, f"file://: searching 反向传播 does not list {want}: {listed[:5]}")
    if len(c.failures) == failures:
        print(f"ok  file://…/zh/index.html -> {first} -> {second} (clicks), language menu -> {second}, "
              f"search from disk lists {want}", flush=True)


# ---- 4. screenshots ----
def check_screenshots(c, tab, base, lesson, out):
    """Run where the Chinese search check left its tab: zh/index.html, its search index built (else opened)."""
    if not (tab.eval("location.href") == f"{base}zh/index.html" and tab.eval("window.__pgTest.ready")):
        open_search(tab, f"{base}zh/index.html")
    search(tab, "反向传播")
    shot2 = os.path.join(out, "search_zh.png")
    tab.screenshot(shot2)
    tab.goto(f"{base}zh/{lesson}/index.html")
    tab.send("DOM.enable")
    tab.send("CSS.enable")
    doc = tab.send("DOM.getDocument")["root"]["nodeId"]
    h1 = tab.send("DOM.querySelector", {"nodeId": doc, "selector": "article h1"})["nodeId"]
    fonts = tab.send("CSS.getPlatformFontsForNode", {"nodeId": h1})["fonts"]
    cjk = [f["familyName"] for f in fonts if CJK_FONT.search(f["familyName"]) and f["glyphCount"] > 0]
    c.ok(cjk, f"zh/{lesson}: its title is drawn without a Chinese font ({fonts}); Debian: apt-get install fonts-noto-cjk")
    shot = os.path.join(out, f"{lesson}_zh.png")
    tab.screenshot(shot)
    c.ok(os.path.getsize(shot) > 10000 and os.path.getsize(shot2) > 10000, "the screenshots are empty")
    print(f"ok  screenshots {os.path.relpath(shot, ROOT)}, {os.path.relpath(shot2, ROOT)} (title drawn in {', '.join(cjk)})",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", required=True)
    ap.add_argument("--out", required=True, help="where the screenshots and chromium's log go")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--page", action="append", default=[], metavar="LESSON:NUMBER",
                    help="a lesson and a number both its READMEs quote")
    ap.add_argument("--shot", default="22_training_loop", help="the Chinese lesson to screenshot")
    args = ap.parse_args()
    site = os.path.abspath(args.site)
    c, t0 = Check(), time.time()
    check_lesson_pages(c, site)
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    with tempfile.TemporaryDirectory() as tmp:
        browser = cdp.Browser(args.chromium, os.path.join(tmp, "profile"), os.path.join(args.out, "chromium.log"))
        tabs = []

        def phase(what, f, *a):          # a phase that fails does not stop the next ones
            try:
                f(*a)
            except cdp.Error as e:
                c.fail(f"{what}: {e}")
        try:
            tab = new_tab(browser)
            tabs.append(tab)
            for case in args.page:
                lesson, number = case.split(":", 1)
                for lang in ("en", "zh"):
                    phase(f"{lang} {lesson}", check_page, c, tab, base, lesson, number, lang)
            check_english_only(c, site)
            rows = build_site.glossary()
            c.ok(rows, "no terms read from lessons/GLOSSARY.md")
            tabs.append(new_tab(browser))
            # a blank tab in front: both search tabs in the background, as the Chinese one (the first tab)
            # always was; a page there is not drawn (the checks read its document, not its pixels), which
            # saves a third of the search's CPU
            browser.tab()
            reports = {"zh": [], "en": []}
            threads = [threading.Thread(target=phase, args=(f"{lang} search", check_search, c, t, base, lang, rows,
                                                            site, reports[lang]))
                       for t, lang in zip(tabs, ("zh", "en"))]      # both at once: each tab has its worker
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            for lang in ("zh", "en"):
                print("\n".join(reports[lang]), flush=True)
            # the Chinese search's tab (tabs[0]) is on zh/index.html, its index built: the screenshots first
            phase("screenshots", check_screenshots, c, tab, base, args.shot, args.out)
            phase("file://", check_disk, c, browser, tab, site)
            errors = [e for t in tabs for e in page_errors(browser, t)]
            c.ok(not errors, f"JavaScript errors on the pages: {errors[:3]}")
        except cdp.Error as e:
            c.fail(f"the browser: {e}")
        finally:
            browser.close()
            server.shutdown()
    print(f"site_check: {len(c.failures)} failure(s), {time.time() - t0:.1f} s in the browser", flush=True)
    return min(len(c.failures), 100)


if __name__ == "__main__":
    sys.exit(main())
