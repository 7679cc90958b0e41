// The puzzle player (GET /embed, /embed/puzzles/{id}) in Debian's Chromium, driven by
// Playwright, against a real server. Run by tests/browser.rs, which starts `baroque serve` and
// passes BAROQUE_URL, BAROQUE_PUZZLES (fixture name -> stored id) and CHROMIUM.
//
// Every step goes through the page's contract: `.square[data-square]`, `[data-piece]`, the
// `role="status"` verdict, `[data-action]` buttons, postMessage events.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const base = process.env.BAROQUE_URL;
const ids = JSON.parse(process.env.BAROQUE_PUZZLES || '{}');
const CHAMELEON = ids['wp-chameleon-mate-in-2'];
const ROCOCO = ids['rc-leaper-takes-king-in-1'];
const HELPMATE = '/embed?fen=' + encodeURIComponent('2PP4/4Q3/8/8/3k4/1KP5/8/8 b 0') + '&stipulation=' + encodeURIComponent('h#2');
const artifacts = new URL('./artifacts/', import.meta.url);

let browser;

before(async () => {
  assert.ok(base, 'BAROQUE_URL names the server');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
});

after(async () => {
  await browser?.close();
});

/** Opens a player page and waits for its first board; page errors are collected. */
async function open(path, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.addInitScript(() => {
    window.__events = [];
    window.addEventListener('message', (e) => {
      if (e.data && e.data.type === 'baroque-puzzle') window.__events.push(e.data);
    });
  });
  const response = await page.goto(base + path);
  assert.equal(response.status(), 200);
  await page.waitForSelector('html[data-ready="true"]');
  return { page, errors, context };
}

const squares = (uci) => {
  const m = /^([a-z])(\d+)([a-z])(\d+)/.exec(uci);
  return [m[1] + m[2], m[3] + m[4]];
};
// `page` is a page or a frame (anything with `locator`).
const square = (page, sq) => page.locator(`.square[data-square="${sq}"]`);

async function settled(page) {
  await page.locator('html[data-ready="true"]:not([data-busy])').waitFor();
}

async function clickMove(page, uci) {
  const [from, to] = squares(uci);
  await square(page, from).click();
  await square(page, to).click();
  await settled(page);
}

/** The verdict's machine word (`data-verdict` of the `role="status"` element), '' when none. */
async function verdict(page) {
  return (await page.locator('[role="status"]').getAttribute('data-verdict')) || '';
}

