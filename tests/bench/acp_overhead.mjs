// What `hashline acp` costs (scripts/bench --sections acp; docs/benchmarks.md):
// 1. per forwarded message: a client sends `bench/ping` notifications one at a time to
//    tests/bench/acp_bench_agent.mjs, which answers each with `bench/pong`; the round trip is
//    timed straight to the agent and through `hashline acp --no-mcp -- node agent`, in
//    alternating blocks so load hits both alike. A round trip passes the proxy twice: the
//    overhead per forwarded message is half the difference (median and p99).
// 2. a 1 MB fs/write_text_file into an open buffer: a scripted editor runs the real
//    `hashline lsp` with a 1 MB file open and an unsaved line at the top, applying every
//    workspace/applyEdit as an incremental didChange; the agent reads the file
//    (fs/read_text_file, 1 MB) and writes it back whole with its middle line changed; the time is
//    what the agent waits for each call (the proxy's read, three-way merge, range edit through
//    the sidecar, the editor's apply and the mirror's confirmation).
// Prints markdown tables; raw numbers to OUT/acp.json. Exit 1 when a write is refused or the
// buffer does not end as predicted.
//
// Usage: node tests/bench/acp_overhead.mjs --hashline BIN [--messages 2000] [--blocks 10]
//             [--size 300] [--write-runs 20] [--write-bytes 1048576] [--out DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspPipe } from './lsp_pipe.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const hashline = resolve(args.hashline ?? 'build/hashline');
const messages = Number(args.messages ?? 2000);
const blocks = Number(args.blocks ?? 10);
const size = Number(args.size ?? 300);
const writeRuns = Number(args['write-runs'] ?? 20);
const writeBytes = Number(args['write-bytes'] ?? 1 << 20);
const agentScript = join(dirname(fileURLToPath(import.meta.url)), 'acp_bench_agent.mjs');

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

/// A newline-delimited JSON-RPC peer over a child's stdio.
class LinePeer {
  constructor(command, argv, options = {}) {
    this.child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'inherit'], ...options });
    this.waiters = [];
    this.nextId = 1;
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      const at = this.waiters.findIndex((w) => w.match(message));
      if (at >= 0) this.waiters.splice(at, 1)[0].resolve(message);
    });
  }
  send(message) { this.child.stdin.write(JSON.stringify(message) + '\n'); }
  next(match) { return new Promise((resolve) => this.waiters.push({ match, resolve })); }
  async request(method, params) {
    const id = this.nextId++;
    const answer = this.next((m) => m.id === id && !m.method);
    this.send({ jsonrpc: '2.0', id, method, params });
    return answer;
  }
  close() { this.child.stdin.end(); setTimeout(() => this.child.kill('SIGKILL'), 3000).unref(); }
}

async function roundTrips(peer, count, payload) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const pong = peer.next((m) => m.method === 'bench/pong' && m.params.i === i);
    const start = process.hrtime.bigint();
    peer.send({ jsonrpc: '2.0', method: 'bench/ping', params: { i, payload } });
    await pong;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

async function overhead() {
  const direct = new LinePeer('node', [agentScript]);
  const proxied = new LinePeer(hashline, ['acp', '--no-mcp', '--', 'node', agentScript]);
  const payload = 'x'.repeat(Math.max(0, size - 60));
  await roundTrips(direct, 200, payload); // warm-up
  await roundTrips(proxied, 200, payload);
  const per = Math.ceil(messages / blocks);
  const times = { direct: [], proxied: [] };
  for (let block = 0; block < blocks; block++) {
    times.direct.push(...(await roundTrips(direct, per, payload)));
    times.proxied.push(...(await roundTrips(proxied, per, payload)));
  }
  direct.close();
  proxied.close();
  return times;
}

