// Answers the sidecar's `hashline/documentSymbol` request ({textDocument: {uri}}) with the symbols
// VS Code's own language extensions give for the document (vscode.executeDocumentSymbolProvider),
// so `hashline read --symbol` and `hashline outline` work through the editor's language server;
// the sidecar never starts one. The document is loaded first if it is not open (no tab is shown).
// Result: {symbols: DocumentSymbol[]} in LSP shape (lspShapes.ts), or {symbols: null, reason}
// when VS Code has none for it (no language server for the language, or it found none). Runs on the extension host.
import * as vscode from 'vscode';
import { hasLanguageServer, wakeLanguageExtensions } from './languageServers';
import { CodeSymbol, LspDocumentSymbol, lspDocumentSymbols } from './lspShapes';
import { HashlineServer, errorText } from './server';

export const DocumentSymbolRequest = 'hashline/documentSymbol';

export interface DocumentSymbolResult {
  symbols: LspDocumentSymbol[] | null;
  reason?: string;
}

// A language extension that was just woken (or a document just loaded) registers its providers
// a moment later: ask again a few times before saying there are none.
const retryDelaysMs = [250, 500, 1000];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function providedSymbols(uri: vscode.Uri): Promise<CodeSymbol[] | undefined> {
  const found = await vscode.commands.executeCommand<CodeSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', uri);
  return Array.isArray(found) && found.length > 0 ? found : undefined;
}

export async function documentSymbols(server: HashlineServer, params: unknown): Promise<DocumentSymbolResult> {
  const uriText = (params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri;
  if (typeof uriText !== 'string' || !uriText) throw new Error('hashline/documentSymbol: params.textDocument.uri must be a URI');
  const uri = server.codeUri(uriText);
  let doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const loaded = !doc;
  if (!doc) {
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch (e) {
      return { symbols: null, reason: `VS Code cannot open ${uriText}: ${errorText(e)}` };
    }
  }
  const woke = await wakeLanguageExtensions(doc.languageId);
  let found = await providedSymbols(doc.uri);
  if (!found && (loaded || woke) && hasLanguageServer(doc.languageId)) {
    for (const ms of retryDelaysMs) {
      await sleep(ms);
      found = await providedSymbols(doc.uri);
      if (found) break;
    }
  }
  if (!found) {
    const reason = hasLanguageServer(doc.languageId)
      ? `the language extensions in VS Code for ${doc.languageId} files returned no symbols for this document`
      : `no language server in VS Code provides symbols for ${doc.languageId} files`;
    return { symbols: null, reason };
  }
  return { symbols: lspDocumentSymbols(found) };
}

export function registerSymbols(server: HashlineServer): vscode.Disposable {
  return server.handleRequest(DocumentSymbolRequest, (params) => documentSymbols(server, params));
}
