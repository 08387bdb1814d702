// The `eyes` part of the code-server scenario (issue 21, the editor's eyes): VS Code's built-in
// TypeScript support checks eyes.ts; the user types into it (unsaved). An agent edit through the
// CLI that introduces a type error gets that error back in its own result, anchored on its line
// (the anchor a read gives that line), `hashline diagnostics` lists it, and the edit that fixes it
// reports it removed — all from the diagnostics the extension forwards (hashline/diagnostics).
// Then the selection: lines 3–5 selected in the editor are what `hashline context` reports, with
// the selected text and anchored rows. Then the symbols: the extension's answer to
// hashline/documentSymbol lists each function, and `hashline outline` / `read --symbol` use it
// (an unknown symbol and a plain text file, which has no language server, are refused).
// The context and symbol subcommands are checked once the binary has them (NOT RUN until then).
import fs from 'node:fs';
import path from 'node:path';
import { linesOf, parseRows, poll, runCli, sleep } from './harness.mjs';

const name = 'eyes.ts';
const original = [
  'export function add(a: number, b: number): number {', //  1
  '  return a + b;', //                                       2
  '}', //                                                     3
  '', //                                                      4
  'export function greet(who: string): string {', //          5
  '  const text = `hello ${who}`;', //                         6
  '  return text;', //                                        7
  '}', //                                                     8
  '', //                                                      9
  'export function total(values: number[]): number {', //    10
  '  let sum = 0;', //                                       11
  '  for (const v of values) sum = add(sum, v);', //         12
  '  return sum;', //                                        13
  '}', //                                                    14
  '',
].join('\n');
// Each function of eyes.ts with its 1-based line span.
const functions = { add: [1, 3], greet: [5, 8], total: [10, 14] };
const TYPED = ' // typed by the user, not saved';
const BAD = 'const n: number = "x";';

// The 1-based line span of an outline entry, whichever way the sidecar spells it.
function spanOf(entry) {
  if (!entry || typeof entry !== 'object') return undefined;
  const pairs = [['line', 'endLine'], ['from', 'to'], ['startLine', 'endLine'], ['start', 'end']];
  for (const [a, b] of pairs) if (Number.isInteger(entry[a]) && Number.isInteger(entry[b])) return [entry[a], entry[b]];
  if (entry.range?.start && Number.isInteger(entry.range.start.line)) return [entry.range.start.line + 1, entry.range.end.line + 1];
  if (Array.isArray(entry.lines) && entry.lines.length === 2) return entry.lines;
  return undefined;
}

// Every entry of an outline answer, children included.
function outlineEntries(json) {
  const out = [];
  const walk = (list) => {
    for (const e of Array.isArray(list) ? list : []) {
      out.push(e);
      walk(e.children);
    }
  };
  walk(json?.symbols ?? json?.outline ?? json?.entries ?? []);
  return out;
}

