// The `reconcile` part of the code-server scenario (docs/reconcile.md): a foreign program writes
// the file behind a dirty buffer. A non-overlapping write (temp + rename, as most agents write)
// is merged into the buffer, journaled as one op by agent `disk`, and the user's Ctrl+S then saves
// without VS Code's "The content of the file is newer" conflict: the disk equals the buffer and the
// user settings keep no files.saveConflictResolution override. An overlapping write is a conflict:
// the buffer keeps the user's line, the warning's "Take theirs" puts the disk's line in.
import fs from 'node:fs';
import path from 'node:path';
import { linesOf, poll, runCli } from './harness.mjs';

const name = 'reconcile.txt';
const original = Array.from({ length: 30 }, (_, i) => `row ${String(i + 1).padStart(2, '0')}`).join('\n') + '\n';

// Writes like an agent's own file tool: a temp file in the same directory, renamed into place.
function foreignWrite(file, text) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.agent-tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

const withLine = (text, n, content) => {
  const ls = linesOf(text);
  ls[n - 1] = content;
  return ls.join('\n');
};

export async function partReconcile(page, { L, hooks, ws, bin, env, testDir, focusEditor, typeAtLineEnd, docState, toastText }) {
  const file = path.join(ws, name);
  fs.writeFileSync(file, original);
  await hooks.call('open', { path: name });
  const doc = () => docState((u) => u.endsWith('/' + name));
  const lineOf = (d, n) => linesOf(d.text)[n - 1];
  await focusEditor(page);
  await typeAtLineEnd(page, 1, ' (mine)');
  const dirty = await poll(async () => { const d = await doc(); return d && d.isDirty && lineOf(d, 1) === 'row 01 (mine)' ? d : null; });
  if (!L.check('reconcile: the user typed into reconcile.txt (dirty, disk unchanged)', dirty && fs.readFileSync(file, 'utf8') === original,
    dirty && lineOf(dirty, 1))) return;

  // 1. A non-overlapping foreign write (line 25) reaches the dirty buffer; the typing stays.
  const theirs = withLine(original, 25, 'row 25 (written by another program)');
  foreignWrite(file, theirs);
  const merged = await poll(async () => { const d = await doc(); return d && lineOf(d, 25) === 'row 25 (written by another program)' ? d : null; });
  const now = merged || (await doc());
  L.check('reconcile: the disk write merged into the dirty buffer; the user\'s typing stays; disk = the writer\'s text',
    merged && lineOf(now, 1) === 'row 01 (mine)' && now.isDirty && fs.readFileSync(file, 'utf8') === theirs,
    { line1: lineOf(now, 1), line25: lineOf(now, 25), isDirty: now.isDirty });
  const log = runCli(bin, ['log', '--path', file, '--json'], env);
  const ops = JSON.stringify(log.json ?? log.stdout ?? '');
  L.check('reconcile: `hashline log` has the merge as an op by agent disk, method reconcile',
    log.status === 0 && ops.includes('"disk"') && ops.includes('reconcile') && ops.includes(name), { status: log.status, out: ops.slice(0, 800), stderr: log.stderr });

  // 2. Ctrl+S: no save conflict, the disk holds both changes.
  await focusEditor(page);
  await page.keyboard.press('Control+s');
  const saved = await poll(async () => {
    const d = await doc();
    return d && !d.isDirty && fs.readFileSync(file, 'utf8') === d.text ? d : null;
  });
  const toasts = await toastText(page);
  const disk = fs.readFileSync(file, 'utf8');
  L.check('reconcile: Ctrl+S saves without the "file is newer" conflict; disk = buffer (both changes)',
    saved && !/newer|Compare|Overwrite/i.test(toasts) && linesOf(disk)[0] === 'row 01 (mine)' && linesOf(disk)[24] === 'row 25 (written by another program)',
    { saved: !!saved, toasts, disk: disk.slice(0, 200) });
  // The override lives for one save: it is removed once VS Code reports the save done.
  const settingsFile = path.join(testDir, 'user', 'User', 'settings.json');
  const clean = await poll(() => !fs.readFileSync(settingsFile, 'utf8').includes('saveConflictResolution'));
  L.check('reconcile: no files.saveConflictResolution override is left in the user settings after the save',
    clean, fs.readFileSync(settingsFile, 'utf8'));

  // 3. A write behind the now clean buffer: VS Code reloads it itself and hashline journals that
  // reload as the merge (it sends no edit of its own): buffer = disk, the tab stays clean, and
  // the journal has exactly one more reconcile op.
  const reconcileOps = () => {
    const out = runCli(bin, ['log', '--path', file, '--json'], env);
    return (out.json?.ops ?? []).filter((op) => op.method === 'reconcile').length;
  };
  const opsBefore = reconcileOps();
  const next = withLine(fs.readFileSync(file, 'utf8'), 28, 'row 28 (written behind a clean buffer)');
  foreignWrite(file, next);
  const same = await poll(async () => { const d = await doc(); return d && d.text === next ? d : null; });
  const journaled = await poll(() => reconcileOps() === opsBefore + 1);
  await new Promise((r) => setTimeout(r, 2000)); // past the server's wait for the reload
  const after = await doc();
  L.check('reconcile: a write behind a clean buffer: VS Code reloads it, the tab stays clean, one reconcile op journaled',
    same && journaled && after.text === next && !after.isDirty && reconcileOps() === opsBefore + 1,
    { isDirty: after.isDirty, opsBefore, opsAfter: reconcileOps(), buffer: after.text.slice(-120), disk: next.slice(-120) });

  // 4. An overlapping write: the user types on line 10, the writer changes line 10 too.
  await typeAtLineEnd(page, 10, ' (mine too)');
  await poll(async () => lineOf(await doc(), 10) === 'row 10 (mine too)');
  const base = fs.readFileSync(file, 'utf8');
  foreignWrite(file, withLine(base, 10, 'row 10 (theirs)'));
  const warning = await poll(async () => { const t = await toastText(page); return t.includes('Take theirs') ? t : null; }, { limitMs: 20000 });
  const kept = await doc();
  L.check('reconcile: an overlapping write is a conflict: a warning with "Take theirs", the buffer keeps the user\'s line',
    warning && lineOf(kept, 10) === 'row 10 (mine too)', { toasts: await toastText(page), line10: lineOf(kept, 10) });
  if (!warning) return;
  await page.locator('.notifications-toasts .monaco-button', { hasText: 'Take theirs' }).first().click({ timeout: 5000 });
  const took = await poll(async () => { const d = await doc(); return lineOf(d, 10) === 'row 10 (theirs)' ? d : null; });
  L.check('reconcile: "Take theirs" puts the disk\'s line into the buffer', took, lineOf(took || (await doc()), 10));
}
