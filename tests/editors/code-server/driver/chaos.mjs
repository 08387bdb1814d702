// The `chaos` part of the code-server scenario (issue 31; scripts/chaos runs it, the default parts
// do not): two files with unsaved typing, a stream of agent edits through the `hashline` CLI and a
// long-lived `hashline mcp` (this file is its MCP client on stdio), the user typing lines with the
// keyboard, and `kill -9` of the sidecar at a random moment of each round, CS_CHAOS_KILLS times
// (default 50; the extension's give-up limit is raised through a test hook for the run). Each agent
// edit inserts its own marker line; each typed line holds its own marker. After each restart:
// every buffer mirrored as it is; an edit reported applied is in the buffers exactly once (0 once
// undone), a refused one (with a code) in none; the disk files as they were; every typed marker
// once; `hashline log` lists every applied op; `hashline undo` of the newest applied edit works.
// An edit in flight at the kill whose answer was lost (SIDECAR_GONE "... may still apply it") may be in the
// buffers once or not at all, never twice; if it landed, the journal should have it (counted).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { linesOf, poll, runCli, runCliAsync, sleep } from './harness.mjs';

const files = ['chaos1.txt', 'chaos2.txt'];
const fileLine = (i, k) => `c${i} L${String(k).padStart(3, '0')}.`;
const original = (i) => Array.from({ length: 40 }, (_, k) => fileLine(i, k + 1)).join('\n') + '\n';
const codeOf = (text) => (/^\s*([A-Z][A-Z_]+[A-Z])[:\s]/.exec(text || '') || [])[1];

class McpClient {
  constructor(bin, ws, env) {
    this.child = spawn(bin, ['mcp', '--structured', '--session', 'mcp-agent', '--agent', 'chaos-mcp'], { cwd: ws, env, stdio: ['pipe', 'pipe', 'ignore'] });
    this.next = 1;
    this.waiting = new Map();
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      let msg;
      try { msg = JSON.parse(line); } catch { return; }
      const done = this.waiting.get(msg.id);
      if (done) { this.waiting.delete(msg.id); done(msg); }
    });
  }
  request(method, params) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }
  notify(method) { this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n'); }
  // 'ok' + the result object, or 'refused' + the code (undefined when none) + the text.
  async tool(name, args) {
    const msg = await this.request('tools/call', { name, arguments: args });
    if (msg.error) return { outcome: 'refused', code: typeof msg.error.code === 'string' ? msg.error.code : codeOf(msg.error.message), text: JSON.stringify(msg.error) };
    const text = (msg.result?.content || []).map((c) => c.text || '').join('');
    const sc = msg.result?.structuredContent;
    if (msg.result?.isError) return { outcome: 'refused', code: sc?.error?.code || codeOf(text), text };
    return { outcome: 'ok', result: sc, text };
  }
}

