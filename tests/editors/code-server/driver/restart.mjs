// The `restart` part of the code-server scenario (issue 31): `kill -9` of the `hashline lsp` that
// the extension started. Two files are open with unsaved typing and an agent edit is pending.
// While it is down, every sample of the language status item agrees with the server's state (never
// "mirroring" while not running). The language client starts it again by itself: a new pid,
// `hashline status` lists both documents, the new sidecar mirrors both buffers as they are (typing
// included, disk untouched), the journal and the pending review are as before the crash and the
// old op can be undone, the language-model tools work (hashline_read sees the unsaved text), the
// Claude IDE server is back (a new port in `hashline status`, its lock file written, the status
// bar item naming it) and the status item says it restarted once. Four more kills within the
// minute: the 5th makes it give up (an error naming "hashline: Restart Server", the status item
// "stopped: 5 crashes within 60 s"); that command brings it back with both documents mirrored.
// Then Restart Server on the running sidecar (started through a wrapper that waits 1.5 s) under an
// agent's read/edit loop: no call reaches the disk in the gap between the two sidecars.
import fs from 'node:fs';
import path from 'node:path';
import { linesOf, parseRows, poll, runCli, runCliAsync } from './harness.mjs';

const second = 'restart.txt';
const secondText = Array.from({ length: 12 }, (_, i) => `second ${String(i + 1).padStart(2, '0')}`).join('\n') + '\n';

