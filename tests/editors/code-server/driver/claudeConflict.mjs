// The `claude` part's conflict cases (issue 30, "a proposal that overlaps the user's unsaved
// typing", in VS Code): the user types over a line of claude.txt (unsaved, real keys) and Claude
// Code's next Edit lands on that line. The review shows the conflict on the page: the warning toast
// names the user's line and Claude's, the hunk's hover has the user's line as removed and Claude's
// as written, with the ✓ Keep / ✗ Reject lens above it. (a) The user keeps theirs (✗ Reject on the
// lens) and answers the question (the sidecar's window/showMessageRequest, a notification with
// Accept / Reject buttons) with Accept: Claude Code gets FILE_SAVED with exactly the buffer's text
// and writes it, so the disk has the user's line and never Claude's. (b) The user takes Claude's
// line (✓ Keep) and then answers Reject: Claude's line goes out of the buffer again, DIFF_REJECTED,
// Claude Code reports the rejection, and the disk is unchanged.
// The model's turns and Claude Code's prompts for these cases come from conflictTurns and
// conflictSteps; claude.mjs appends them to its script.
import fs from 'node:fs';
import path from 'node:path';
import { poll, sleep } from './harness.mjs';

// Buffer lines 26 and 27 of claude.txt hold the file's lines 25 and 26 (the typed line is on top).
const CASES = {
  a: { n: 26, user: 'line 25 retyped by the user, unsaved', claude: (old) => `${old}, changed by Claude (conflict, kept theirs)` },
  b: { n: 27, user: 'line 26 retyped by the user, unsaved', claude: (old) => `${old}, changed by Claude (conflict, rejected)` },
};
// Indexes of the Edit turns below in the whole script (Claude Code names its calls toolu_<turn>_0).
const FIRST_TURN = 10;
const EDIT_A = `toolu_${FIRST_TURN + 1}_0`;
const EDIT_B = `toolu_${FIRST_TURN + 4}_0`;

// Turns FIRST_TURN..FIRST_TURN+5 of the scripted model: Read + Edit of each line, a message after
// (a), and after (b) (rejected: Claude Code ends its turn) an answer to the next prompt.
export function conflictTurns(file, bufferLines) {
  const edit = (c) => ({ call: 'Edit', arguments: { file_path: file, old_string: bufferLines[c.n - 1], new_string: c.claude(bufferLines[c.n - 1]) } });
  return [
    [{ call: 'Read', arguments: { file_path: file } }],
    [edit(CASES.a)],
    [{ text: 'Changed line 25.' }],
    [{ call: 'Read', arguments: { file_path: file } }],
    [edit(CASES.b)],
    [{ text: 'Understood, I left line 26 alone.' }],
  ];
}

export function conflictSteps(goFiles) {
  return [
    { wait_file: goFiles[0], prompt: 'Change line 25 of claude.txt.', until_turn: FIRST_TURN + 3 },
    { wait_file: goFiles[1], prompt: 'Change line 26 of claude.txt.', until_turn: FIRST_TURN + 5 },
    { wait_file: goFiles[2], prompt: 'Why did you stop again?', until_turn: FIRST_TURN + 6 },
  ];
}

