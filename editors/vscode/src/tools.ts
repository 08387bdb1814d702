// The language-model tools (declared in package.json under contributes.languageModelTools):
// hashline_read / hashline_edit (anchors), hashline_replace (old/new) and hashline_patch
// (apply_patch), the last two shown once the server advertises their commands. Agent mode reads a
// buffer with anchors and edits it through the server, which verifies the edit against the live,
// unsaved text and applies it to the buffer with a versioned workspace/applyEdit. Runs on the
// extension host.
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

// `confirm: true` on every edit form while `hashline.confirmAgentEdits` is on: the server sends the
// edit as a change annotation that needs confirmation (VS Code's refactor preview).
function confirmParam(): { confirm?: true } {
  return readSettings().confirmAgentEdits ? { confirm: true } : {};
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
      ...confirmParam(),
      edits,
    });
    return text(renderOutcome(displayName(uri), result));
  }
}

export interface ReplaceInput {
  path: string;
  edits: { old: string; new: string; replace_all?: boolean }[];
}

export interface PatchInput {
  patch: string;
}

export class ReplaceTool implements vscode.LanguageModelTool<ReplaceInput> {
  constructor(private readonly server: HashlineServer) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReplaceInput>) {
    const n = options.input.edits?.length ?? 0;
    return { invocationMessage: `Replacing text in ${options.input.path} (${n} replacement${n === 1 ? '' : 's'})` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReplaceInput>): Promise<vscode.LanguageModelToolResult> {
    const uri = resolveTarget(options.input.path);
    await ensureOpen(uri);
    const result = await this.server.executeCommand<EditOutcome>(Commands.replace, {
      uri: this.server.protocolUri(uri),
      session: this.server.session,
      ...confirmParam(),
      edits: options.input.edits,
    });
    return text(renderOutcome(displayName(uri), result));
  }
}

export class PatchTool implements vscode.LanguageModelTool<PatchInput> {
  constructor(private readonly server: HashlineServer) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<PatchInput>) {
    const files = (options.input.patch?.match(/^\*\*\* (Update|Add|Delete) File: /gm) ?? []).length;
    return { invocationMessage: `Applying a patch to ${files} file${files === 1 ? '' : 's'}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<PatchInput>): Promise<vscode.LanguageModelToolResult> {
    // Files the patch updates are loaded first, so open buffers (not the disk) are what it changes.
    for (const m of options.input.patch.matchAll(/^\*\*\* Update File: (.+)$/gm)) {
      await ensureOpen(resolveTarget(m[1]));
    }
    const result = await this.server.executeCommand<EditOutcome>(Commands.patch, {
      patch: options.input.patch,
      session: this.server.session,
      ...confirmParam(),
    });
    return text(renderOutcome('the workspace', result));
  }
}

// The tools whose `when` clause waits for the server to advertise their command.
const gatedTools: Record<string, string> = {
  'hashline.server.replace': Commands.replace,
  'hashline.server.patch': Commands.patch,
};

function updateToolContext(server: HashlineServer): void {
  for (const [key, command] of Object.entries(gatedTools)) {
    void vscode.commands.executeCommand('setContext', key, server.serverCommands.includes(command));
  }
}

// Registers the tools; a VS Code without the language-model API just skips them.
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
  updateToolContext(server);
  return [
    lm.registerTool('hashline_read', wrap(new ReadTool(server))),
    lm.registerTool('hashline_edit', wrap(new EditTool(server))),
    lm.registerTool('hashline_replace', wrap(new ReplaceTool(server))),
    lm.registerTool('hashline_patch', wrap(new PatchTool(server))),
    server.onDidChangeState(() => updateToolContext(server)),
  ];
}
