// The `claude` part of the code-server scenario (issue 22, "the same accept path in code-server"):
// the real Claude Code CLI, interactive under a pty (tests/editors/claude-ide/drive_claude.py;
// `claude -p` never connects to an IDE), against the scripted model
// tests/editors/agent-cli/fake_model.mjs, uses as its IDE the hashline sidecar that code-server's
// VS Code extension started (hashline.claudeIde "on"). The user has an unsaved line typed on top
// of claude.txt. The status bar item "Claude Code" says whether one is connected; Claude Code's
// first Edit (line 10) becomes a pending review with the ✓ Keep / ✗ Reject CodeLens, and clicking
// ✓ Keep lands it with the typing kept: Claude Code writes the buffer's text itself, one op by
// claude-code, none by disk, and the user's Ctrl+S afterwards saves without VS Code's "file is
// newer" conflict. "hashline: Send Selection to Claude Code" (F1) puts an @-mention of the
// selected lines into Claude Code's input box, and the next prompt carries it to the model. The
// second Edit (line 20), rejected by clicking ✗ Reject, leaves buffer and disk alone and Claude
// Code tells its model so. Then (issue 30) Edits of two files not open in the editor: VS Code
// shows each (window/showDocument) and the Edit is a review there; ✗ Reject on notopen-b.txt leaves
// its disk alone and Claude Code reports the rejection; ✓ Keep on notopen-c.txt: nothing is written
// before it, then Claude Code writes it. Then two Edits over lines the user typed over, unsaved
// (claudeConflict.mjs: the conflict on screen, keep theirs + Accept, take Claude's + Reject). After
// /exit the status bar item says no Claude Code is connected.
// Started by drive.mjs with CLAUDE_BIN, CS_CLAUDE_DIR (HOME for Claude Code, its config dir and
// this part's logs: tty.out, requests.jsonl, drive_claude.log) and CLAUDE_CONFIG_DIR (the same
// config dir the sidecar writes its lock file to), set by run.sh.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { poll, runCli, sleep, startLogged } from './harness.mjs';
import { conflictCases, conflictSteps, conflictTurns } from './claudeConflict.mjs';
import { lensRowOf } from './review.mjs';

const name = 'claude.txt';
const LINES = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1).padStart(2, '0')} of ${name}`);
const TYPED = 'typed by the user, not saved';
const KEY = 'sk-ant-fake-key-0123456789';
const EDIT1 = { old: LINES[9], new: `${LINES[9]}, changed by Claude (kept)` };
const EDIT2 = { old: LINES[19], new: `${LINES[19]}, changed by Claude (rejected)` };
// Files not open in the editor when Claude Code edits them (issue 30).
const NOT_OPEN = {
  b: { name: 'notopen-b.txt', lines: ['b line 1', 'b line 2', 'b line 3'], new: 'b line 2, changed by Claude (rejected)' },
  c: { name: 'notopen-c.txt', lines: ['c line 1', 'c line 2', 'c line 3'], new: 'c line 2, changed by Claude (kept)' },
};
const textOf = (lines) => lines.join('\n') + '\n';
const withLine = (lines, n, content) => lines.map((l, i) => (i === n - 1 ? content : l));
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>78]/g;
// How long Claude Code may take for one step (a start, a turn) on a loaded 2-core machine.
const STEP_MS = 60000;

// The status bar item of the sidecar's Claude IDE server (window.createStatusBarItem with id
// hashline.claudeIde: VS Code names its element <extension id>.<item id>).
const ITEM_ID = 'hashline.hashline.hashline.claudeIde';
async function statusItem(page) {
  let item = page.locator(`[id="${ITEM_ID}"]`);
  if ((await item.count()) === 0) item = page.locator('.statusbar-item', { has: page.locator('a[aria-label*="Claude"]') });
  if ((await item.count()) === 0) {
    const ids = await page.locator('.statusbar-item').evaluateAll((els) => els.map((e) => e.id)).catch(() => []);
    return { found: false, statusBarIds: ids };
  }
  const el = item.first();
  return {
    found: true,
    id: await el.getAttribute('id').catch(() => null),
    visible: await el.isVisible().catch(() => false),
    label: (await el.getAttribute('aria-label').catch(() => null)) ?? (await el.locator('a').first().getAttribute('aria-label').catch(() => null)),
    text: (await el.innerText({ timeout: 1000 }).catch(() => '')).replace(/\u00a0/g, ' ').trim(),
    icons: await el.locator('.codicon').evaluateAll((els) => els.map((e) => e.className)).catch(() => []),
  };
}
const NOT_CONNECTED = (port) => `hashline's Claude IDE server on 127.0.0.1:${port}: no Claude Code connected`;
const showsNotConnected = (s, port) => s.found && s.visible && s.label === NOT_CONNECTED(port) && s.text.includes('Claude Code') &&
  s.icons.some((c) => c.includes('codicon-debug-disconnect'));
