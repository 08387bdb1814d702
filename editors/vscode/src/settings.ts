// Reads the `hashline.*` settings and turns them into how the server is started
// (command line, initializationOptions). Called by server.ts on start and on every restart.
import * as vscode from 'vscode';
import { resolveBinary } from './binary';
import { ClaudeIdeSetting, claudeIdeWanted } from './claudeIdeState';

export type Tier = 'line' | 'block' | 'chain';
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type Reconcile = 'off' | 'clean' | 'merge';

export interface Settings {
  binaryPath: string;
  tier: Tier;
  logLevel: LogLevel;
  agentSocket: boolean;
  serverArgs: string[];
  confirmAgentEdits: boolean;
  reconcile: Reconcile;
  claudeIde: ClaudeIdeSetting;
}

// The review UI's switches; read on every redraw, so no restart is needed.
export interface ReviewSettings {
  codeLens: boolean;
  decorations: boolean;
}

export function readSettings(): Settings {
  const cfg = vscode.workspace.getConfiguration('hashline');
  return {
    binaryPath: resolveBinary(cfg.get<string>('path', 'hashline')),
    tier: cfg.get<Tier>('tier', 'block'),
    logLevel: cfg.get<LogLevel>('logLevel', 'info'),
    agentSocket: cfg.get<boolean>('agentSocket', true),
    serverArgs: cfg.get<string[]>('serverArgs', []),
    confirmAgentEdits: cfg.get<boolean>('confirmAgentEdits', false),
    reconcile: cfg.get<Reconcile>('reconcile', 'merge'),
    claudeIde: cfg.get<ClaudeIdeSetting>('claudeIde', 'auto'),
  };
}

export function readReviewSettings(): ReviewSettings {
  const cfg = vscode.workspace.getConfiguration('hashline.review');
  return {
    codeLens: cfg.get<boolean>('codeLens', true),
    decorations: cfg.get<boolean>('decorations', true),
  };
}

// The command line: `hashline lsp --log-level L [serverArgs…]` (vscode-languageclient appends
// `--stdio`). The log level is a flag so it applies from the first line the server logs.
export function serverArguments(s: Settings): string[] {
  const level = ['error', 'warn', 'info', 'debug'].includes(s.logLevel) ? s.logLevel : 'debug';
  return ['lsp', '--log-level', level, ...s.serverArgs];
}

// What the server reads at `initialize` (initializationOptions). Passed as data, not as flags, so
// a server that does not know an option ignores it instead of refusing to start.
export function initializationOptions(s: Settings, session: string) {
  return {
    client: 'vscode',
    tier: s.tier,
    logLevel: s.logLevel,
    agentSocket: s.agentSocket,
    session,
    // Agent edits go out as change annotations with needsConfirmation: VS Code shows its refactor
    // preview and the user applies or discards them.
    confirmEdits: s.confirmAgentEdits,
    // Foreign disk writes behind open documents: off | clean | merge (docs/reconcile.md).
    reconcile: ['off', 'clean', 'merge'].includes(s.reconcile) ? s.reconcile : 'merge',
    // Claude Code's IDE protocol (docs/claude-ide.md): a WebSocket and a lock file.
    claudeIde: claudeIdeWanted(s.claudeIde, anthropicExtensionInstalled()),
  };
}

// Anthropic's own Claude Code extension is Claude Code's IDE when it is installed; two IDE
// servers for one workspace would make Claude Code pick one at random.
const anthropicExtension = 'anthropic.claude-code';

function anthropicExtensionInstalled(): boolean {
  return vscode.extensions.getExtension(anthropicExtension) !== undefined;
}

// Settings whose change needs the server restarted (everything the server reads at startup).
export function affectsServer(e: vscode.ConfigurationChangeEvent): boolean {
  return ['path', 'tier', 'logLevel', 'agentSocket', 'serverArgs', 'confirmAgentEdits', 'reconcile', 'claudeIde'].some((k) =>
    e.affectsConfiguration(`hashline.${k}`),
  );
}
