// The language-model tools hashline_read and hashline_edit (declared in package.json under
// contributes.languageModelTools): agent mode reads a buffer with anchors and edits it through the
// server, which verifies the anchors against the live, unsaved text and applies the change to
// the buffer with a versioned workspace/applyEdit. Runs on the extension host.
import * as vscode from 'vscode';
import { AnchoredEdit, Commands, EditOutcome, ReadResult, isReadResult } from './protocol';
import { renderOutcome, renderRead } from './render';
import { HashlineServer, errorText } from './server';
import { readSettings } from './settings';
import { displayName, ensureOpen, resolveTarget } from './targets';

export interface ReadInput {
  path: string;
  from?: number;
  to?: number;
}

export interface EditInput {
  path: string;
  edits: AnchoredEdit[];
}

function text(s: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);
}

export class ReadTool implements vscode.LanguageModelTool<ReadInput> {
  constructor(private readonly server: HashlineServer) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadInput>) {
    const { path, from, to } = options.input;
    const range = from || to ? ` lines ${from ?? 1}-${to ?? 'end'}` : '';
    return { invocationMessage: `Reading ${path}${range} with hashline anchors` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadInput>): Promise<vscode.LanguageModelToolResult> {
    const uri = resolveTarget(options.input.path);
    await ensureOpen(uri);
    const result = await this.server.executeCommand<ReadResult>(Commands.read, {
      uri: this.server.protocolUri(uri),
      from: options.input.from,
      to: options.input.to,
      tier: readSettings().tier,
      session: this.server.session,
    });
    if (!isReadResult(result)) {
      // A refusal (FILE_NOT_FOUND, NOT_TEXT, …) or an unexpected shape: show the model what came back.
      return text(renderOutcome(displayName(uri), result as unknown as EditOutcome));
    }
    return text(renderRead(displayName(uri), result));
  }
}

export class EditTool implements vscode.LanguageModelTool<EditInput> {
  constructor(private readonly server: HashlineServer) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<EditInput>) {
    const n = options.input.edits?.length ?? 0;
    return { invocationMessage: `Editing ${options.input.path} (${n} anchored edit${n === 1 ? '' : 's'})` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<EditInput>): Promise<vscode.LanguageModelToolResult> {
    const { edits } = options.input;
    if (!Array.isArray(edits) || edits.length === 0) {
      return text('REFUSED (MALFORMED_ANCHOR): `edits` must be a non-empty array of {op, anchor, content}. Nothing was changed.');
    }
    const uri = resolveTarget(options.input.path);
    await ensureOpen(uri);
    const result = await this.server.executeCommand<EditOutcome>(Commands.edit, {
      uri: this.server.protocolUri(uri),
      session: this.server.session,
      edits,
    });
    return text(renderOutcome(displayName(uri), result));
  }
}

// Registers both tools; a VS Code without the language-model API (older than 1.95) just skips them.
export function registerTools(server: HashlineServer, log: vscode.OutputChannel): vscode.Disposable[] {
  const lm = (vscode as { lm?: typeof vscode.lm }).lm;
  if (!lm || typeof lm.registerTool !== 'function') {
    log.appendLine('[hashline] this VS Code has no language-model tool API; hashline_read/hashline_edit are not registered');
    return [];
  }
  const wrap = <T>(tool: vscode.LanguageModelTool<T>): vscode.LanguageModelTool<T> => ({
    prepareInvocation: tool.prepareInvocation?.bind(tool),
    invoke: async (options, token) => {
      try {
        return (await tool.invoke(options, token)) ?? text('');
      } catch (e) {
        // Protocol faults (server down, unknown command, bad params) reach the model as text too,
        // so it can tell the user instead of retrying blindly.
        log.appendLine(`[hashline] tool failed: ${errorText(e)}`);
        return text(`ERROR: ${errorText(e)}. Nothing was changed.`);
      }
    },
  });
  return [
    lm.registerTool('hashline_read', wrap(new ReadTool(server))),
    lm.registerTool('hashline_edit', wrap(new EditTool(server))),
  ];
}
