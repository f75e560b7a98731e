// pg_search.js: the course site's search setup, loaded before Material's own script (overrides/main.html),
// which reads window.__search when it starts:
// - index: search/search_index.js, loaded as a script (opened from disk, a fetch of the .json is refused);
// - worker: Material's search worker with lunr_pg.js appended (pg_search_worker.js, written by
//   site_hook.py), started from a blob (opened from disk, a worker file is refused);
// - transform: the typed query as lunr reads it. Chinese has no spaces, so a run such as 反向传播的梯度 is
//   cut into the index's own words, longest first (+反向传播 +的 +梯度), every piece required; Chinese
//   punctuation separates words as spaces do. Otherwise Material's rules: "a b" requires both.
var __search = (function () {
  var config = JSON.parse(document.getElementById("__config").textContent);
  var base = new URL(config.base.replace(/\/?$/, "/"), location.href);
  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  var HAN_RUNS = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
  var PUNCTUATION = /[\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\u2014\u2018\u2019\u201c\u201d\u2026\u00b7]/g;
  var LONGEST = 8;
  var data = null, words = null;

  var index = new Promise(function (resolve, reject) {
    var script = document.createElement("script");
    script.src = new URL("search/search_index.js", base).href;
    script.onload = function () {
      data = window.__pgSearchIndex;
      data ? resolve(data) : reject(new Error("no search index in " + script.src));
    };
    script.onerror = function () { reject(new Error("the search index did not load: " + script.src)); };
    document.head.appendChild(script);
  });

  function knownWords() {              // the index's Chinese words, on the first Chinese query
    if (!words && data) {
      words = new Set();
      data.docs.forEach(function (doc) {
        [doc.title, doc.text].concat(doc.tags || []).forEach(function (text) {
          (String(text).match(HAN_RUNS) || []).forEach(function (w) { words.add(w); });
        });
      });
    }
    return words || new Set();
  }

  function cut(run) {                  // forward longest match; a character no word starts with, alone
    var known = knownWords(), out = [];
    for (var i = 0; i < run.length;) {
      var j = Math.min(run.length, i + LONGEST);
      while (j > i + 1 && !known.has(run.slice(i, j))) j--;
      out.push(run.slice(i, j));
      i = j;
    }
    return out;
  }

  function transform(query) {
    query = query                      // Material's default transform, first
      .split(/"([^"]+)"/g)
      .map(function (terms, i) {
        return i & 1 ? terms.replace(/^\b|^(?![^\x00-\x7F]|$)|\s+/g, " +") : terms;
      })
      .join("")
      .replace(/"|(?:^|\s+)[*+\-:^~]+(?=\s+|$)/g, "")
      .replace(PUNCTUATION, " ")
      .trim();
    return query.split(/\s+/).map(function (term) {
      if (!HAN.test(term)) return term;
      var sign = /^[+\-]/.test(term) ? term[0] : "", pieces = [];
      term.slice(sign.length).split(/([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)/).forEach(function (part) {
        if (part) pieces = pieces.concat(HAN.test(part) ? cut(part) : [part]);
      });
      if (pieces.length === 1) return sign + pieces[0];
      return pieces.map(function (p) { return (sign || "+") + p; }).join(" ");
    }).join(" ");
  }

  var worker = window.__pgSearchWorker
    ? URL.createObjectURL(new Blob([window.__pgSearchWorker], { type: "text/javascript" }))
    : config.search;
  return { index: index, transform: transform, worker: worker };
})();