export async function partEyes(page, { L, hooks, ws, bin, env, focusEditor, typeAtLineEnd, docState }) {
  const file = path.join(ws, name);
  fs.writeFileSync(file, original);
  const cliEnv = { ...env, HASHLINE_SESSION: 'code-server-test-eyes' };
  // In a terminal in the workspace folder: `hashline context` names no file and finds the
  // sidecar by its working directory.
  const cli = (args) => runCli(bin, args, cliEnv, ws);
  const doc = () => docState((u) => u.endsWith('/' + name));
  const lineOf = (d, n) => linesOf(d.text)[n - 1];
  const diskUnchanged = () => fs.readFileSync(file, 'utf8') === original;

  await hooks.call('open', { path: name });
  await focusEditor(page);
  await typeAtLineEnd(page, 14, TYPED);
  const typed = await poll(async () => { const d = await doc(); return d && d.isDirty && lineOf(d, 14) === '}' + TYPED ? d : null; });
  if (!L.check('eyes: the user typed into eyes.ts (dirty, disk unchanged)', typed && diskUnchanged(), typed && lineOf(typed, 14))) return;

  // TypeScript is up once it gives symbols for the file (its server starts on the first .ts file).
  const symbols = await poll(async () => {
    const r = await hooks.call('documentSymbol', { path: name });
    return r.symbols ? r : (poll.last = r, null);
  }, { limitMs: 60000, everyMs: 500 });
  const byName = Object.fromEntries((symbols?.symbols ?? []).map((s) => [s.name, s]));
  L.check('eyes: the extension answers hashline/documentSymbol with each function of eyes.ts (LSP kind 12, 0-based ranges)',
    symbols && Object.entries(functions).every(([n, [from, to]]) =>
      byName[n]?.kind === 12 && byName[n].range.start.line === from - 1 && byName[n].range.end.line === to - 1 &&
      byName[n].selectionRange.start.line === from - 1 && Array.isArray(byName[n].children)),
    symbols ?? poll.last);
  const txt = await hooks.call('documentSymbol', { path: 'sample.txt' });
  L.check('eyes: for a plain text file the answer is symbols null with the reason', txt.symbols === null &&
    /no language server in VS Code provides symbols for plaintext files/.test(txt.reason || ''), txt);

  // The sidecar has the file's (clean) set, sent when the document opened.
  const listed = await poll(() => {
    const r = cli(['diagnostics', file, '--json']);
    return r.json?.available === true && r.json.files?.length === 1 ? r : (poll.last = r, null);
  }, { limitMs: 20000, everyMs: 300 });
  L.check('eyes: the sidecar has VS Code\'s diagnostics set for eyes.ts (clean)',
    listed && !listed.json.files[0].diagnostics.some((x) => x.severity === 'error'), listed?.json ?? poll.last);

  // 1. The agent's edit introduces a type error.
  const read = cli(['read', file, '--json']);
  const rows = read.json?.lines ?? [];
  const r3 = rows.find((r) => r.line === 3);
  if (!L.check('eyes: the CLI read sees the unsaved typing', r3 && rows.find((r) => r.line === 14)?.text === '}' + TYPED,
    { status: read.status, stderr: read.stderr, head: (read.stdout || '').slice(0, 400) })) return;
  const bad = cli(['edit', file, '--edits', JSON.stringify([{ op: 'insert_after', anchor: r3.anchor, content: BAD }]),
    '--json', '--diagnostics-wait', '5000']);
  const d1 = bad.json?.diagnostics;
  const introduced = (d1?.introduced ?? []).find((x) => x.severity === 'error' && x.line === 4);
  const reread = cli(['read', file, '--from', '4', '--to', '4', '--json']).json?.lines?.[0];
  const vsc = await hooks.call('diagnostics', { path: name });
  L.check('eyes: an edit introducing a type error gets it back in its result, settled, anchored on its line',
    bad.status === 0 && bad.json?.backend === 'buffer' && d1?.settled === true && introduced && introduced.source === 'ts' &&
      reread?.text === BAD && introduced.anchor === reread.anchor && introduced.row.startsWith(`${reread.anchor} error ts `),
    { status: bad.status, diagnostics: d1, stdout: bad.json ? undefined : bad.stdout, stderr: bad.stderr, read4: reread, vscode: vsc });
  const inBuffer = await doc();
  L.check('eyes: the edit is in the buffer (typing kept), disk unchanged',
    lineOf(inBuffer, 4) === BAD && lineOf(inBuffer, 15) === '}' + TYPED && inBuffer.isDirty && diskUnchanged(),
    { line4: lineOf(inBuffer, 4), line15: lineOf(inBuffer, 15) });

  // 2. `hashline diagnostics` lists the current set.
  const now = cli(['diagnostics', file, '--json']);
  const current = now.json?.files?.[0]?.diagnostics ?? [];
  L.check('eyes: `hashline diagnostics eyes.ts --json` lists the error on line 4 with its anchor',
    now.status === 0 && current.some((x) => x.severity === 'error' && x.line === 4 && x.anchor === reread?.anchor && x.source === 'ts'),
    now.json ?? { status: now.status, stdout: now.stdout, stderr: now.stderr });

  // 3. The edit that fixes it reports it removed.
  const fix = cli(['edit', file, '--edits', JSON.stringify([{ op: 'delete', anchor: reread?.anchor ?? '4' }]),
    '--json', '--diagnostics-wait', '5000']);
  const d2 = fix.json?.diagnostics;
  L.check('eyes: the edit that fixes it reports it removed (settled, nothing introduced)',
    fix.status === 0 && d2?.settled === true && (d2.removed ?? []).some((x) => x.severity === 'error' && x.line === 4 && x.source === 'ts') &&
      !(d2.introduced ?? []).some((x) => x.severity === 'error'),
    { status: fix.status, diagnostics: d2, stderr: fix.stderr });
  const fixed = await doc();
  const expected = linesOf(original).map((l, i) => (i === 13 ? l + TYPED : l)).join('\n');
  L.check('eyes: the buffer is the original plus the typing again (disk unchanged)', fixed.text === expected && diskUnchanged(), fixed.text);

  // 4. The selection.
  const help = cli(['context', '--help']);
  const sel = await hooks.call('select', { path: name, from: 3, to: 5 });
  await sleep(400);
  if (help.status !== 0) {
    L.notRun('eyes: `hashline context` reports the selection', 'this hashline has no `context` subcommand yet');
  } else {
    const ctx = await poll(() => {
      const r = cli(['context', '--json']);
      return r.json?.active?.selections?.[0]?.text === sel.text ? r : (poll.last = r, null);
    }, { limitMs: 3000 });
    const got = ctx ?? poll.last;
    const s0 = got?.json?.active?.selections?.[0];
    const selRows = typeof s0?.rows === 'string' ? parseRows(s0.rows) : (s0?.rows ?? []);
    const anchors = cli(['read', file, '--from', '3', '--to', '5', '--json']).json?.lines ?? [];
    L.check('eyes: `hashline context --json` has eyes.ts active with the selected lines 3–5 (text, anchored rows)',
      ctx && String(got.json.active.uri).endsWith('/' + name) && s0.from?.line === 3 && s0.to?.line === 5 &&
        selRows.length === 3 && selRows.every((r, i) => r.anchor === anchors[i]?.anchor),
      { context: got?.json ?? got?.stdout, selected: sel.text, read: anchors });
    L.check('eyes: the visible editors include eyes.ts', (got?.json?.visible ?? []).some((v) => String(v.uri).endsWith('/' + name)),
      got?.json?.visible);
    // The setting: off sends an empty view.
    await hooks.call('setSetting', { key: 'shareSelection', value: false });
    const off = await poll(() => { const r = cli(['context', '--json']); return r.json && r.json.available === false ? r : (poll.last = r, null); }, { limitMs: 3000 });
    await hooks.call('select', { path: name, from: 7, to: 7 });
    await sleep(400);
    const stillOff = cli(['context', '--json']);
    // Turning sharing off makes the sidecar forget every report, the latest selection too.
    L.check('eyes: with hashline.shareSelection off the sidecar has no selection at all (not even the latest), and later selections are not sent',
      off && stillOff.json?.available === false && /turned selection sharing off/.test(stillOff.json?.note ?? '') &&
        !stillOff.json?.latestSelection,
      { off: (off ?? poll.last)?.json, after: stillOff.json });
    await hooks.call('setSetting', { key: 'shareSelection', value: true });
  }

  // 5. Symbols through the sidecar.
  if (cli(['outline', '--help']).status !== 0) {
    L.notRun('eyes: `hashline outline` / `hashline read --symbol`', 'this hashline has no `outline` subcommand yet');
    return;
  }
  const outline = cli(['outline', file, '--json']);
  const entries = outlineEntries(outline.json);
  L.check('eyes: `hashline outline eyes.ts --json` lists each function with its 1-based line span',
    outline.status === 0 && Object.entries(functions).every(([n, span]) =>
      entries.some((e) => e.name === n && JSON.stringify(spanOf(e)) === JSON.stringify(span))),
    outline.json ?? { status: outline.status, stdout: outline.stdout, stderr: outline.stderr });
  const greet = cli(['read', file, '--symbol', 'greet', '--json']);
  const glines = greet.json?.lines ?? [];
  L.check('eyes: `hashline read eyes.ts --symbol greet --json` returns exactly lines 5–8',
    greet.status === 0 && glines.length === 4 && glines.every((l, i) => l.line === 5 + i && l.text === linesOf(original)[4 + i]),
    greet.json ?? { status: greet.status, stdout: greet.stdout, stderr: greet.stderr });
  // Bad input: a symbol eyes.ts lacks, and a file no language server in VS Code has symbols for.
  const unknown = cli(['read', file, '--symbol', 'nosuch', '--json']);
  const unknownCode = unknown.json?.error?.code ?? (/^([A-Z_]+)/.exec(unknown.stderr || '') || [])[1];
  L.check('eyes: `read --symbol` of a name eyes.ts lacks is refused with an error code (exit 1)',
    unknown.status === 1 && /^[A-Z_]+$/.test(unknownCode || ''), { status: unknown.status, stdout: unknown.stdout, stderr: unknown.stderr });
  const plain = cli(['outline', path.join(ws, 'sample.txt'), '--json']);
  const said = `${plain.stdout}${plain.stderr}`;
  L.check('eyes: `hashline outline sample.txt` is refused with the extension\'s reason (no language server for plaintext files)',
    plain.status === 1 && /plaintext/.test(said) && /language server/.test(said), { status: plain.status, stdout: plain.stdout, stderr: plain.stderr });
}
