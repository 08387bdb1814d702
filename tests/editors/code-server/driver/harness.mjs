// Test plumbing for drive.mjs: the headless chromium (playwright-core from the install cache), the
// file channel to the extension's test hooks, the hashline CLI runners (blocking and not),
// long-running children with their output in a file (startLogged), polling and the check ledger
// that prints PASS/FAIL lines and the closing "N passed, N failed". Single-threaded (Node).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Polls fn until it returns a truthy value; returns the last value (falsy on time-out) so the
// caller's check reports what was seen instead of throwing. The limit bounds the wait only.
export async function poll(fn, { limitMs = 15000, everyMs = 100 } = {}) {
  const end = Date.now() + limitMs;
  let last;
  for (;;) {
    last = await fn();
    if (last || Date.now() > end) return last;
    await sleep(everyMs);
  }
}

export class Ledger {
  constructor(logFile) {
    this.logFile = logFile;
    this.results = [];
    this.t0 = Date.now();
  }
  log(...parts) {
    const line = `[${((Date.now() - this.t0) / 1000).toFixed(1)}s] ${parts.join(' ')}`;
    fs.appendFileSync(this.logFile, line + '\n');
    if (process.env.CS_VERBOSE) console.log(line);
  }
  check(name, ok, detail) {
    this.results.push({ name, ok: !!ok, detail });
    const text = detail === undefined ? '' : ` — ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${ok ? '' : text.slice(0, 2000)}`);
    this.log(ok ? 'PASS' : 'FAIL', name, text.slice(0, 4000));
    return !!ok;
  }
  notRun(name, why) {
    console.log(`NOT RUN ${name} (${why})`);
    this.log('NOT RUN', name, why);
  }
  get failed() {
    return this.results.filter((r) => !r.ok).length;
  }
  summary() {
    const passed = this.results.length - this.failed;
    console.log(`${passed} passed, ${this.failed} failed`);
    return this.failed === 0 && passed > 0;
  }
}

export async function launchBrowser(cacheDir, profileDir) {
  const require = createRequire(path.join(cacheDir, 'driver', 'package.json'));
  const { chromium } = require('playwright-core');
  return chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// The extension's file channel (editors/vscode/src/testHooks.ts): one JSON request file per
// call, answered by a .res.json file. Requests are written atomically (tmp + rename).
export class Hooks {
  constructor(dir) {
    this.dir = path.join(dir, 'rpc');
    this.seq = 0;
    fs.mkdirSync(this.dir, { recursive: true });
  }
  async call(op, args = {}, limitMs = 30000) {
    const id = String(++this.seq).padStart(6, '0');
    const req = path.join(this.dir, `${id}.req.json`);
    const res = path.join(this.dir, `${id}.res.json`);
    fs.writeFileSync(req + '.tmp', JSON.stringify({ op, ...args }));
    fs.renameSync(req + '.tmp', req);
    const reply = await poll(() => (fs.existsSync(res) ? JSON.parse(fs.readFileSync(res, 'utf8')) : null), { limitMs, everyMs: 50 });
    if (!reply) throw new Error(`extension test hook "${op}" did not answer within ${limitMs / 1000}s`);
    if (!reply.ok) throw new Error(`extension test hook "${op}" failed: ${reply.error}`);
    return reply.result;
  }
}

// Runs the hashline CLI like an agent in a terminal would. Returns {status, stdout, stderr, json}.
// `cwd`: the terminal's directory (a subcommand that names no file finds its sidecar by it).
export function runCli(bin, args, env, cwd) {
  const r = spawnSync(bin, args, { env, cwd, encoding: 'utf8', timeout: 30000 });
  let json;
  try { json = JSON.parse(r.stdout); } catch { json = undefined; }
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, json, error: r.error && String(r.error) };
}

// The same, without waiting: for a CLI call that blocks until the user answers in the editor.
// Resolves to {status, stdout, stderr, json} when the process exits (killed after limitMs).
// `cwd`: the terminal's directory (default: the driver's).
export function runCliAsync(bin, args, env, limitMs = 60000, cwd = undefined) {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', (e) => { clearTimeout(timer); resolve({ status: null, stdout, stderr, error: String(e) }); });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      let json;
      try { json = JSON.parse(stdout); } catch { json = undefined; }
      resolve({ status, signal, stdout, stderr, json });
    });
  });
}

// A long-running child (a model endpoint, a TUI driver) whose stdout and stderr go to logFile.
// child.exited resolves to its exit code (or signal name); child.code holds it once it exited.
export function startLogged(cmd, args, opts, logFile) {
  const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = fs.openSync(logFile, 'a');
  child.stdout.on('data', (d) => open && fs.writeSync(log, d));
  child.stderr.on('data', (d) => open && fs.writeSync(log, d));
  let open = true;
  const end = (text, code, resolve) => {
    if (!open) return;
    open = false;
    if (text) fs.writeSync(log, text);
    fs.closeSync(log);
    resolve(code);
  };
  child.exited = new Promise((resolve) => {
    child.on('error', (e) => end(`spawn error: ${e}\n`, null, resolve));
    child.on('close', (code, signal) => end('', code ?? signal, resolve));
  });
  child.code = undefined;
  child.exited.then((c) => { child.code = c; });
  return child;
}

// `12:k3f:9qa→text` rows (the form hashline_read returns) → [{anchor, line, text}].
export function parseRows(text) {
  const rows = [];
  for (const l of text.split('\n')) {
    const m = /^(\d+)(:[^\u2192]*)\u2192(.*)$/.exec(l);
    if (m) rows.push({ line: Number(m[1]), anchor: m[1] + m[2], text: m[3] });
  }
  return rows;
}

export function linesOf(text) {
  return text.split(/\r\n|\r|\n/);
}
