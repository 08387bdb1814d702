// The code-server scenario: real VS Code 1.100.3 (web) in headless chromium, with the built
// hashline .vsix installed and `hashline lsp` started by it. A person types into a workspace file;
// then the parts listed in CS_PARTS run:
//   mirror — the server's mirror (hashline/snapshot: version, line count, SHA-256) equals the
//            editor's model after typing, for a file and for an untitled buffer; disk untouched.
//   tools  — the language-model tools (vscode.lm.invokeTool, as agent mode calls them):
//            hashline_read, an anchored hashline_edit landing in the unsaved buffer, and a stale
//            anchor (line typed over after the read) refused with STALE_ANCHOR.
//   commands — the palette commands Show Status / Show Journal / Undo Last Agent Edit: the server's
//            answer is shown (or its error, while the server lacks the command); undo reverts an
//            agent edit made through the tools and keeps the user's typing.
//   cli    — the same through `$HASHLINE_BIN read/edit` in a "terminal" (agent socket): the CLI
//            sees the unsaved text, its edit lands in the editor model, the tab is dirty, the
//            disk is unchanged, and a stale anchor after typing is refused.
//   review — an agent op with two hunks by claude from the CLI into the unsaved buffer (driver/
//            review.mjs): the lenses `claude · +1 −1 | ✓ Keep | ✗ Reject | Diff` on both hunks (and
//            on screen), the hover shows the removed line, Diff opens VS Code's diff editor (before ↔
//            now), hashline's status bar item counts the pending hunks, "Review Agent Edits" lists
//            plain rows that open the same diff, clicking Reject restores one hunk (typing kept,
//            tab dirty, disk unchanged; "Rejected claude's edit in sample.txt (line 9)"; journaled
//            as the user's decision, not pending), Keep removes the other's lens.
//   confirm — `hashline edit --confirm` from the CLI: VS Code's Refactor Preview shows the change
//            (nothing changes yet); Apply changes the buffer; a second one discarded leaves the
//            buffer as it was and the CLI reports the refusal; with hashline.confirmAgentEdits
//            on, a hashline_edit tool call goes through the preview too.
//   reconcile — a foreign write behind a dirty buffer is merged in and Ctrl+S saves without the
//            "file is newer" conflict; an overlapping write is a conflict resolved with "Take theirs"
//            (driver/reconcile.mjs).
//   eyes   — the editor's eyes (driver/eyes.mjs): VS Code's TypeScript diagnostics reach the
//            sidecar, so a CLI edit that introduces a type error into the unsaved eyes.ts gets it
//            back anchored on its line and the fix reports it removed; the selection in the editor
//            is what `hashline context` reports; the extension's document symbols feed
//            `hashline outline` / `read --symbol`.
//   claude — the real Claude Code CLI (interactive, under a pty) against a scripted model uses the
//            sidecar as its IDE (driver/claude.mjs): the status bar item shows it connected, its
//            Edit is a pending review kept with the ✓ Keep lens (Claude Code writes the buffer's
//            text, typing included, and Ctrl+S then saves cleanly), "Send Selection to Claude Code"
//            @-mentions the selected lines in its next prompt, a second Edit is rejected with ✗ Reject.
//   restart — `kill -9` of the sidecar (driver/restart.mjs): the language client starts it again,
//            the documents are re-opened in it (unsaved text mirrored), the journal and pending
//            review survive, the LM tools and the Claude IDE server are back, the status item true.
//   chaos  — not in the default parts (scripts/chaos runs it): CS_CHAOS_KILLS (default 50) kills
//            under CLI and MCP agent edits and typing (driver/chaos.mjs).
// Started by run.sh with: CS_URL CS_WS CS_TEST_DIR CS_CACHE HASHLINE_BIN CS_PARTS (+ the env the
// CLI needs to find the sidecar; for the claude part CLAUDE_BIN, CS_CLAUDE_DIR, CLAUDE_CONFIG_DIR). Prints PASS/FAIL lines and "N passed, N failed"; exit 0 iff
// every check ran and passed.
import fs from 'node:fs';
import path from 'node:path';
import { Hooks, Ledger, launchBrowser, linesOf, parseRows, poll, runCli, runCliAsync, sleep } from './harness.mjs';
import { partClaude } from './claude.mjs';
import { partEyes } from './eyes.mjs';
import { partReconcile } from './reconcile.mjs';
import { partRestart } from './restart.mjs';
import { partChaos } from './chaos.mjs';
import { partReview } from './review.mjs';

