// Answers the sidecar's `hashline/saveDocument` request ({textDocument: {uri}}), which it sends
// for Claude Code's saveDocument IDE tool: saves the open document as the user's own save
// (VS Code's save participants run, so the reconciler sees the editor's save). Result: {saved,
// reason?}. Runs on the extension host.
import * as vscode from 'vscode';
import { HashlineServer, errorText } from './server';

export const SaveDocumentRequest = 'hashline/saveDocument';

export async function saveDocument(server: HashlineServer, params: unknown): Promise<{ saved: boolean; reason?: string }> {
  const uriText = (params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri;
  if (typeof uriText !== 'string' || !uriText) throw new Error('hashline/saveDocument: params.textDocument.uri must be a URI');
  const uri = server.codeUri(uriText);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) return { saved: false, reason: 'the document is not open in VS Code' };
  try {
    const saved = await doc.save();
    return saved ? { saved: true } : { saved: false, reason: 'VS Code did not save it' };
  } catch (e) {
    return { saved: false, reason: errorText(e) };
  }
}

export function registerSaveDocument(server: HashlineServer): vscode.Disposable {
  return server.handleRequest(SaveDocumentRequest, (params) => saveDocument(server, params));
}
