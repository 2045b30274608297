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

  /* The sticky header wraps to two rows at some widths (long titles, narrow windows): a
     heading jumped to must clear it, whatever its height. style.css gives a fixed padding for
     pages without this script. */
  function headerRoom() {
    var h = doc.querySelector("header.top");
    return h && getComputedStyle(h).position === "sticky" ? h.getBoundingClientRect().height + 8 : 8;
  }
  function fitScrollPadding() {
    doc.documentElement.style.scrollPaddingTop = Math.ceil(headerRoom()) + "px";
  }

  /* Where the page was left by the jump to the address's anchor (on arrival, or a link in
     the page): while the reader has not scrolled from there, they are reading that anchor. */
  var jumpedTo = null;
  function noteJump() {
    setTimeout(function () { jumpedTo = location.hash ? window.scrollY : null; keep(); }, 0);
  }

  /* The reader's place as the page last scrolled outside the header and the breadcrumbs:
     reaching the language switch with Tab passes the breadcrumbs, and focusing them scrolls
     the page to its top, so the place at the moment of the keyboard's click is not theirs.
     (A scroll event comes a frame after the focus moved: the focus says who scrolled.) */
  var kept = null, keeping = 0;
  function inChrome(el) {
    return !!(el && el.closest && el.closest("header.top, nav.crumbs"));
  }
  function keep() {
    if (!inChrome(doc.activeElement)) kept = [currentAnchor(true), currentAnchor(false)];
  }
  /* once the scrolling pauses: finding the place measures every heading, and a print view has
     thousands */
  window.addEventListener("scroll", function () {
    clearTimeout(keeping);
    keeping = setTimeout(keep, 100);
  }, { passive: true });
  /* The place to keep for a click: with the keyboard (no pointer, `detail` 0) from the header
     or the breadcrumbs, the place kept before the focus went there. */
  function place(e, shared) {
    if (e.detail === 0 && kept && inChrome(doc.activeElement)) return kept[shared ? 0 : 1];
    return currentAnchor(shared);
  }
  window.addEventListener("load", noteJump);
  window.addEventListener("hashchange", noteJump);

  /* The heading the reader is looking at: the last section anchor (or glossary entry) at or
     above the top of the view (below the header); or, while the page is where the jump to
     the address's anchor left it, that anchor when it is on screen further down (a section
     near the end of a page cannot scroll to the top, and the one above it was taken). At
     the top of the page there is none, but such an anchor. */
  var SECTION = /^\d+(\.\d+)+$/;
  function currentAnchor(shared) {
    var hs = doc.querySelectorAll("article h1[id], article h2[id], article h3[id], article h4[id], .print h1[id], .print h2[id], .print h3[id], .print h4[id], main dl dt[id]");
    var at = -1, named = -1, top = headerRoom() + 8, wanted = null;
    if (jumpedTo !== null && Math.abs(window.scrollY - jumpedTo) < 2) {
      try { wanted = decodeURIComponent(location.hash.slice(1)); } catch (e) {}
    }
    for (var i = 0; i < hs.length; i++) {
      var y = hs[i].getBoundingClientRect().top;
      if (y <= top) at = i;
      if (wanted && hs[i].id === wanted && y >= 0 && y < window.innerHeight) named = i;
    }
    if (named > at) at = named;
    if (at < 0) return "";
    var best = hs[at], numbered = null;
    for (var k = at; k >= 0 && !numbered; k--) if (SECTION.test(hs[k].id)) numbered = hs[k];
    /* For another language, a heading without a number has an id of its own words
       (`приклади-3`), which the other page lacks: the section number above it is the place
       both pages share. */
    if (shared && numbered && best.tagName !== "DT") best = numbered;
    return best.id;
  }

  /* Arriving at a section number this page does not have (the other language's section the
     translation lacks), the reader lands on the last section before it rather than at the
     top of the page. */
  function nearestSection() {
    var want;
    try { want = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    if (!SECTION.test(want) || doc.getElementById(want)) return;
    var parts = function (n) { return n.split(".").map(Number); };
    var before = function (a, b) {
      for (var i = 0; i < Math.max(a.length, b.length); i++) {
        var x = a[i] || 0, y = b[i] || 0;
        if (x !== y) return x < y;
      }
      return false;
    };
    var w = parts(want), hs = doc.querySelectorAll("article [id], .print [id]"), best = null;
    for (var i = 0; i < hs.length; i++) {
      var n = hs[i].id;
      if (SECTION.test(n) && before(parts(n), w) && !(best && before(parts(n), parts(best.id)))) best = hs[i];
    }
    if (best) best.scrollIntoView();
  }

  /* Where the reader's language is kept: per site (the address of its folder), as sites of one
     origin (a GitHub user's) share one store, and the language read on one chose where the
     others' root pages sent the reader. root.html reads it. */
  function langKey() {
    return "rulebook-lang " + new URL(doc.body.getAttribute("data-root") || "", location.href).pathname;
  }

  /* The language switch keeps the reader's place: same page, same section, and the
     side-by-side view stays side by side (the other way round). */
  function langSwitch(e) {
    var a = e.target.closest && e.target.closest("a[data-lang-switch]");
    if (!a) return;
    try { localStorage.setItem(langKey(), a.getAttribute("data-lang-switch")); } catch (err) {}
    var href = a.getAttribute("href").split("#")[0], anchor = place(e, true);
    var pair = /[?&]pair=([a-z-]+)/i.exec(location.search);
    if (pair && href.indexOf("?") < 0) href += "?pair=" + encodeURIComponent(doc.documentElement.lang);
    a.setAttribute("href", href + fragment(anchor));
  }
  /* `#anchor` for an address (dots kept as they are: `#7.1.0`), or nothing for no anchor. */
  function fragment(anchor) {
    return anchor ? "#" + encodeURIComponent(anchor).replace(/%2E/gi, ".") : "";
  }

  /* Turning the side-by-side view on or off keeps the reader's place too. */
  function pairToggle(e) {
    var a = e.target.closest && e.target.closest("a.pair-toggle");
    if (!a) return;
    a.setAttribute("href", a.getAttribute("href").split("#")[0] + fragment(place(e, false)));
  }

  /* The side-by-side view goes on to the next page read in this language (the pager, the
     contents, a cross-link): a link to one of its pages gets the same `?pair=`. */
  function keepPair(e) {
    var a = e.target.closest && e.target.closest("a[href]");
    if (a) withPair(a);
  }
  /* Gives link `a` the page's `?pair=` if it leads to a page of this language (search.js
     calls it too, for a result opened with Enter). */
  function withPair(a) {
    if (a.hasAttribute("data-lang-switch") || a.classList.contains("pair-toggle")) return;
    var pair = /[?&]pair=([a-z-]+)/i.exec(location.search);
    var h = a.getAttribute("href");
    if (!pair || !h || /^[#?]/.test(h) || h.indexOf("?") >= 0 || /^[a-z][a-z0-9+.-]*:/i.test(h)) return;
    var cut = h.indexOf("#"), path = cut < 0 ? h : h.slice(0, cut);
    if (!/(^|\/)(index\.html)?$/.test(path)) return;
    var home = new URL((doc.body.getAttribute("data-root") || "") + (doc.body.getAttribute("data-lang") || doc.documentElement.lang) + "/", location.href);
    if (new URL(path, location.href).pathname.indexOf(home.pathname) !== 0) return;
    a.setAttribute("href", path + "?pair=" + pair[1] + (cut < 0 ? "" : h.slice(cut)));
  }

  function init() {
    fitScrollPadding();
    window.addEventListener("resize", fitScrollPadding);
    /* and whenever the header changes height by itself (a control shown by a later script) */
    var header = doc.querySelector("header.top");
    if (header && window.ResizeObserver) new ResizeObserver(fitScrollPadding).observe(header);
    // a web font that comes late can change the header's height
    if (doc.fonts && doc.fonts.ready) doc.fonts.ready.then(fitScrollPadding);
    fixFileLinks(doc);
    doc.addEventListener("click", langSwitch, true);
    doc.addEventListener("click", pairToggle, true);
    doc.addEventListener("click", keepPair, true);
    nearestSection();
    try { localStorage.setItem(langKey(), doc.documentElement.lang); } catch (err) {}
  }

  window.Rulebook = window.Rulebook || {};
  window.Rulebook.fixFileLinks = fixFileLinks;
  window.Rulebook.withPair = withPair;
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