const env = process.env;
const url = env.CS_URL;
const ws = env.CS_WS;
const testDir = env.CS_TEST_DIR;
const bin = env.HASHLINE_BIN;
const parts = new Set((env.CS_PARTS || 'mirror').split(',').map((s) => s.trim()).filter(Boolean));
const sampleName = 'sample.txt';
const samplePath = path.join(ws, sampleName);
const sampleOrig = fs.readFileSync(samplePath);

const L = new Ledger(path.join(testDir, 'driver.log'));
const hooks = new Hooks(path.join(testDir, 'hooks'));

const orig = (n) => linesOf(sampleOrig.toString('utf8'))[n - 1];
const diskUnchanged = () => Buffer.compare(fs.readFileSync(samplePath), sampleOrig) === 0;

async function docState(match) {
  const st = await hooks.call('state');
  return st.documents.find((d) => match(d.uri));
}
const sampleDoc = () => docState((u) => u.endsWith('/' + sampleName));
const lineOf = (doc, n) => linesOf(doc.text)[n - 1];

// Puts the cursor at the end of a line of the active editor and types like a person.
async function typeAtLineEnd(page, line, text) {
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(text, { delay: 15 });
}

async function focusEditor(page) {
  const sel = '.editor-group-container.active .monaco-editor .view-lines';
  await page.waitForSelector(sel, { timeout: 30000 });
  await page.click(sel);
}

async function mirrorMatches(target) {
  const r = await poll(async () => {
    const c = await hooks.call('mirrorCheck', { path: target });
    return c.match ? c : (mirrorMatches.last = c, null);
  }, { limitMs: 10000, everyMs: 200 });
  return r || mirrorMatches.last;
}

