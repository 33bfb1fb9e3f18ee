// The browser test (run by web/check): loads the four demos built by
// web/build from a local server in headless Chromium (WebGL2 on
// SwiftShader), checks their screenshots and what they publish in
// <body data-report>, and drives the mouse and a key.
//
//   node web/browser-test.mjs http://127.0.0.1:8731 <folder for screenshots>
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { PNG } from "pngjs";

const [base, shots] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    // WebGL2 in software: no GPU here.
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    // This machine's network is closed: no calls home.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
  ],
});
const errors = [];
/** A fresh page (no cursor over it yet), its errors collected. */
async function newPage() {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return page;
}
let page = await newPage();

/** The demo's report, once its simulated clock has passed `after` seconds. */
async function reportAfter(after, timeout = 180_000) {
  const handle = await page.waitForFunction(
    (after) => {
      const report = document.body.dataset.report;
      return report && JSON.parse(report).seconds > after ? report : null;
    },
    after,
    { timeout, polling: 200 },
  );
  return JSON.parse(await handle.jsonValue());
}

/** How many pixels of the screenshot are within `tolerance` of `color`,
 * in the rectangle [x0, x1) x [y0, y1). */
function count(png, color, tolerance, [x0, y0, x1, y1] = [0, 0, png.width, png.height]) {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = 4 * (y * png.width + x);
      if (color.every((c, k) => Math.abs(png.data[i + k] - c) <= tolerance)) n++;
    }
  }
  return n;
}

async function screenshot(name) {
  const bytes = await page.screenshot();
  writeFileSync(`${shots}/${name}.png`, bytes);
  return PNG.sync.read(bytes);
}

const moved = (a, b) =>
  a.agents.filter((agent, i) => Math.hypot(agent.pos[0] - b.agents[i].pos[0], agent.pos[1] - b.agents[i].pos[1]) > 10).length;

// Critters, with options from the query string.
let started = Date.now();
await page.goto(`${base}/index.html?seed=7&agents=25`);
const first = await reportAfter(0);
console.log(`critters: first report after ${((Date.now() - started) / 1000).toFixed(1)} s (simulated ${first.seconds.toFixed(1)} s)`);
assert.equal(first.agents.length, 25, "?agents=25 spawns 25 agents");
const later = await reportAfter(first.seconds + 3);
const critterMoves = moved(first, later);
console.log(`critters: ${critterMoves} of 25 agents moved more than 10 px in ${(later.seconds - first.seconds).toFixed(1)} simulated s`);
assert.ok(critterMoves >= 20, "the agents move");

const shot = await screenshot("critters");
const kinds = {
  seek: [47, 111, 235],
  arrive: [47, 158, 68],
  pursue: [150, 102, 230],
  wander: [235, 238, 242],
  graze: [224, 49, 49],
};
// The field is drawn beside the docked panel (260 px), scaled to fit and
// centred down the page: a key dot of radius 6 covers about 60 px there,
// 35 at the least.
const fieldScale = (shot.width - 260) / 1000;
const fieldTop = Math.round((shot.height - 700 * fieldScale) / 2);
const keyBottom = fieldTop + Math.round(140 * fieldScale);
for (const [name, color] of Object.entries(kinds)) {
  const inKey = count(shot, color, 6, [0, fieldTop, Math.round(120 * fieldScale), keyBottom]);
  const inWorld = count(shot, color, 6, [0, keyBottom, shot.width - 260, shot.height - fieldTop]);
  console.log(`critters: ${name} ${inKey} px in the key, ${inWorld} px in the world`);
  assert.ok(inKey >= 35 && inWorld >= 60, `${name} is drawn`);
}
const panel = count(shot, [27, 27, 27], 2);
console.log(`critters: the panel covers ${panel} px`);
assert.ok(panel > 20_000, "the panel is drawn");

