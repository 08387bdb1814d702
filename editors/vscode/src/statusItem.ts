// The language status item ("{} hashline" in the status bar's language area) of every mirrored
// document: whether the sidecar runs, which anchor tier reads use, and a link to the status.
// After a crash it says the server is restarting, or why it gave up (crashRestart.ts). Updated on
// the extension host when the server's state or the settings change.
import * as vscode from 'vscode';
import { HashlineServer, documentSelector } from './server';
import { readSettings } from './settings';

export function registerStatusItem(server: HashlineServer): vscode.Disposable[] {
  const item = vscode.languages.createLanguageStatusItem('hashline.status', documentSelector);
  item.name = 'hashline';
  const update = () => {
    const status = statusOf(server);
    item.text = 'hashline';
    item.detail = status.detail;
    item.severity = status.severity;
    item.command = status.command;
  };
  update();
  return [
    item,
    server.onDidChangeState(update),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('hashline.tier') && update()),
  ];
}

// What the item shows for the server's state now (also read by the test hooks).
export function statusOf(server: HashlineServer): {
  detail: string;
  severity: vscode.LanguageStatusSeverity;
  command: vscode.Command;
} {
  const info = server.serverInfo;
  const restarts = server.crashRestart.restarts;
  if (server.running) {
    return {
      detail:
        `mirroring · ${readSettings().tier} anchors${info?.version ? ` · ${info.version}` : ''}` +
        (restarts > 0 ? ` · restarted ${restarts}× after a crash` : ''),
      severity: vscode.LanguageStatusSeverity.Information,
      command: { title: 'Status', command: 'hashline.showStatus' },
    };
  }
  if (server.restarting) {
    return {
      detail: 'restarting after a crash',
      severity: vscode.LanguageStatusSeverity.Warning,
      command: { title: 'Show Log', command: 'hashline.showLog' },
    };
  }
  if (server.crashRestart.gaveUp) {
    return {
      detail: `stopped: ${server.crashRestart.gaveUp}`,
      severity: vscode.LanguageStatusSeverity.Error,
      command: { title: 'Restart', command: 'hashline.restartServer' },
    };
  }
  return {
    detail: 'not running',
    severity: vscode.LanguageStatusSeverity.Warning,
    command: { title: 'Show Log', command: 'hashline.showLog' },
  };
}
