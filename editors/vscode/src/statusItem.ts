// The language status item ("{} hashline" in the status bar's language area) of every mirrored
// document: whether the sidecar runs, which anchor tier reads use, and a link to the status.
// Updated on the extension host when the server's state or the settings change.
import * as vscode from 'vscode';
import { HashlineServer, documentSelector } from './server';
import { readSettings } from './settings';

export function registerStatusItem(server: HashlineServer): vscode.Disposable[] {
  const item = vscode.languages.createLanguageStatusItem('hashline.status', documentSelector);
  item.name = 'hashline';
  const update = () => {
    const info = server.serverInfo;
    if (server.running) {
      item.text = 'hashline';
      item.detail = `mirroring · ${readSettings().tier} anchors${info?.version ? ` · ${info.version}` : ''}`;
      item.severity = vscode.LanguageStatusSeverity.Information;
      item.command = { title: 'Status', command: 'hashline.showStatus' };
    } else {
      item.text = 'hashline';
      item.detail = 'not running';
      item.severity = vscode.LanguageStatusSeverity.Warning;
      item.command = { title: 'Show Log', command: 'hashline.showLog' };
    }
  };
  update();
  return [
    item,
    server.onDidChangeState(update),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('hashline.tier') && update()),
  ];
}
