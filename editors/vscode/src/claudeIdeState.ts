// Claude Code's IDE connection as the server reports it (`hashline/claudeIde`: {enabled, port,
// lockFile, clients}) and what the status bar item says about it; which lines a selection sends
// to Claude Code. Pure: no vscode import, so the unit tests can load it.

export type ClaudeIdeSetting = 'auto' | 'on' | 'off';

export interface ClaudeIdeClient {
  name: string;
  version: string;
  pid: number | null;
}

export interface ClaudeIdeState {
  enabled: boolean;
  port?: number;
  lockFile?: string;
  clients: ClaudeIdeClient[];
}

// Whether the server should serve Claude Code's IDE protocol. `auto`: unless Anthropic's own
// extension is installed, which is then Claude Code's IDE (two IDE servers for one workspace
// would leave Claude Code to pick one).
export function claudeIdeWanted(setting: ClaudeIdeSetting, anthropicInstalled: boolean): boolean {
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return !anthropicInstalled;
}

// The notification's params, checked; undefined for anything else.
export function parseClaudeIdeState(params: unknown): ClaudeIdeState | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const p = params as Record<string, unknown>;
  if (typeof p.enabled !== 'boolean') return undefined;
  const clients: ClaudeIdeClient[] = [];
  for (const c of Array.isArray(p.clients) ? p.clients : []) {
    if (typeof c !== 'object' || c === null) continue;
    const client = c as Record<string, unknown>;
    clients.push({
      name: typeof client.name === 'string' ? client.name : 'claude-code',
      version: typeof client.version === 'string' ? client.version : '',
      pid: typeof client.pid === 'number' ? client.pid : null,
    });
  }
  return {
    enabled: p.enabled,
    port: typeof p.port === 'number' ? p.port : undefined,
    lockFile: typeof p.lockFile === 'string' ? p.lockFile : undefined,
    clients,
  };
}

export interface ClaudeIdeLabel {
  connected: boolean;
  // The status bar text (with a codicon).
  text: string;
  // The screen reader's label: one sentence saying everything.
  label: string;
  // The hover, in Markdown.
  tooltip: string;
}

function clientName(client: ClaudeIdeClient): string {
  return `Claude Code${client.version ? ` ${client.version}` : ''}`;
}

export function describeClaudeIde(state: ClaudeIdeState): ClaudeIdeLabel {
  const where = `127.0.0.1:${state.port ?? '?'}`;
  if (state.clients.length > 0) {
    const names = state.clients.map(clientName).join(', ');
    return {
      connected: true,
      text: '$(sparkle) hashline \u21c4 Claude Code',
      label: `${names} connected to hashline (${where})`,
      tooltip:
        `**${names}** is connected to hashline's IDE server on ${where}: it sees your selection ` +
        'and diagnostics, and its edits come as ✓ Keep / ✗ Reject reviews in the buffer.\n\n' +
        'Click to send the selected lines to it (**hashline: Send Selection to Claude Code**).',
    };
  }
  return {
    connected: false,
    text: '$(debug-disconnect) hashline \u21c4 Claude Code',
    label: `hashline's Claude IDE server on ${where}: no Claude Code connected`,
    tooltip:
      `hashline's Claude IDE server listens on ${where}` +
      (state.lockFile ? ` (lock file \`${state.lockFile}\`)` : '') +
      '; no Claude Code is connected.\n\nClick to start Claude Code in a terminal ' +
      '(`hashline claude`), connected to this window.',
  };
}

// The 1-based lines a selection sends: the cursor's line when it is empty; a selection that ends
// at the start of a line does not take that line.
export function selectedLines(
  start: { line: number; character: number },
  end: { line: number; character: number },
): { from: number; to: number } {
  let last = end.line;
  if (last > start.line && end.character === 0) last -= 1;
  return { from: start.line + 1, to: last + 1 };
}
