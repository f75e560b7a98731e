// img_check.js: added to the test build only. After the page has loaded (images included, or failed),
// writes into the DOM how many of the content's pictures loaded, for test_site.sh to read.
(function () {
  function report() {
    var imgs = Array.prototype.slice.call(document.querySelectorAll(".md-content img"));
    var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; });
    var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
    var el = document.createElement("div");
    el.id = "pg-img-check";
    el.textContent = "pg-img-check loaded=" + ok.length + " total=" + imgs.length +
      " failed=[" + bad.map(function (i) { return i.getAttribute("src"); }).join(",") + "]";
    document.body.appendChild(el);
  }
  if (document.readyState === "complete") report(); else window.addEventListener("load", report);
})();
