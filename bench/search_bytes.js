#!/usr/bin/env node
/* What each search of a list loads from a built site's index, and whether its results are
 * those of loading every tier: static/js/search.js run in Node over the site's search/
 * folder, each query on a fresh page (nothing loaded before it).
 *
 *   node bench/search_bytes.js PUBLIC QUERIES.json [STATIC_JS]
 *
 * PUBLIC: a built site; QUERIES.json: [[query, language], …] (bench/search_queries.json has
 * the list BENCHMARKS.md quotes); STATIC_JS: the folder of search.js and analyzer.js to run
 * (default: this repository's static/js, so two versions of the script can be compared on
 * one index). Prints one line per query (gzip bytes of the term shards, tier files and group
 * heads it loaded, the files, and `DIFFERS` when its top ten is not the exhaustive one), then
 * the total. The document chunks of the results are left out: they are the same for every
 * way of proving the order, and the browser loads only the first few (search.js EAGER).
 *
 * This is for comparing index layouts quickly, not the measurement of record: that is
 * `measure_search` in tests/browser_search.rs, in headless Chromium. Script files are "loaded"
 * by evaluating them in the same context, in the order asked, as a browser would run them. */
"use strict";
const fs = require("fs"), path = require("path"), vm = require("vm"), zlib = require("zlib");

function page(site, jsdir) {
  const loaded = [];
  const ctx = { console, setTimeout, setImmediate, Promise, Map, Set, Math, JSON, Array, Object, String, Number, Error,
    Infinity, Int8Array, Uint8Array, Int32Array, Float64Array };
  ctx.window = ctx;
  ctx.location = { protocol: "file:" };
  ctx.navigator = {};
  ctx.addEventListener = () => {};
  const head = {
    appendChild(s) {
      setImmediate(() => {
        const file = s.src.startsWith("static/js/") ? path.join(jsdir, s.src.slice(10)) : path.join(site, s.src);
        let bytes;
        try { bytes = fs.readFileSync(file); } catch (e) { s.onerror(); return; }
        loaded.push([s.src, zlib.gzipSync(bytes, { level: 6 }).length]);
        vm.runInContext(bytes.toString(), ctx, { filename: file });
        s.onload();
      });
    }
  };
  ctx.document = {
    readyState: "complete", head, currentScript: null, documentElement: { lang: "en" },
    body: { getAttribute: () => "" }, getElementById: () => null, addEventListener() {},
    createElement: () => ({ setAttribute() {}, hasAttribute: () => false })
  };
  vm.createContext(ctx);
  for (const f of ["analyzer.js", "search.js"]) vm.runInContext(fs.readFileSync(path.join(jsdir, f), "utf8"), ctx);
  return { S: ctx.RulebookSearch, loaded };
}

async function main() {
  const [site, list, jsdir = path.join(__dirname, "..", "static", "js")] = process.argv.slice(2);
  if (!site || !list) {
    console.error("usage: node bench/search_bytes.js PUBLIC QUERIES.json [STATIC_JS]");
    process.exit(2);
  }
  const queries = JSON.parse(fs.readFileSync(list, "utf8"));
  let total = 0, over = 0, differ = 0;
  for (const [q, lang] of queries) {
    const every = page(site, jsdir);
    every.S.exhaustive = true;
    const want = (await every.S.query(q, lang)).map((h) => h.url).join(" ");
    const p = page(site, jsdir);
    const got = (await p.S.query(q, lang)).map((h) => h.url).join(" ");
    const proof = p.loaded.filter(([f]) => /^search\/[tpr]\//.test(f));
    const bytes = proof.reduce((n, [, b]) => n + b, 0);
    total += bytes;
    if (bytes > 20 * 1024) over++;
    if (got !== want) differ++;
    console.log(`${lang}\t${q}\t${bytes}\t${proof.map(([f]) => f.slice(7)).join(" ")}${got === want ? "" : "\tDIFFERS"}`);
  }
  console.log(`${queries.length} queries: ${(total / 1024).toFixed(0)} KB gz in all, ${over} over 20 KB, ${differ} ranked otherwise than with every tier loaded`);
}
if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });
module.exports = { page };
