// Hooks for the headless editor test (tests/editors/code-server). Two parts:
// - the command `hashline.test.mirrorCheck`: asks the server for hashline/snapshot of each open
//   document and compares version, line count and SHA-256 with the editor's own text. Always
//   registered (harmless), shown in the palette only in test mode.
// - in test mode only (env HASHLINE_VSCODE_TEST_DIR set when code-server starts), a file channel:
//   the driver drops `<dir>/rpc/<id>.req.json`, the extension answers `<dir>/rpc/<id>.res.json`.
//   It lets the driver read the editor's model (text, version, dirty flag), the CodeLenses and
//   diagnostics VS Code shows and the symbols the extension would give the server, select lines,
//   run commands/tools the way an in-editor agent would, and raise the crash-restart limit.
//   Runs on the extension host's event loop.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { HashlineServer, documentSelector, errorText } from './server';
import { crashLimit } from './crashRestart';
import { statusOf } from './statusItem';
import { documentSymbols } from './symbols';
import { ensureOpen, resolveTarget } from './targets';

const testDir = process.env.HASHLINE_VSCODE_TEST_DIR;

interface EditorSide {
  uri: string;
  version: number;
  lineCount: number;
  sha256: string;
  isDirty: boolean;
  text: string;
}

function editorSide(doc: vscode.TextDocument): EditorSide {
  const text = doc.getText();
  return {
    uri: doc.uri.toString(),
    version: doc.version,
    lineCount: doc.lineCount,
    sha256: createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'),
    isDirty: doc.isDirty,
    text,
  };
}

function mirrored(doc: vscode.TextDocument): boolean {
  return vscode.languages.match(documentSelector, doc) > 0;
}

async function mirrorCheck(server: HashlineServer, target?: string) {
  const docs = target
    ? [await ensureOpen(resolveTarget(target))].filter((d): d is vscode.TextDocument => !!d)
    : vscode.workspace.textDocuments.filter(mirrored);
  const results = [];
  for (const doc of docs) {
    const editor = editorSide(doc);
    try {
      const snap = await server.snapshot(doc.uri);
      const after = editorSide(doc); // the user may have typed while we asked
      results.push({
        uri: editor.uri,
        editor: { version: editor.version, lineCount: editor.lineCount, sha256: editor.sha256 },
        server: snap,
        editorMovedMeanwhile: after.version !== editor.version,
        match: snap.version === editor.version && snap.lineCount === editor.lineCount && snap.sha256 === editor.sha256,
      });
    } catch (e) {
      results.push({ uri: editor.uri, error: errorText(e), match: false });
    }
  }
  return { documents: results, match: results.length > 0 && results.every((r) => r.match) };
}

type Request = { op: string; [k: string]: unknown };

