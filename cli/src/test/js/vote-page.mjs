// Drives livegate's local vote and status pages in headless Chromium through playwright-core.
//
// Two ways to run it:
//
//   node vote-page.mjs URL [SCREENSHOT.png]      (or LIVEGATE_URL=... node vote-page.mjs)
//     opens one page and prints what it shows as one JSON line; for trying a link by hand.
//
//   node vote-page.mjs --steps
//     reads one JSON step per line on stdin and answers each with one JSON line on stdout, in one
//     browser session, so a test can check the metadb between steps (VotePageBrowserTest does).
//     Steps: {"do":"open","tab":T,"url":U}, {"do":"click","tab":T,"selector":S},
//            {"do":"fill","tab":T,"selector":S,"text":X}, {"do":"screenshot","tab":T,"path":P},
//            {"do":"quit"}.
//
// Every answer is {"ok":true,...} or {"ok":false,"error":"..."}. The browser is /usr/bin/chromium
// (override with CHROMIUM) with a fresh profile that is deleted on exit.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const profile = mkdtempSync(join(tmpdir(), 'livegate-chromium-'));

const context = await chromium.launchPersistentContext(profile, {
  executablePath,
  headless: true,
  viewport: { width: 1100, height: 800 },
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
});
const tabs = new Map();

async function tab(name) {
  if (!tabs.has(name)) {
    tabs.set(name, await context.newPage());
  }
  return tabs.get(name);
}

/**
 * What a livegate page shows: the parts the tests look at, by their ids. The status page reloads
 * itself every 2 s while a deployment runs; a read cut off by that reload is tried again.
 */
async function describe(page, response) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read(page, response);
    } catch (error) {
      if (attempt >= 3 || !/context was destroyed|navigat/i.test(String(error))) throw error;
      await page.waitForLoadState('load');
    }
  }
}

async function read(page, response) {
  const text = async (selector) => {
    const element = await page.$(selector);
    return element ? (await element.innerText()).trim() : null;
  };
  return {
    status: response ? response.status() : null,
    url: page.url(),
    title: await page.title(),
    heading: await text('h1'),
    unit: await text('#unit'),
    summary: await text('#summary'),
    plan: await text('#plan'),
    result: await text('#result'),
    confirm: await text('#confirm'),
    deploymentStatus: await text('#status'),
    // the rows of the votes table (the vote page's "Votes so far", the console's "Votes"), header
    // row left out, each row's cells as shown
    votes: await page.$$eval('#votes tr', (rows) =>
      rows
        .filter((row) => row.querySelector('td'))
        .map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.innerText.trim())),
    ),
    consoleLink: await page.$eval('#console', (link) => link.href).catch(() => null),
    units: await page.$$eval('svg g.unit', (groups) =>
      groups.map((group) => ({
        unit: group.getAttribute('data-unit'),
        status: group.getAttribute('data-status'),
        visible: group.getBoundingClientRect().width > 0,
      })),
    ),
  };
}

/**
 * A tab's page for an "open": a new page in place of the tab's old one. The old document's timers
 * die with it: the status page's 2 s reload, fired while a slow server still answered the new URL,
 * aborted that navigation (net::ERR_ABORTED) on a loaded machine.
 */
async function freshTab(name) {
  const old = tabs.get(name);
  tabs.set(name, await context.newPage());
  if (old) await old.close();
  return tabs.get(name);
}

async function perform(step) {
  const page = step.do === 'open' ? await freshTab(step.tab || 'main') : await tab(step.tab || 'main');
  switch (step.do) {
    case 'open': {
      const response = await page.goto(step.url, { waitUntil: 'load' });
      return describe(page, response);
    }
    case 'click': {
      // The confirm button submits a form: wait for the answer to that navigation.
      const [response] = await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.click(step.selector || '#confirm'),
      ]);
      return describe(page, response);
    }
    case 'fill': {
      await page.fill(step.selector, step.text);
      return describe(page, null);
    }
    case 'screenshot':
      await page.screenshot({ path: step.path, fullPage: true });
      return { path: step.path };
    default:
      throw new Error(`unknown step "${step.do}"`);
  }
}

async function answer(step) {
  try {
    return { ok: true, ...(await perform(step)) };
  } catch (error) {
    return { ok: false, error: String(error && error.message ? error.message : error) };
  }
}

try {
  const args = process.argv.slice(2);
  if (args[0] === '--steps') {
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      let step;
      try {
        step = JSON.parse(line);
      } catch (error) {
        process.stdout.write(JSON.stringify({ ok: false, error: `not JSON: ${line}` }) + '\n');
        continue;
      }
      if (step.do === 'quit') break;
      process.stdout.write(JSON.stringify(await answer(step)) + '\n');
    }
  } else {
    const url = args[0] || process.env.LIVEGATE_URL;
    if (!url) {
      console.error('usage: node vote-page.mjs URL [SCREENSHOT.png] | node vote-page.mjs --steps');
      process.exitCode = 2;
    } else {
      const result = await answer({ do: 'open', url });
      if (args[1] && result.ok) {
        await perform({ do: 'screenshot', path: args[1] });
      }
      process.stdout.write(JSON.stringify(result) + '\n');
      process.exitCode = result.ok ? 0 : 1;
    }
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
