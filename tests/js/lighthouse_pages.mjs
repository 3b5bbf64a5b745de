// Lighthouse on several pages in one Node process and one chromium: the CLI pays ~5 s a run to
// load Lighthouse and start a browser. Each page is still its own navigation, with the
// browser's cache and storage cleared first (Lighthouse's default), so scores are as the CLI's.
//   node tests/js/lighthouse_pages.mjs CHROMIUM FLAGS CATEGORIES OUT_DIR URL...
// writes OUT_DIR/<n>.json, the Lighthouse result of the n-th URL.
import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const [chromePath, flags, categories, out, ...urls] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: flags.split(" ") });
try {
  for (const [n, url] of urls.entries()) {
    const result = await lighthouse(url, {
      port: chrome.port, output: "json", logLevel: "error",
      onlyCategories: categories.split(","),
      disableFullPageScreenshot: true, // why: no scored audit reads it; ~1 s of CPU a run
    });
    fs.writeFileSync(path.join(out, `${n}.json`), result.report);
  }
} finally {
  await chrome.kill();
}