// The mouse leads them; R switches to the slow response.
await page.mouse.move(700, 200);
await page.mouse.move(705, 205, { steps: 5 });
await page.keyboard.press("r");
const now = await reportAfter(0);
const led = await reportAfter(now.seconds + 1.5);
console.log(`critters: mouse at (${led.mouse.map((v) => v.toFixed(1))}), response time ${led.response_time} s`);
// The page's point in the scaled field beside the panel, y up.
const mouseInWorld = [705 / fieldScale, 700 - (205 - fieldTop) / fieldScale];
assert.ok(
  Math.hypot(led.mouse[0] - mouseInWorld[0], led.mouse[1] - mouseInWorld[1]) < 2,
  "the mouse is where the cursor is",
);
assert.equal(led.response_time, 1, "R switches to the slow response");

// The level, in a page of its own: grazers flee a cursor left over them.
await page.close();
page = await newPage();
started = Date.now();
await page.goto(`${base}/level.html?seed=3`);
const level = await reportAfter(0);
console.log(`level: first report after ${((Date.now() - started) / 1000).toFixed(1)} s`);
const levelLater = await reportAfter(level.seconds + 3);
const levelMoves = moved(level, levelLater);
console.log(`level: ${levelMoves} of ${level.agents.length} agents moved more than 10 px; least clearance ${levelLater.least_clearance_px.toFixed(2)} px`);
assert.ok(levelMoves >= level.agents.length / 2, "the level's agents move");
const levelShot = await screenshot("level");
for (const [name, color] of Object.entries({
  rocks: [120, 108, 92],
  path: [200, 170, 60],
  patrollers: [47, 111, 235],
  grazers: [47, 158, 68],
})) {
  const n = count(levelShot, color, 6);
  console.log(`level: ${name} ${n} px`);
  assert.ok(n >= 60, `the level's ${name} are drawn`);
}

// Its travellers find their way (the ground and the routes made at once
// on the web, which has no threads): on their way to the far corner, and
// a click on the field's (250, 100)
// sends each to a place of its own round it, where it arrives.
const travellers = (report) => report.agents.filter((a) => a.kind === "traveller");
const away = (a, b) => Math.hypot(a.pos[0] - b.pos[0], a.pos[1] - b.pos[1]);
const setOff = travellers(level);
for (const [i, t] of travellers(levelLater).entries()) {
  console.log(`level: traveller ${i} ${t.status}, ${away(setOff[i], t).toFixed(0)} px on`);
  assert.ok(t.status === "Following" || t.status === "Arrived", `traveller ${i} has a route`);
  assert.ok(away(setOff[i], t) > 10, `traveller ${i} is on its way`);
}
// The field is drawn beside the docked panel, scaled to fit: the click
// goes where the report says the field's (250, 100) is.
const [left, top, right, bottom] = levelLater.field_in_window;
assert.ok(right <= 1000 - 200, `the field (${levelLater.field_in_window}) is beside the panel`);
const scale = (right - left) / 1000;
await page.mouse.move(left + 250 * scale, bottom - 100 * scale);
await page.mouse.down();
await page.mouse.up();
const clicked = await reportAfter(0);
// Each finds its own way there, some from across the field: natively
// (seed 3, the click at 3 to 14 s) the last arrived 7 to 12.5 s after it.
// The first report with all four in (from a second on, when each has its
// new route), or the one 25 s after the click.
const handle = await page.waitForFunction(
  (after) => {
    const report = document.body.dataset.report && JSON.parse(document.body.dataset.report);
    const sent = report && report.seconds > after + 1 && report.agents.filter((a) => a.kind === "traveller");
    const arrived = (t) => t.status === "Arrived" && Math.hypot(t.goal[0] - 250, t.goal[1] - 100) < 32;
    return sent && (sent.every(arrived) || report.seconds > after + 25)
      ? JSON.stringify(report)
      : null;
  },
  clicked.seconds,
  { timeout: 300_000, polling: 200 },
);
const sent = JSON.parse(await handle.jsonValue());
console.log(`level: travellers sent at ${clicked.seconds.toFixed(1)} s, report at ${sent.seconds.toFixed(1)} s`);
for (const [i, t] of travellers(sent).entries()) {
  const [gx, gy] = t.goal;
  const off = Math.hypot(t.pos[0] - gx, t.pos[1] - gy);
  console.log(`level: traveller ${i} sent to (${gx.toFixed(0)}, ${gy.toFixed(0)}), ${t.status}, ${off.toFixed(1)} px from it`);
  assert.ok(Math.hypot(gx - 250, gy - 100) < 32, `traveller ${i} is sent round the click`);
  // Arrived within a body's radius (8 px), and may since have stepped
  // aside for a neighbour or a fleeing grazer: within two.
  assert.ok(t.status === "Arrived" && off < 16, `traveller ${i} arrives`);
}