async function partMirror(page) {
  await focusEditor(page);
  await typeAtLineEnd(page, 1, ' typed');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\u00e9t\u00e9 \u{1F600} last', { delay: 15 });
  const doc = await poll(async () => {
    const d = await sampleDoc();
    return d && d.text.includes('\u{1F600} last') ? d : null;
  });
  L.check('mirror: typing reached the editor model', doc && lineOf(doc, 1) === orig(1) + ' typed', doc && lineOf(doc, 1));
  const dirtyTab = await page.locator('.tabs-container .tab.active.dirty').count();
  L.check('mirror: buffer and tab are dirty, disk unchanged', doc && doc.isDirty && dirtyTab === 1 && diskUnchanged(),
    { isDirty: doc && doc.isDirty, dirtyTab });
  const m = await mirrorMatches(sampleName);
  L.check('mirror: server snapshot equals editor (version, lineCount, sha256)', m && m.match, m);

  // An untitled buffer is mirrored too (documentSelector scheme untitled).
  const untitled = await hooks.call('newUntitled', { content: 'scratch\n' });
  await focusEditor(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.type('typed into an untitled buffer', { delay: 15 });
  await poll(async () => (await docState((u) => u === untitled.uri))?.text.includes('untitled buffer'));
  const mu = await mirrorMatches(untitled.uri);
  L.check('mirror: untitled buffer mirrored', mu && mu.match && mu.documents[0].uri.startsWith('untitled:'), mu);
  await hooks.call('open', { path: sampleName });
}

async function partTools(page) {
  const read = await hooks.call('tool', { name: 'hashline_read', input: { path: sampleName } });
  const rows = parseRows(read.text);
  const doc = await sampleDoc();
  const expect = linesOf(doc.text).filter((l, i, a) => !(i === a.length - 1 && l === ''));
  L.check('tools: hashline_read returns one anchored row per buffer line (unsaved text included)',
    rows.length === expect.length && rows.every((r, i) => r.line === i + 1 && r.text === expect[i]),
    { rows: rows.length, lines: expect.length, head: read.text.slice(0, 300) });
  const r2 = rows.find((r) => r.line === 2);
  const r12 = rows.find((r) => r.line === 12);
  if (!r2 || !r12) return;

  const edit = await hooks.call('tool', {
    name: 'hashline_edit',
    input: { path: sampleName, edits: [{ op: 'replace', anchor: r2.anchor, content: 'line 2 (edited by agent tool)' }] },
  });
  const after = await poll(async () => {
    const d = await sampleDoc();
    return d && lineOf(d, 2) === 'line 2 (edited by agent tool)' ? d : null;
  });
  L.check('tools: hashline_edit applied', /^Applied/.test(edit.text), edit.text);
  L.check('tools: the edit is in the editor model, dirty, disk unchanged',
    after && after.isDirty && diskUnchanged() && lineOf(after, 1) === orig(1) + ' typed',
    after ? { line2: lineOf(after, 2), isDirty: after.isDirty } : 'line 2 never changed');

  // The user types on line 12 after the agent read it: the agent's anchor is stale.
  await focusEditor(page);
  await typeAtLineEnd(page, 12, ' user');
  await poll(async () => lineOf(await sampleDoc(), 12).endsWith(' user'));
  const stale = await hooks.call('tool', {
    name: 'hashline_edit',
    input: { path: sampleName, edits: [{ op: 'replace', anchor: r12.anchor, content: 'line 12 (agent, stale)' }] },
  });
  await sleep(300);
  const d12 = await sampleDoc();
  L.check('tools: stale anchor refused with STALE_ANCHOR', /REFUSED \(STALE_ANCHOR\)/.test(stale.text), stale.text);
  L.check('tools: refused edit left the buffer alone', lineOf(d12, 12) === orig(12) + ' user', lineOf(d12, 12));

  // The other edit forms, once the server advertises them (their tools are hidden until then).
  const { serverCommands } = await hooks.call('state');
  if (serverCommands.includes('hashline.replace')) {
    const r = await hooks.call('tool', {
      name: 'hashline_replace',
      input: { path: sampleName, edits: [{ old: orig(3), new: orig(3) + ' (replaced by agent)' }] },
    });
    const d = await poll(async () => { const x = await sampleDoc(); return lineOf(x, 3) === orig(3) + ' (replaced by agent)' ? x : null; });
    L.check('tools: hashline_replace applied to the buffer', /^Applied/.test(r.text) && d && d.isDirty && diskUnchanged(), r.text);
  } else {
    L.notRun('tools: hashline_replace', 'the server does not advertise hashline.replace yet');
  }
  if (serverCommands.includes('hashline.patch')) {
    const patch = ['*** Begin Patch', `*** Update File: ${sampleName}`, '@@', ` ${orig(4)}`, `-${orig(5)}`,
      `+${orig(5)} (patched by agent)`, ` ${orig(6)}`, '*** End Patch'].join('\n');
    const r = await hooks.call('tool', { name: 'hashline_patch', input: { patch } });
    const d = await poll(async () => { const x = await sampleDoc(); return lineOf(x, 5) === orig(5) + ' (patched by agent)' ? x : null; });
    L.check('tools: hashline_patch applied to the buffer', /^Applied/.test(r.text) && d && d.isDirty && diskUnchanged(), r.text);
  } else {
    L.notRun('tools: hashline_patch', 'the server does not advertise hashline.patch yet');
  }
}

// Runs a command from the command palette (F1), as a person would. Escape first closes what may be
// open (a toast, a quick pick); `keepSelection` leaves it out, as Escape in the editor drops the selection.
async function palette(page, title, { keepSelection = false } = {}) {
  if (!keepSelection) await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 10000 });
  await page.keyboard.type(title, { delay: 5 });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
}

// DOM reads that never wait: an absent element reads as ''.
const domText = (page, sel) => page.locator(sel).first().innerText({ timeout: 1000 }).catch(() => '');
const toastText = (page) => domText(page, '.notifications-toasts');
const activeTab = (page) => domText(page, '.editor-group-container.active .tabs-container .tab.active');
const activeEditorText = (page) => domText(page, '.editor-group-container.active .monaco-editor .view-lines');

