/* rulebook service worker (the build writes it to the site root, with RULEBOOK_VERSION above,
 * so its scope is the whole site, wherever base_url puts it). After the first visit, the
 * site's shell and search index come from the cache, so search works offline; pages are
 * fetched from the network first and cached as they are read. A new build is a new version:
 * its worker replaces the old one and drops the old caches. */
/* global RULEBOOK_VERSION, RULEBOOK_SEARCH_FILES */
"use strict";
var CACHE = "rulebook-" + RULEBOOK_VERSION;
var SHELL = ["static/css/style.css", "static/css/search.css", "static/css/reading.css", "static/js/site.js",
  "static/js/reading.js", "static/js/analyzer.js", "static/js/search.js", "static/favicon.svg", "search/index.js"];

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(CACHE).then(function (c) {
    // One missing file must not stop the rest from being cached.
    // A small index (RULEBOOK_SEARCH_FILES, written by the build: src/search/web.rs
    // OFFLINE_INDEX_BYTES) comes whole, so every search works offline; a large one is cached
    // as it is read.
    var files = SHELL.concat(typeof RULEBOOK_SEARCH_FILES === "undefined" ? [] : RULEBOOK_SEARCH_FILES);
    var shell = Promise.all(files.map(function (u) {
      return c.add(new URL(u, self.registration.scope)).catch(function () {});
    }));
    // The pages open now were loaded before any worker saw them (the first visit's): kept
    // too, or the page read first is the one page that does not open offline.
    var open = self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (list) {
      return Promise.all(list.filter(function (w) {
        return w.url.indexOf(self.registration.scope) === 0;
      }).map(function (w) {
        return c.add(w.url.split("#")[0]).catch(function () {});
      }));
    }).catch(function () {});
    return Promise.all([shell, open]);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) {
      return k.indexOf("rulebook-") === 0 && k !== CACHE;
    }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function cacheFirst(req) {
  return caches.open(CACHE).then(function (c) {
    return c.match(req).then(function (hit) {
      return hit || fetch(req).then(function (res) {
        if (res.ok) c.put(req, res.clone());
        return res;
      });
    });
  });
}

function networkFirst(req) {
  return caches.open(CACHE).then(function (c) {
    return fetch(req).then(function (res) {
      if (res.ok) c.put(req, res.clone());
      // A server that lost the page (or a captive portal): the copy read before is better.
      return res.ok ? res : c.match(req).then(function (hit) { return hit || res; });
    }).catch(function () {
      return c.match(req).then(function (hit) { return hit || Response.error(); });
    });
  });
}

self.addEventListener("fetch", function (e) {
  var req = e.request;
  if (req.method !== "GET" || req.url.indexOf(self.registration.scope) !== 0) return;
  var path = req.url.slice(self.registration.scope.length);
  // The index and the theme's files change only with a new build (a new worker).
  if (/^(search|static|media)\//.test(path)) e.respondWith(cacheFirst(req));
  else e.respondWith(networkFirst(req));
});