export async function partRestart(page, { L, hooks, ws, bin, env, focusEditor, typeAtLineEnd, docState }) {
  const cli = (args) => runCli(bin, args, env, ws);
  const file = path.join(ws, second);
  fs.writeFileSync(file, secondText);
  const sampleDisk = fs.readFileSync(path.join(ws, 'sample.txt'), 'utf8');
  await hooks.call('open', { path: second });
  await focusEditor(page);
  await typeAtLineEnd(page, 3, ' (typed before the crash)');
  const doc = () => docState((u) => u.endsWith('/' + second));
  const typed = await poll(async () => { const d = await doc(); return d && linesOf(d.text)[2].endsWith('(typed before the crash)') ? d : null; });
  if (!L.check('restart: typed into restart.txt (dirty, disk unchanged)', typed && typed.isDirty && fs.readFileSync(file, 'utf8') === secondText)) return;

  // An agent edit that stays pending across the crash.
  const read = cli(['read', second, '--session', 'restart-agent', '--json']);
  const edit = cli(['replace', second, '--session', 'restart-agent', '--old', 'second 08', '--new', 'second 08 (agent)', '--json']);
  const before = { log: cli(['log', '--json']).json, pending: cli(['pending', '--json']).json, status: cli(['status', '--json']).json };
  const op = before.log?.ops?.at(-1)?.op; // the agent edit: the newest op
  if (!L.check('restart: an agent edit is pending in the buffer before the crash',
    read.status === 0 && edit.json?.status === 'applied' && before.pending?.count >= 1 && typeof before.status?.pid === 'number',
    { read: read.stderr, edit: edit.stdout + edit.stderr, pending: before.pending })) return;
  const oldPid = before.status.pid;
  const oldPort = before.status.claudeIde?.port;

  process.kill(oldPid, 'SIGKILL');
  const samples = [];
  const back = await poll(async () => {
    let st;
    try { st = await hooks.call('state', {}, 2000); } catch { return null; }
    samples.push({ running: st.running, restarting: st.restarting, statusItem: st.statusItem });
    if (!st.running) return null;
    const s = cli(['status', '--json']).json;
    return s && s.pid !== oldPid && s.documents?.length >= 2 ? { st, s } : null;
  }, { limitMs: 30000, everyMs: 50 });
  const lying = samples.filter((s) => (s.running ? !s.statusItem.startsWith('mirroring') : s.statusItem.startsWith('mirroring')));
  L.check('restart: the status item agrees with the server in every sample while it restarts (never "mirroring" while down)',
    samples.length > 0 && lying.length === 0, { samples: samples.length, lying: lying.slice(0, 5), sawRestarting: samples.some((s) => s.restarting) });
  if (!L.check('restart: the extension started a new sidecar by itself; `hashline status` lists both documents',
    back && back.s.documents.some((d) => d.uri.endsWith('/' + second)) && back.s.documents.some((d) => d.uri.endsWith('/sample.txt')),
    back ? back.s.documents.map((d) => d.uri) : samples.slice(-3))) return;

  const m = await poll(async () => { const c = await hooks.call('mirrorCheck'); return c.match ? c : null; }, { limitMs: 15000, everyMs: 200 });
  L.check('restart: the new sidecar mirrors every open buffer as it is (unsaved typing included), disks unchanged',
    m && fs.readFileSync(file, 'utf8') === secondText && fs.readFileSync(path.join(ws, 'sample.txt'), 'utf8') === sampleDisk,
    m || await hooks.call('mirrorCheck'));

  const after = { log: cli(['log', '--json']).json, pending: cli(['pending', '--json']).json };
  const ids = (log) => (log?.ops || []).map((o) => o.op);
  L.check('restart: the journal and the pending review are as before the crash',
    JSON.stringify(ids(after.log)) === JSON.stringify(ids(before.log)) && after.pending?.count === before.pending.count,
    { before: ids(before.log), after: ids(after.log), pendingBefore: before.pending.count, pendingAfter: after.pending?.count });
  const undo = cli(['undo', String(op), '--json']);
  const undone = await poll(async () => { const d = await doc(); return d && linesOf(d.text)[7] === 'second 08' ? d : null; });
  L.check('restart: `hashline undo` of the op from before the crash reverts it in the buffer, the typing stays',
    undo.json?.status === 'applied' && undone && linesOf(undone.text)[2].endsWith('(typed before the crash)'),
    { undo: undo.stdout + undo.stderr, line8: undone && linesOf(undone.text)[7] });

  const tool = await hooks.call('tool', { name: 'hashline_read', input: { path: second } });
  const rows = parseRows(tool.text);
  L.check('restart: the language-model tools work on the new sidecar (hashline_read sees the unsaved line)',
    rows.length >= 12 && rows[2].text.endsWith('(typed before the crash)'), tool.text.slice(0, 300));

  if (oldPort !== undefined) {
    const ide = back.s.claudeIde;
    const lockFile = ide && path.join(env.CLAUDE_CONFIG_DIR || '', 'ide', `${ide.port}.lock`);
    const label = await poll(async () => {
      const el = page.locator('[id="hashline.hashline.hashline.claudeIde"]');
      const text = (await el.count()) ? await el.first().locator('a').first().getAttribute('aria-label').catch(() => null) : null;
      return text && ide && text.includes(`127.0.0.1:${ide.port}`) ? text : null;
    }, { limitMs: 10000 });
    L.check('restart: the Claude IDE server is back (`hashline status` names its port, the lock file is there, the status bar item names it)',
      ide?.enabled === true && typeof ide.port === 'number' && fs.existsSync(lockFile) && label,
      { ide, lockFile, label, oldPort });
  } else {
    L.notRun('restart: the Claude IDE server is back', 'hashline.claudeIde was not on before the crash');
  }
  const st = await hooks.call('state');
  L.check('restart: the status item says it is mirroring and restarted once after a crash',
    st.running && /restarted 1× after a crash/.test(st.statusItem) && st.restarts === 1, st.statusItem);

  // Four more crashes within the minute: restarted three more times, then it gives up.
  let pid = back.s.pid;
  for (let crash = 2; crash <= 4 && pid; crash++) {
    process.kill(pid, 'SIGKILL');
    const next = await poll(async () => {
      const s = cli(['status', '--json']).json;
      return s && s.pid !== pid && s.documents?.length >= 2 ? s : null;
    }, { limitMs: 30000, everyMs: 100 });
    pid = next?.pid;
  }
  if (!L.check('restart: crashes 2 to 4 are restarted too', pid, 'no sidecar after a kill')) return;
  process.kill(pid, 'SIGKILL');
  const stopped = await poll(async () => {
    const s = await hooks.call('state');
    return s.gaveUp ? s : null;
  }, { limitMs: 30000, everyMs: 100 });
  // The toast comes a frame or more after the state: wait for it.
  const readToast = () => page.locator('.notifications-toasts').first().innerText({ timeout: 1000 }).catch(() => '');
  const toast = (await poll(async () => { const t = await readToast(); return t.includes('hashline: Restart Server') ? t : null; },
    { limitMs: 10000, everyMs: 200 })) || (await readToast());
  L.check('restart: the 5th crash within 60 s: it gives up, says so naming "hashline: Restart Server", the status item says why',
    stopped && !stopped.running && stopped.gaveUp === '5 crashes within 60 s' && stopped.statusItem === 'stopped: 5 crashes within 60 s' &&
      toast.includes('not restarting it again') && toast.includes('hashline: Restart Server'),
    { state: stopped && { running: stopped.running, gaveUp: stopped.gaveUp, statusItem: stopped.statusItem }, toast: toast.slice(0, 400) });
  await hooks.call('command', { command: 'hashline.restartServer' }, 60000);
  const again = await poll(async () => {
    const s = cli(['status', '--json']).json;
    return s && s.pid !== pid && s.documents?.length >= 2 ? s : null;
  }, { limitMs: 30000, everyMs: 200 });
  const st2 = await hooks.call('state');
  const m2 = again && await poll(async () => { const c = await hooks.call('mirrorCheck'); return c.match ? c : null; }, { limitMs: 15000, everyMs: 200 });
  L.check('restart: "hashline: Restart Server" starts it again: both documents mirrored, the status item mirroring',
    again && m2 && st2.running && st2.statusItem.startsWith('mirroring') && !st2.gaveUp,
    { documents: again?.documents?.map((d) => d.uri), statusItem: st2.statusItem });
  if (again && m2) await restartUnderAgentCalls({ L, hooks, cli, bin, env, ws, file, pid: again.pid });
}

