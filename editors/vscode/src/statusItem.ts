// hashline's own place in the status bar: the item **hashline** says whether the sidecar mirrors
// the buffers, is not running, or has agent edits waiting for review (`hashline: 2 pending`, a
// click opens Review Agent Edits). Beside it, the language status item ("{} hashline" in the
// language area) of every mirrored document: the anchor tier and a link to the status. After a
// crash both say the server is restarting, or why it gave up (crashRestart.ts). Both are updated
// on the extension host when the server's state, the pending hunks or the settings change.
import * as vscode from 'vscode';
import { pendingCount } from './review';
import { ReviewModel } from './reviewModel';
import { HashlineServer, documentSelector } from './server';
import { readSettings } from './settings';
import { statusLook } from './statusLook';

export function registerStatusItem(server: HashlineServer, review: ReviewModel): vscode.Disposable[] {
  const bar = vscode.window.createStatusBarItem('hashline.state', vscode.StatusBarAlignment.Right, 101);
  bar.name = 'hashline';
  const item = vscode.languages.createLanguageStatusItem('hashline.status', documentSelector);
  item.name = 'hashline';
  const update = () => {
    const status = statusOf(server);
    const look = statusLook(
      { running: server.running, restarting: server.restarting, stopped: !!server.crashRestart.gaveUp },
      server.running ? pendingCount(review.pending) : 0,
      server.serverInfo?.version,
    );
    bar.text = look.text;
    bar.tooltip = look.tooltip;
    bar.command = look.command;
    bar.accessibilityInformation = { label: look.text.replace(/\$\([a-z~-]+\) /, ''), role: 'button' };
    bar.backgroundColor = look.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    bar.show();
    item.text = 'hashline';
    item.detail = status.detail;
    item.severity = status.severity;
    item.command = status.command;
  };
  update();
  return [
    bar,
    item,
    server.onDidChangeState(update),
    review.onDidChange(update),
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
