// Loads posverify's HTML reports in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core from js/package-lock.json) and
// fails on
//   - any console error or uncaught page error,
//   - a chart that renders empty (its SVG has no drawn mark of the data),
//   - a chart whose data differ from the table beside it,
//   - a number that differs from the JSON report it cites (data-src="FILE#/pointer",
//     FILE beside the page),
//   - a shown number that is not its full value rounded to 4 significant digits.
//
//   node html_browser.mjs check PAGE.html...      exit 0 when every page is clean
//   node html_browser.mjs self-test PAGE.html     breaks copies of PAGE in three
//       ways (a console error, an empty chart, a number off the JSON) and exits 0
//       only if each broken copy is reported with its own reason
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.POSVERIFY_JS_DIR || path.join(here, '../../js/node_modules'), 'x.js'));
const { chromium } = require('playwright-core');
const executablePath = process.env.POSVERIFY_CHROMIUM || '/usr/bin/chromium';

function pointer(doc, ptr) {
  let v = doc;
  for (const raw of ptr.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || !(key in v)) throw new Error(`no ${ptr}`);
    v = v[key];
  }
  return v;
}

/// The JSON value as the page writes it in data-value.
function asText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

function sameNumber(a, b) {
  const x = Number(a), y = Number(b);
  if (a === '' || b === '' || Number.isNaN(x) || Number.isNaN(y)) return false;
  return x === y || Math.abs(x - y) <= 1e-15 * Math.max(Math.abs(x), Math.abs(y));
}

/// Problems of one page, as strings.
async function checkPage(browser, file) {
  const problems = [];
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(pathToFileURL(path.resolve(file)).href);
  try {
    await page.waitForFunction(() => document.body && document.body.dataset.rendered, null, { timeout: 20000 });
  } catch (e) {
    problems.push('the charts never finished rendering (no data-rendered on <body>)');
  }
  const rendered = await page.evaluate(() => document.body.dataset.rendered);
  if (rendered && rendered !== 'yes') problems.push(`charts: data-rendered=${rendered}`);
  const facts = await page.evaluate(() => {
    const out = { charts: [], cited: [] };
    for (const spec of document.querySelectorAll('script[type="application/json"][id$="-spec"]')) {
      const id = spec.id.slice(0, -5);
      const el = document.getElementById(id);
      // Marks of the data: paths, symbols and texts inside role-mark groups that
      // are not axes, legends or titles.
      let marks = 0;
      if (el)
        for (const g of el.querySelectorAll('svg g.role-mark')) {
          if (g.closest('.role-axis, .role-legend, .role-title')) continue;
          // A bar, area or point must cover an area; a line or rule a length;
          // a text must say something (a bar of height 0 draws nothing).
          const type = (g.getAttribute('class').match(/mark-(\w+)/) || [])[1];
          for (const item of g.children) {
            const box = item.getBBox ? item.getBBox() : { width: 0, height: 0 };
            const d = item.getAttribute('d') || '';
            if (d.includes('NaN') || !Number.isFinite(box.width) || !Number.isFinite(box.height)) continue;
            const drawn = type === 'line' || type === 'rule' ? box.width > 0 || box.height > 0
                        : type === 'text' ? item.textContent.trim() !== ''
                        : box.width > 0 && box.height > 0;
            if (drawn) marks++;
          }
        }
      const table = document.querySelector(`table[data-chart="${id}"]`);
      const rows = table ? [...table.querySelectorAll('tbody tr')].map((tr) =>
        Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.field, td.dataset.value]))) : null;
      let data = [];
      try { data = JSON.parse(spec.textContent).data.values; } catch (e) { data = [`unreadable spec: ${e}`]; }
      out.charts.push({ id, marks, svg: !!(el && el.querySelector('svg')), data, rows });
    }
    for (const el of document.querySelectorAll('[data-src]'))
      out.cited.push({ src: el.dataset.src, value: el.dataset.value, shown: el.textContent });
    return out;
  });
  if (facts.charts.length === 0) problems.push('no chart in the page');
  for (const c of facts.charts) {
    if (!c.svg) problems.push(`chart ${c.id}: no SVG`);
    else if (c.marks === 0) problems.push(`chart ${c.id}: renders empty (no drawn mark)`);
    if (!c.rows) { problems.push(`chart ${c.id}: no table beside it`); continue; }
    if (c.rows.length !== c.data.length) problems.push(`chart ${c.id}: ${c.data.length} data rows, ${c.rows.length} table rows`);
    c.rows.forEach((r, i) => {
      for (const [f, v] of Object.entries(r)) {
        const d = asText(c.data[i] ? c.data[i][f] : undefined);
        if (d !== v && !sameNumber(d, v)) problems.push(`chart ${c.id} row ${i} ${f}: chart has ${d}, table ${v}`);
      }
    });
  }
  const jsons = {};
  for (const { src, value, shown } of facts.cited) {
    const [name, ptr] = src.split('#');
    const jf = path.join(path.dirname(file), name);
    try {
      jsons[jf] ??= JSON.parse(fs.readFileSync(jf, 'utf8'));
      const want = asText(pointer(jsons[jf], ptr));
      if (want !== value && !sameNumber(want, value)) problems.push(`${src}: the page says ${value}, the JSON ${want}`);
    } catch (e) {
      problems.push(`${src}: ${e.message}`);
    }
    // Shown: an integer whole, any other number within half a unit of its 4th digit.
    const x = Number(value);
    if (value !== '' && !Number.isNaN(x) && /^[-+0-9.eE]+$/.test(value)) {
      const y = Number(shown);
      const half = x === 0 ? 0 : 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(x))) - 3) * (1 + 1e-9);
      const good = Number.isInteger(x) && Math.abs(x) < 1e15 ? y === x && !/e/i.test(shown) : Math.abs(y - x) <= half;
      if (!good) problems.push(`${src}: shown as ${shown}, the value is ${value} (4 significant digits: ${x.toPrecision(4)})`);
    }
  }
  console.log(`${file}: ${facts.charts.length} charts, ${facts.charts.reduce((a, c) => a + c.marks, 0)} marks, ` +
              `${facts.cited.length} numbers compared with the JSON`);
  await page.close();
  return problems;
}

