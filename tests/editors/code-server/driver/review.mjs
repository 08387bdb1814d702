// The code-server part `review` (issues 9 and 34): an agent op with two hunks from the CLI (agent
// `claude`) into the unsaved sample.txt, then what a person sees and does:
//   - the CodeLens row `claude · +1 −1 | ✓ Keep | ✗ Reject | Diff` above each hunk (on screen, the
//     agent's name first, no hunk id, no JSON escaping of the agent's text);
//   - hovering hunk A shows the line it replaced (the removed text) as a diff block; a 12-line
//     removal shows its first 8 lines and the other 4 folded ("4 more removed lines"), a click
//     unfolds them;
//   - the lens "Diff" opens VS Code's diff editor: the line before the hunk on the left, the live
//     buffer (the agent's line and the user's typing) on the right;
//   - hashline's own status bar item counts them (`hashline: 2 pending` more than before), and is
//     back to the count before (`hashline` when none) once they are kept or rejected;
//   - "Review Agent Edits" lists `claude · +1 −1` with `sample.txt, line 9` (no id, no escaping)
//     and picking a row opens the same diff;
//   - ✗ Reject clicked on screen restores hunk A (typing kept, tab dirty, disk unchanged) and the
//     status bar says "Rejected claude's edit in sample.txt (line 9)"; the reject is journaled as
//     the user's decision (`hashline log`: agent user, hunk state decision) and `hashline pending`
//     does not list it; ✓ Keep on hunk B leaves nothing of the op pending;
//   - the Ports view lists no `hashline lsp` process: the Claude IDE port is not auto-forwarded.
// With CS_SCREENSHOT_DIR set, the hover and lens picture is saved there as review-vscode.png.
import fs from 'node:fs';
import path from 'node:path';
import { linesOf, poll, runCli, sleep } from './harness.mjs';

// The lens row of a hunk: its first lens's tooltip names the hunk (`… (hunk 3#1): …`).
export const lensRowOf = (page, id) =>
  page.locator('.monaco-editor .codelens-decoration', { has: page.locator(`a[title*="(hunk ${id})"]`) });

// hashline's own status bar item (window.createStatusBarItem id hashline.state of the extension
// hashline.hashline: VS Code names its element <extension id>.<item id>).
export const hashlineItem = (page) => page.locator('[id="hashline.hashline.hashline.state"]');

