/* rulebook: small behaviours of every page. No framework; the pages work without it. */
(function () {
  "use strict";
  var doc = document;

  /* Opened from disk (file://), a folder link shows a listing instead of its index.html:
     point folder links at the file itself. */
  function fixFileLinks(root) {
    if (location.protocol !== "file:") return;
    var links = (root || doc).querySelectorAll("a[href]");
    for (var i = 0; i < links.length; i++) {
      var h = links[i].getAttribute("href");
      if (!h || /^[a-z][a-z0-9+.-]*:/i.test(h) || h.charAt(0) === "#") continue;
      var cut = h.search(/[?#]/);
      var path = cut < 0 ? h : h.slice(0, cut);
      var rest = cut < 0 ? "" : h.slice(cut);
      if (path === "" ) continue;
      if (path.charAt(path.length - 1) === "/") links[i].setAttribute("href", path + "index.html" + rest);
      else if (path === ".." || path === ".") links[i].setAttribute("href", path + "/index.html" + rest);
    }
  }

  /* The heading the reader is looking at: the last section anchor above the top of the view. */
  function currentAnchor() {
    var hs = doc.querySelectorAll("article h1[id], article h2[id], article h3[id], article h4[id]");
    var best = null;
    for (var i = 0; i < hs.length; i++) {
      if (hs[i].getBoundingClientRect().top <= 80) best = hs[i];
      else break;
    }
    return best ? best.id : (location.hash ? decodeURIComponent(location.hash.slice(1)) : "");
  }

  /* The language switch keeps the reader's place: same page, same section. */
  function langSwitch(e) {
    var a = e.target.closest && e.target.closest("a[data-lang-switch]");
    if (!a) return;
    try { localStorage.setItem("rulebook-lang", a.getAttribute("data-lang-switch")); } catch (err) {}
    var anchor = currentAnchor();
    if (anchor) {
      var href = a.getAttribute("href").split("#")[0];
      a.setAttribute("href", href + "#" + encodeURIComponent(anchor).replace(/%2E/gi, "."));
    }
  }

  function init() {
    fixFileLinks(doc);
    doc.addEventListener("click", langSwitch, true);
    try { localStorage.setItem("rulebook-lang", doc.documentElement.lang); } catch (err) {}
  }

  window.Rulebook = window.Rulebook || {};
  window.Rulebook.fixFileLinks = fixFileLinks;
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