// "hashline: Restart Server" on a running sidecar while an agent reads and edits restart.txt in a
// loop: the old sidecar keeps its discovery record through the gap (`hashline/restarting`), so
// every call is answered by a sidecar or refused SIDECAR_GONE; none works on the disk behind the
// open, modified buffer (before, a call in the gap found no record: the read got the disk's text
// without the typing, the edit wrote the file). The gap is made wide enough to sample (hashline.path
// is a wrapper that waits 1.5 s before it starts the sidecar); an attempt that saw no call in it is
// repeated (up to 3), so the check is never passed by a loop that missed the gap.
async function restartUnderAgentCalls({ L, hooks, cli, bin, env, ws, file, pid }) {
  const machineSettings = path.join(path.dirname(ws), 'user', 'Machine', 'settings.json');
  const slow = path.join(path.dirname(ws), 'slow-hashline');
  fs.writeFileSync(slow, `#!/bin/sh\nsleep 1.5\nexec '${bin}' "$@"\n`, { mode: 0o755 });
  const usePath = async (binary, previousPid) => {
    fs.writeFileSync(machineSettings, JSON.stringify({ 'hashline.path': binary }, null, 2) + '\n');
    return poll(async () => {
      const s = cli(['status', '--json']).json;
      return s && s.pid !== previousPid && s.documents?.length >= 2 ? s : null;
    }, { limitMs: 30000, everyMs: 200 });
  };
  const slowStarted = await usePath(slow, pid);
  if (!L.check('restart: a settings change (hashline.path) restarts the sidecar', slowStarted, 'no new sidecar')) return;

  const diskBefore = fs.readFileSync(file, 'utf8');
  // A disk answer once the new sidecar has published its record may be that sidecar's before
  // the editor re-opened the file in it (a separate window, docs/crash-safety.md): counted apart.
  const records = path.join(path.dirname(ws), 'run', 'hashline');
  const newSidecarPublished = (old) => fs.readdirSync(records)
    .some((n) => /^sidecar-\d+\.json$/.test(n) && n !== `sidecar-${old}.json`);
  const outcomes = { buffer: 0, SIDECAR_GONE: 0, otherRefusal: 0, disk: 0, diskRead: 0, beforeReopen: 0 };
  const samples = [];
  let [from, to] = ['second 10', 'second 10 (agent)'];
  let failure;
  let oldPid = slowStarted.pid;
  let newPid;
  for (let attempt = 1; attempt <= 3 && outcomes.SIDECAR_GONE === 0 && !failure; attempt++) {
    let restarted = false;
    const restart = hooks.call('command', { command: 'hashline.restartServer' }, 60000)
      .then(() => { restarted = true; }, (e) => { restarted = true; failure = e; });
    let after = 0;
    const end = Date.now() + 60000;
    while (after < 3 && Date.now() < end) {
      if (restarted) after++;
      const read = await runCliAsync(bin, ['read', second, '--session', 'restart-loop'], env, 30000, ws);
      const edit = await runCliAsync(bin, ['replace', second, '--session', 'restart-loop', '--old', from, '--new', to], env, 30000, ws);
      const gone = (text) => text.includes('SIDECAR_GONE: ');
      const published = newSidecarPublished(oldPid);
      if (gone(read.stderr)) outcomes.SIDECAR_GONE++;
      else if (read.status === 0 && !read.stdout.includes('(typed before the crash)')) outcomes[published ? 'beforeReopen' : 'diskRead']++;
      if (`${edit.stdout}${edit.stderr}`.includes('(disk)')) outcomes[published ? 'beforeReopen' : 'disk']++;
      else if (edit.status === 0 && edit.stdout.includes('(buffer)')) { outcomes.buffer++; [from, to] = [to, from]; }
      else if (gone(edit.stderr)) outcomes.SIDECAR_GONE++;
      else outcomes.otherRefusal++;
      if (samples.length < 6 && (edit.status !== 0 || gone(read.stderr)))
        samples.push(`${read.stderr}${edit.stdout}${edit.stderr}`.slice(0, 160));
    }
    await restart;
    newPid = cli(['status', '--json']).json?.pid;
    if (newPid === oldPid) break;
    oldPid = newPid;
  }
  L.check('restart: "hashline: Restart Server" under an agent\'s read/edit loop: calls in the gap are SIDECAR_GONE, every other one answered by a sidecar, none on the disk',
    !failure && outcomes.SIDECAR_GONE > 0 && outcomes.disk === 0 && outcomes.diskRead === 0 &&
      (outcomes.beforeReopen > 0 || fs.readFileSync(file, 'utf8') === diskBefore) && newPid && newPid !== slowStarted.pid && outcomes.buffer > 0,
    { outcomes, samples, newPid, oldPid: slowStarted.pid, failure: failure && String(failure) });
  await usePath(bin, newPid);
}