// A user command either shows the server's answer (an info document) or, when the server refuses
// or lacks the command, an error naming it. Which one is expected follows what the server advertised.
async function expectCommandOutcome(page, state, { title, serverCommand, doc, docCheck }) {
  await palette(page, title);
  L.log('palette ran', title);
  if (state.serverCommands.includes(serverCommand)) {
    // The tab comes first; Monaco renders the document's lines a frame or more later.
    const text = await poll(async () => {
      if (!(await activeTab(page)).includes(doc)) return null;
      const t = await activeEditorText(page);
      return docCheck(t) ? t : null;
    }, { limitMs: 10000 });
    L.check(`commands: "${title}" shows ${doc}`, text, { tab: await activeTab(page), text: (await activeEditorText(page)).slice(0, 300), toast: await toastText(page) });
  } else {
    const t = await poll(async () => { const x = await toastText(page); return x.includes(`${serverCommand} failed`) ? x : null; }, { limitMs: 10000 });
    L.check(`commands: "${title}" shows the server's error (server lacks ${serverCommand})`, t, await toastText(page));
  }
}

async function partCommands(page) {
  const state = await hooks.call('state');
  await expectCommandOutcome(page, state, {
    title: 'hashline: Show Status', serverCommand: 'hashline.status', doc: 'status.json',
    docCheck: (text) => text.includes('"status"'),
  });
  // An agent edit on line 7 (through the tools), then Undo Last Agent Edit from the palette.
  await hooks.call('open', { path: sampleName });
  const rows = parseRows((await hooks.call('tool', { name: 'hashline_read', input: { path: sampleName } })).text);
  const r7 = rows.find((r) => r.line === 7);
  const agentText = 'line 7 (agent edit to undo)';
  const edit = r7 && (await hooks.call('tool', {
    name: 'hashline_edit', input: { path: sampleName, edits: [{ op: 'replace', anchor: r7.anchor, content: agentText }] },
  }));
  const edited = await poll(async () => { const d = await sampleDoc(); return lineOf(d, 7) === agentText ? d : null; });
  if (!L.check('commands: agent edit to undo applied', edited, edit && edit.text)) return;
  // The journal lists that edit.
  await expectCommandOutcome(page, state, {
    title: 'hashline: Show Journal of Agent Edits', serverCommand: 'hashline.log', doc: 'journal.json',
    docCheck: (text) => text.includes(sampleName),
  });
  await hooks.call('open', { path: sampleName });
  const userLines = linesOf(edited.text).filter((l) => l.endsWith(' user') || l.endsWith(' typed'));
  await palette(page, 'hashline: Undo Last Agent Edit');
  if (state.serverCommands.includes('hashline.undo')) {
    const after = await poll(async () => { const d = await sampleDoc(); return lineOf(d, 7) === orig(7) ? d : null; });
    L.check('commands: "Undo Last Agent Edit" reverts the agent edit, keeps the user\'s typing',
      after && userLines.every((l) => linesOf(after.text).includes(l)) && (userLines.length === 0 || after.isDirty) && diskUnchanged(),
      { line7: lineOf(after || (await sampleDoc()), 7), userLines, toast: await toastText(page) });
  } else {
    const t = await poll(async () => { const x = await toastText(page); return x.includes('hashline.undo failed') ? x : null; }, { limitMs: 10000 });
    L.check('commands: "Undo Last Agent Edit" shows the server\'s error (server lacks hashline.undo)',
      t && lineOf(await sampleDoc(), 7) === agentText, await toastText(page));
  }
}

