// SPDX-License-Identifier: MIT
// Browser test of the viewer page (ctest viewer_browser): writes a page with `proxima view` from a
// test scene and the demo page with `proxima demo`, opens each in headless Chromium, waits until
// the page says its first frame is drawn, takes a screenshot, and checks that the 3-D view is not
// blank (several distinct colours and enough variance in the canvas area) and that the page logged
// no console error and threw no exception.
//
// Talks to Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in, fd 4
// out, messages separated by NUL), so it needs Node.js only, no npm package.
//
// usage: node browser_check.mjs --proxima PATH --scene SCENE.json --out-dir DIR [--chromium PATH]
// exit: 0 pass, 1 fail, 77 skipped (the browser cannot be started).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';

const SKIP = 77;
const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const required of ['proxima', 'scene', 'out-dir']) {
  if (!args[required]) {
    console.error(`usage: node browser_check.mjs --proxima PATH --scene SCENE.json --out-dir DIR [--chromium PATH]`);
    process.exit(2);
  }
}
const outDir = resolve(args['out-dir']);
mkdirSync(outDir, { recursive: true });

function findChromium() {
  const candidates = [args.chromium, process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome'].filter(Boolean);
  return candidates.find((c) => existsSync(c));
}

// ------------------------------------------------------------------------------------------------
// A minimal DevTools-protocol client over the pipe.
class Browser {
  constructor(executable) {
    this.profile = mkdtempSync(join(tmpdir(), 'proxima-chromium-'));
    this.process = spawn(executable, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-default-apps', '--disable-extensions', '--mute-audio', '--hide-scrollbars',
      // WebGL without a GPU: ANGLE on SwiftShader, the software Vulkan/GL of Chromium.
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
      '--window-size=1280,800', `--user-data-dir=${this.profile}`, '--remote-debugging-pipe', 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.process.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    this.exited = new Promise((done) => this.process.on('exit', (code, signal) => done(`exit ${code} ${signal || ''}`)));
    this.spawnError = new Promise((done) => this.process.on('error', (e) => done(e)));
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    let buffer = Buffer.alloc(0);
    this.process.stdio[4].on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end;
      while ((end = buffer.indexOf(0)) >= 0) {
        const message = JSON.parse(buffer.subarray(0, end).toString('utf8'));
        buffer = buffer.subarray(end + 1);
        if (message.id && this.pending.has(message.id)) {
          const { resolveCall, rejectCall, method } = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) rejectCall(new Error(`${method}: ${message.error.message}`));
          else resolveCall(message.result);
        } else if (message.method) {
          for (const listener of this.listeners) listener(message);
        }
      }
    });
    this.process.stdio[3].on('error', () => {});
  }

  call(method, params = {}, sessionId = undefined, timeoutMs = 30000) {
    const id = this.nextId++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolveCall, rejectCall) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        rejectCall(new Error(`${method}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolveCall: (r) => { clearTimeout(timer); resolveCall(r); },
        rejectCall: (e) => { clearTimeout(timer); rejectCall(e); },
      });
      this.process.stdio[3].write(JSON.stringify(message) + '\0');
    });
  }

  async close() {
    try {
      await this.call('Browser.close', {}, undefined, 5000);
    } catch { /* already gone */ }
    const exited = await Promise.race([this.exited, new Promise((done) => setTimeout(() => done(null), 5000))]);
    if (exited === null) this.process.kill('SIGKILL');
    rmSync(this.profile, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------------
// PNG decoding (8-bit RGB/RGBA, non-interlaced: what Chromium's screenshots are).
function decodePng(png) {
  let offset = 8;
  let width = 0, height = 0, colorType = 0, bitDepth = 0, interlace = 0;
  const idat = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitDepth = body[8];
      colorType = body[9];
      interlace = body[12];
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    offset += 12 + length;
  }
  if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
    throw new Error(`unsupported PNG (depth ${bitDepth}, colour type ${colorType}, interlace ${interlace})`);
  }
  const channels = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let value = line[x];
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = value & 255;
    }
  }
  return { width, height, channels, pixels };
}

// Colour statistics of a rectangle of the screenshot (CSS pixels times the device scale).
function regionStats(image, rect) {
  const { width, height, channels, pixels } = image;
  const x0 = Math.max(0, Math.floor(rect.x)), y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(width, Math.floor(rect.x + rect.width)), y1 = Math.min(height, Math.floor(rect.y + rect.height));
  const buckets = new Map();
  let n = 0, sum = 0, sum2 = 0;
  for (let y = y0; y < y1; ++y) {
    for (let x = x0; x < x1; ++x) {
      const i = (y * width + x) * channels;
      const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
      const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
      buckets.set(key, (buckets.get(key) || 0) + 1);
      const lum = 0.299 * r + 0.587 * g + 0.114 * b;
      sum += lum;
      sum2 += lum * lum;
      ++n;
    }
  }
  const mean = sum / Math.max(n, 1);
  const variance = sum2 / Math.max(n, 1) - mean * mean;
  const sorted = [...buckets.values()].sort((a, b) => b - a);
  // Pixels not of the most common colour bucket (the background).
  const notBackground = (n - (sorted[0] || 0)) / Math.max(n, 1);
  // Buckets holding at least 0.05 % of the area: real colours, not antialiasing dust.
  const colours = sorted.filter((c) => c >= n * 0.0005).length;
  return { pixels: n, colours, variance, notBackground };
}

// ------------------------------------------------------------------------------------------------
async function checkPage(browser, file, label, hash = '') {
  const { targetId } = await browser.call('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.call('Target.attachToTarget', { targetId, flatten: true });
  const problems = [];
  browser.listeners = [(m) => {
    if (m.sessionId !== sessionId) return;
    if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'assert')) {
      problems.push('console.' + m.params.type + ': ' + m.params.args.map((a) => a.value ?? a.description).join(' '));
    } else if (m.method === 'Runtime.exceptionThrown') {
      const d = m.params.exceptionDetails;
      problems.push('exception: ' + (d.exception?.description || d.text));
    } else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') {
      problems.push('log: ' + m.params.entry.text + (m.params.entry.url ? ' (' + m.params.entry.url + ')' : ''));
    }
  }];
  await browser.call('Runtime.enable', {}, sessionId);
  await browser.call('Log.enable', {}, sessionId);
  await browser.call('Page.enable', {}, sessionId);
  await browser.call('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false }, sessionId);
  const url = pathToFileURL(file).href + hash;
  const started = Date.now();
  await browser.call('Page.navigate', { url }, sessionId);
  const evaluate = async (expression) =>
    (await browser.call('Runtime.evaluate', { expression, returnByValue: true }, sessionId)).result.value;
  let ready = false;
  while (Date.now() - started < 90000) {
    if (await evaluate('window.proximaReady === true')) {
      ready = true;
      break;
    }
    if (problems.length > 0) break;
    await new Promise((done) => setTimeout(done, 200));
  }
  // A few more frames, so the screenshot shows the settled view.
  await new Promise((done) => setTimeout(done, 500));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const pageErrors = (await evaluate('JSON.stringify(window.proximaErrors || [])')) || '[]';
  for (const e of JSON.parse(pageErrors)) problems.push('page error: ' + e);
  const shot = await browser.call('Page.captureScreenshot', { format: 'png' }, sessionId, 60000);
  const png = Buffer.from(shot.data, 'base64');
  const shotFile = join(outDir, `${label}.png`);
  writeFileSync(shotFile, png);
  const rect = await evaluate(`(() => { const c = document.querySelector('#view canvas');
    if (!c) return null; const r = c.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })()`);
  const failures = [...problems];
  if (!ready) failures.push(`the page did not report its first frame within 90 s`);
  let stats = null;
  if (!rect || rect.width < 100 || rect.height < 100) {
    failures.push(`no 3-D canvas of a usable size (${JSON.stringify(rect)})`);
  } else {
    stats = regionStats(decodePng(png), rect);
    if (stats.colours < 6) failures.push(`canvas looks blank: ${stats.colours} distinct colours`);
    if (stats.variance < 20) failures.push(`canvas looks blank: luminance variance ${stats.variance.toFixed(1)}`);
    if (stats.notBackground < 0.02) failures.push(`canvas looks blank: ${(100 * stats.notBackground).toFixed(2)} % non-background`);
  }
  await browser.call('Target.closeTarget', { targetId });
  const summary = stats
    ? `${stats.colours} colours, luminance variance ${stats.variance.toFixed(0)}, ${(100 * stats.notBackground).toFixed(1)} % non-background`
    : 'no statistics';
  console.log(`${failures.length ? 'FAIL' : 'ok  '} ${label}: ready in ${seconds} s; ${summary}; screenshot ${shotFile}`);
  for (const f of failures) console.log(`     ${f}`);
  return failures.length === 0;
}

function runProxima(argv, cwd) {
  const r = spawnSync(args.proxima, argv, { cwd, encoding: 'utf8', timeout: 120000 });
  if (r.error || r.status === null || r.status > 1) {
    console.log(`FAIL proxima ${argv.join(' ')}: status ${r.status} ${r.error || ''}\n${r.stdout}\n${r.stderr}`);
    process.exit(1);
  }
  return r;
}

async function main() {
  const overall = setTimeout(() => {
    console.log('FAIL: the browser test took more than 5 minutes');
    process.exit(1);
  }, 300000);
  // The pages first: their failure is a failure even where no browser exists.
  const viewPage = join(outDir, 'viewer_scene.html');
  runProxima(['view', args.scene, '-o', viewPage]);
  const demoDir = join(outDir, 'demo');
  mkdirSync(demoDir, { recursive: true });
  rmSync(join(demoDir, 'proxima-demo.html'), { force: true });
  const demo = runProxima(['demo'], demoDir);
  const demoPage = join(demoDir, 'proxima-demo.html');
  if (!existsSync(demoPage) || !demo.stdout.includes('proxima-demo.html')) {
    console.log('FAIL: proxima demo did not write (or did not mention) proxima-demo.html');
    process.exit(1);
  }

  const executable = findChromium();
  if (!executable) {
    console.log('SKIPPED: no Chromium found (install the Debian package chromium, or pass --chromium PATH)');
    process.exit(SKIP);
  }
  const browser = new Browser(executable);
  try {
    const version = await Promise.race([
      browser.call('Browser.getVersion', {}, undefined, 30000),
      browser.spawnError.then((e) => { throw e; }),
      browser.exited.then((how) => { throw new Error(`browser ended (${how})`); }),
    ]);
    console.log(`browser: ${version.product} (${executable})`);
  } catch (e) {
    console.log(`SKIPPED: the browser cannot be started: ${e.message}\n${browser.stderr}`);
    await browser.close();
    process.exit(SKIP);
  }
  let ok = true;
  try {
    ok = (await checkPage(browser, viewPage, 'viewer_scene')) && ok;
    ok = (await checkPage(browser, viewPage, 'viewer_scene_screw', '#screw-step')) && ok;
    ok = (await checkPage(browser, demoPage, 'demo')) && ok;
  } catch (e) {
    console.log(`FAIL: ${e.stack || e}\n${browser.stderr}`);
    ok = false;
  }
  await browser.close();
  clearTimeout(overall);
  process.exit(ok ? 0 : 1);
}

main();
