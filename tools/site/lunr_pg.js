// lunr_pg.js: the search language "pg" for lunr inside Material's search worker (site_hook.py appends
// it to the worker's code). The index text comes with its Chinese already cut into words by jieba, the
// words separated by U+200B (invisible; part of the index's separator). Each Chinese word is indexed
// with every piece of it, so 传播 finds 反向传播 and 归一化 finds 层归一化. English words are lowercased
// and trimmed, not stemmed (a typed prefix must match what is indexed). A page's tags (a lesson's: the
// glossary terms it introduces) are indexed whole, and a query that is exactly one of them puts the page
// first: the lesson that introduces a term comes before those whose tags only contain it (梯度 before
// 梯度检验). Left out: English stemming.
(function (lunr) {
  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  // what a word may not begin or end with: anything but a letter of any script (gelü stays gelü), a mark
  // on one (m̂), a digit or "_"
  var EDGE = /^[^\p{L}\p{M}\p{N}_]+|[^\p{L}\p{M}\p{N}_]+$/gu;
  var LONGEST = 8;                     // pieces of a Chinese word: every substring up to this length

  lunr.pg = function () {
    this.pipeline.reset();
    this.pipeline.add(lunr.pg.trimmer, lunr.pg.stopWordFilter, lunr.pg.stemmer);
    this.searchPipeline.reset();
    this.searchPipeline.add(lunr.pg.stemmer);
    this.tokenizer = lunr.pg.tokenizer;
  };

  // a field's text -> its words, and for each Chinese word its pieces; a list of tags -> their words
  lunr.pg.tokenizer = function (value, metadata) {
    if (value === null || value === undefined) return [];
    var tokens = [], tags = Array.isArray(value);
    (tags ? value : [value]).forEach(function (part) {
      String(part).toLowerCase().split(lunr.tokenizer.separator).forEach(function (word) {
        if (!word) return;
        var pieces = [word];
        if (!tags && word.length > 1 && HAN.test(word))
          for (var i = 0; i < word.length; i++)
            for (var j = i + 1; j <= Math.min(word.length, i + LONGEST); j++)
              if (j - i < word.length) pieces.push(word.slice(i, j));
        pieces.forEach(function (p) {
          tokens.push(new lunr.Token(p, lunr.utils.clone(metadata) || {}));
        });
      });
    });
    return tokens;
  };

  // a query or a tag as one phrase: lowercase, without query operators, words joined by one space except
  // between Chinese characters (查询、键、值 and "+查询 +键 +值*" are both 查询键值)
  function phrase(text) {
    return String(text).toLowerCase().replace(/[\^~]\d+/g, "").split(/\s+/)
      .map(function (t) { return t.replace(/^[+\-]/, "").replace(/\*/g, ""); }).join(" ")
      .split(lunr.tokenizer.separator).filter(Boolean).join(" ")
      .replace(/([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]) (?=[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])/g, "$1");
  }
  var tagsOf = {};                     // page location -> its tags as phrases
  var add = lunr.Builder.prototype.add;
  lunr.Builder.prototype.add = function (doc, attributes) {
    if (doc.tags) tagsOf[doc.location] = doc.tags.map(phrase);       // Material's ref: location
    return add.call(this, doc, attributes);
  };
  var search = lunr.Index.prototype.search;
  lunr.Index.prototype.search = function (query) {
    var results = search.call(this, query), q = phrase(query);
    results.forEach(function (r) {     // Material sorts the results again by score
      if ((tagsOf[r.ref] || []).indexOf(q) !== -1) r.score *= 100;
    });
    return results;
  };

  lunr.pg.trimmer = function (token) {
    return token.update(function (s) { return s.replace(EDGE, ""); });
  };
  lunr.pg.stopWordFilter = function (token) {            // English stop words only
    return lunr.stopWordFilter(token);
  };
  lunr.pg.stemmer = function (token) { return token; };
  lunr.Pipeline.registerFunction(lunr.pg.trimmer, "trimmer-pg");
  lunr.Pipeline.registerFunction(lunr.pg.stopWordFilter, "stopWordFilter-pg");
  lunr.Pipeline.registerFunction(lunr.pg.stemmer, "stemmer-pg");
})(self.lunr);