async function partCli(page) {
  const cliEnv = { ...env, HASHLINE_SESSION: 'code-server-test-cli' };
  const read = runCli(bin, ['read', samplePath, '--json'], cliEnv);
  const doc = await sampleDoc();
  const lines = read.json && Array.isArray(read.json.lines) ? read.json.lines : null;
  L.check('cli: `hashline read --json` exits 0 with lines', read.status === 0 && lines,
    { status: read.status, stderr: read.stderr, stdout: (read.stdout || '').slice(0, 300), error: read.error });
  if (!lines) return;
  L.check('cli: read sees the unsaved buffer, not the disk',
    lines[0] && lines[0].text === lineOf(doc, 1) && lines[0].text !== linesOf(sampleOrig.toString())[0],
    { cli: lines[0] && lines[0].text, editor: lineOf(doc, 1) });
  const a18 = lines.find((l) => l.line === 18);
  const a20 = lines.find((l) => l.line === 20);

  const edits = JSON.stringify([{ op: 'replace', anchor: a18.anchor, content: 'line 18 (edited through the CLI)' }]);
  const edit = runCli(bin, ['edit', samplePath, '--edits', edits, '--json'], cliEnv);
  L.check('cli: `hashline edit` applied to the editor buffer (not the disk)',
    edit.status === 0 && edit.json && edit.json.status === 'applied' && edit.json.backend === 'buffer',
    { status: edit.status, stdout: edit.stdout, stderr: edit.stderr });
  const after = await poll(async () => {
    const d = await sampleDoc();
    return d && lineOf(d, 18) === 'line 18 (edited through the CLI)' ? d : null;
  });
  L.check('cli: the editor model changed', !!after, after ? undefined : lineOf(await sampleDoc(), 18));
  // What a person sees: the rendered lines of the visible editor (Monaco renders on a frame and
  // writes spaces as U+00A0).
  const visibleLines = async () => (await page.locator('.editor-group-container.active .monaco-editor .view-lines')
    .allInnerTexts().catch(() => [])).map((t) => t.replace(/\u00a0/g, ' '));
  const shown = await poll(async () => ((await visibleLines()).some((t) => t.includes('edited through the CLI')) ? 'shown' : null), { limitMs: 5000 })
    || JSON.stringify(await visibleLines()).slice(0, 600);
  const dirtyTab = await page.locator('.tabs-container .tab.active.dirty').count();
  L.check('cli: the tab shows unsaved changes (dirty)', after && after.isDirty && dirtyTab === 1, { isDirty: after && after.isDirty, dirtyTab });
  L.check('cli: the file on disk is unchanged', diskUnchanged());
  L.check('cli: the edit is visible on screen', shown === 'shown', shown);

  // The user types on line 20 after the CLI read: the CLI's anchor for line 20 is stale.
  await focusEditor(page);
  await typeAtLineEnd(page, 20, ' user');
  await poll(async () => lineOf(await sampleDoc(), 20).endsWith(' user'));
  const staleEdits = JSON.stringify([{ op: 'replace', anchor: a20.anchor, content: 'line 20 (CLI, stale)' }]);
  const stale = runCli(bin, ['edit', samplePath, '--edits', staleEdits, '--json'], cliEnv);
  const code = stale.json?.error?.code ?? (/(STALE_ANCHOR)/.exec(stale.stderr || '') || [])[1];
  await sleep(300);
  const d20 = await sampleDoc();
  L.check('cli: stale anchor after typing refused (exit 1, STALE_ANCHOR)', stale.status === 1 && code === 'STALE_ANCHOR',
    { status: stale.status, stdout: stale.stdout, stderr: stale.stderr });
  L.check('cli: refused edit left the buffer alone', lineOf(d20, 20) === orig(20) + ' user', lineOf(d20, 20));
}

// The Refactor Preview VS Code opens for an edit that needs confirmation (bulk edit pane).
const previewPanel = (page) => page.locator('.bulk-edit-panel');
const previewText = async (page) => ((await previewPanel(page).count()) > 0 ? (await previewPanel(page).first().innerText({ timeout: 1000 }).catch(() => '')) : '');
const previewButton = (page, label) => previewPanel(page).locator('.buttons .monaco-button', { hasText: label }).first();

// The user's answer in the preview. VS Code lists a change that needs confirmation unticked, so
// applying it takes what a person does: tick the change, then press Apply.
async function answerPreview(page, button) {
  if (button === 'Apply') {
    const box = previewPanel(page).locator('.edit-checkbox').first();
    await box.click({ timeout: 5000 }).catch((e) => L.log('tick', String(e)));
    await poll(async () => /\bchecked\b/.test((await box.getAttribute('class').catch(() => '')) || ''), { limitMs: 3000 });
  }
  await previewButton(page, button).click({ timeout: 5000 }).catch((e) => L.log('click', button, String(e)));
}

