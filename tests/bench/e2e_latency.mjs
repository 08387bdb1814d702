// End-to-end agent edit latency (issue 8 item 4): an agent loop of `read` + anchored `edit`
// against a buffer held by a real headless Neovim (0.7.2, the editors/nvim plugin, which starts
// `hashline lsp` with its agent socket). An edit's time runs from the request being sent to its
// result, which the sidecar sends only after Neovim applied the workspace/applyEdit and the
// mirror confirmed the change through didChange. Two clients:
//   socket  one persistent connection speaking the agent JSON-RPC (Content-Length framing)
//   cli     one `hashline read` + one `hashline edit` process per step (what a shell agent pays)
// Each step reads lines L-2..L+2 of an N-line file (range read, anchors), then replaces line L by
// its anchor. A model of the text follows every edit; at the end the buffer's text (dumped by
// Neovim) must equal the model and the file on disk must be untouched.
//
// Usage: node e2e_latency.mjs --hashline BIN [--lines 10000] [--steps 200] [--cli-steps 200]
//        [--clients socket,cli] [--nvim nvim] [--review-signs on|off]
// (--review-signs off sets the plugin's review_signs = false: no journal refresh after each edit.)
// Prints one JSON object per client: {client, lines, steps, read:{median,p99,...}, edit:{...},
// step:{...}} (ms; the socket client also has ping: a bare hashline/ping round trip, the floor),
// then {verified, bufferEqualsModel, diskUntouched}. Exit 1 if not verified.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const bin = resolve(args.hashline ?? join(root, 'build/hashline'));
const nvim = args.nvim ?? 'nvim';
const lineCount = Number(args.lines ?? 10000);
const steps = Number(args.steps ?? 200);
const cliSteps = Number(args['cli-steps'] ?? 200);
const clients = (args.clients ?? 'socket,cli').split(',');
const reviewSigns = (args['review-signs'] ?? 'on') !== 'off';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function waitFor(what, check, timeoutMs = 30000) {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  return { n: sorted.length, median: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1], mean };
}

// A persistent agent-socket client: JSON-RPC 2.0 with LSP's Content-Length framing.
class AgentSocket {
  constructor(path) {
    this.socket = connect(path);
    this.buffer = Buffer.alloc(0);
    this.pending = new Map();
    this.nextId = 1;
    this.socket.on('data', (chunk) => this.onData(chunk));
    this.socket.on('error', (error) => { for (const { reject } of this.pending.values()) reject(error); });
  }
  ready() { return new Promise((ok, fail) => { this.socket.once('connect', ok); this.socket.once('error', fail); }); }
  onData(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      const waiter = this.pending.get(body.id);
      if (!waiter) continue;
      this.pending.delete(body.id);
      if (body.error) waiter.reject(new Error(JSON.stringify(body.error)));
      else waiter.resolve(body.result);
    }
  }
  request(method, params) {
    const id = this.nextId++;
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return new Promise((resolvePromise, reject) => {
      this.pending.set(id, { resolve: resolvePromise, reject });
      this.socket.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    });
  }
  close() { this.socket.end(); }
}

function runCli(argv, env, cwd) {
  const start = process.hrtime.bigint();
  const result = spawnSync(bin, argv, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`hashline ${argv[0]} exit ${result.status}: ${result.stderr}`);
  return { ms, out: result.stdout };
}