const connectedLabel = (s, port) => (s.found && s.visible && s.icons.some((c) => c.includes('codicon-sparkle')) && s.text.includes('Claude Code')
  ? new RegExp(`^Claude Code (\\S+) connected to hashline \\(127\\.0\\.0\\.1:${port}\\)$`).exec(s.label || '') : null);

export async function partClaude(page, ctx) {
  const { L, hooks, ws, bin, env, focusEditor, docState, toastText, palette, domText } = ctx;
  const claudeBin = env.CLAUDE_BIN;
  const dir = env.CS_CLAUDE_DIR;
  const configDir = env.CLAUDE_CONFIG_DIR;
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');
  const driveClaude = path.join(root, 'tests/editors/claude-ide/drive_claude.py');
  const fakeModel = path.join(root, 'tests/editors/agent-cli/fake_model.mjs');
  if (!L.check('claude: run.sh gave Claude Code and a private CLAUDE_CONFIG_DIR', claudeBin && fs.existsSync(claudeBin) && dir && configDir &&
    configDir.startsWith(env.CS_TEST_DIR + '/'), { CLAUDE_BIN: claudeBin, CS_CLAUDE_DIR: dir, CLAUDE_CONFIG_DIR: configDir })) return;
  const home = path.join(dir, 'home');
  const requestsLog = path.join(dir, 'requests.jsonl');
  const tty = path.join(dir, 'tty.out');
  const goFile2 = path.join(dir, 'go-step-2');
  const goFile3 = path.join(dir, 'go-step-3');
  const goFile4 = path.join(dir, 'go-step-4');
  const goFile5 = path.join(dir, 'go-step-5');
  const conflictGo = [6, 7, 8].map((n) => path.join(dir, `go-step-${n}`));
  fs.mkdirSync(home, { recursive: true });

  const file = path.join(ws, name);
  fs.writeFileSync(file, textOf(LINES));
  for (const f of Object.values(NOT_OPEN)) fs.writeFileSync(path.join(ws, f.name), textOf(f.lines));
  const disk = () => fs.readFileSync(file, 'utf8');
  const doc = () => docState((u) => u.endsWith('/' + name));
  const cli = (args) => runCli(bin, args, env, ws);
  const typedPlus = (lines) => [TYPED, ...lines];

  // The model's conversation requests (the ones that got a turn), and Claude Code's tool_result for a call.
  const modelRequests = () => {
    const out = [];
    for (const line of (fs.existsSync(requestsLog) ? fs.readFileSync(requestsLog, 'utf8') : '').split('\n')) {
      try { const e = JSON.parse(line); if (typeof e.n === 'number') out.push(e); } catch { /* partial line */ }
    }
    return out;
  };
  const toolResult = (id) => {
    for (const { body } of modelRequests()) {
      for (const m of body?.messages ?? []) {
        for (const b of Array.isArray(m.content) ? m.content : []) {
          if (b?.type === 'tool_result' && b.tool_use_id === id) {
            const t = Array.isArray(b.content) ? b.content.map((p) => p.text ?? JSON.stringify(p)).join('') : String(b.content);
            return { text: t, isError: b.is_error === true };
          }
        }
      }
    }
    return null;
  };
  const pendingHunks = (fileName = name) => {
    const r = cli(['pending', '--path', path.join(ws, fileName), '--json']);
    pendingHunks.last = { status: r.status, stdout: (r.stdout || '').slice(0, 1500), stderr: r.stderr };
    return (r.json?.files ?? []).filter((f) => String(f.uri || f.path || f.name).endsWith('/' + fileName)).flatMap((f) => f.hunks || []);
  };
  const opsOf = () => {
    const r = cli(['log', '--path', file, '--json']);
    const ops = (r.json?.ops ?? []).filter((op) => JSON.stringify(op).includes(name));
    return { ops, status: r.status, stderr: r.stderr };
  };
  const conflictsOf = () => {
    const r = cli(['conflicts', '--json']);
    return { list: (r.json?.conflicts ?? []).filter((c) => JSON.stringify(c).includes(name)), status: r.status, out: r.json ?? r.stdout };
  };
  const screen = () => (fs.existsSync(tty) ? fs.readFileSync(tty, 'utf8') : '').replace(ANSI, '');
  const lensRow = (id) => lensRowOf(page, id);
  const lensShown = (id) => poll(async () => {
    const row = lensRow(id);
    return (await row.count()) > 0 ? (await row.first().innerText().catch(() => '')).replace(/\u00a0/g, ' ') : null;
  }, { limitMs: 10000 });
  const claudeStatus = () => {
    const r = cli(['status', '--json']);
    return { ide: r.json?.claudeIde, status: r.status, stderr: r.stderr };
  };

  let model;
  let driver;
  try {
    // 1. claude.txt open with an unsaved line typed on top; the status bar item says no Claude
    // Code is connected; `hashline claude --print-env` names the port; the lock file is hashline's.
    await hooks.call('open', { path: name });
    await focusEditor(page);
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(TYPED, { delay: 15 });
    await page.keyboard.press('Enter');
    const want0 = textOf(typedPlus(LINES));
    const typed = await poll(async () => { const d = await doc(); return d && d.isDirty && d.text === want0 ? d : null; });
    if (!L.check('claude: the user typed a line on top of claude.txt (dirty, disk unchanged)', typed && disk() === textOf(LINES),
      (typed ?? (await doc()))?.text.slice(0, 200))) return;
    let printEnv;
    const envOk = await poll(() => {
      printEnv = cli(['claude', '--print-env']);
      return printEnv.status === 0 && /CLAUDE_CODE_SSE_PORT=["']?\d+/.test(printEnv.stdout);
    }, { limitMs: 15000, everyMs: 300 });
    const port = Number((/CLAUDE_CODE_SSE_PORT=["']?(\d+)/.exec(printEnv.stdout || '') || [])[1]);
    const lockFile = path.join(configDir, 'ide', `${port}.lock`);
    let lock = null;
    try { lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')); } catch { /* checked below */ }
    if (!L.check('claude: `hashline claude --print-env` in the workspace names the port; $CLAUDE_CONFIG_DIR/ide/<port>.lock is hashline\'s for the workspace',
      envOk && /ENABLE_IDE_INTEGRATION=["']?true/.test(printEnv.stdout) && lock?.ideName === 'hashline' &&
        JSON.stringify(lock.workspaceFolders) === JSON.stringify([ws]) && /^[0-9a-f]{32}$/.test(lock.authToken || ''),
      { status: printEnv.status, stdout: printEnv.stdout, stderr: printEnv.stderr, lockFile, lock: lock && { ...lock, authToken: `(${String(lock.authToken).length} chars)` },
        ideDir: fs.existsSync(path.join(configDir, 'ide')) ? fs.readdirSync(path.join(configDir, 'ide')) : 'missing' })) return;
    const idle = await poll(async () => { const s = await statusItem(page); return showsNotConnected(s, port) ? s : (poll.last = s, null); }, { limitMs: 15000 });
    L.check('claude: the status bar item "Claude Code" is on screen and says no Claude Code is connected', idle, poll.last);

    // 2. Claude Code, started with that env, connects.
    const claudeEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !/^(CLAUDE|ANTHROPIC|HASHLINE_VSCODE)/.test(k)));
    Object.assign(claudeEnv, {
      HOME: home, CLAUDE_CONFIG_DIR: configDir, IS_SANDBOX: '1',
      CLAUDE_CODE_SSE_PORT: String(port), ENABLE_IDE_INTEGRATION: 'true', ANTHROPIC_API_KEY: KEY,
      DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
    const version = (/^(\S+)/.exec(spawnSync(claudeBin, ['--version'], { env: claudeEnv, cwd: ws, encoding: 'utf8', timeout: 60000 }).stdout || '') || [])[1];
    // Seeded so no dialog blocks the interactive TUI (as tests/editors/claude-ide does).
    fs.writeFileSync(path.join(configDir, '.claude.json'), JSON.stringify({
      hasCompletedOnboarding: true,
      bypassPermissionsModeAccepted: true,
      customApiKeyResponses: { approved: [KEY.slice(-20), KEY], rejected: [] },
      projects: { [ws]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }));
    // The script: Read + the Edit of line 10 (kept), a message; the Edit of line 20 (rejected:
    // Claude Code ends its turn); an answer to the question whose request carries that tool_result.
    const turns = [
      [{ call: 'Read', arguments: { file_path: file } }],
      [{ call: 'Edit', arguments: { file_path: file, old_string: EDIT1.old, new_string: EDIT1.new } }],
      [{ text: 'Changed line 10.' }],
      [{ call: 'Edit', arguments: { file_path: file, old_string: EDIT2.old, new_string: EDIT2.new } }],
      [{ text: 'Understood, I left line 20 alone.' }],
      // 6-7: notopen-b.txt (rejected: ends the turn); 8-10: notopen-c.txt (kept)
      [{ call: 'Read', arguments: { file_path: path.join(ws, NOT_OPEN.b.name) } }],
      [{ call: 'Edit', arguments: { file_path: path.join(ws, NOT_OPEN.b.name), old_string: NOT_OPEN.b.lines[1], new_string: NOT_OPEN.b.new } }],
      [{ call: 'Read', arguments: { file_path: path.join(ws, NOT_OPEN.c.name) } }],
      [{ call: 'Edit', arguments: { file_path: path.join(ws, NOT_OPEN.c.name), old_string: NOT_OPEN.c.lines[1], new_string: NOT_OPEN.c.new } }],
      [{ text: `Changed ${NOT_OPEN.c.name}.` }],
      // 11-16: the conflict cases (claudeConflict.mjs), on claude.txt as it is after step 6
      ...conflictTurns(file, typedPlus(withLine(LINES, 10, EDIT1.new))),
    ];
    fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify(turns));
    fs.writeFileSync(path.join(dir, 'steps.json'), JSON.stringify([
      { prompt: `Change line 10 of ${name}.`, until_turn: 3 },
      { wait_file: goFile2, prompt: 'Now change line 20.', until_turn: 4 },
      { wait_file: goFile3, prompt: 'Why did you stop?', until_turn: 5 },
      { wait_file: goFile4, prompt: `Change line 2 of ${NOT_OPEN.b.name}.`, until_turn: 7 },
      { wait_file: goFile5, prompt: `Then change line 2 of ${NOT_OPEN.c.name}.`, until_turn: 10 },
      ...conflictSteps(conflictGo),
    ]));
    model = startLogged('node', [fakeModel, '--script', path.join(dir, 'turns.json'), '--log', requestsLog], { env }, path.join(dir, 'fake_model.log'));
    const modelPort = await poll(() => Number((/^listening (\d+)/m.exec(fs.readFileSync(path.join(dir, 'fake_model.log'), 'utf8')) || [])[1]),
      { limitMs: 15000 });
    if (!L.check('claude: the scripted model is listening', modelPort, fs.readFileSync(path.join(dir, 'fake_model.log'), 'utf8'))) return;
    claudeEnv.ANTHROPIC_BASE_URL = `http://127.0.0.1:${modelPort}`;
    const permission = (env.CLAUDE_PERMISSION_ARGS || '--permission-mode default').split(' ').filter(Boolean);
    driver = startLogged('python3', [driveClaude, '--steps', path.join(dir, 'steps.json'), '--log', requestsLog, '--transcript', tty,
      '--timeout', '420', '--', claudeBin, '--model', 'fake-model', ...permission], { env: claudeEnv, cwd: ws }, path.join(dir, 'drive_claude.log'));
    L.log('claude', version, 'started; model port', modelPort, 'ide port', port);
    const connected = await poll(async () => {
      const s = await statusItem(page);
      const m = connectedLabel(s, port);
      return m ? { ...s, version: m[1] } : (poll.last = s, driver.code !== undefined ? { exited: driver.code, ...s } : null);
    }, { limitMs: STEP_MS, everyMs: 250 });
    const drivelog = () => fs.readFileSync(path.join(dir, 'drive_claude.log'), 'utf8').slice(-600);
    if (!L.check(`claude: Claude Code ${version} connects: the status bar item says "Claude Code ${version} connected to hashline (127.0.0.1:${port})"`,
      connected && connected.version === version, { seen: connected ?? poll.last, driver: drivelog(), screen: screen().slice(-600) })) return;
    const st = await poll(() => { const s = claudeStatus(); return (s.ide?.clients ?? []).length === 1 ? s : (poll.last = s, null); }, { limitMs: 5000 });
    const client = st?.ide?.clients?.[0];
    L.check('claude: `hashline status --json` has claudeIde enabled on the port with the one client, Claude Code by name and version',
      st && st.ide.enabled === true && st.ide.port === port && st.ide.lockFile === lockFile && /claude/i.test(client.name || '') &&
        client.version === version && Number.isInteger(client.pid), (st ?? poll.last));

    // 3. The first Edit (line 10) becomes a pending review at line 11 (under the typed line).
    const want1 = typedPlus(withLine(LINES, 10, EDIT1.new));
    const hunk1 = await poll(() => pendingHunks()[0] || (driver.code !== undefined ? { exited: driver.code } : null), { limitMs: STEP_MS, everyMs: 300 });
    const inReview = await doc();
    if (!L.check('claude: Claude\'s first Edit is a pending hashline review: `hashline pending` lists it at line 11 (openDiff by claude-code)',
      hunk1 && hunk1.line === 11 && hunk1.agent === 'claude-code' && hunk1.method === 'openDiff', { hunk: hunk1, pending: pendingHunks.last, driver: drivelog(), screen: screen().slice(-800) })) return;
    L.check('claude: while it is pending the buffer has the change and the typing; the disk is unchanged',
      inReview.text === textOf(want1) && inReview.isDirty && disk() === textOf(LINES), { buffer: inReview.text, disk: disk() });
    const shown1 = await lensShown(hunk1.id);
    L.check('claude: the editor shows "\u2713 Keep" / "\u2717 Reject" above line 11 (on screen)',
      shown1 && shown1.includes('\u2713 Keep') && shown1.includes('\u2717 Reject'), shown1 || await domText(page, '.monaco-editor .contentWidgets'));
    if (!shown1) return;

    // 4. ✓ Keep, clicked: Claude Code gets the buffer's text and writes it to disk itself.
    await lensRow(hunk1.id).first().locator('a', { hasText: '\u2713 Keep' }).click({ timeout: 5000 });
    const written = await poll(() => disk() === textOf(want1), { limitMs: STEP_MS, everyMs: 200 });
    await sleep(1500); // the reconciler looks at Claude Code's write
    const afterKeep = await doc();
    L.check('claude: after \u2713 Keep Claude Code wrote the buffer\'s text (typing included): disk == buffer',
      written && afterKeep.text === textOf(want1) && disk() === afterKeep.text, { buffer: afterKeep.text, disk: disk(), screen: screen().slice(-600) });
    const log1 = opsOf();
    const conflicts1 = conflictsOf();
    L.check('claude: `hashline log` has exactly one op for claude.txt, by claude-code, none by disk; no conflicts',
      log1.status === 0 && log1.ops.length === 1 && log1.ops[0].agent === 'claude-code' && !log1.ops.some((o) => o.agent === 'disk') &&
        conflicts1.status === 0 && conflicts1.list.length === 0, { log: log1, conflicts: conflicts1 });
    const result1 = await poll(() => toolResult('toolu_1_0'), { limitMs: 20000 });
    L.check('claude: Claude Code\'s tool_result for the Edit is a success', result1 && !result1.isError, result1 ?? 'no tool_result for toolu_1_0 yet');
    if (result1) L.log('claude: Edit 1 tool_result:', result1.text.slice(0, 300));
    // The user's Ctrl+S: the buffer equals the disk Claude Code wrote; no "file is newer" conflict.
    await focusEditor(page);
    await page.keyboard.press('Control+s');
    const saved = await poll(async () => { const d = await doc(); return d && !d.isDirty && disk() === d.text ? d : null; });
    const toasts = await toastText(page);
    const dirtyTabs = await page.locator('.tabs-container .tab.active.dirty').count();
    L.check('claude: Ctrl+S then saves: no "content of the file is newer" error, the tab is clean, disk == buffer',
      saved && dirtyTabs === 0 && !/newer|Compare|Overwrite/i.test(toasts) && disk() === textOf(want1),
      { saved: !!saved, dirtyTabs, toasts, disk: disk().slice(0, 200) });

    // 5. Send to Claude: lines 3–5 selected, "hashline: Send Selection to Claude Code" from the palette.
    const sel = await hooks.call('select', { path: name, from: 3, to: 5 });
    await sleep(300);
    await palette(page, 'hashline: Send Selection to Claude Code', { keepSelection: true });
    const sent = await poll(async () => { const t = await toastText(page); return t.includes(`Sent ${name}:3-5 to Claude Code`) ? t : null; }, { limitMs: 10000 });
    L.check(`claude: "Send Selection to Claude Code" (F1) shows "Sent ${name}:3-5 to Claude Code"`, sent, await toastText(page));
    // Claude Code puts an @-mention into its input box (its at_mentioned handler).
    const mention = `@${name}#L3-5`;
    const boxed = await poll(() => screen().includes(mention), { limitMs: 15000 });
    L.check(`claude: Claude Code's input box shows the mention ${mention}`, boxed, screen().slice(-800));
    fs.writeFileSync(goFile2, 'go');
    // The prompt typed after the mention: the model's request for that turn has it in the prompt's
    // text and, before it, the mentioned lines as Claude Code read them (a Read of the file with
    // offset 3, limit 3: from the disk, which holds the buffer's text since the save).
    const request4 = await poll(() => modelRequests().find((e) => e.n === 4), { limitMs: STEP_MS, everyMs: 300 });
    const lastUser = request4 && [...(request4.body?.messages ?? [])].reverse().find((m) => m.role === 'user');
    const userText = lastUser ? JSON.stringify(lastUser.content) : '';
    L.check(`claude: the next prompt's model request carries the mention: "${mention} Now change line 20." and lines 3\u20135 read`,
      userText.includes(`${mention} Now change line 20.`) && sel.text.split('\n').every((l, i) => userText.includes(`${3 + i}\\t${l}`)),
      { selected: sel.text, lastUser: userText.slice(0, 3000), driver: drivelog() });
    // The selection_changed hashline sends first: Claude Code tells its model which lines are
    // selected. It counts an end at character 0 as the line before (VS Code's way for a selection
    // that ends at a line start), and hashline sends the last line's start as the end.
    const said = /The user selected the lines (\d+) to (\d+) from ([^:]+):/.exec(request4 ? JSON.stringify(request4.body) : '');
    L.check('claude: the same request says "The user selected the lines 3 to 5" of claude.txt (selection_changed)',
      said && said[1] === '3' && said[2] === '5' && said[3] === file, said ? said[0] : 'no "The user selected the lines" in the request');

    // 6. The second Edit (line 20), rejected by clicking ✗ Reject: buffer and disk back as before.
    const hunk2 = await poll(() => pendingHunks().find((h) => h.op !== hunk1.op) || (driver.code !== undefined ? { exited: driver.code } : null),
      { limitMs: STEP_MS, everyMs: 300 });
    const want2 = withLine(want1, 21, EDIT2.new);
    const inReview2 = await doc();
    if (!L.check('claude: the second Edit is pending at line 21 (openDiff by claude-code), in the buffer only',
      hunk2 && hunk2.line === 21 && hunk2.agent === 'claude-code' && hunk2.method === 'openDiff' && inReview2.text === textOf(want2) && disk() === textOf(want1),
      { hunk: hunk2, pending: pendingHunks.last, buffer: inReview2.text, driver: drivelog(), screen: screen().slice(-800) })) return;
    const shown2 = await lensShown(hunk2.id);
    if (!L.check('claude: its "\u2717 Reject" is on screen above line 21', shown2 && shown2.includes('\u2717 Reject'),
      shown2 || await domText(page, '.monaco-editor .contentWidgets'))) return;
    await lensRow(hunk2.id).first().locator('a', { hasText: '\u2717 Reject' }).click({ timeout: 5000 });
    const back = await poll(async () => (await doc()).text === textOf(want1), { limitMs: 10000 });
    await sleep(1000);
    const afterReject = await doc();
    L.check('claude: after \u2717 Reject the buffer is back as before and the disk unchanged a second later',
      back && afterReject.text === textOf(want1) && disk() === textOf(want1), { buffer: afterReject.text, disk: disk() });
    fs.writeFileSync(goFile3, 'go');
    const result2 = await poll(() => toolResult('toolu_3_0'), { limitMs: STEP_MS, everyMs: 300 });
    L.check('claude: Claude Code\'s tool_result for the rejected Edit is an error that says it was rejected',
      result2 && result2.isError && /reject/i.test(result2.text), result2 ?? { none: 'no tool_result for toolu_3_0', driver: drivelog() });

    // 7. Issue 30: files not open in the editor. VS Code shows each (window/showDocument) and the
    // Edit is a review there: ✗ Reject leaves the disk alone, ✓ Keep lets Claude Code write it.
    const notOpen = async (f, click) => {
      const onDisk = () => fs.readFileSync(path.join(ws, f.name), 'utf8');
      const hunk = await poll(() => pendingHunks(f.name)[0] || (driver.code !== undefined ? { exited: driver.code } : null),
        { limitMs: STEP_MS, everyMs: 300 });
      const shownDoc = await docState((u) => u.endsWith('/' + f.name));
      const proposed = textOf(withLine(f.lines, 2, f.new));
      if (!L.check(`claude: ${f.name}, not open, is shown by VS Code and Claude's Edit is a pending review there (line 2); nothing on disk yet`,
        hunk && hunk.line === 2 && hunk.agent === 'claude-code' && shownDoc && shownDoc.text === proposed && onDisk() === textOf(f.lines),
        { hunk, pending: pendingHunks.last, doc: shownDoc, disk: onDisk(), driver: drivelog(), screen: screen().slice(-800) })) return null;
      const shown = await lensShown(hunk.id);
      if (!L.check(`claude: its "${click}" is on screen in ${f.name}`, shown && shown.includes(click),
        shown || await domText(page, '.monaco-editor .contentWidgets'))) return null;
      await lensRow(hunk.id).first().locator('a', { hasText: click }).click({ timeout: 5000 });
      return { onDisk, proposed };
    };
    fs.writeFileSync(goFile4, 'go');
    const b = await notOpen(NOT_OPEN.b, '\u2717 Reject');
    if (!b) return;
    const bBack = await poll(async () => (await docState((u) => u.endsWith('/' + NOT_OPEN.b.name)))?.text === textOf(NOT_OPEN.b.lines), { limitMs: 10000 });
    fs.writeFileSync(goFile5, 'go');
    const resultB = await poll(() => toolResult('toolu_6_0'), { limitMs: STEP_MS, everyMs: 300 });
    L.check(`claude: after \u2717 Reject ${NOT_OPEN.b.name} is unchanged in the editor and on disk, and Claude Code reports the rejection`,
      bBack && b.onDisk() === textOf(NOT_OPEN.b.lines) && resultB && resultB.isError && /reject/i.test(resultB.text),
      { disk: b.onDisk(), result: resultB ?? 'no tool_result for toolu_6_0', driver: drivelog() });
    const c = await notOpen(NOT_OPEN.c, '\u2713 Keep');
    if (!c) return;
    const cWritten = await poll(() => c.onDisk() === c.proposed, { limitMs: STEP_MS, everyMs: 200 });
    const resultC = await poll(() => toolResult('toolu_8_0'), { limitMs: STEP_MS, everyMs: 300 });
    L.check(`claude: after \u2713 Keep Claude Code wrote ${NOT_OPEN.c.name} and tells its model it was updated`,
      cWritten && resultC && !resultC.isError, { disk: c.onDisk(), result: resultC ?? 'no tool_result for toolu_8_0', driver: drivelog() });
    // Claude Code's write of the text the buffer holds is not journaled a second time: the
    // reconciler took the clean buffer's change for VS Code reloading the file, until this check.
    await sleep(1500);
    const cLog = cli(['log', '--path', path.join(ws, NOT_OPEN.c.name), '--json']);
    const cAgents = (cLog.json?.ops ?? []).map((o) => o.agent);
    L.check(`claude: Claude Code's write of ${NOT_OPEN.c.name} is not journaled again: \`hashline log\` has the claude-code op and none by disk`,
      cLog.status === 0 && JSON.stringify(cAgents) === '["claude-code"]', { agents: cAgents, stderr: cLog.stderr });

    // Issue 34: after each decision the live sidecar's `hashline pending` lists nothing of it and
    // `hashline log` has it (fresh calls: pendingHunks.last is the poll made before the click).
    const decided = (f) => {
      const log = cli(['log', '--path', path.join(ws, f.name), '--json']);
      const states = (log.json?.ops ?? []).flatMap((o) => (o.hunks || []).map((h) => `${o.method} by ${o.agent}: ${h.state}`));
      return { pending: pendingHunks(f.name), states, raw: pendingHunks.last };
    };
    const dB = decided(NOT_OPEN.b);
    const dC = decided(NOT_OPEN.c);
    L.check(`claude: after \u2717 Reject / \u2713 Keep nothing of ${NOT_OPEN.b.name} / ${NOT_OPEN.c.name} is in \`hashline pending\`; \`hashline log\` has the decisions`,
      dB.pending.length === 0 && dC.pending.length === 0 &&
        JSON.stringify(dB.states) === '["openDiff by claude-code: reverted","reject by user: decision"]' &&
        JSON.stringify(dC.states) === '["openDiff by claude-code: accepted"]', { b: dB, c: dC });

    // 8. Issue 30: Claude's Edits over the user's unsaved typing in claude.txt (claudeConflict.mjs).
    const end = await conflictCases(page, {
      L, hooks, name, goFiles: conflictGo, focusEditor, doc, disk, pendingHunks, opsOf, conflictsOf, lensShown, lensRow, toolResult, toastText, palette, drivelog,
      bufferLines: want1, env,
    });
    if (!end) return;

    // 9. /exit (drive_claude.py, after the last step): the status bar item says not connected again.
    const exitCode = await Promise.race([driver.exited, sleep(STEP_MS).then(() => 'timeout')]);
    const gone = await poll(async () => { const s = await statusItem(page); return showsNotConnected(s, port) ? s : (poll.last = s, null); }, { limitMs: 15000 });
    const after = claudeStatus();
    L.check('claude: after /exit Claude Code exited 0 and the status bar item says no Claude Code is connected (no client in `hashline status`)',
      exitCode === 0 && gone && (after.ide?.clients ?? []).length === 0, { exitCode, item: gone ?? poll.last, status: after, driver: drivelog() });
    L.check('claude: disk and buffer at the end hold only what the user kept and typed',
      disk() === end.disk && (await doc()).text === end.buffer, { disk: disk(), buffer: (await doc()).text, want: end });
  } finally {
    for (const child of [driver, model]) {
      if (child && child.code === undefined) {
        child.kill('SIGTERM');
        await Promise.race([child.exited, sleep(5000)]);
        if (child.code === undefined) child.kill('SIGKILL');
      }
    }
  }
}