// One `hashline edit --confirm` from the CLI: starts it (it waits for the user), waits for the
// preview to show the change, presses `button`, and returns what the preview showed and the CLI's outcome.
async function confirmedEdit(page, cliEnv, line, content, button) {
  const read = runCli(bin, ['read', samplePath, '--json'], cliEnv);
  const row = read.json?.lines?.find((l) => l.line === line);
  if (!row) return { error: `no line ${line} in the CLI read`, read: read.stderr };
  const edits = JSON.stringify([{ op: 'replace', anchor: row.anchor, content }]);
  const cli = runCliAsync(bin, ['edit', samplePath, '--confirm', '--edits', edits, '--json'], cliEnv);
  const shown = await poll(async () => {
    const t = await previewText(page);
    return t.includes(sampleName) && (await previewButton(page, button).isVisible().catch(() => false)) ? t : null;
  }, { limitMs: 20000 });
  const docWhileShown = await sampleDoc();
  if (shown) await answerPreview(page, button);
  const outcome = await cli;
  L.log('after', button, 'dialog:', await domText(page, '.monaco-dialog-box'), 'toasts:', await toastText(page));
  return { before: row.text, shown, docWhileShown, outcome };
}

async function partConfirm(page) {
  const help = runCli(bin, ['edit', '--help'], env);
  if (!/--confirm/.test(`${help.stdout}${help.stderr}`)) {
    L.notRun('confirm', 'this hashline has no --confirm (editor confirmation) yet');
    return;
  }
  const cliEnv = { ...env, HASHLINE_SESSION: 'code-server-test-confirm' };
  await hooks.call('open', { path: sampleName });
  await focusEditor(page);

  // Applied in the preview.
  const textA = 'line 22 (agent, confirmed in the preview)';
  const a = await confirmedEdit(page, cliEnv, 22, textA, 'Apply');
  L.check('confirm: a `confirm: true` edit from the CLI opens VS Code\'s Refactor Preview, buffer untouched meanwhile',
    a.shown && a.docWhileShown && lineOf(a.docWhileShown, 22) === a.before,
    { shown: a.shown, error: a.error, line22: a.docWhileShown && lineOf(a.docWhileShown, 22), panel: await previewText(page) });
  const applied = await poll(async () => { const d = await sampleDoc(); return lineOf(d, 22) === textA ? d : null; });
  const o = a.outcome || {};
  L.check('confirm: Apply in the preview changes the buffer (dirty, disk unchanged); the CLI reports applied, confirmation requested',
    applied && applied.isDirty && diskUnchanged() && o.status === 0 && o.json?.status === 'applied' && o.json?.confirmation === 'requested',
    { line22: lineOf(applied || (await sampleDoc()), 22), status: o.status, stdout: (o.stdout || '').slice(0, 600), stderr: o.stderr });

  // Discarded in the preview.
  const textB = 'line 23 (agent, declined in the preview)';
  const b = await confirmedEdit(page, cliEnv, 23, textB, 'Discard');
  const ob = b.outcome || {};
  await sleep(300);
  const after = await sampleDoc();
  L.check('confirm: a second one shows the preview too', b.shown, { error: b.error, panel: await previewText(page) });
  L.check('confirm: Discard leaves the buffer unchanged and the CLI reports the refusal (exit 1)',
    b.shown && lineOf(after, 23) === b.before && lineOf(after, 22) === textA && ob.status === 1 && ob.json?.status === 'refused',
    { line23: lineOf(after, 23), status: ob.status, stdout: (ob.stdout || '').slice(0, 600), stderr: ob.stderr });

  // The setting: with hashline.confirmAgentEdits on (the server restarts with confirmEdits), an
  // agent-mode tool edit goes through the preview as well.
  await hooks.call('setSetting', { key: 'confirmAgentEdits', value: true });
  await poll(async () => { try { const s = await hooks.call('state', {}, 2000); return s.running ? s : null; } catch { return null; } }, { limitMs: 30000, everyMs: 300 });
  await hooks.call('open', { path: sampleName });
  const rows = parseRows((await hooks.call('tool', { name: 'hashline_read', input: { path: sampleName } })).text);
  const r24 = rows.find((r) => r.line === 24);
  const textC = 'line 24 (agent tool, confirmed in the preview)';
  // The hook answers only once the tool returns, i.e. after the user pressed Apply.
  const tool = r24 && hooks.call('tool', { name: 'hashline_edit', input: { path: sampleName, edits: [{ op: 'replace', anchor: r24.anchor, content: textC }] } }, 60000);
  const shownC = tool && await poll(async () => {
    const t = await previewText(page);
    return t.includes(sampleName) && (await previewButton(page, 'Apply').isVisible().catch(() => false)) ? t : null;
  }, { limitMs: 20000 });
  if (shownC) await answerPreview(page, 'Apply');
  const toolResult = tool ? await tool.catch((e) => ({ text: String(e) })) : { text: 'no line 24 in the read' };
  const d24 = await poll(async () => { const d = await sampleDoc(); return lineOf(d, 24) === textC ? d : null; });
  L.check('confirm: with hashline.confirmAgentEdits on, a hashline_edit tool call goes through the preview and lands on Apply',
    shownC && d24 && /^Applied/.test(toolResult.text) && diskUnchanged(), { shown: !!shownC, tool: toolResult.text.slice(0, 400) });
  await hooks.call('setSetting', { key: 'confirmAgentEdits', value: false });
}

