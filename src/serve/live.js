/* rulebook serve: reloads the page when the site is rebuilt, keeping the scroll position, and
   shows build errors over the page until they are fixed. Injected by `rulebook serve` only;
   never part of a built site. */
(function () {
  "use strict";
  var me = document.currentScript;
  var version = Number(me.getAttribute("data-version"));
  /* A print view holds every chapter and is written after an edit is announced: it reloads
     when the print views of a newer version are written (src/serve/http.rs `Status`). */
  var printView = me.hasAttribute("data-print"), shown = version;
  /* The search index is written again once edits pause, after the pages: a page that has read
     some of the old one drops it (static/js/search.js `reset`), and its next search loads the
     new one. */
  var searchSeen = null;
  var key = "rulebook-serve-scroll:" + location.pathname;
  try {
    var y = sessionStorage.getItem(key);
    if (y !== null) {
      sessionStorage.removeItem(key);
      var go = function () { window.scrollTo(0, Number(y)); };
      go();
      window.addEventListener("load", go);
    }
  } catch (e) {}

  var box = null;
  function show(errors) {
    if (!box) {
      box = document.createElement("div");
      box.id = "rulebook-error-overlay";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;background:rgba(20,0,0,.92);color:#fff;font:14px/1.5 monospace;padding:2em";
      document.documentElement.appendChild(box);
    }
    box.textContent = "";
    var h = document.createElement("h2");
    h.textContent = "Build failed: the last good version of the site is still served";
    h.style.cssText = "font:bold 18px sans-serif;margin:0 0 1em";
    box.appendChild(h);
    for (var i = 0; i < errors.length; i++) {
      var e = errors[i];
      var p = document.createElement("pre");
      p.className = "rulebook-error";
      p.style.cssText = "white-space:pre-wrap;margin:0 0 1em";
      p.textContent = e.file + (e.line ? ":" + e.line : "") + (e.column ? ":" + e.column : "") + ": " + e.message + " [" + e.kind + "]";
      box.appendChild(p);
    }
  }
  function hide() {
    if (box) { box.parentNode.removeChild(box); box = null; }
  }
  function reload() {
    try { sessionStorage.setItem(key, String(window.scrollY)); } catch (e) {}
    location.reload();
  }
  function poll(now) {
    var x = new XMLHttpRequest();
    x.open("GET", "/__rulebook/wait?v=" + version + (printView ? "&print=" + shown : "") + (searchSeen !== null ? "&s=" + searchSeen : "") + (now ? "&now=1" : ""));
    x.onload = function () {
      var st;
      try { st = JSON.parse(x.responseText); } catch (e) { setTimeout(poll, 1000); return; }
      if (searchSeen !== null && st.search !== searchSeen && window.RulebookSearch && window.RulebookSearch.reset) {
        window.RulebookSearch.reset();
      }
      searchSeen = st.search;
      if (st.errors.length) {
        show(st.errors);
        version = st.version;
      } else if (printView ? st.print > shown : st.version !== version) {
        reload();
        return;
      } else {
        hide();
        version = st.version;
      }
      poll(false);
    };
    x.onerror = function () { setTimeout(function () { poll(true); }, 1000); };
    x.send();
  }
  poll(true);
})();
