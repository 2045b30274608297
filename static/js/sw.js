/* rulebook service worker (the build writes it to the site root, with RULEBOOK_VERSION above,
 * so its scope is the whole site, wherever base_url puts it). After the first visit, the
 * site's shell and search index come from the cache, so search works offline; pages are
 * fetched from the network first and kept as they are read.
 *
 * Two caches, both named after the site's address: project sites of one GitHub user share
 * one origin, and so one cache storage, and each site's worker must leave the others' alone.
 * - the build's (its version): the theme's files and the index, served without asking the
 *   server. A new build is a new version: its worker replaces the old one and drops the old
 *   build's cache.
 * - the pages read: kept across builds, or every new build took away every page a reader
 *   had kept for offline use. They are asked of the network first, so online they are new. */
/* global RULEBOOK_VERSION, RULEBOOK_SEARCH_FILES, RULEBOOK_AID_FILES, RULEBOOK_PAGE_FILES, RULEBOOK_THEME_FILES, RULEBOOK_TOP */
"use strict";
var PREFIX = "rulebook " + self.registration.scope + " ";
var CACHE = PREFIX + RULEBOOK_VERSION;
var PAGES = PREFIX + "pages";
var SHELL = ["static/css/style.css", "static/css/search.css", "static/css/reading.css", "static/js/site.js",
  "static/js/reading.js", "static/js/analyzer.js", "static/js/search.js", "static/favicon.svg", "search/index.js",
  "404.html"];

/* A request for `req` (an address or a request, never a navigation's) that asks the server, not the browser's HTTP cache: a file the server
 * says is fresh for ten minutes (GitHub Pages) would otherwise be kept from the build before,
 * in the cache of this build, until the next. */
function fresh(req) {
  return new Request(req, { cache: "no-cache" });
}

/* The key a page is kept under: its address without the query and the fragment. `?pair=en`
 * is the page itself, and every short address (`s/?7.1.0`) is one page that reads its query. */
function pageKey(url) {
  var u = new URL(url);
  u.search = "";
  u.hash = "";
  return u.href;
}

/* One of the lists the build writes above the worker (none in a worker of an older build). */
function listed(name) {
  return typeof self[name] === "undefined" ? [] : self[name];
}

self.addEventListener("install", function (e) {
  e.waitUntil(Promise.all([caches.open(CACHE), caches.open(PAGES)]).then(function (c) {
    // One missing file must not stop the rest from being cached.
    // A small index (RULEBOOK_SEARCH_FILES, written by the build: src/search/web.rs
    // OFFLINE_INDEX_BYTES) comes whole, so every search works offline; a large one is cached
    // as it is read.
    // So do, on a small site, every file of the theme and every image (RULEBOOK_THEME_FILES,
    // src/offline.rs OFFLINE_FILES_BYTES): the icons of the first page read were missing.
    var files = SHELL.concat(listed("RULEBOOK_SEARCH_FILES"), listed("RULEBOOK_THEME_FILES")).filter(function (u, i, all) {
      return all.indexOf(u) === i;
    });
    var shell = Promise.all(files.map(function (u) {
      return c[0].add(fresh(new URL(u, self.registration.scope).href)).catch(function () {});
    }));
    // The pages open now were loaded before any worker saw them (the first visit's): kept
    // too, or the page read first is the one page that does not open offline. So is the
    // site's own address, whose page sends the reader on before a worker is there; and, on a
    // small site, every file of glossary cards and section previews (RULEBOOK_AID_FILES,
    // src/offline.rs OFFLINE_AIDS_BYTES), so that cards open offline too, and every page
    // (RULEBOOK_PAGE_FILES, OFFLINE_PAGES_BYTES), so that the whole book reads offline.
    var aids = listed("RULEBOOK_AID_FILES").concat(listed("RULEBOOK_PAGE_FILES")).map(function (u) {
      return new URL(u, self.registration.scope).href;
    });
    var open = self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (list) {
      var urls = list.map(function (w) { return w.url; }).filter(function (u) {
        return u.indexOf(self.registration.scope) === 0;
      }).concat([self.registration.scope], aids);
      return Promise.all(urls.map(function (u) {
        return fetch(fresh(u)).then(function (res) {
          if (res.ok && !res.redirected) return c[1].put(pageKey(u), res);
        }).catch(function () {});
      }));
    }).catch(function () {});
    return Promise.all([shell, open]);
  }).then(function () { return self.skipWaiting(); }));
});

