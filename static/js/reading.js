/* rulebook: reading aids. Glossary tooltips, cross-link previews, copy-link buttons, the table
   of contents that follows the scroll, the theme toggle and the side-by-side view. No framework;
   every page is complete without this file. */
(function () {
  "use strict";
  var doc = document, body, root, lang, strings = {};

  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  /* ---- one floating card for tooltips and previews: positioned over the page, so showing it
     never moves the text (no layout jump) ---- */
  var tip, tipFor = null, hideTimer = 0;
  function tipEl() {
    if (!tip) {
      tip = el("div", "rb-tip");
      tip.id = "rb-tip";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      tip.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
      tip.addEventListener("mouseleave", scheduleHide);
      body.appendChild(tip);
    }
    return tip;
  }
  function place(a) {
    var r = a.getBoundingClientRect(), t = tip;
    var w = Math.min(360, doc.documentElement.clientWidth - 16);
    t.style.width = w + "px";
    var left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + doc.documentElement.clientWidth - w - 8));
    t.style.left = left + "px";
    var below = r.bottom + window.scrollY + 6;
    t.style.top = below + "px";
    var h = t.offsetHeight;
    if (r.bottom + h + 12 > window.innerHeight && r.top > h + 12) t.style.top = (r.top + window.scrollY - h - 6) + "px";
  }
  function show(a, fill) {
    clearTimeout(hideTimer);
    var t = tipEl();
    t.textContent = "";
    fill(t);
    t.hidden = false;
    /* a long definition is cut at the box's height: fade its last line out, so it reads as
       cut rather than ending mid-sentence (the full entry is a click away) */
    Array.prototype.forEach.call(t.querySelectorAll(".rb-tip-body"), function (b) {
      if (b.scrollHeight > b.clientHeight + 1) b.classList.add("rb-cut");
    });
    tipFor = a;
    a.setAttribute("aria-describedby", "rb-tip");
    place(a);
  }
  function hide() {
    if (!tip) return;
    tip.hidden = true;
    if (tipFor) tipFor.removeAttribute("aria-describedby");
    tipFor = null;
  }
  function scheduleHide() { clearTimeout(hideTimer); hideTimer = setTimeout(hide, 250); }

  /* ---- data loaded the first time it is needed, as scripts that register it under
     window[name][key] (a script tag works from file:// where fetch does not) ---- */
  var waiting = {};
  function withData(name, key, src, cb) {
    var all = window[name] || {}, id = name + " " + key;
    if (all[key]) return cb(all[key]);
    if (waiting[id]) { waiting[id].push(cb); return; }
    waiting[id] = [cb];
    var s = doc.createElement("script");
    s.src = src;
    s.onload = function () {
      var d = (window[name] || {})[key] || {};
      var w = waiting[id]; delete waiting[id];
      for (var i = 0; i < w.length; i++) w[i](d);
    };
    s.onerror = function () { delete waiting[id]; };
    doc.head.appendChild(s);
  }
  /* The language of the page a link was written for: the other column of the side-by-side
     view holds the other language's links. */
  function readerLang(a) {
    var c = a.closest("[data-reader]");
    return c ? c.getAttribute("data-reader") : lang;
  }
  /* Links written for another page (the other column of the side-by-side view, a tooltip of
     the other language) are relative to that page: make them absolute, resolved there. */
  function rebase(node, base) {
    var links = node.querySelectorAll("a[href]");
    for (var i = -1; i < links.length; i++) {
      var a = i < 0 ? node : links[i], h = a.getAttribute("href");
      if (h && h.charAt(0) !== "#") a.setAttribute("href", new URL(h, base).href);
    }
  }
  /* Only the card the reader still points at is shown once its data has loaded. */
  var wanted = null;

  /* FNV-1a over UTF-16 code units, as the build computes it (reading_pages.rs hashed_file):
     which of `count` files holds what is filed under `key` */
  function hashedFile(key, count) {
    var h = 0x811c9dc5;
    for (var i = 0; i < key.length; i++) { h ^= key.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
    return h % count;
  }

  /* ---- glossary terms: each language's entries are split over a few files
     (<lang>/glossary/terms-<k>-of-<count>.js); the anchor in a term's link says which file has it ---- */
  function showTerm(a) {
    var h = a.getAttribute("href") || "", key = decodeURIComponent(h.slice(h.indexOf("#") + 1));
    var l = readerLang(a);
    var art = doc.querySelector("article[data-terms]");
    var count = art ? parseInt(art.getAttribute("data-terms"), 10) : 1;
    if (!(count > 0)) count = 1;
    var k = hashedFile(key, count);
    withData("RulebookTerms", l + "/" + k, root + l + "/glossary/terms-" + k + "-of-" + count + ".js", function (terms) {
      var e = terms[key];
      if (!e || wanted !== a) return;
      show(a, function (t) {
        t.lang = e[3] || l;
        var h = el("p", "rb-tip-head");
        h.appendChild(el("strong", null, e[0]));
        if (e[1]) { h.appendChild(doc.createTextNode(" · ")); h.appendChild(el("span", "rb-tip-other", e[1])); }
        t.appendChild(h);
        var d = el("div", "rb-tip-body");
        d.innerHTML = e[2];
        if (l !== lang) rebase(d, new URL(root + l + "/glossary/", location.href));
        t.appendChild(d);
        /* a link, as it reads: it was a line of text that did nothing when clicked or tapped */
        var p = el("p", "rb-tip-hint"), go = el("a", null, strings.open_entry || "");
        /* the page's words, in a card that may be in the other language */
        p.lang = lang;
        go.href = a.href;
        p.appendChild(go);
        t.appendChild(p);
      });
    });
  }

  /* ---- section previews: each language's previews are split by chapter over a few files
     (<lang>/s/p<k>-of-<count>.js); the chapter named in a link's address says which file has it ---- */
  function showPreview(a) {
    var art = doc.querySelector("article[data-previews]");
    var count = art ? parseInt(art.getAttribute("data-previews"), 10) : 0;
    var h = a.getAttribute("href") || "", i = h.indexOf("#");
    if (i < 0 || !(count > 0)) return;
    var n = decodeURIComponent(h.slice(i + 1)), id;
    if (i === 0) id = art.getAttribute("data-chapter");
    else {
      /* .../<lang>/<chapter>/ or, opened from disk, .../<chapter>/index.html */
      var parts = a.pathname.replace(/index\.html$/, "").split("/");
      id = decodeURIComponent(parts[parts.length - 2] || "");
    }
    var l = readerLang(a), k = hashedFile(id, count);
    withData("RulebookPreviews", l + "/" + k, root + l + "/s/p" + k + "-of-" + count + ".js", function (previews) {
      var p = previews[n];
      if (!p || wanted !== a) return;
      show(a, function (t) {
        t.lang = p[2] || l;
        var head = el("p", "rb-tip-head");
        head.appendChild(el("span", "secnum", n));
        head.appendChild(doc.createTextNode(" "));
        head.appendChild(el("strong", null, p[0]));
        t.appendChild(head);
        if (p[1]) t.appendChild(el("p", "rb-tip-body", p[1]));
      });
    });
  }

  function target(e) {
    var a = e.target.closest ? e.target.closest("a.gl, a.xref") : null;
    return a && a.closest("article, .refby, .pair") ? a : null;
  }
  function over(e) {
    var a = target(e);
    if (!a || a === tipFor) return;
    wanted = a;
    if (a.classList.contains("gl")) showTerm(a); else showPreview(a);
  }
  function out(e) {
    if (target(e)) { wanted = null; scheduleHide(); }
  }
  /* On touch, the first tap shows the card and the second follows the link. A tap also makes
     the browser send mouseover and focus before its click, which show the card already: what
     counts is whether the card was up for this link when the finger came down. */
  var touched = null, shownAtTouch = false;
  function click(e) {
    var a = target(e);
    if (!a || touched !== a) return;
    touched = null;
    if (!shownAtTouch) {
      e.preventDefault();
      if (tipFor !== a) over({ target: a });
    }
  }

  /* ---- copy-link buttons next to every numbered heading, and every other heading of a
     section (a chapter of the rulebook has no numbers, and on a phone, where the `#`
     permalink shows only on hover, its sections had no way to a link) ---- */
  /* A heading's own words, without its `#` permalink. */
  function headingText(h) {
    var c = h.cloneNode(true), p = c.querySelectorAll(".permalink, button");
    for (var i = 0; i < p.length; i++) p[i].remove();
    return c.textContent.trim();
  }
  function copyButtons() {
    var hs = doc.querySelectorAll("article h1[id], article h2[id], article h3[id], article h4[id]");
    for (var i = 0; i < hs.length; i++) {
      var numbered = /^[0-9]+(\.[0-9]+)+$/.test(hs[i].id);
      if (!numbered && hs[i].tagName === "H1") continue;
      var b = el("button", "copy-link");
      b.type = "button";
      b.setAttribute("data-anchor", hs[i].id);
      b.setAttribute("data-label", (strings.copy_link || "Copy link") + " " + (numbered ? hs[i].id : headingText(hs[i])));
      b.setAttribute("aria-label", b.getAttribute("data-label"));
      /* its name is in the page's language, under a heading that may be in another */
      b.lang = doc.documentElement.lang;
      b.title = strings.copy_link || "";
      /* drawn, not a character: a link emoji is an empty box where no emoji font is installed */
      b.innerHTML = '<svg aria-hidden="true" focusable="false" width="14" height="14" viewBox="0 0 16 16"><path fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" d="M6.6 9.4a3 3 0 0 0 4.2 0l2.3-2.3a3 3 0 0 0-4.2-4.2l-1 1M9.4 6.6a3 3 0 0 0-4.2 0L2.9 8.9a3 3 0 0 0 4.2 4.2l1-1"/></svg>';
      hs[i].appendChild(b);
    }
    doc.addEventListener("click", function (e) {
      var b = e.target.closest && e.target.closest("button.copy-link");
      if (!b) return;
      var url = location.href.split("#")[0].split("?")[0] + "#" + b.getAttribute("data-anchor");
      /* says what happened for a moment, then the button's own name again (to the eye and to
         a screen reader); with no clipboard (a page served over plain HTTP from another
         machine) the link is still in the address bar, and the button says that instead */
      var say = function (text, copied) {
        b.classList.toggle("copied", copied);
        b.title = text;
        b.setAttribute("aria-label", text);
        setTimeout(function () {
          b.classList.remove("copied");
          b.title = strings.copy_link || "";
          b.setAttribute("aria-label", b.getAttribute("data-label"));
        }, 1600);
      };
      var done = function () { say(strings.link_copied || "", true); };
      var failed = function () { say(strings.link_in_address_bar || "", false); };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(url).then(done, failed);
      else failed();
      if (history.replaceState) history.replaceState(null, "", "#" + b.getAttribute("data-anchor"));
    });
  }

  /* ---- the table of contents follows the scroll; the breadcrumb names the section ---- */
  function followScroll() {
    var toc = doc.querySelector(".toc");
    var crumb = doc.querySelector(".crumb-sec");
    var hs = doc.querySelectorAll("article h2[id], article h3[id]");
    if (!hs.length) return;
    var ticking = false;
    function update() {
      ticking = false;
      var cur = null;
      for (var i = 0; i < hs.length; i++) {
        if (hs[i].getBoundingClientRect().top <= 120) cur = hs[i]; else break;
      }
      if (toc) {
        var act = toc.querySelector("a.active");
        var want = cur ? toc.querySelector('a[href="#' + (window.CSS && CSS.escape ? CSS.escape(cur.id) : cur.id) + '"]') : null;
        if (act !== want) {
          if (act) { act.classList.remove("active"); act.removeAttribute("aria-current"); }
          if (want) {
            want.classList.add("active");
            want.setAttribute("aria-current", "location");
            var tr = toc.getBoundingClientRect(), wr = want.getBoundingClientRect();
            if (wr.top < tr.top || wr.bottom > tr.bottom) toc.scrollTop += wr.top - tr.top - tr.height / 3;
          }
        }
      }
      if (crumb) {
        var txt = "";
        if (cur) {
          /* the heading's own words: not its number (put first), permalink, copy button or
             footnote marks, whose digits ran into the title ("Discarding Cards94") */
          var num = cur.querySelector(".secnum"), words = cur.cloneNode(true);
          var extra = words.querySelectorAll(".secnum, .permalink, .copy-link, sup, .footnote-reference");
          for (var x = 0; x < extra.length; x++) extra[x].remove();
          txt = " › " + (num ? num.textContent + " " : "") + words.textContent.replace(/\s+/g, " ").trim();
        }
        if (crumb.textContent !== txt) crumb.textContent = txt;
      }
    }
    window.addEventListener("scroll", function () {
      if (!ticking) { ticking = true; requestAnimationFrame(update); }
    }, { passive: true });
    update();
  }

  /* ---- theme toggle: follows the system until the reader chooses ---- */
  function themeToggle() {
    var b = doc.querySelector(".theme-toggle");
    if (!b) return;
    var html = doc.documentElement;
    var sysDark = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
    function isDark() { var t = html.dataset.theme; return t ? t === "dark" : sysDark; }
    b.hidden = false;
    b.setAttribute("aria-pressed", String(isDark()));
    b.addEventListener("click", function () {
      var next = isDark() ? "light" : "dark";
      html.dataset.theme = next;
      try { localStorage.setItem("rulebook-theme " + new URL(root, location.href).pathname, next); } catch (e) {}
      b.setAttribute("aria-pressed", String(next === "dark"));
    });
  }

  /* ---- untranslated paragraphs: each says so on hover, and a short note in the page's
     language opens every run of them, where a finger or a screen reader finds it too ---- */
  function untranslated() {
    var art = doc.querySelector("article[data-untr]");
    if (!art) return;
    var text = art.getAttribute("data-untr");
    var ps = art.querySelectorAll(".untr");
    for (var i = 0; i < ps.length; i++) {
      ps[i].title = text;
      var prev = ps[i].previousElementSibling;
      if (prev && (prev.classList.contains("untr") || prev.classList.contains("untr-note"))) continue;
      var note = el("p", "untr-note", text);
      note.lang = lang;
      ps[i].parentNode.insertBefore(note, ps[i]);
    }
  }

  /* ---- side by side: ?pair=en loads the other language's chapter and aligns the two by
     heading id (section numbers are the same in every language) ---- */
  var NUMBER = /^\d+(\.\d+)+$/;
  function sections(art) {
    var out = [], cur = { id: "", nodes: [] };
    var kids = Array.prototype.slice.call(art.childNodes);
    for (var i = 0; i < kids.length; i++) {
      var n = kids[i];
      if (n.nodeType === 1 && /^H[1-4]$/.test(n.tagName) && n.id) {
        /* white space before a numbered title is no text of its own: no empty row */
        if (cur.id || cur.nodes.some(function (x) { return x.nodeType !== 3 || x.textContent.trim(); })) out.push(cur);
        cur = { id: n.id, nodes: [] };
      }
      cur.nodes.push(n);
    }
    out.push(cur);
    return out;
  }
  function pairView() {
    var link = doc.querySelector(".pair-toggle");
    if (!link) return;
    var other = link.getAttribute("data-pair"), shown = doc.querySelector("article[data-chapter]");
    /* a chapter not translated yet shows the other language's text already: side by side,
       both columns were that text */
    if (shown && shown.getAttribute("lang") === other) return;
    var want = new URLSearchParams(location.search).get("pair");
    /* the other side is not translated yet (the build knows): not offered; an address that
       asks for it anyway gets the note below */
    var untranslated = link.hasAttribute("data-untranslated");
    if (!untranslated) link.hidden = false;
    if (want !== other) return;
    link.textContent = link.getAttribute("data-one");
    link.removeAttribute("title");
    link.setAttribute("href", location.pathname + location.hash);
    link.removeAttribute("hreflang");
    var art = doc.querySelector("article[data-chapter]");
    var url = root + other + "/" + art.getAttribute("data-chapter") + "/" + (location.protocol === "file:" ? "index.html" : "");
    function fail(said) {
      /* from a server, the other page could not be loaded: offline, and not read before
         (the note said the site was opened from disk) */
      var why = said || (location.protocol === "file:" ? strings.pair_unavailable : strings.pair_offline || strings.pair_unavailable);
      var p = el("p", "banner pair-note", why || "");
      /* named as the header's language switch names it, not by its code */
      var sw = doc.querySelector('.langs [data-lang-switch="' + other + '"]');
      var a = el("a", null, (sw && sw.textContent.trim()) || other);
      a.lang = other;
      a.href = url;
      a.hreflang = other;
      p.appendChild(doc.createTextNode(" "));
      p.appendChild(a);
      art.parentNode.insertBefore(p, art);
    }
    if (untranslated) return fail(strings.pair_untranslated);
    if (location.protocol === "file:" || !window.fetch) return fail();
    fetch(url).then(function (r) { if (!r.ok) throw r; return r.text(); }).then(function (html) {
      var d = new DOMParser().parseFromString(html, "text/html"), base = new URL(url, location.href);
      var theirs = d.querySelector("article[data-chapter]");
      if (!theirs) throw 0;
      /* the other language has not translated this chapter: its page is this text again */
      if (theirs.getAttribute("lang") === art.getAttribute("lang")) return fail(strings.pair_untranslated);
      var mine = sections(art), them = sections(theirs), byId = {};
      for (var i = 0; i < them.length; i++) byId[them[i].id] = them[i];
      var grid = el("div", "pair");
      var used = {}, ti = 0;
      function row(a, b) {
        var r = el("div", "pair-row");
        var l = el("div", "pair-cell");
        l.lang = art.lang;
        var rr = el("div", "pair-cell");
        rr.lang = theirs.getAttribute("lang");
        rr.setAttribute("data-reader", other);
        if (a) for (var k = 0; k < a.nodes.length; k++) l.appendChild(a.nodes[k]);
        if (b) for (var k2 = 0; k2 < b.nodes.length; k2++) {
          var c = doc.importNode(b.nodes[k2], true);
          if (c.nodeType === 1) {
            /* one id per page: the other language's headings keep theirs as data */
            var ided = c.querySelectorAll("[id]");
            for (var z = -1; z < ided.length; z++) {
              var x = z < 0 ? c : ided[z];
              if (x.id) { x.setAttribute("data-id", x.id); x.removeAttribute("id"); }
            }
            rebase(c, base);
            /* an anchor of this chapter: a section both columns have is its row, here; any
               other (a footnote, a heading only that language has) is on that language's page,
               where the link leads now (here it led nowhere, or to this column's own text) */
            var local = c.nodeName === "A" ? [c] : [];
            local = local.concat(Array.prototype.slice.call(c.querySelectorAll("a[href^='#']")));
            for (var y = 0; y < local.length; y++) {
              var h = local[y].getAttribute("href") || "";
              if (h.charAt(0) !== "#") continue;
              var to = h.slice(1);
              try { to = decodeURIComponent(to); } catch (e) {}
              if (!(NUMBER.test(to) && mineHas(to))) local[y].setAttribute("href", new URL(h, base).href);
            }
          }
          rr.appendChild(c);
        }
        if (a && a.id) r.setAttribute("data-section", a.id); else if (b && b.id) r.setAttribute("data-section", b.id);
        r.appendChild(l);
        r.appendChild(rr);
        grid.appendChild(r);
      }
      /* Between two sections both languages have (by id), the sections each has on its own:
         headings without a number, whose ids are made of their words and differ by
         language, are side by side in order; what one language has more stands alone. */
      var pending = [];
      function flush(upto) {
        var theirsRun = [];
        for (; ti < upto; ti++) if (!used[them[ti].id] && !mineHas(them[ti].id)) { theirsRun.push(them[ti]); used[them[ti].id] = 1; }
        var i = 0, k = 0;
        while (i < pending.length || k < theirsRun.length) {
          var a = pending[i], b = theirsRun[k];
          var an = a && NUMBER.test(a.id), bn = b && NUMBER.test(b.id);
          if (a && b && !an && !bn) { row(a, b); i++; k++; }
          /* a numbered section only one language has stands alone */
          else if (a && (an || !b)) { row(a, null); i++; }
          else { row(null, b); k++; }
        }
        pending = [];
      }
      for (var j = 0; j < mine.length; j++) {
        var m = mine[j], t = byId[m.id];
        if (t && !used[m.id]) {
          var at = them.indexOf(t);
          flush(at);
          ti = Math.max(ti, at + 1);
          used[m.id] = 1;
          row(m, t);
        } else pending.push(m);
      }
      flush(them.length);
      function mineHas(id) { for (var q = 0; q < mine.length; q++) if (mine[q].id === id) return true; return false; }
      art.textContent = "";
      art.removeAttribute("lang");
      art.appendChild(grid);
      body.classList.add("paired");
      if (window.Rulebook && Rulebook.fixFileLinks) Rulebook.fixFileLinks(grid);
      if (location.hash) {
        var target = doc.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (target) target.scrollIntoView();
      }
    }).catch(function () { fail(); });
  }

  function init() {
    body = doc.body;
    root = body.getAttribute("data-root") || "";
    lang = body.getAttribute("data-lang") || doc.documentElement.lang;
    try { strings = JSON.parse(doc.getElementById("rb-i18n").textContent); } catch (e) { strings = {}; }
    doc.addEventListener("mouseover", over);
    doc.addEventListener("mouseout", out);
    doc.addEventListener("focusin", over);
    doc.addEventListener("focusout", function (e) { if (target(e)) { wanted = null; hide(); } });
    doc.addEventListener("touchstart", function (e) {
      touched = target(e);
      shownAtTouch = !!touched && tipFor === touched && !tip.hidden;
    }, { passive: true });
    doc.addEventListener("click", click, true);
    doc.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
    themeToggle();
    copyButtons();
    untranslated();
    pairView();
    followScroll();
  }
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