// The crowd, in a page of its own: the four groups cross, no body in
// another, the panel beside the plaza.
await page.close();
page = await newPage();
started = Date.now();
await page.goto(`${base}/crowd.html?seed=5`);
const crowd = await reportAfter(0);
console.log(`crowd: first report after ${((Date.now() - started) / 1000).toFixed(1)} s`);
const crowdLater = await reportAfter(crowd.seconds + 3);
const crowdMoves = moved(crowd, crowdLater);
console.log(`crowd: ${crowdMoves} of ${crowd.agents.length} people moved more than 10 px; deepest overlap ${crowdLater.deepest_overlap_px.toFixed(3)} px, into a wall ${crowdLater.deepest_into_wall_px.toFixed(3)} px`);
assert.ok(crowdMoves >= crowd.agents.length / 2, "the crowd moves");
assert.ok(crowdLater.deepest_overlap_px <= 0.16 && crowdLater.deepest_into_wall_px <= 0.16, "no body goes into another or a wall");
const crowdShot = await screenshot("crowd");
for (const [name, color] of Object.entries({
  walls: [120, 108, 92],
  blue: [47, 111, 235],
  orange: [235, 140, 47],
  green: [47, 158, 68],
  magenta: [200, 60, 160],
})) {
  const n = count(crowdShot, color, 6);
  console.log(`crowd: ${name} ${n} px`);
  assert.ok(n >= 60, `the crowd's ${name} are drawn`);
}

// The flock in 3D, in a page of its own: a few hundred birds (?birds=)
// flocking round the cliff, the camera showing them beside the panel.
await page.close();
page = await newPage();
started = Date.now();
await page.goto(`${base}/flock_3d.html?seed=3&birds=400`);
const flock = await reportAfter(0);
console.log(`flock 3D: first report after ${((Date.now() - started) / 1000).toFixed(1)} s`);
assert.equal(flock.birds.length, 400, "?birds=400 spawns 400 birds");
const flockLater = await reportAfter(flock.seconds + 3);
const flew = flock.birds.filter((b, i) => {
  const [p, q] = [b.pos, flockLater.birds[i].pos];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) > 5;
}).length;
console.log(`flock 3D: ${flew} of 400 birds flew more than 5 m in ${(flockLater.seconds - flock.seconds).toFixed(1)} simulated s; ${flockLater.birds_in_view} in view`);
assert.ok(flew >= 300, "the birds fly");
assert.ok(flockLater.birds_in_view >= 250, "the camera shows the flock");
const flockShot = await screenshot("flock_3d");
const birdsDrawn = count(flockShot, [150, 190, 240], 8, [0, 0, flockShot.width - 260, flockShot.height]);
const birdsUnderPanel = count(flockShot, [150, 190, 240], 8, [flockShot.width - 260, 0, flockShot.width, flockShot.height]);
console.log(`flock 3D: birds ${birdsDrawn} px beside the panel, ${birdsUnderPanel} px in its strip`);
assert.ok(birdsDrawn >= 1000, "the birds are drawn");
assert.equal(birdsUnderPanel, 0, "no bird is drawn under the panel");

await browser.close();
assert.deepEqual(errors, [], "no errors in the browser's console");
console.log("browser test: ok");