/* Whether a cache of an earlier rulebook (`rulebook-VERSION`, named before caches carried the
 * site's address) is this site's: it holds this site's own script, as every such cache of a
 * site did, and nothing outside the site. Another site's is not touched: a project site
 * (`/a/`) below a user site (`/`) has every file inside the user site's address too, but not
 * the user site's script; an empty cache says nothing of whose it is. */
function oldAndOurs(name) {
  if (!/^rulebook-[0-9a-f]+$/.test(name)) return Promise.resolve(false);
  var scope = self.registration.scope, own = new URL("static/js/site.js", scope).href;
  return caches.open(name).then(function (c) { return c.keys(); }).then(function (reqs) {
    return reqs.some(function (r) { return r.url === own; }) &&
      reqs.every(function (r) { return r.url.indexOf(scope) === 0; });
  });
}

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.map(function (k) {
      var earlier = k.indexOf(PREFIX) === 0 && k !== CACHE && k !== PAGES;
      return (earlier ? Promise.resolve(true) : oldAndOurs(k)).then(function (drop) {
        if (drop) return caches.delete(k);
      });
    }));
  }).then(function () { return self.clients.claim(); }));
});

function cacheFirst(req) {
  return caches.open(CACHE).then(function (c) {
    return c.match(req).then(function (hit) {
      return hit || fetch(fresh(req)).then(function (res) {
        if (res.ok) c.put(req, res.clone());
        return res;
      });
    });
  });
}

function networkFirst(req) {
  var key = pageKey(req.url);
  return caches.open(PAGES).then(function (c) {
    return fetch(req).then(function (res) {
      // a redirect's response cannot answer a navigation from the cache
      if (res.ok && !res.redirected) c.put(key, res.clone());
      if (res.ok) return res;
      // A page the site no longer has (a chapter removed or renamed) is gone offline too:
      // its copy would otherwise be shown for it from now on, the site's answer never again.
      if (res.status === 404 || res.status === 410) {
        return c.delete(key).then(function () { return res; });
      }
      // A server that fails for a while: the copy read before is better.
      return c.match(key).then(function (hit) { return hit || res; });
    }).catch(function () {
      return c.match(key).then(function (hit) {
        if (hit || req.mode !== "navigate") return hit || Response.error();
        // A page never read, offline: the site's own "not found" page, which also sends a
        // short address (`uk/s/7.1.0/`) on to the page that reads it; marked `data-offline`,
        // so that it says the page was not saved, not that there is no such page (a search
        // result never opened said it "may have moved").
        return caches.open(CACHE).then(function (b) {
          return b.match(new URL("404.html", self.registration.scope).href);
        }).then(function (nf) {
          if (!nf) return Response.error();
          return nf.text().then(function (html) {
            return new Response(html.replace(/<html(?=[\s>])/i, "<html data-offline"), {
              status: 503, headers: nf.headers
            });
          });
        });
      });
    });
  });
}

self.addEventListener("fetch", function (e) {
  var req = e.request;
  if (req.method !== "GET" || req.url.indexOf(self.registration.scope) !== 0) return;
  var path = req.url.slice(self.registration.scope.length);
  // Only the site's own addresses: at a domain's root, the scope holds every other site of the
  // origin too (a GitHub user's project sites), whose files this worker kept in its cache.
  var top = listed("RULEBOOK_TOP"), first = path.split(/[\/?#]/)[0];
  try { first = decodeURIComponent(first); } catch (err) { return; }
  if (top.length && first && top.indexOf(first) < 0) return;
  // The index and the theme's files change only with a new build (a new worker).
  if (/^(search|static|media)\//.test(path)) e.respondWith(cacheFirst(req));
  else e.respondWith(networkFirst(req));
});