export async function partReview(page, t) {
  const { L, hooks, bin, env, sampleName, samplePath, focusEditor, typeAtLineEnd, sampleDoc, diskUnchanged, palette, domText, toastText } = t;
  const lineOf = (doc, n) => linesOf(doc.text)[n - 1];
  const cliEnv = { ...env, HASHLINE_SESSION: 'code-server-test-review' };
  const cliPending = () => {
    const r = runCli(bin, ['pending', '--path', samplePath, '--json'], cliEnv);
    cliPending.last = { status: r.status, stdout: (r.stdout || '').slice(0, 1500), stderr: r.stderr };
    const files = r.json && Array.isArray(r.json.files) ? r.json.files : [];
    return files.filter((f) => String(f.uri || f.path || f.name).endsWith(sampleName)).flatMap((f) => f.hunks || []);
  };
  const sampleLenses = () => hooks.call('codeLenses', { path: sampleName });
  const lensesOf = (lenses, id) => lenses.filter((l) => (l.arguments || []).includes(id) || (l.tooltip || '').includes(`(hunk ${id})`));
  const itemText = async () => ((await hashlineItem(page).count()) > 0 ? (await hashlineItem(page).first().innerText().catch(() => '')) : '').replace(/\u00a0/g, ' ').trim();

  await hooks.call('open', { path: sampleName });
  // Agent edits of the parts before this one may still be pending: the status item counts them too.
  const workspacePending = () => runCli(bin, ['pending', '--json'], env, path.dirname(samplePath)).json?.count;
  const before = workspacePending();
  if (!L.check('review: `hashline pending` counts the pending hunks of the workspace', Number.isInteger(before), before)) return;
  const itemSays = (n) => (n === 0 ? 'hashline' : `hashline: ${n} pending`);
  const read = runCli(bin, ['read', samplePath, '--json'], cliEnv);
  const rows = read.json && Array.isArray(read.json.lines) ? read.json.lines : [];
  const a9 = rows.find((l) => l.line === 9);
  const a15 = rows.find((l) => l.line === 15);
  if (!L.check('review: the CLI read the buffer', a9 && a15, { status: read.status, stderr: read.stderr })) return;
  // Quotes and a backslash: a label that JSON-escaped them would show \" and \\.
  const textA = 'line 9 """agent hunk A""" \\ "quoted"';
  const textB = 'line 15 (agent hunk B)';
  const line9Before = a9.text;
  const line15Before = a15.text;
  const edits = JSON.stringify([
    { op: 'replace', anchor: a9.anchor, content: textA },
    { op: 'replace', anchor: a15.anchor, content: textB },
  ]);
  const edit = runCli(bin, ['edit', samplePath, '--agent', 'claude', '--edits', edits, '--json'], cliEnv);
  const landed = await poll(async () => { const d = await sampleDoc(); return lineOf(d, 9) === textA && lineOf(d, 15) === textB ? d : null; });
  if (!L.check('review: a two-hunk agent op by claude from the CLI landed in the buffer',
    edit.status === 0 && edit.json?.backend === 'buffer' && landed, { status: edit.status, stdout: edit.stdout, stderr: edit.stderr })) return;
  // The user types right next to hunk A (line 10) before reviewing.
  await focusEditor(page);
  await typeAtLineEnd(page, 10, ' (user, by A)');
  const line10 = lineOf(await poll(async () => { const d = await sampleDoc(); return lineOf(d, 10).endsWith(' (user, by A)') ? d : null; }) || (await sampleDoc()), 10);

  const pending = await poll(() => {
    const hs = cliPending();
    const a = hs.find((h) => (h.after || '').includes(textA));
    const b = hs.find((h) => (h.after || '').includes(textB));
    return a && b ? { a, b } : null;
  }, { limitMs: 5000 });
  if (!L.check('review: `hashline pending` lists both hunks of the op, with the text each replaced', pending &&
    pending.a.before === line9Before + '\n' && pending.b.before === line15Before + '\n', cliPending.last)) return;
  const idA = pending.a.id;
  const idB = pending.b.id;

  const lenses = await poll(async () => {
    const ls = await sampleLenses();
    const want = ['claude \u00b7 +1 \u22121', '\u2713 Keep', '\u2717 Reject', 'Diff'];
    const ok = want.every((title) => lensesOf(ls, idA).some((l) => l.title === title && l.line === 9) &&
      lensesOf(ls, idB).some((l) => l.title === title && l.line === 15));
    return ok ? ls : (sampleLenses.last = ls, null);
  });
  L.check('review: CodeLenses "claude · +1 −1", "✓ Keep", "✗ Reject", "Diff" on each pending hunk (lines 9 and 15)', lenses, sampleLenses.last);

  // What a person sees: the lens row above hunk A, rendered by Monaco.
  const lensRow = lensRowOf(page, idA);
  const shown = await poll(async () => ((await lensRow.count()) > 0 ? (await lensRow.first().innerText()).replace(/\u00a0/g, ' ') : null), { limitMs: 10000 });
  L.check('review: the lens row on screen starts with the agent\'s name and has no hunk id',
    shown && shown.startsWith('claude \u00b7 +1 \u22121') && shown.includes('\u2713 Keep') && shown.includes('\u2717 Reject') &&
    shown.includes('Diff') && !shown.includes(idA), shown || await domText(page, '.monaco-editor .contentWidgets'));

  const pendingItem = await poll(async () => ((await itemText()) === itemSays(before + 2) ? 'ok' : null), { limitMs: 10000 });
  L.check(`review: hashline's status bar item shows "${itemSays(before + 2)}" (the two hunks and the ${before} pending before)`, pendingItem,
    { item: await itemText(), ids: await page.locator('.statusbar-item').evaluateAll((els) => els.map((e) => e.id)).catch(() => []) });

  // Hovering hunk A shows the line it replaced: the cursor on its line, then "Show Hover"
  // (Ctrl+K Ctrl+I), which shows the same hover the mouse does.
  const hover = page.locator('.monaco-hover:not(.hidden)');
  const hoverText = async () => (await hover.allInnerTexts().catch(() => [])).join('\n').replace(/\u00a0/g, ' ');
  // The hover of line `n` once `shows(text)` holds (the cursor there, then Show Hover).
  const hoverAt = (n, shows) => poll(async () => {
    await page.keyboard.press('Escape');
    await hooks.call('select', { path: sampleName, from: n, to: n });
    await focusEditor(page);
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < n; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await sleep(500);
    const h = await hoverText();
    return shows(h) ? h : (hoverText.last = h, null);
  }, { limitMs: 15000, everyMs: 300 });
  const hovered = await hoverAt(9, (h) => h.includes(line9Before) && h.includes(textA));
  L.check('review: hovering hunk A shows the removed line and the written one (a diff block) with Diff / Keep / Reject',
    hovered && hovered.includes(`- ${line9Before}`) && hovered.includes('Diff') && hovered.includes('\u2717 Reject'), hovered || hoverText.last);
  if (env.CS_SCREENSHOT_DIR && hovered) {
    fs.mkdirSync(env.CS_SCREENSHOT_DIR, { recursive: true });
    const box = await page.locator('.editor-group-container.active').first().boundingBox();
    await page.screenshot({ path: path.join(env.CS_SCREENSHOT_DIR, 'review-vscode.png'),
      clip: box ? { x: box.x, y: box.y, width: Math.min(box.width, 860), height: Math.min(box.height, 420) } : undefined });
  }
  await page.mouse.move(5, 5);
  await page.keyboard.press('Escape');

  // The lens "Diff": VS Code's diff editor, the text before the hunk ↔ the buffer now.
  const diffSides = async () => ({
    original: (await domText(page, '.monaco-diff-editor .editor.original .view-lines')).replace(/\u00a0/g, ' '),
    modified: (await domText(page, '.monaco-diff-editor .editor.modified .view-lines')).replace(/\u00a0/g, ' '),
    tab: await domText(page, '.editor-group-container.active .tabs-container .tab.active'),
  });
  const diffShows = (s) => s.original.includes(line9Before) && !s.original.includes('agent hunk A') &&
    s.modified.includes('agent hunk A') && s.modified.includes('(user, by A)');
  await lensRow.first().locator('a', { hasText: 'Diff' }).click({ timeout: 5000 }).catch((e) => L.log('click Diff', String(e)));
  const diffed = await poll(async () => { const s = await diffSides(); return diffShows(s) ? s : (diffSides.last = s, null); }, { limitMs: 10000 });
  L.check('review: the lens "Diff" opens the diff editor: the line before hunk A on the left, the buffer now (agent line, user typing) on the right',
    diffed && diffed.tab.includes(sampleName), diffed || diffSides.last);
  const closeDiff = () => hooks.call('command', { command: 'workbench.action.closeActiveEditor' });
  await closeDiff();
  await hooks.call('open', { path: sampleName });

  // "Review Agent Edits": plain rows; picking one opens the same diff.
  await palette(page, 'hashline: Review Agent Edits');
  const listed = await poll(async () => {
    const text = (await domText(page, '.quick-input-list')).replace(/\u00a0/g, ' ');
    return text.includes('claude \u00b7 +1 \u22121') && text.includes(`${sampleName}, line 9`) && text.includes(`${sampleName}, line 15`) ? text : null;
  }, { limitMs: 10000 });
  L.check('review: "Review Agent Edits" lists "claude · +1 −1" with "sample.txt, line 9" / "line 15", the agent\'s text as written, no ids',
    listed && listed.includes(textA) && !listed.includes('\\"') && !listed.includes(idA) && !listed.includes(idB),
    listed || await domText(page, '.quick-input-widget'));
  await page.locator('.quick-input-list .monaco-list-row', { hasText: `${sampleName}, line 9` }).first().click({ timeout: 5000 })
    .catch((e) => L.log('click row', String(e)));
  const fromList = await poll(async () => { const s = await diffSides(); return diffShows(s) ? s : (diffSides.last = s, null); }, { limitMs: 10000 });
  L.check('review: picking the row opens the same diff', fromList, diffSides.last);
  await page.keyboard.press('Escape'); // the Keep / Reject choice that follows
  await closeDiff();
  await hooks.call('open', { path: sampleName });

  // Reject hunk A by clicking its lens, as a person would.
  await lensRowOf(page, idA).first().locator('a', { hasText: '\u2717 Reject' }).click({ timeout: 10000 });
  const rejected = await poll(async () => { const d = await sampleDoc(); return lineOf(d, 9) === line9Before ? d : null; });
  const now = rejected || (await sampleDoc());
  L.check('review: Reject restored hunk A in the buffer, kept the user\'s typing next to it and hunk B',
    rejected && lineOf(now, 10) === line10 && lineOf(now, 15) === textB,
    { line9: lineOf(now, 9), line10: lineOf(now, 10), line15: lineOf(now, 15), toast: await toastText(page) });
  const said = await poll(async () => {
    const bar = (await domText(page, '.part.statusbar')).replace(/\u00a0/g, ' ');
    return bar.includes(`Rejected claude's edit in ${sampleName} (line 9)`) ? bar : null;
  }, { limitMs: 5000 });
  L.check('review: the status bar says "Rejected claude\'s edit in sample.txt (line 9)"', said, await domText(page, '.part.statusbar'));
  const dirtyTab = await page.locator('.tabs-container .tab.active.dirty').count();
  L.check('review: after Reject the tab stays dirty and the disk is unchanged', now.isDirty && dirtyTab === 1 && diskUnchanged(),
    { isDirty: now.isDirty, dirtyTab });
  const afterReject = await poll(async () => {
    const ls = await sampleLenses();
    return lensesOf(ls, idA).length === 0 && lensesOf(ls, idB).some((l) => l.title === '\u2717 Reject') ? ls : (sampleLenses.last = ls, null);
  });
  const stillPending = cliPending().map((h) => h.id);
  L.check('review: hunk B is still pending (its lens stays, hunk A\'s is gone), and the reject itself is not pending',
    afterReject && stillPending.length === 1 && stillPending[0] === idB, { lenses: sampleLenses.last, pending: stillPending });
  const log = runCli(bin, ['log', '--path', samplePath, '--json'], env); // every session: the reject is the user's
  const rejectOps = (log.json?.ops ?? []).filter((op) => op.method === 'reject');
  L.check('review: `hashline log` has the reject as the user\'s decision (agent user, hunk state decision), no pending hunk of it',
    rejectOps.length === 1 && rejectOps[0].agent === 'user' && rejectOps[0].hunks.every((h) => h.state === 'decision'),
    { rejectOps, status: log.status });
  const onePending = await poll(async () => ((await itemText()) === itemSays(before + 1) ? 'ok' : null), { limitMs: 10000 });
  L.check(`review: the status bar item follows: "${itemSays(before + 1)}"`, onePending, await itemText());

  // Keep hunk B through the command: its lens goes, the text stays, nothing is pending.
  await hooks.call('command', { command: 'hashline.review.keep', args: [idB] });
  const kept = await poll(async () => (lensesOf(await sampleLenses(), idB).length === 0 ? 'gone' : null));
  const final = await sampleDoc();
  L.check('review: Keep removes hunk B\'s lens and leaves its text',
    kept && lineOf(final, 15) === textB && cliPending().length === 0, { lenses: await sampleLenses(), line15: lineOf(final, 15) });
  const none = await poll(async () => ((await itemText()) === itemSays(before) ? 'ok' : null), { limitMs: 10000 });
  L.check(`review: back to "${itemSays(before)}" after Keep (nothing of the op pending)`, none, await itemText());

  // A long removal is folded in the hover, not cut and not scrolled: an agent replaces lines 11–22
  // by one line; the hover shows the first 8 removed lines, "4 more removed lines" folded, and
  // a click on that summary shows the other 4.
  const doc = await sampleDoc();
  const removed = linesOf(doc.text).slice(10, 22);
  const rows2 = runCli(bin, ['read', samplePath, '--json'], cliEnv).json?.lines ?? [];
  const at = (n) => rows2.find((l) => l.line === n)?.anchor;
  const textC = 'lines 11-22 (agent, one line)';
  const long = runCli(bin, ['edit', samplePath, '--agent', 'claude', '--json',
    '--edits', JSON.stringify([{ op: 'replace', anchor: at(11), end: at(22), content: textC }])], cliEnv);
  const longLanded = await poll(async () => (lineOf(await sampleDoc(), 11) === textC ? 'ok' : null));
  if (!L.check('review: an agent op replacing 12 lines (11–22) by one landed', long.status === 0 && longLanded && removed.length === 12,
    { status: long.status, stdout: long.stdout, stderr: long.stderr })) return;
  // What is on screen: innerText leaves out the contents of a closed <details>.
  const details = hover.locator('details', { hasText: '4 more removed lines' }).first();
  const isOpen = () => details.evaluate((d) => d.open).catch(() => null);
  const folded = await hoverAt(11, (h) => h.includes(textC) && h.includes('4 more removed lines'));
  const firstEight = folded && removed.slice(0, 8).every((l) => folded.includes(`- ${l}`));
  const restHidden = folded && (await isOpen()) === false && removed.slice(8).every((l) => !folded.includes(`- ${l}`));
  L.check('review: the hover of a 12-line removal shows its first 8 lines and "4 more removed lines" folded (the rest not shown)',
    firstEight && restHidden, { folded: folded || hoverText.last, open: await isOpen() });
  await details.locator('summary').click({ timeout: 5000 }).catch((e) => L.log('click summary', String(e)));
  const unfolded = await poll(async () => {
    const h = await hoverText();
    return (await isOpen()) === true && removed.slice(8).every((l) => h.includes(`- ${l}`)) ? h : null;
  }, { limitMs: 5000 });
  L.check('review: clicking "4 more removed lines" shows the other 4 removed lines in the hover', unfolded,
    { open: await isOpen(), hover: await hoverText() });
  await page.mouse.move(5, 5);
  await page.keyboard.press('Escape');
  const idC = cliPending().find((h) => (h.after || '').includes(textC))?.id;
  await hooks.call('command', { command: 'hashline.review.reject', args: [idC] });
  const restored = await poll(async () => { const d = await sampleDoc(); return d.text === doc.text ? d : null; });
  L.check('review: rejecting it puts the 12 lines back and nothing is pending', restored && cliPending().length === 0,
    { line11: lineOf(await sampleDoc(), 11), pending: cliPending().map((h) => h.id) });


  // The sidecar's Claude IDE port is not offered for forwarding: the Ports view (VS Code's own
  // detection of listening processes, remote.autoForwardPorts) has no row of `hashline lsp`.
  const attributes = (await hooks.call('getSetting', { key: 'remote.portsAttributes' })).value || {};
  const ideKey = Object.keys(attributes).find((k) => attributes[k]?.onAutoForward === 'ignore' && k.includes('lsp'));
  await palette(page, 'Ports: Focus on Ports View');
  await sleep(2000); // a detected port is forwarded within one scan (2 s at first)
  const portsView = async () => (await domText(page, '.pane-body .monaco-table')).replace(/\u00a0/g, ' ');
  const ports = await portsView();
  L.log('ports view', ports.replace(/\n/g, ' | ').slice(0, 600));
  L.check('review: the Claude IDE port is not auto-forwarded (remote.portsAttributes default for `hashline lsp`: ignore)',
    ideKey && ports.includes('Add Port') && !ports.includes('hashline'), { ideKey, attributes, ports: ports.slice(0, 600) });
  await hooks.call('command', { command: 'workbench.action.closePanel' });
}