async function bigWrite() {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'hashline-acp-bench-')));
  const workspace = join(scratch, 'ws');
  mkdirSync(workspace);
  mkdirSync(join(scratch, 'run'), { mode: 0o700 });
  const env = { ...process.env, HASHLINE_STATE_DIR: join(scratch, 'state'), HASHLINE_RUNTIME_DIR: join(scratch, 'run') };
  const line = (i) => `line ${String(i).padStart(7, '0')} of the one megabyte file: ${'abcdefghij'.repeat(3)}`;
  const lines = [];
  for (let i = 0, bytes = 0; bytes < writeBytes; i++) {
    lines.push(line(i));
    bytes += lines[i].length + 1;
  }
  const path = join(workspace, 'big.txt');
  writeFileSync(path, lines.join('\n') + '\n');
  const uri = pathToFileURL(path).href;
  let text = 'unsaved typing at the top\n' + lines.join('\n') + '\n';
  let version = 1;
  let applied = 0;
  const offsetOf = (position) => {
    let offset = 0;
    for (let l = 0; l < position.line; l++) offset = text.indexOf('\n', offset) + 1;
    return offset + position.character;
  };
  const editor = new LspPipe(hashline, ['lsp'], {
    env,
    onRequest: (method, params) => {
      if (method !== 'workspace/applyEdit') return null;
      const edits = params.edit.documentChanges.find((c) => c.textDocument.uri === uri).edits;
      const changes = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
      for (const change of changes)
        text = text.slice(0, offsetOf(change.range.start)) + change.newText + text.slice(offsetOf(change.range.end));
      editor.notify('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: changes.map((c) => ({ range: c.range, text: c.newText })) });
      applied++;
      return { applied: true };
    },
  });
  await editor.request('initialize', { processId: process.pid, rootUri: pathToFileURL(workspace).href, capabilities: { workspace: { applyEdit: true } } });
  editor.notify('initialized', {});
  editor.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version, text } });
  await editor.request('hashline/snapshot', { textDocument: { uri } });

  const client = new LinePeer(hashline, ['acp', '--', 'node', agentScript], { cwd: workspace, env });
  await client.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  await client.request('session/new', { cwd: workspace, mcpServers: [] });
  const done = client.next((m) => m.method === 'bench/written' || m.method === 'bench/failed');
  client.send({ jsonrpc: '2.0', method: 'bench/write', params: { sessionId: 'sess-1', path, runs: writeRuns } });
  const outcome = await done;
  const expected = `changed by the agent, run ${writeRuns - 1}`;
  const ok = outcome.method === 'bench/written' && applied === writeRuns && text.startsWith('unsaved typing at the top\n') && text.includes(expected);
  client.close();
  await editor.close();
  rmSync(scratch, { recursive: true, force: true });
  return { ok, outcome, bytes: lines.join('\n').length + 1, lines: lines.length, applied };
}

const times = await overhead();
const write = await bigWrite();
const summary = {
  messages: times.direct.length, size,
  direct: { median: quantile(times.direct, 0.5), p99: quantile(times.direct, 0.99) },
  proxied: { median: quantile(times.proxied, 0.5), p99: quantile(times.proxied, 0.99) },
};
summary.perMessage = {
  median: (summary.proxied.median - summary.direct.median) / 2,
  p99: (summary.proxied.p99 - summary.direct.p99) / 2,
};
console.log(`| round trip (${summary.messages} × ${size}-byte notification each way) | median | p99 |`);
console.log('|---|---|---|');
console.log(`| client ↔ agent directly | ${fmt(summary.direct.median)} | ${fmt(summary.direct.p99)} |`);
console.log(`| client ↔ hashline acp ↔ agent | ${fmt(summary.proxied.median)} | ${fmt(summary.proxied.p99)} |`);
console.log(`| **added per forwarded message** (half the difference) | **${fmt(summary.perMessage.median)}** | **${fmt(summary.perMessage.p99)}** |`);
console.log();
if (write.outcome.method === 'bench/written') {
  const { reads, writes } = write.outcome.params;
  console.log(`| ${(write.bytes / 1048576).toFixed(2)} MB file (${write.lines} lines) open with unsaved typing, ${writeRuns} runs | median | p99 (max) |`);
  console.log('|---|---|---|');
  console.log(`| fs/read_text_file (whole file, from the buffer) | ${fmt(quantile(reads, 0.5))} | ${fmt(quantile(reads, 0.99))} |`);
  console.log(`| fs/write_text_file (whole file, one line changed → merged range edit, applied and confirmed) | ${fmt(quantile(writes, 0.5))} | ${fmt(quantile(writes, 0.99))} |`);
  write.reads = { median: quantile(reads, 0.5), p99: quantile(reads, 0.99) };
  write.writes = { median: quantile(writes, 0.5), p99: quantile(writes, 0.99) };
} else {
  console.log(`1 MB write FAILED: ${JSON.stringify(write.outcome.params)}`);
}
if (args.out) {
  mkdirSync(args.out, { recursive: true });
  writeFileSync(join(args.out, 'acp.json'), JSON.stringify({ summary, write, times }, null, 1));
}
if (!write.ok) {
  console.error(`acp bench: the 1 MB write did not land as predicted (applied ${write.applied} of ${writeRuns})`);
  process.exit(1);
}
process.exit(0);