/** The verdict's sentence: words only, no machine word, backtick or UCI. */
async function verdictText(page) {
  const text = (await page.locator('[role="status"]').textContent()).trim();
  assert.doesNotMatch(text, /`|\b[a-j]\d{1,2}[a-j]\d{1,2}\b|^(correct|wrong|illegal|solved|unknown)\b/, text);
  return text;
}

async function api(path, body) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, path);
  return response.json();
}

/** The key of a mate in one of the board shown. */
async function mateInOne(page, game) {
  const fen = await page.locator('#board').getAttribute('data-fen');
  const solved = await api('/v1/solve', { fen, game, stipulation: '#1' });
  assert.ok(solved.keys.length > 0, `a mate in one in ${fen}`);
  return solved.keys[0].uci;
}

test('the Chameleon mate in 2 is solved by clicks, with its events', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  assert.equal(await page.locator('[data-piece]').count(), 13);
  assert.equal(await page.locator('.square[data-square]').count(), 64);
  assert.match(await square(page, 'g6').getAttribute('aria-label'), /^g6: white Chameleon/);
  await clickMove(page, 'g6c6');
  assert.equal(await verdict(page), 'correct');
  assert.match(await verdictText(page), /^Correct! Black answers \S+\.$/);
  // The reply was played: both moves are listed, numbered as problemists write them.
  assert.equal(await page.locator('#moves li').count(), 1);
  assert.match(await page.locator('#moves li').textContent(), /^1\.Bg6xc6! \S+$/);
  await clickMove(page, await mateInOne(page, 'baroque'));
  assert.match(await verdict(page), /^solved/);
  const lines = await page.locator('#moves li').allTextContents();
  assert.equal(lines.length, 2, JSON.stringify(lines));
  assert.match(lines[1], /^2\.\S+#$/, JSON.stringify(lines));
  const events = await page.evaluate(() => window.__events);
  assert.deepEqual(events.filter((e) => e.event === 'move').map((e) => e.verdict), ['correct', 'solved']);
  assert.equal(events.filter((e) => e.event === 'solved').length, 1);
  assert.equal(events[0].puzzle_id, CHAMELEON);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the last move is highlighted: its from and to squares', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  assert.equal(await page.locator('.square.last').count(), 0);
  await clickMove(page, 'g6c6');
  assert.match(await verdict(page), /^correct/);
  // The service's reply was the last move played on the board.
  const answer = await api(`/v1/puzzles/${CHAMELEON}/play`, { moves: ['Bg6xc6'] });
  const uci = answer.reply.uci;
  assert.equal(await page.locator('#board').getAttribute('data-last'), uci);
  const marked = await page.locator('.square.last').evaluateAll((rects) => rects.map((r) => r.getAttribute('data-square')).sort());
  assert.deepEqual(marked, [uci.slice(0, 2), uci.slice(2, 4)].sort());
  // Its colour is the theme's, not a destination's or the plain square's.
  const fill = await page.locator('.square.last').first().evaluate((r) => getComputedStyle(r).fill);
  assert.equal(fill, 'rgb(217, 197, 138)');
  await page.locator('[data-action="retry"]').click();
  await page.waitForFunction(() => !document.querySelector('#board').hasAttribute('data-last'));
  assert.equal(await page.locator('.square.last').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a wrong key is refuted, then retried', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  const start = await page.locator('#board').getAttribute('data-fen');
  await clickMove(page, 'a6a7');
  assert.equal(await verdict(page), 'wrong');
  assert.match(await verdictText(page), /^Refuted by \S+\. Try again\.$/);
  // The board shows the position the refutation leaves, as the service draws it.
  const after = await page.locator('#board').getAttribute('data-fen');
  assert.notEqual(after, start);
  assert.equal(await page.locator('[data-piece="P"][data-square="a7"]').count(), 1);
  const events = await page.evaluate(() => window.__events);
  assert.ok(events.some((e) => e.event === 'wrong' && e.move === 'Pa6-a7'), JSON.stringify(events));
  await page.locator('[data-action="retry"]').click();
  await settled(page);
  assert.equal(await verdict(page), '');
  assert.equal(await page.locator('#moves li').count(), 0);
  assert.equal(await page.locator('#board').getAttribute('data-fen'), start);
  await clickMove(page, 'g6c6');
  assert.match(await verdict(page), /^correct/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an illegal move is named and the piece stays', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  const start = await page.locator('#board').getAttribute('data-fen');
  await clickMove(page, 'a1a3');
  assert.equal(await verdict(page), 'illegal');
  assert.equal(await verdictText(page), 'The white King on a1 cannot move to a3.');
  assert.equal(await page.locator('#board').getAttribute('data-fen'), start);
  assert.equal(await page.locator('[data-piece="K"]').getAttribute('data-square'), 'a1');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Rococo mate, on the 10x10 board', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${ROCOCO}`);
  assert.equal(await page.locator('.square[data-square]').count(), 100);
  await clickMove(page, await mateInOne(page, 'rococo'));
  assert.match(await verdict(page), /^solved/);
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * The piece key of a page: opened by its button, each kind of piece on the board once (the board's
 * own names, `white Long Leaper` less the colour), each with a picture, a name and a line.
 */
async function pieceKey(page) {
  const button = page.locator('[data-action="key"]');
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('#piece-key').isVisible(), false);
  await button.click();
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  assert.equal(await page.locator('#piece-key').isVisible(), true);
  const onBoard = await page.$$eval('#board .piece title', (titles) =>
    [...new Set(titles.map((t) => t.textContent.replace(/ on \S+$/, '').replace(/^(white|black) /, '')))]);
  const entries = await page.$$eval('#piece-key dt', (terms) => terms.map((dt) => ({
    role: dt.getAttribute('data-role'),
    name: dt.textContent.trim(),
    picture: dt.querySelectorAll('svg.glyph path, svg.glyph use, svg.glyph circle').length,
    line: dt.nextElementSibling && dt.nextElementSibling.tagName === 'DD' ? dt.nextElementSibling.textContent : '',
  })));
  assert.deepEqual(entries.map((e) => e.role).sort(), onBoard.sort());
  for (const e of entries) {
    assert.ok(e.name.length > 0 && e.picture > 0 && e.line.length > 20, JSON.stringify(e));
  }
  return entries;
}

