// lang_switch.js: the language menu opens the same page in the other language. Both builds share one
// layout, English at the site's root and Chinese in zh/, so the page's path below its build's root is
// the same in both (a file name such as 01_hand_attention/index.html, also when opened from disk).
(function () {
  var config = JSON.parse(document.getElementById("__config").textContent);
  var root = new URL(config.base.replace(/\/?$/, "/"), location.href);      // this build's root
  var zh = document.documentElement.lang === "zh";
  var roots = { en: zh ? new URL("../", root) : root, zh: zh ? root : new URL("zh/", root) };
  var here = location.href.split("#")[0].split("?")[0];
  var rest = here.indexOf(root.href) === 0 ? here.slice(root.href.length) : "";
  if (rest === "" || /\/$/.test(rest)) rest += "index.html";                 // served as a folder
  document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (a) {
    var r = roots[a.getAttribute("hreflang")];
    if (r) a.href = r.href + rest;
  });
})();
