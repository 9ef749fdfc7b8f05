// Checks livegate's console pages in headless Chromium through playwright-core, at each width
// given: whether the page scrolls sideways, whether a unit name is cut off, and what axe-core
// (npm axe-core) reports as serious or critical; it takes a screenshot of each.
//
//   node console-page.mjs OUT_DIR WIDTH[,WIDTH...] NAME=URL [NAME=URL...]
//
// It prints one JSON line per page and width:
//   {"name":N,"width":W,"status":S,"horizontalScroll":bool,"cutNames":[...],"names":[...],
//    "violations":[{"id":..,"impact":..,"nodes":n}],"log":TEXT,"screenshot":PATH}
// The browser is /usr/bin/chromium (override with CHROMIUM) with a fresh profile, deleted on exit.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, widthList, ...pages] = process.argv.slice(2);
const widths = widthList.split(',').map(Number);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const profile = mkdtempSync(join(tmpdir(), 'livegate-chromium-'));

const context = await chromium.launchPersistentContext(profile, {
  executablePath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--disable-sync'],
});
try {
  const page = await context.newPage();
  for (const entry of pages) {
    const [name, url] = [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)];
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(url, { waitUntil: 'load' });
      const layout = await page.evaluate(() => {
        const root = document.documentElement;
        const names = [...document.querySelectorAll('.name, #unit')];
        return {
          horizontalScroll: root.scrollWidth > root.clientWidth,
          // a name is cut off when its box is narrower than its text, or it leaves the viewport
          cutNames: names
            .filter((el) => el.scrollWidth > el.clientWidth + 1
              || el.getBoundingClientRect().right > root.clientWidth + 1)
            .map((el) => el.innerText),
          names: names.map((el) => el.innerText.replace(/\s+/g, '')),
          log: document.getElementById('log') ? document.getElementById('log').innerText : null,
        };
      });
      // axe runs in the page; the console's policy allows only its own script, so it is added
      // through the browser's debugging channel rather than a <script> tag
      await page.evaluate(axeSource);
      const results = await page.evaluate(async () =>
        await window.axe.run(document, { resultTypes: ['violations'] }));
      const violations = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length,
          targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
      const screenshot = join(outDir, `console-${name}-${width}.png`);
      await page.screenshot({ path: screenshot, fullPage: true });
      console.log(JSON.stringify({ name, width, status: response.status(), ...layout, violations, screenshot }));
    }
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
