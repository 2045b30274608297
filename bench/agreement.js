#!/usr/bin/env node
/* Whether the command line and the browser give the same top ten on a built site: each query
 * of a list through `rulebook search --json --limit 10` and through static/js/search.js run
 * in Node over the site's search/ folder (each on a fresh page, tiers loaded only as its proof
 * asks, as in a browser; see search_bytes.js), compared URL by URL.
 *
 *   node bench/agreement.js RULEBOOK SITE QUERIES.json
 *
 * RULEBOOK: the binary; SITE: a site folder built by it (content/ and public/);
 * QUERIES.json: [[query, language], …] (bench/search_queries.json). Prints each query whose
 * lists differ, then the count that agree. Exits 1 when any differs. */
"use strict";
const fs = require("fs"), path = require("path"), { execFileSync } = require("child_process");
const { page } = require("./search_bytes.js");

async function main() {
  const [bin, site, list] = process.argv.slice(2);
  if (!bin || !site || !list) {
    console.error("usage: node bench/agreement.js RULEBOOK SITE QUERIES.json");
    process.exit(2);
  }
  const queries = JSON.parse(fs.readFileSync(list, "utf8"));
  const jsdir = path.join(__dirname, "..", "static", "js");
  let agree = 0;
  for (const [q, lang] of queries) {
    const web = (await page(path.join(site, "public"), jsdir).S.query(q, lang)).slice(0, 10).map((h) => h.url);
    // the query last, after `--`: a query may begin with `-`
    let cli;
    try {
      const out = execFileSync(bin, ["search", "--site", site, "--lang", lang, "--limit", "10", "--json", "--", q], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      cli = JSON.parse(out).map((h) => h.url);
    } catch (e) {
      // a query the command line refuses (one of white space only is an error there) is a
      // difference to report, not the end of the run
      const why = (e.stderr || e.message || "").toString().trim().split("\n")[0];
      console.log(`${lang}\t${JSON.stringify(q)}\n  cli failed (exit ${e.status}): ${why}\n  web ${web.join(" ")}`);
      continue;
    }
    if (JSON.stringify(cli) === JSON.stringify(web)) agree++;
    else console.log(`${lang}\t${q}\n  cli ${cli.join(" ")}\n  web ${web.join(" ")}`);
  }
  console.log(`${agree}/${queries.length} queries: the same top ten`);
  process.exit(agree === queries.length ? 0 : 1);
}
main().catch((e) => { console.error(e); process.exit(1); });