export async function partChaos(page, { L, hooks, ws, bin, env, focusEditor, docState }) {
  const kills = Number(env.CS_CHAOS_KILLS || 50);
  const cli = (args) => runCli(bin, args, env, ws);
  const cliAsync = (args) => runCliAsync(bin, args, env, 60000, ws); // run in the workspace, as an agent does
  const originals = {};
  files.forEach((f, i) => { originals[f] = original(i + 1); fs.writeFileSync(path.join(ws, f), originals[f]); });
  for (const f of files) await hooks.call('open', { path: f });
  await hooks.call('setCrashLimit', { maxCrashes: 100000 });
  await focusEditor(page);
  const mcp = new McpClient(bin, ws, env);
  await mcp.request('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'chaos', version: '1' } });
  mcp.notify('notifications/initialized');

  const edits = [];
  const typed = [];
  const failures = {};
  const fail = (what, detail) => { (failures[what] ||= []).push(detail); };
  const counts = { kills: 0, restarts: 0, undone: 0, unjournaled: 0 };
  const inFlight = new Set();

  const newEdit = (via) => {
    const i = 1 + Math.floor(Math.random() * files.length);
    const e = { n: edits.length + 1, via, file: files[i - 1], old: fileLine(i, 1 + Math.floor(Math.random() * 40)), outcome: 'running' };
    e.marker = `agent-${via}-${e.n}`;
    edits.push(e);
    return e;
  };
  // A refusal, or — when the sidecar died with the edit in flight (SIDECAR_GONE "... it may still
  // apply it"; IO_ERROR "... did not answer" before that code) — an unknown outcome: the edit may
  // be in the buffer once, or not at all. Any other SIDECAR_GONE (gone before the call) refuses.
  const settleRefused = (e, code, detail) => {
    const lost = (code === 'SIDECAR_GONE' && String(detail).includes('may still apply it')) ||
      (code === 'IO_ERROR' && String(detail).includes('did not answer'));
    Object.assign(e, { outcome: lost ? 'unknown' : 'refused', code, detail });
  };
  const track = (p) => { inFlight.add(p); p.finally(() => inFlight.delete(p)); };
  const cliEdit = () => {
    const e = newEdit('cli');
    track((async () => {
      const read = await cliAsync(['read', e.file, '--session', 'cli-agent', '--json']);
      if (read.status !== 0) settleRefused(e, codeOf(read.stderr), 'read: ' + read.stderr);
      else {
        const r = await cliAsync(['replace', e.file, '--session', 'cli-agent', '--agent', 'chaos-cli', '--old', e.old, '--new', `${e.old}\n${e.marker}`, '--json']);
        if (r.status === 0 && r.json?.status === 'applied') Object.assign(e, { outcome: 'applied', version: r.json.version, versionBefore: r.json.versionBefore });
        else settleRefused(e, codeOf(r.stderr) || r.json?.error?.code, `exit ${r.status}: ${r.stderr}${r.stdout}`);
      }
    })());
  };
  const mcpEdit = () => {
    const e = newEdit('mcp');
    track((async () => {
      const read = await mcp.tool('hashline_read', { path: e.file });
      if (read.outcome !== 'ok') return settleRefused(e, read.code, 'read: ' + read.text);
      const r = await mcp.tool('hashline_replace', { path: e.file, edits: [{ old: e.old, new: `${e.old}\n${e.marker}` }] });
      if (r.outcome === 'ok' && r.result?.status === 'applied') Object.assign(e, { outcome: 'applied', version: r.result.version, versionBefore: r.result.versionBefore });
      else settleRefused(e, r.code || r.result?.error?.code, r.text);
    })());
  };
  const typeLine = async () => {
    const marker = `user-${typed.length + 1}`;
    typed.push(marker);
    await page.keyboard.press('Control+End');
    await page.keyboard.type(marker, { delay: 0 });
    await page.keyboard.press('Enter');
  };
  const docs = async () => (await hooks.call('state')).documents.filter((d) => files.some((f) => d.uri.endsWith('/' + f)));
  const count = (all, marker) => all.reduce((n, d) => n + linesOf(d.text).filter((l) => l === marker).length, 0);

  for (let i = 0; i < 3; i++) await typeLine();
  let pid = cli(['status', '--json']).json?.pid;
  const t0 = Date.now();
  while (counts.kills < kills && pid) {
    for (let k = 1 + Math.floor(Math.random() * 3); k > 0; k--) (Math.random() < 0.5 ? cliEdit : mcpEdit)();
    await typeLine();
    await sleep(Math.floor(Math.random() * 120));
    process.kill(pid, 'SIGKILL');
    counts.kills++;
    if (Math.random() < 0.5) cliEdit();
    if (Math.random() < 0.5) mcpEdit();
    await typeLine();
    const when = `after kill ${counts.kills}`;
    const back = await poll(async () => {
      let st;
      try { st = await hooks.call('state', {}, 2000); } catch { return null; }
      if (!st.running) return null;
      const s = cli(['status', '--json']).json;
      return s && s.pid !== pid && files.every((f) => s.documents?.some((d) => d.uri.endsWith('/' + f))) ? s : null;
    }, { limitMs: 60000, everyMs: 100 });
    if (!back) { fail('restart', `${when}: no new sidecar with both documents within 60 s`); break; }
    counts.restarts++;
    pid = back.pid;
    await Promise.race([Promise.all([...inFlight]), sleep(120000)]);
    if (inFlight.size) fail('hang', `${when}: ${inFlight.size} agent call(s) never finished`);
    const m = await poll(async () => { const c = await hooks.call('mirrorCheck'); return c.match ? c : null; }, { limitMs: 15000, everyMs: 200 });
    if (!m) fail('mirror', `${when}: the mirror is not the editor's text`);
    for (const f of files) {
      const disk = fs.readFileSync(path.join(ws, f), 'utf8');
      if (disk !== originals[f]) { fail('disk', `${when}: ${f} changed on disk behind its dirty buffer: ${(disk.match(/agent-\w+-\d+/g) || []).join(', ')}`); originals[f] = disk; }
    }
    const all = await docs();
    for (const e of edits) {
      if (e.outcome === 'running' || e.reported) continue;
      const want = e.outcome === 'applied' && !e.undone ? 1 : 0;
      const seen = count(all, e.marker);
      if (e.outcome === 'unknown') e.landed = seen === 1;
      if (e.outcome === 'unknown' ? seen > 1 : seen !== want) { e.reported = true; fail('exactly-once', `${when}: ${e.via} edit ${e.n} (${e.outcome}${e.code ? ' ' + e.code : ''}) in the buffers ${seen} times, want ${want}: ${String(e.detail || '').slice(0, 200)}`); }
      else if (e.outcome === 'refused' && !e.code) { e.reported = true; fail('code', `${when}: ${e.via} edit ${e.n} refused without a code: ${String(e.detail).slice(0, 200)}`); }
    }
    for (const u of typed) if (count(all, u) !== 1) fail('keystrokes', `${when}: ${u} is in the buffers ${count(all, u)} times`);
    // Every applied edit's op (found by file and versions), each listed once; the agents' ops no
    // reported edit claims are counted against the in-flight edits that landed.
    const log = cli(['log', '--limit', '100000', '--json']).json;
    const ops = log?.ops || [];
    if (new Set(ops.map((o) => o.op)).size !== ops.length) fail('journal', `${when}: an op is listed twice`);
    const agentOps = ops.filter((o) => String(o.agent).startsWith('chaos') && !o.reverts);
    const claimed = new Set();
    for (const e of edits) {
      if (e.outcome !== 'applied') continue;
      if (e.op === undefined) {
        const op = agentOps.find((o) => !claimed.has(o.op) && String(o.path || o.uri).endsWith('/' + e.file) && o.versionAfter === e.version && o.versionBefore === e.versionBefore);
        if (op) e.op = op.op;
      }
      if (e.op === undefined) { if (!e.journalReported) { e.journalReported = true; fail('journal', `${when}: ${e.via} edit ${e.n} (applied, version ${e.version}) has no op in the journal`); } }
      else claimed.add(e.op);
    }
    counts.unjournaled = Math.max(0, edits.filter((e) => e.outcome === 'unknown' && e.landed).length - agentOps.filter((o) => !claimed.has(o.op)).length);
    const last = [...edits].reverse().find((e) => e.outcome === 'applied' && !e.undone && !e.undoFailed && e.op !== undefined);
    if (last) {
      const u = cli(['undo', String(last.op), '--json']);
      if (u.json?.status === 'applied') {
        last.undone = true;
        counts.undone++;
        const gone = await poll(async () => count(await docs(), last.marker) === 0, { limitMs: 5000 });
        if (!gone) fail('undo', `${when}: undo of op ${last.op} answered applied, ${last.marker} still in the buffer`);
      } else {
        last.undoFailed = true; // reported once; the next round undoes another edit
        fail('undo', `${when}: undo of op ${last.op} failed: ${(u.stdout + u.stderr).slice(0, 200)}`);
      }
    }
  }
  mcp.child.kill();
  const tally = {};
  const codes = {};
  for (const e of edits) { tally[e.outcome] = (tally[e.outcome] || 0) + 1; if (e.code) codes[e.code] = (codes[e.code] || 0) + 1; }
  const summary = `kills ${counts.kills}, restarts ${counts.restarts}, agent edits ${edits.length} (cli ${edits.filter((e) => e.via === 'cli').length}, mcp ${edits.filter((e) => e.via === 'mcp').length}): ` +
    `${JSON.stringify(tally)} (answer lost at the kill and in the buffer: ${edits.filter((e) => e.landed).length}, not journaled: ${counts.unjournaled}) codes ${JSON.stringify(codes)}, undone after restarts ${counts.undone}, typed lines ${typed.length}, ${((Date.now() - t0) / 1000).toFixed(0)} s; ` +
    `violations: ${Object.entries(failures).map(([k, v]) => `${k} ${v.length}`).join(', ') || 'none'}`;
  console.log(`NOTE chaos: ${summary}`);
  L.log('chaos', summary);
  const verdict = (name, keys) => {
    const all = keys.flatMap((k) => failures[k] || []);
    L.check(`chaos: ${name}`, all.length === 0, `${all.length} violation(s): ${all.slice(0, 8).join(' || ')}`);
  };
  L.check(`chaos: ${kills} kills, each followed by a restart`, counts.kills >= kills && counts.restarts === counts.kills, summary);
  verdict('restarted and mirrored after every kill', ['restart', 'mirror']);
  verdict('agent edits applied to the live buffer exactly once or refused with a code', ['exactly-once', 'code', 'hang']);
  verdict('nothing written to disk behind a modified buffer', ['disk']);
  verdict('no keystroke lost', ['keystrokes']);
  verdict('journal consistent', ['journal']);
  L.check('chaos: in-flight edits that landed are journaled', counts.unjournaled === 0,
    `${counts.unjournaled} edit(s) whose answer was lost at the kill are in the buffers but not in the journal`);
  verdict('undo after every restart', ['undo']);
}