const lineText = (i) => `    value_${i} = compute(${i % 97}, "row ${i}"); // line ${i + 1}`;

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'hashline-e2e-'));
  const ws = join(work, 'ws');
  mkdirSync(join(ws, '.git'), { recursive: true }); // the plugin's root marker
  const file = join(ws, 'big.txt');
  const model = Array.from({ length: lineCount }, (_, i) => lineText(i));
  const diskText = model.join('\n') + '\n';
  writeFileSync(file, diskText);
  const env = {
    ...process.env,
    HASHLINE_BIN: bin,
    HASHLINE_STATE_DIR: join(work, 'state'),
    HASHLINE_RUNTIME_DIR: join(work, 'run'),
    E2E_WORK: work,
    E2E_FILE: file,
    E2E_PLUGIN: join(root, 'editors/nvim'),
    E2E_REVIEW_SIGNS: reviewSigns ? '1' : '0',
  };
  mkdirSync(env.HASHLINE_STATE_DIR, { recursive: true });
  mkdirSync(env.HASHLINE_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  const editor = spawn(nvim, ['--headless', '--clean', '-n', '-i', 'NONE', '-c', `luafile ${join(here, 'e2e_nvim.lua')}`],
    { env, stdio: ['ignore', 'ignore', openSync(join(work, 'nvim.stderr'), 'w')] });
  let editorExited = false;
  editor.on('exit', () => { editorExited = true; });
  const results = [];
  let verified = false;
  try {
    await waitFor('Neovim to attach hashline', () => editorExited ? (() => { throw new Error('nvim exited'); })() : existsSync(join(work, 'ready')));
    const discovery = await waitFor('the sidecar discovery file', () => readdirSync(env.HASHLINE_RUNTIME_DIR).find((n) => /^sidecar-\d+\.json$/.test(n)));
    const sidecar = JSON.parse(readFileSync(join(env.HASHLINE_RUNTIME_DIR, discovery), 'utf8'));

    let round = 0; // every edit writes a new text: "<original> // edit <round>"
    const pick = (i) => 2 + ((i * 7919) % (lineCount - 4)); // 0-based line, spread, never at the edges
    const editedText = (line) => `${model[line].replace(/ \/\/ edit \d+$/, '')} // edit ${++round}`;

    if (clients.includes('socket')) {
      const agent = new AgentSocket(sidecar.socket);
      await agent.ready();
      const common = { path: file, session: 'bench-socket', agent: 'bench' };
      await agent.request('hashline/read', { ...common, from: 1, to: 5 }); // warm-up
      const ping = [];
      for (let i = 0; i < steps; i += 1) { // the floor: one socket round trip, no work
        const t0 = process.hrtime.bigint();
        await agent.request('hashline/ping', {});
        ping.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      const read = [], edit = [], step = [];
      for (let i = 0; i < steps; i += 1) {
        const line = pick(i);
        const t0 = process.hrtime.bigint();
        const view = await agent.request('hashline/read', { ...common, from: line - 1, to: line + 3 });
        const t1 = process.hrtime.bigint();
        const row = view.lines.find((r) => r.line === line + 1);
        if (!row || row.text !== model[line]) throw new Error(`socket read line ${line + 1}: ${JSON.stringify(row)} != ${model[line]}`);
        const content = editedText(line);
        const applied = await agent.request('hashline/edit', { ...common, edits: [{ op: 'replace', anchor: row.anchor, content }] });
        const t2 = process.hrtime.bigint();
        if (applied.status !== 'applied' || applied.backend !== 'buffer') throw new Error(`socket edit: ${JSON.stringify(applied).slice(0, 400)}`);
        model[line] = content;
        read.push(Number(t1 - t0) / 1e6); edit.push(Number(t2 - t1) / 1e6); step.push(Number(t2 - t0) / 1e6);
      }
      agent.close();
      // The first and the last quarter of the edits apart: does an edit get slower as the
      // session's journal grows?
      const quarter = Math.max(1, Math.floor(steps / 4));
      results.push({ client: 'socket', reviewSigns, lines: lineCount, steps, ping: stats(ping), read: stats(read), edit: stats(edit), step: stats(step),
        editFirstQuarter: stats(edit.slice(0, quarter)), editLastQuarter: stats(edit.slice(-quarter)) });
    }

    if (clients.includes('cli')) {
      const cliEnv = { ...env, HASHLINE_SESSION: 'bench-cli' };
      const read = [], edit = [], step = [];
      for (let i = 0; i < cliSteps; i += 1) {
        const line = pick(i + steps);
        const r = runCli(['read', 'big.txt', '--from', String(line - 1), '--to', String(line + 3), '--json'], cliEnv, ws);
        const view = JSON.parse(r.out);
        const row = view.lines.find((x) => x.line === line + 1);
        if (!row || row.text !== model[line]) throw new Error(`cli read line ${line + 1}: ${JSON.stringify(row)} != ${model[line]}`);
        const content = editedText(line);
        const e = runCli(['edit', 'big.txt', '--json', '--edits', JSON.stringify([{ op: 'replace', anchor: row.anchor, content }])], cliEnv, ws);
        const applied = JSON.parse(e.out);
        if (applied.status !== 'applied' || applied.backend !== 'buffer') throw new Error(`cli edit: ${e.out.slice(0, 400)}`);
        model[line] = content;
        read.push(r.ms); edit.push(e.ms); step.push(r.ms + e.ms);
      }
      const start = process.hrtime.bigint();
      spawnSync(bin, ['--version'], { env: cliEnv });
      const startMs = Number(process.hrtime.bigint() - start) / 1e6;
      results.push({ client: 'cli', reviewSigns, lines: lineCount, steps: cliSteps, read: stats(read), edit: stats(edit), step: stats(step), versionProcessMs: startMs });
    }

    writeFileSync(join(work, 'dump'), '');
    await waitFor('Neovim to dump the buffer', () => existsSync(join(work, 'dumped')));
    const buffer = readFileSync(join(work, 'buffer.txt'), 'utf8');
    const handler = readFileSync(join(work, 'handler_ms.txt'), 'utf8').split('\n').filter(Boolean).map(Number);
    if (handler.length) results.push({ neovimApplyEditHandler: stats(handler) });
    const expected = model.join('\n') + '\n';
    const bufferEqualsModel = buffer === expected;
    const diskUntouched = readFileSync(file, 'utf8') === diskText;
    verified = bufferEqualsModel && diskUntouched;
    for (const r of results) console.log(JSON.stringify(r));
    console.log(JSON.stringify({ verified, bufferEqualsModel, diskUntouched, edits: round }));
  } finally {
    writeFileSync(join(work, 'quit'), '');
    if (!editorExited) await Promise.race([new Promise((r) => editor.on('exit', r)), sleep(5000)]);
    if (!editorExited) editor.kill('SIGKILL');
    if (verified) rmSync(work, { recursive: true, force: true });
    else console.error(`e2e: logs and files kept in ${work}`);
  }
  process.exitCode = verified ? 0 : 1;
}

main().catch((error) => { console.error(`e2e: ${error.stack ?? error}`); process.exitCode = 1; });