// Runs both cases on claude.txt, whose buffer and disk hold `bufferLines` (the editor saved);
// returns the buffer and disk text expected at the end, or null when a case could not go on.
export async function conflictCases(page, t) {
  const { L, hooks, name, goFiles, focusEditor, doc, disk, pendingHunks, opsOf, conflictsOf, lensShown, lensRow, toolResult, toastText, palette, drivelog, bufferLines, env } = t;
  const textOf = (lines) => lines.join('\n') + '\n';
  const withLine = (lines, n, content) => lines.map((l, i) => (i === n - 1 ? content : l));
  const STEP_MS = 60000;

  // With CS_SCREENSHOT_DIR set, the page as the user sees it is saved there.
  const picture = async (file) => {
    if (!env.CS_SCREENSHOT_DIR) return;
    fs.mkdirSync(env.CS_SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(env.CS_SCREENSHOT_DIR, file) }).catch((e) => L.log('screenshot', file, String(e)));
  };
  // The user selects line n with the keyboard and types `text` over it.
  const typeOver = async (n, text) => {
    await hooks.call('open', { path: name });
    await focusEditor(page);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < n; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type(text, { delay: 10 });
  };
  // The hover of line n (the cursor there, then Show Hover: Ctrl+K Ctrl+I) once `shows` holds.
  const hover = page.locator('.monaco-hover:not(.hidden)');
  const hoverText = async () => (await hover.allInnerTexts().catch(() => [])).join('\n').replace(/\u00a0/g, ' ');
  const hoverAt = (n, shows) => poll(async () => {
    await page.keyboard.press('Escape');
    await focusEditor(page);
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < n; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await sleep(500);
    const h = await hoverText();
    return shows(h) ? h : (hoverAt.last = h, null);
  }, { limitMs: 15000, everyMs: 300 });
  // A notification holding `text`: a toast, or (once the toast has timed out) in the notification
  // center, which F1 "Notifications: Show Notifications" opens as a person would.
  const notification = async (text) => {
    const item = (where) => page.locator(`${where} .notification-list-item`, { hasText: text });
    const toast = await poll(async () => ((await item('.notifications-toasts').count()) > 0 ? item('.notifications-toasts') : null), { limitMs: STEP_MS, everyMs: 300 });
    if (toast) return toast.first();
    L.log('claude: no toast with', JSON.stringify(text), '- looking in the notification center');
    await palette(page, 'Notifications: Show Notifications');
    const listed = await poll(async () => ((await item('.notifications-center').count()) > 0 ? item('.notifications-center') : null), { limitMs: 5000 });
    return listed ? listed.first() : null;
  };
  // The sidecar's question after the conflict is resolved: Accept / Reject buttons; clicks `choice`.
  const answer = async (choice) => {
    const q = await notification('overlapped your unsaved typing');
    const text = q ? (await q.innerText().catch(() => '')).replace(/\u00a0/g, ' ') : '';
    const buttons = q ? await q.locator('.monaco-button').allInnerTexts().catch(() => []) : [];
    const asked = q && buttons.includes('Accept') && buttons.includes('Reject');
    if (asked) {
      await q.locator('.monaco-button').first().waitFor({ state: 'visible', timeout: 5000 }).catch(() => {});
      await sleep(500); // the toast's fade-in
      await picture(`conflict-question-${choice.toLowerCase()}.png`);
    }
    if (asked) await q.locator('.monaco-button', { hasText: new RegExp(`^${choice}$`) }).first().click({ timeout: 5000 });
    return { asked, text, buttons, toasts: q ? undefined : await toastText(page) };
  };
  // Line n typed over, Claude's Edit of it (released by go file `go`): the conflict hunk pending.
  const conflictOverTyping = async (c, go, base) => {
    await typeOver(c.n, c.user);
    const users = withLine(base, c.n, c.user);
    const typed = await poll(async () => { const d = await doc(); return d && d.isDirty && d.text === textOf(users) ? d : null; });
    if (!L.check(`claude: the user typed over line ${c.n} of ${name} (dirty, disk unchanged)`, typed && disk() === textOf(base),
      { buffer: (typed ?? (await doc()))?.text, disk: disk() })) return null;
    const before = new Set(pendingHunks().map((h) => h.op));
    fs.writeFileSync(go, 'go');
    const hunk = await poll(() => pendingHunks().find((h) => !before.has(h.op)), { limitMs: STEP_MS, everyMs: 300 });
    const claude = c.claude(base[c.n - 1]);
    const inReview = await doc();
    if (!L.check(`claude: Claude's Edit of line ${c.n} over the typing is a pending review (openDiff by claude-code) with Claude's line in place of the user's; disk unchanged`,
      hunk && hunk.line === c.n && hunk.agent === 'claude-code' && hunk.method === 'openDiff' &&
        inReview.text === textOf(withLine(base, c.n, claude)) && disk() === textOf(base),
      { hunk, pending: pendingHunks.last, buffer: inReview.text, disk: disk(), driver: drivelog() })) return null;
    return { hunk, users, claude };
  };

  const base = bufferLines;
  if (!L.check(`claude: before the conflict cases ${name} is saved (buffer == disk)`, (await doc()).text === textOf(base) && disk() === textOf(base),
    { buffer: (await doc()).text, disk: disk() })) return null;

  // (a) The conflict on the page; the user keeps theirs and accepts.
  const a = await conflictOverTyping(CASES.a, goFiles[0], base);
  if (!a) return null;
  // The toast shortens each side to 60 characters (57 and "..."); the hover below has them whole.
  const short = (line) => (line.length > 60 ? line.slice(0, 57) + '...' : line);
  const named = `overlaps your unsaved typing at line ${CASES.a.n} (yours: "${short(CASES.a.user)}" / Claude's: "${short(a.claude)}")`;
  const warned = await poll(async () => ((await toastText(page)).includes(named) ? 'shown' : null), { limitMs: 10000, everyMs: 300 });
  L.check(`claude: a warning toast names the conflict with both sides: ${named}`, warned, await toastText(page));
  const hovered = await hoverAt(CASES.a.n, (h) => h.includes(`- ${CASES.a.user}`) && h.includes(a.claude));
  L.check('claude: the hover of the conflict hunk shows the user\'s line as removed ("- …") and Claude\'s as written, with \u2713 Keep / \u2717 Reject',
    hovered && hovered.includes('\u2713 Keep') && hovered.includes('\u2717 Reject'), hovered || hoverAt.last);
  await picture('conflict-hover.png');
  await page.keyboard.press('Escape');
  const shownA = await lensShown(a.hunk.id);
  if (!L.check(`claude: the "\u2713 Keep" / "\u2717 Reject" lens is on screen above line ${CASES.a.n}`,
    shownA && shownA.includes('\u2713 Keep') && shownA.includes('\u2717 Reject'), shownA)) return null;
  await lensRow(a.hunk.id).first().locator('a', { hasText: '\u2717 Reject' }).click({ timeout: 5000 });
  const theirs = await poll(async () => (await doc()).text === textOf(a.users), { limitMs: 10000 });
  L.check('claude: \u2717 Reject (keep theirs) puts the user\'s line back; nothing written yet',
    theirs && disk() === textOf(base), { buffer: (await doc()).text, disk: disk() });
  const qa = await answer('Accept');
  if (!L.check('claude: VS Code then asks (a notification "… overlapped your unsaved typing …" with the buttons Accept and Reject); the user clicks Accept',
    qa.asked, qa)) return null;
  const written = await poll(() => disk() === textOf(a.users), { limitMs: STEP_MS, everyMs: 200 });
  await sleep(1000); // the reconciler looks at Claude Code's write
  const afterA = await doc();
  L.check('claude: Claude Code got FILE_SAVED with exactly the user\'s text and wrote it: disk == buffer == the user\'s lines, Claude\'s line nowhere',
    written && afterA.text === textOf(a.users) && disk() === textOf(a.users) && !disk().includes(a.claude),
    { buffer: afterA.text, disk: disk(), driver: drivelog() });
  const resultA = await poll(() => toolResult(EDIT_A), { limitMs: STEP_MS, everyMs: 300 });
  const logA = opsOf();
  const conflictsA = conflictsOf();
  L.check('claude: Claude Code\'s write is not taken for a foreign one: no op by disk in `hashline log`, no conflicts',
    logA.status === 0 && logA.ops.length > 0 && !logA.ops.some((o) => o.agent === 'disk') && conflictsA.status === 0 && conflictsA.list.length === 0,
    { agents: logA.ops.map((o) => o.agent), conflicts: conflictsA });
  L.check('claude: Claude Code\'s tool_result for that Edit is a success that says the user modified the proposal before accepting it',
    resultA && !resultA.isError && resultA.text.includes('The user modified your proposed changes before accepting them'), resultA ?? `no tool_result for ${EDIT_A}`);
  if (resultA) L.log('claude: conflict Edit (kept theirs, Accept) tool_result:', resultA.text.slice(0, 300));

  // (b) Over the typing again: the user takes Claude's line, then rejects the edit.
  const baseB = afterA.text.replace(/\n$/, '').split('\n');
  const b = await conflictOverTyping(CASES.b, goFiles[1], baseB);
  if (!b) return null;
  const shownB = await lensShown(b.hunk.id);
  if (!L.check(`claude: its "\u2713 Keep" is on screen above line ${CASES.b.n}`, shownB && shownB.includes('\u2713 Keep'), shownB)) return null;
  await lensRow(b.hunk.id).first().locator('a', { hasText: '\u2713 Keep' }).click({ timeout: 5000 });
  const qb = await answer('Reject');
  if (!L.check('claude: after \u2713 Keep (take Claude\'s) VS Code asks Accept / Reject; the user clicks Reject', qb.asked, qb)) return null;
  const back = await poll(async () => (await doc()).text === textOf(b.users), { limitMs: 10000 });
  fs.writeFileSync(goFiles[2], 'go');
  const resultB = await poll(() => toolResult(EDIT_B), { limitMs: STEP_MS, everyMs: 300 });
  const afterB = await doc();
  L.check('claude: after Reject the buffer has the user\'s line again (Claude\'s taken out), the disk is unchanged, and Claude Code reports the rejection (DIFF_REJECTED)',
    back && afterB.text === textOf(b.users) && disk() === textOf(baseB) && resultB && resultB.isError && /reject/i.test(resultB.text),
    { buffer: afterB.text, disk: disk(), result: resultB ?? `no tool_result for ${EDIT_B}`, driver: drivelog() });
  return { buffer: textOf(b.users), disk: textOf(baseB) };
}