async function answer(server: HashlineServer, req: Request): Promise<unknown> {
  switch (req.op) {
    case 'state':
      return {
        running: server.running,
        restarting: server.restarting,
        crashes: server.crashRestart.crashes,
        restarts: server.crashRestart.restarts,
        gaveUp: server.crashRestart.gaveUp ?? null,
        statusItem: statusOf(server).detail,
        serverInfo: server.serverInfo,
        serverCommands: server.serverCommands,
        session: server.session,
        documents: vscode.workspace.textDocuments.filter(mirrored).map(editorSide),
      };
    case 'open': {
      const uri = resolveTarget(String(req.path));
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
      return editorSide(doc);
    }
    case 'newUntitled': {
      const doc = await vscode.workspace.openTextDocument({ content: String(req.content ?? ''), language: 'plaintext' });
      await vscode.window.showTextDocument(doc, { preview: false });
      return editorSide(doc);
    }
    case 'codeLenses': {
      // The lenses VS Code got from the providers for a document (ours: the review lenses).
      const uri = resolveTarget(String(req.path));
      const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
      return lenses
        .filter((l) => l.command?.command.startsWith('hashline.'))
        .map((l) => ({ line: l.range.start.line + 1, title: l.command!.title, tooltip: l.command!.tooltip, command: l.command!.command, arguments: l.command!.arguments ?? [] }));
    }
    case 'select': {
      // Shows the document and selects lines from..to (1-based, inclusive: from the start of
      // `from` to the end of `to`), as a person dragging over them would; returns the text.
      const doc = await vscode.workspace.openTextDocument(resolveTarget(String(req.path)));
      const editor = await vscode.window.showTextDocument(doc, { preview: false });
      const from = Number(req.from) - 1;
      const to = Number(req.to ?? req.from) - 1;
      const selection = new vscode.Selection(from, 0, to, doc.lineAt(to).range.end.character);
      editor.selection = selection;
      editor.revealRange(selection);
      return { uri: doc.uri.toString(), version: doc.version, text: doc.getText(selection) };
    }
    case 'diagnostics': {
      // What VS Code shows for a document (all language extensions), 1-based lines.
      const uri = resolveTarget(String(req.path));
      return vscode.languages.getDiagnostics(uri).map((d) => ({
        line: d.range.start.line + 1,
        severity: vscode.DiagnosticSeverity[d.severity],
        source: d.source,
        message: d.message,
      }));
    }
    case 'documentSymbol':
      // What the extension answers the server's hashline/documentSymbol request with.
      return documentSymbols(server, { textDocument: { uri: server.protocolUri(resolveTarget(String(req.path))) } });
    case 'mirrorCheck':
      return vscode.commands.executeCommand('hashline.test.mirrorCheck', req.path);
    case 'tool': {
      const result = await vscode.lm.invokeTool(String(req.name), {
        input: req.input as object,
        toolInvocationToken: undefined,
      });
      return {
        text: result.content
          .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : JSON.stringify(p)))
          .join(''),
      };
    }
    case 'command':
      return vscode.commands.executeCommand(String(req.command), ...((req.args as unknown[]) ?? []));
    case 'setSetting': {
      // A user setting (global), e.g. hashline.confirmAgentEdits; waits for a server restart it causes.
      const cfg = vscode.workspace.getConfiguration('hashline');
      await cfg.update(String(req.key), req.value, vscode.ConfigurationTarget.Global);
      await new Promise((r) => setTimeout(r, 500));
      await server.start();
      return { key: req.key, value: vscode.workspace.getConfiguration('hashline').get(String(req.key)), running: server.running };
    }
    case 'getSetting':
      // Any setting as VS Code resolves it (defaults contributed by extensions included).
      return { key: req.key, value: vscode.workspace.getConfiguration().get(String(req.key)) ?? null };
    case 'setCrashLimit':
      // The chaos part kills the server more often than a user's crash limit allows.
      crashLimit.maxCrashes = Number(req.maxCrashes);
      return { ...crashLimit };
    case 'serverCommand':
      return server.executeCommand(String(req.command), (req.argument as object) ?? {});
    default:
      throw new Error(`unknown test op ${req.op}`);
  }
}

function writeAtomically(file: string, value: unknown): void {
  fs.writeFileSync(file + '.tmp', JSON.stringify(value, null, 1));
  fs.renameSync(file + '.tmp', file);
}

// Polls <dir>/rpc for requests, answering one at a time in name order.
function serveFileChannel(server: HashlineServer, dir: string, log: vscode.OutputChannel): vscode.Disposable {
  const rpc = path.join(dir, 'rpc');
  fs.mkdirSync(rpc, { recursive: true });
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const pending = fs.readdirSync(rpc).filter((f) => f.endsWith('.req.json')).sort();
      for (const f of pending) {
        const id = f.slice(0, -'.req.json'.length);
        const reqFile = path.join(rpc, f);
        let reply: unknown;
        try {
          const req = JSON.parse(fs.readFileSync(reqFile, 'utf8')) as Request;
          fs.unlinkSync(reqFile);
          reply = { ok: true, result: await answer(server, req) };
        } catch (e) {
          try { fs.unlinkSync(reqFile); } catch { /* already gone */ }
          reply = { ok: false, error: errorText(e) };
        }
        writeAtomically(path.join(rpc, `${id}.res.json`), reply);
      }
    } catch (e) {
      log.appendLine(`[hashline test] ${errorText(e)}`);
    } finally {
      busy = false;
    }
  }, 50);
  return { dispose: () => clearInterval(timer) };
}

export function registerTestHooks(server: HashlineServer, log: vscode.OutputChannel): vscode.Disposable[] {
  const out: vscode.Disposable[] = [
    vscode.commands.registerCommand('hashline.test.mirrorCheck', (target?: string) => mirrorCheck(server, target)),
  ];
  if (testDir) {
    void vscode.commands.executeCommand('setContext', 'hashline.testMode', true);
    out.push(serveFileChannel(server, testDir, log));
    fs.appendFileSync(path.join(testDir, 'extension.log'), `activated ${new Date().toISOString()} vscode ${vscode.version}\n`);
    log.appendLine(`[hashline test] test mode: file channel in ${testDir}`);
  }
  return out;
}