async function withBrowser(fn) {
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try { return await fn(browser); } finally { await browser.close(); }
}

const [mode, ...files] = process.argv.slice(2);
if (!['check', 'self-test'].includes(mode) || files.length === 0) {
  console.error('usage: html_browser.mjs check PAGE.html... | self-test PAGE.html');
  process.exit(2);
}

if (mode === 'check') {
  let bad = 0;
  await withBrowser(async (b) => {
    for (const f of files) {
      const p = await checkPage(b, f);
      for (const x of p) console.log(`  FAIL ${f}: ${x}`);
      bad += p.length;
    }
  });
  process.exit(bad ? 1 : 0);
}

// self-test: each way of breaking the page must be caught, with its reason.
const file = files[0];
const html = fs.readFileSync(file, 'utf8');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pv-html-'));
for (const j of fs.readdirSync(path.dirname(file)).filter((n) => n.endsWith('.json')))
  fs.copyFileSync(path.join(path.dirname(file), j), path.join(dir, j));
const firstSpec = /(<script type="application\/json" id="[^"]+-spec">)\{/;
const breaks = [
  { name: 'console error', expect: /console error|page error/,
    html: html.slice(0, html.lastIndexOf('</body>')) + '<script>console.error("planted error");</script></body></html>\n' },
  { name: 'empty chart', expect: /renders empty|no SVG/,
    // the first chart's spec filters every row out: it draws nothing
    html: html.replace(firstSpec, '$1{"transform":[{"filter":"false"}],') },
  { name: 'number off the JSON', expect: /the page says .* the JSON/,
    html: html.replace(/(data-value=")([0-9]+)("[^>]*data-src=)/, (m, a, v, b) => a + String(Number(v) + 1) + b) },
];
let ok = true;
await withBrowser(async (b) => {
  for (const br of breaks) {
    if (br.html === html) { console.log(`self-test: could not plant "${br.name}"`); ok = false; continue; }
    const f = path.join(dir, `broken-${br.name.replace(/ /g, '-')}.html`);
    fs.writeFileSync(f, br.html);
    const p = await checkPage(b, f);
    const hit = p.some((x) => br.expect.test(x));
    console.log(`self-test ${br.name}: ${hit ? 'reported' : 'NOT reported'} (${p.length} problems${p.length ? ': ' + p[0] : ''})`);
    ok &&= hit;
  }
});
fs.rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