test('the piece key names each kind of piece on the board, in the page\'s language', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  const entries = await pieceKey(page);
  const chameleon = entries.find((e) => e.role === 'Chameleon');
  assert.ok(chameleon && /captures each enemy piece the way that piece captures/.test(chameleon.line));
  assert.ok(entries.some((e) => e.role === 'Long Leaper' && /jumping over/.test(e.line)));
  await page.locator('[data-action="key"]').click();
  assert.equal(await page.locator('#piece-key').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();

  const french = await open(`/embed/puzzles/${CHAMELEON}?lang=fr`);
  assert.equal(await french.page.locator('[data-action="key"]').textContent(), 'Pièces');
  const fr = await pieceKey(french.page);
  assert.equal(fr.find((e) => e.role === 'Chameleon').name, 'Caméléon');
  assert.deepEqual(french.errors, []);
  await french.context.close();
});

test('a Rococo page\'s piece key has Rococo\'s pieces and the edge squares\' rule', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${ROCOCO}?coords=page`);
  const entries = await pieceKey(page);
  assert.ok(entries.some((e) => e.role === 'King' && /capturing the enemy King/.test(e.line)));
  assert.match(await page.locator('#piece-key-note').textContent(), /only to capture/);
  assert.deepEqual(errors, []);
  await context.close();
  // The start position holds every kind of Rococo piece.
  const start = '10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0';
  const all = await open('/embed?fen=' + encodeURIComponent(start) + '&game=rococo&stipulation=' + encodeURIComponent('#2'));
  const roles = (await pieceKey(all.page)).map((e) => e.role);
  for (const role of ['Cannon Pawn', 'Swapper', 'Advancer', 'Chameleon', 'Immobilizer', 'Withdrawer', 'Long Leaper', 'King']) {
    assert.ok(roles.includes(role), `${role} in ${roles}`);
  }
  assert.deepEqual(all.errors, []);
  await all.context.close();
});

/**
 * The player's problemist notation, highlighting and sentences on Rococo's 10x10 board: the issue's
 * `#3` (key `Kg5-f4`), its reply highlighted and numbered after the key's `!`, then, after a retry,
 * a wrong first move refuted in words; the refused page of a Rococo position without both Kings.
 */
test('a Rococo #3: the key numbered with its answer, the reply highlighted, a wrong move refuted in words', async () => {
  const fen = '10/10/6A3/10/1W8/6K3/10/10/5k4/10 w 0';
  const path = '/embed?fen=' + encodeURIComponent(fen) + '&game=rococo&stipulation=' + encodeURIComponent('#3');
  const { page, errors, context } = await open(path);
  const solved = await api('/v1/solve', { fen, game: 'rococo', stipulation: '#3' });
  assert.deepEqual(solved.keys.map((k) => k.notation), ['Kg5-f4']);
  const key = solved.keys[0];
  await clickMove(page, key.uci);
  assert.equal(await verdict(page), 'correct');
  assert.match(await verdictText(page), /^Correct! Black answers \S+\.$/);
  const reply = (await api('/v1/play', { fen, game: 'rococo', stipulation: '#3', moves: [key.notation] })).reply;
  assert.equal(await page.locator('#board').getAttribute('data-last'), reply.uci);
  const marked = await page.locator('.square.last').evaluateAll((rects) => rects.map((r) => r.getAttribute('data-square')).sort());
  assert.deepEqual(marked, squares(reply.uci).sort());
  assert.deepEqual(await page.locator('#moves li').allTextContents(), [`1.Kg5-f4! ${reply.notation}`]);

  // A first move that is no key, refuted: in words, and Black's refutation played.
  await page.locator('[data-action="retry"]').click();
  await settled(page);
  const analysis = await api('/v1/analyze', { fen, game: 'rococo' });
  let wrong = null;
  for (const m of analysis.moves) {
    if (solved.keys.some((k) => k.uci === m.uci) || squares(m.uci)[0] === squares(m.uci)[1]) continue;
    const judged = await api('/v1/play', { fen, game: 'rococo', stipulation: '#3', moves: [m.notation] });
    if (judged.verdict === 'wrong' && judged.refutation) {
      wrong = { move: m, refutation: judged.refutation };
      break;
    }
  }
  assert.ok(wrong, 'a refuted first move');
  await clickMove(page, wrong.move.uci);
  assert.equal(await verdict(page), 'wrong');
  assert.equal(await verdictText(page), `Refuted by ${wrong.refutation.notation}. Try again.`);
  assert.deepEqual(errors, []);
  await context.close();

  // A Rococo board without both Kings cannot be played: the refusal in the player's style.
  const bare = '/embed?fen=' + encodeURIComponent('10/10/6A3/10/1W8/6K3/10/10/10/10 w 0') + '&game=rococo&stipulation=' + encodeURIComponent('#2');
  const refusal = await browser.newContext();
  const refused = await refusal.newPage();
  const response = await refused.goto(base + bare);
  assert.equal(response.status(), 422);
  assert.match(response.headers()['content-type'], /^text\/html/);
  assert.match(await refused.locator('body').textContent(), /both Kings/);
  await refusal.close();
});

test('a helpmate is played move by move, both sides by the solver', async () => {
  const { page, errors, context } = await open(HELPMATE);
  for (const uci of ['d4e4', 'c3f3', 'e4d3']) {
    await clickMove(page, uci);
    assert.match(await verdict(page), /^correct/, uci);
  }
  await clickMove(page, 'e7e3');
  assert.match(await verdict(page), /^solved/);
  // Black starts a helpmate: each number holds Black's move and White's answer, no key mark.
  const lines = await page.locator('#moves li').allTextContents();
  assert.equal(lines.length, 2, JSON.stringify(lines));
  assert.match(lines[0], /^1\.Kd4-e4 \S+$/, JSON.stringify(lines));
  assert.match(lines[1], /^2\.\S+ \S+#$/, JSON.stringify(lines));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a selfmate: the key, then the forced mate of Black is played', async () => {
  const fen = encodeURIComponent('8/8/8/6M1/6m1/3B1K2/8/4k3 w 0');
  const { page, errors, context } = await open(`/embed?fen=${fen}&stipulation=${encodeURIComponent('s#1')}`);
  await clickMove(page, 'd3e2');
  assert.equal(await verdict(page), 'solved');
  assert.equal(await verdictText(page), 'Solved! Black answers Ke1xe2.');
  assert.deepEqual(await page.locator('#moves li').allTextContents(), ['1.Bd3-e2! Ke1xe2#']);
  // The Chameleon taken on e2 is gone, the black King stands there.
  assert.equal(await page.locator('[data-square="e2"][data-piece="k"]').count(), 1);
  assert.equal(await page.locator('[data-piece="B"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a puzzle solved by keyboard alone', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  const files = 'abcdefgh';
  // The focus ring starts on the top-left square, a8; arrows move it as the board is drawn.
  let at = 'a8';
  const go = async (sq) => {
    const dx = files.indexOf(sq[0]) - files.indexOf(at[0]);
    const dy = Number(at.slice(1)) - Number(sq.slice(1));
    for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? 'ArrowDown' : 'ArrowUp');
    at = sq;
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-square')), sq);
  };
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-square')), 'a8');
  for (const uci of ['g6c6', null]) {
    const [from, to] = squares(uci || (await mateInOne(page, 'baroque')));
    await go(from);
    await page.keyboard.press('Enter');
    assert.match(await square(page, from).getAttribute('class'), /\bselected\b/);
    await go(to);
    await page.keyboard.press(' ');
    await settled(page);
  }
  assert.match(await verdict(page), /^solved/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the hint names the square to move from', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  await page.locator('[data-action="hint"]').click();
  await page.waitForSelector('.square.hint');
  assert.equal(await page.locator('.square.hint').getAttribute('data-square'), 'g6');
  assert.match(await page.locator('#message').textContent(), /g6/);
  await page.locator('[data-action="solution"]').click();
  await page.waitForSelector('#solution-text:not([hidden])');
  assert.match(await page.locator('#solution-text').textContent(), /Bg6xc6/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a piece dragged to its square is played; a second click puts a piece down', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  await square(page, 'g6').click();
  await square(page, 'g6').click();
  assert.equal(await page.locator('.square.selected').count(), 0);
  // Picked up by a click, then dragged.
  await square(page, 'g6').click();
  await square(page, 'g6').dragTo(square(page, 'c6'));
  await settled(page);
  assert.match(await verdict(page), /^correct/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('inside an iframe of another origin, the page around it hears the events', async () => {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!DOCTYPE html><html><body><script>
      window.__events = [];
      window.addEventListener('message', (e) => { if (e.data && e.data.type === 'baroque-puzzle') window.__events.push(e.data); });
      </script><iframe title="puzzle" src="${base}/embed/puzzles/${CHAMELEON}" width="800" height="600"></iframe></body></html>`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${server.address().port}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(origin + '/');
  const frame = page.frameLocator('iframe');
  await frame.locator('html[data-ready="true"]').waitFor();
  await clickMove(frame, 'g6c6');
  await clickMove(frame, await mateInOne(frame, 'baroque'));
  const events = await page.evaluate(() => window.__events);
  assert.ok(events.some((e) => e.event === 'solved'), JSON.stringify(events));
  await context.close();
  server.close();
});

/**
 * The serious and critical accessibility violations axe finds on the page as it stands (axe is
 * injected by the test: open the page with `bypassCSP`, for this alone).
 */
async function seriousViolations(page) {
  const source = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  await page.addScriptTag({ content: source });
  const result = await page.evaluate(() => window.axe.run(document));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

test('axe finds no serious or critical accessibility violation', async () => {
  const { page, context } = await open(`/embed/puzzles/${CHAMELEON}`, { bypassCSP: true });
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('Rococo in the page names: the edge squares are x, y, 0 and 00', async () => {
  const { page, errors, context } = await open(`/embed/puzzles/${ROCOCO}?coords=page`);
  for (const corner of ['x0', 'y0', 'x00', 'y00', 'a1', 'h8']) {
    assert.equal(await square(page, corner).count(), 1, corner);
  }
  assert.equal(await square(page, 'j10').count(), 0);
  const fen = await page.locator('#board').getAttribute('data-fen');
  const solved = await api('/v1/solve', { fen, game: 'rococo', coords: 'page', stipulation: '#1' });
  await clickMove(page, solved.keys[0].uci);
  assert.match(await verdict(page), /^solved/);
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * A screenshot against its committed picture (tests/browser/reference/NAME.png): at most 0.5% of
 * the pixels may differ by more than 24 in a channel (font smoothing). UPDATE_REFERENCE=1 writes
 * the reference.
 */
function sameAsReference(name, shot) {
  const reference = new URL(`./reference/${name}.png`, import.meta.url);
  if (process.env.UPDATE_REFERENCE === '1') {
    mkdirSync(new URL('./reference/', import.meta.url), { recursive: true });
    writeFileSync(reference, shot);
  }
  const want = PNG.sync.read(readFileSync(reference));
  const got = PNG.sync.read(shot);
  assert.deepEqual([got.width, got.height], [want.width, want.height]);
  let differ = 0;
  for (let i = 0; i < want.data.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs(want.data[i + c] - got.data[i + c]) > 24) {
        differ++;
        break;
      }
    }
  }
  const share = differ / (want.width * want.height);
  assert.ok(share <= 0.005, `${name}: ${(share * 100).toFixed(2)}% of the pixels differ`);
}

/**
 * The responsive snippet of docs/src/api/play.md, as a site pastes it, at a phone's and a desktop's
 * size: the frame takes the player's height, the board stays square, nothing scrolls inside the
 * frame, the panel is below the board on the phone and beside it on the desktop, and the board looks
 * as its reference picture at each size.
 */
for (const [width, height, layout] of [[375, 667, 'below'], [1200, 900, 'beside']]) {
  test(`the docs' responsive embed at ${width}x${height}: a square board, the panel ${layout}`, async () => {
    const docs = readFileSync(new URL('../../docs/src/api/play.md', import.meta.url), 'utf8');
    const snippet = [...docs.matchAll(/```html\n([\s\S]*?)```/g)]
      .map((m) => m[1])
      .find((block) => block.includes('baroque-puzzle') && block.includes('resize'));
    assert.ok(snippet, 'the responsive snippet of docs/src/api/play.md');
    const html = snippet
      .replace('https://baroque.example/embed/puzzles/67', `${base}/embed/puzzles/${CHAMELEON}`);
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width"></head><body>${html}</body></html>`);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`http://localhost:${server.address().port}/`);
    const frame = page.frameLocator('iframe');
    await frame.locator('html[data-ready="true"]').waitFor();
    // The frame took the player's height.
    await page.waitForFunction(() => document.getElementById('baroque-puzzle').style.height.endsWith('px'));
    const inner = page.frames().find((f) => f.url().includes('/embed/'));
    await inner.waitForFunction(() => {
      const main = document.querySelector('.player');
      return Math.abs(Math.ceil(main.getBoundingClientRect().height) - window.innerHeight) <= 1;
    });
    const fit = await inner.evaluate(() => {
      const root = document.documentElement;
      const board = document.querySelector('#board svg').getBoundingClientRect();
      const panel = document.querySelector('.panel').getBoundingClientRect();
      return {
        scrollsX: root.scrollWidth > root.clientWidth,
        scrollsY: root.scrollHeight > root.clientHeight + 1,
        board: [board.left, board.top, board.width, board.height, board.right, board.bottom],
        panel: [panel.left, panel.top],
      };
    });
    assert.equal(fit.scrollsX, false, JSON.stringify(fit));
    assert.equal(fit.scrollsY, false, JSON.stringify(fit));
    const [, , w, h, right, bottom] = fit.board;
    assert.ok(Math.abs(w - h) <= 1, `the board is ${w}x${h}`);
    assert.ok(w >= 300, `the board is ${w} px wide`);
    const frameBox = await page.locator('iframe').boundingBox();
    assert.ok(frameBox.x + frameBox.width <= width, JSON.stringify(frameBox));
    if (layout === 'below') {
      assert.ok(fit.panel[1] >= bottom, JSON.stringify(fit));
    } else {
      assert.ok(fit.panel[0] >= right, JSON.stringify(fit));
    }
    mkdirSync(artifacts, { recursive: true });
    const shot = await frame.locator('#board svg').screenshot({ path: new URL(`baroque-${width}.png`, artifacts).pathname });
    sameAsReference(`baroque-${width}`, shot);
    await context.close();
    server.close();
  });
}

/**
 * Each game's board as first shown, against the committed picture (tests/browser/reference):
 * at most 0.5% of the pixels may differ by more than 24 in a channel (font smoothing). The
 * picture taken is kept in tests/browser/artifacts; UPDATE_REFERENCE=1 writes the reference.
 */
for (const [name, path] of [
  ['baroque', () => `/embed/puzzles/${CHAMELEON}`],
  ['rococo', () => `/embed/puzzles/${ROCOCO}?coords=page`],
]) {
  test(`the ${name} board looks as its reference picture`, async () => {
    const { page, context } = await open(path(), { viewport: { width: 900, height: 700 }, deviceScaleFactor: 1 });
    mkdirSync(artifacts, { recursive: true });
    const shot = await page.locator('#board svg').screenshot({ path: new URL(`${name}.png`, artifacts).pathname });
    await context.close();
    sameAsReference(name, shot);
  });
}

test('a rule set with options plays; a flipped board turns the arrow keys with it', async () => {
  const fen = encodeURIComponent('2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0');
  const { page, errors, context } = await open(`/embed?fen=${fen}&stipulation=%232&rules=abbott,leaper=single&flip=true`);
  await page.keyboard.press('Tab');
  const focused = () => page.evaluate(() => document.activeElement.getAttribute('data-square'));
  assert.equal(await focused(), 'h1');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'g1');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'g2');
  await square(page, 'g6').click();
  assert.ok((await page.locator('.square.dest').count()) > 0);
  assert.equal(await square(page, 'g6').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
});

test('axe, in the dark theme with a piece picked up and the piece key open', async () => {
  const { page, context } = await open(`/embed/puzzles/${CHAMELEON}?theme=dark&lang=fr`, { bypassCSP: true });
  await square(page, 'g6').click();
  await page.locator('[data-action="key"]').click();
  assert.deepEqual(await seriousViolations(page), []);
  // The board's frame is dark too: its background is the panel's colour, not the light theme's.
  const frame = await page.evaluate(() => {
    const fill = (selector) => getComputedStyle(document.querySelector(selector)).fill;
    return {
      background: fill('.board svg .background'),
      coordinates: fill('.board svg .coordinates'),
      panel: getComputedStyle(document.querySelector('.panel')).backgroundColor,
    };
  });
  assert.equal(frame.background, frame.panel, JSON.stringify(frame));
  assert.notEqual(frame.background, 'rgb(247, 243, 236)', JSON.stringify(frame));
  assert.equal(frame.coordinates, 'rgb(169, 169, 182)', JSON.stringify(frame));
  await context.close();
});

test('a stored puzzle shows its title and caption above the board, as text', async () => {
  const stored = await (await fetch(`${base}/v1/puzzles/${CHAMELEON}`)).json();
  assert.ok(stored.title, JSON.stringify(stored));
  const { page, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  assert.equal(await page.locator('#title').textContent(), stored.title);
  assert.ok(await page.locator('#title').isVisible());
  if (stored.caption) {
    assert.equal(await page.locator('#caption').textContent(), stored.caption);
  } else {
    assert.equal(await page.locator('#caption').isVisible(), false);
  }
  assert.ok((await page.title()).includes(stored.title), await page.title());
  // The heading stands above the board.
  const heading = await page.locator('#heading').boundingBox();
  const board = await page.locator('#board').boundingBox();
  assert.ok(heading.y + heading.height <= board.y + 1, JSON.stringify({ heading, board }));
  await context.close();
  // A position without a stored puzzle has no heading.
  const free = await open(HELPMATE);
  assert.equal(await free.page.locator('#heading').isVisible(), false);
  await free.context.close();
});

/** A call to the API with the write token the server was started with (BAROQUE_TOKEN). */
async function write(path, body) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${process.env.BAROQUE_TOKEN}` },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  assert.ok(response.status === 200 || response.status === 202, `${path}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Generates collection `name` of `count` sound `#1` and answers its puzzle ids in order. */
async function generated(name, count) {
  let job = await write('/v1/collections', { name, mate_in: 1, count, seed: 7, max_pieces: 8 });
  const deadline = Date.now() + 60000;
  while (job.state === 'running' || job.state === 'queued') {
    assert.ok(Date.now() < deadline, JSON.stringify(job));
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await (await fetch(base + job.url)).json();
  }
  assert.equal(job.state, 'done', JSON.stringify(job));
  assert.equal(job.puzzle_ids.length, count);
  return job.puzzle_ids;
}

const shownId = (frame) => frame.evaluate(() => JSON.parse(document.getElementById('baroque-config').textContent).puzzle_id);

test('a collection of three is played to its end by clicks and Next, its attempts heard by the page around it', async () => {
  const ids = await generated('browser-threes', 3);
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!DOCTYPE html><html><body><script>
      window.__events = [];
      window.addEventListener('message', (e) => { if (e.data && e.data.type === 'baroque-puzzle') window.__events.push(e.data); });
      </script><iframe title="puzzles" src="${base}/embed/collections/browser-threes" width="800" height="700"></iframe></body></html>`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://localhost:${server.address().port}/`);
  await page.frameLocator('iframe').locator('html[data-ready="true"]').waitFor();
  const frame = page.frames().find((f) => f !== page.mainFrame());
  for (let i = 0; i < ids.length; i += 1) {
    await settled(frame);
    assert.equal(await shownId(frame), ids[i], `puzzle ${i + 1}`);
    assert.ok(await frame.locator('[data-action="next"]').isHidden(), `puzzle ${i + 1}: no Next before an attempt`);
    if (i === 1) {
      // A hint settles the attempt as failed; the puzzle can still be played to its mate.
      await frame.locator('[data-action="hint"]').click();
      await frame.waitForSelector('.square.hint');
    }
    await clickMove(frame, await mateInOne(frame, 'baroque'));
    assert.equal(await verdict(frame), 'solved', `puzzle ${i + 1}`);
    await page.waitForFunction((id) => window.__events.some((e) => e.event === 'attempt' && e.puzzle_id === id), ids[i]);
    if (i + 1 < ids.length) {
      assert.ok(await frame.locator('[data-action="next"]').isVisible(), `puzzle ${i + 1}: Next once solved`);
      await frame.locator('[data-action="next"]').click();
      await frame.waitForURL(/\/embed\/collections\/browser-threes\?after=\d+/);
      await frame.locator('html[data-ready="true"]').waitFor();
    }
  }
  // The end: no Next, and the page says the collection is done.
  assert.ok(await frame.locator('[data-action="next"]').isHidden());
  assert.match(await frame.locator('#progress').textContent(), /last puzzle/);
  const attempts = (await page.evaluate(() => window.__events)).filter((e) => e.event === 'attempt');
  assert.deepEqual(attempts.map((e) => [e.puzzle_id, e.solved]), [[ids[0], true], [ids[1], false], [ids[2], true]]);
  // A solved attempt carries the move that solved it; the failed one was settled before any move.
  assert.equal(attempts[0].moves.length, 1, JSON.stringify(attempts[0]));
  assert.deepEqual(attempts[1].moves, [], JSON.stringify(attempts[1]));
  assert.deepEqual(errors, []);
  await context.close();
  server.close();
});

test('next from a rating: the visitor is rated as the API rates, and the puzzles seen are excluded', async () => {
  const { page, errors, context } = await open('/embed/next?rating=1500&deviation=200&game=baroque&stipulation=%23&seed=5');
  const first = await shownId(page);
  assert.equal(typeof first, 'number');
  assert.ok(await page.locator('[data-action="next"]').isHidden());
  // The solution shown before solving: a failed attempt.
  await page.locator('[data-action="solution"]').click();
  await page.waitForSelector('#solution-text:not([hidden])');
  await page.waitForFunction(() => window.__events.some((e) => e.event === 'attempt'));
  const attempt = (await page.evaluate(() => window.__events)).find((e) => e.event === 'attempt');
  assert.equal(attempt.puzzle_id, first);
  assert.equal(attempt.solved, false);
  assert.deepEqual(attempt.player, { rating: 1500, deviation: 200, volatility: 0.06 });
  // The site posts the attempt as the event gives it: the API's new player rating is the page's.
  const posted = await write(`/v1/puzzles/${first}/attempts`, { solved: attempt.solved, player: attempt.player });
  for (const member of ['rating', 'deviation', 'volatility']) {
    assert.ok(Math.abs(posted.player[member] - attempt.player_after[member]) < 1e-9,
      `${member}: the API's ${posted.player[member]}, the page's ${attempt.player_after[member]}`);
  }
  assert.ok(attempt.player_after.rating < 1500);
  assert.match(await page.locator('#progress').textContent(), new RegExp(`1500 → ${Math.round(attempt.player_after.rating)}`));
  // Next: the same filters, the new rating, the puzzle seen excluded.
  await page.locator('[data-action="next"]').click();
  await page.waitForURL(/\/embed\/next\?/);
  await page.waitForSelector('html[data-ready="true"]');
  const url = new URL(page.url());
  assert.equal(Number(url.searchParams.get('rating')), attempt.player_after.rating);
  assert.equal(Number(url.searchParams.get('deviation')), attempt.player_after.deviation);
  assert.equal(url.searchParams.get('exclude'), String(first));
  assert.equal(url.searchParams.get('stipulation'), '#');
  assert.equal(url.searchParams.get('game'), 'baroque');
  assert.notEqual(await shownId(page), first);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a page the service refuses shows its problem in the player\'s style, not JSON', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(`${base}/embed/puzzles/999999?theme=dark`);
  assert.equal(response.status(), 404);
  assert.match(response.headers()['content-type'], /^text\/html/);
  const alert = page.locator('[role="alert"]');
  assert.ok(await alert.isVisible());
  assert.equal(await alert.getAttribute('data-problem'), '/problems/not-found');
  assert.equal((await page.locator('.stipulation').textContent()).trim(), 'Not found');
  assert.doesNotMatch(await page.locator('body').textContent(), /[{}]/);
  // In the player's style: its panel colour of the dark theme.
  const panel = await alert.evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(panel, 'rgb(36, 38, 44)');
  await context.close();
});

test('the light theme keeps the board frame light', async () => {
  const { page, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  const background = await page.evaluate(
    () => getComputedStyle(document.querySelector('.board svg .background')).fill,
  );
  assert.equal(background, 'rgb(247, 243, 236)');
  await context.close();
});

test('figures: page weight, time to the first board, server time per move', async () => {
  const started = Date.now();
  const { page, context } = await open(`/embed/puzzles/${CHAMELEON}`);
  const firstBoard = Date.now() - started;
  const weight = await page.evaluate(() => {
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    const own = entries.filter((e) => /\/embed/.test(e.name));
    return { transferred: own.reduce((n, e) => n + e.transferSize, 0), decoded: own.reduce((n, e) => n + e.decodedBodySize, 0) };
  });
  await context.close();
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t = Date.now();
    const answer = await api(`/v1/puzzles/${CHAMELEON}/play`, { moves: ['Bg6xc6'] });
    assert.equal(answer.verdict, 'correct');
    times.push([Date.now() - t, answer.millis]);
  }
  times.sort((a, b) => a[0] - b[0]);
  const median = times[10];
  console.log(`FIGURES page ${weight.transferred} bytes transferred (${weight.decoded} decoded) for the page, its script and styles; first board ${firstBoard} ms after navigation; a move judged in ${median[0]} ms (server ${median[1]} ms), median of 20`);
  assert.ok(weight.transferred < 100_000, JSON.stringify(weight));
});