async function main() {
  let ctx;
  try {
    L.log('parts', [...parts].join(','), 'url', url);
    ctx = await launchBrowser(env.CS_CACHE, path.join(testDir, 'chrome-profile'));
    const page = ctx.pages()[0] || (await ctx.newPage());
    page.on('pageerror', (e) => L.log('pageerror', String(e).slice(0, 300)));
    await page.goto(url, { timeout: 60000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    L.log('workbench up');
    const state = await poll(async () => {
      try { const s = await hooks.call('state', {}, 2000); return s.running ? s : null; } catch { return null; }
    }, { limitMs: 45000, everyMs: 500 });
    if (!L.check('extension activated and `hashline lsp` running', state, 'see hashline output channel log (run.sh prints it)')) return;
    L.log('server', JSON.stringify(state.serverInfo));
    await hooks.call('open', { path: sampleName });
    const all = ['mirror', 'tools', 'commands', 'cli', 'review', 'confirm', 'reconcile', 'eyes', 'claude', 'restart', 'chaos'];
    for (const p of all) {
      if (!parts.has(p)) { L.notRun(p, 'not in CS_PARTS'); continue; }
      L.log('part', p);
      try {
        await { mirror: partMirror, tools: partTools, commands: partCommands, cli: partCli, confirm: partConfirm,
          review: (pg) => partReview(pg, { L, hooks, bin, env, sampleName, samplePath, focusEditor, typeAtLineEnd, sampleDoc, diskUnchanged, palette, domText, toastText }),
          reconcile: (pg) => partReconcile(pg, { L, hooks, ws, bin, env, testDir, focusEditor, typeAtLineEnd, docState, toastText }),
          eyes: (pg) => partEyes(pg, { L, hooks, ws, bin, env, focusEditor, typeAtLineEnd, docState }),
          claude: (pg) => partClaude(pg, { L, hooks, ws, bin, env, focusEditor, docState, toastText, palette, domText }),
          restart: (pg) => partRestart(pg, { L, hooks, ws, bin, env, focusEditor, typeAtLineEnd, docState }),
          chaos: (pg) => partChaos(pg, { L, hooks, ws, bin, env, focusEditor, docState }) }[p](page);
      } catch (e) {
        L.check(`${p}: ran to the end`, false, String(e && e.stack || e));
      }
    }
    await page.screenshot({ path: path.join(testDir, 'screen.png') });
  } catch (e) {
    L.check('driver ran to the end', false, String(e && e.stack || e));
  } finally {
    if (ctx) await ctx.close().catch(() => {});
  }
}

await main();
process.exit(L.summary() ? 0 : 1);
