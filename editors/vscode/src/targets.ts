// Turns what a model or a user names ("src/a.ts", "/abs/a.ts", "untitled:Untitled-1",
// "Untitled-1", a file: URI) into the document it means, and makes sure that document is loaded in
// the editor (so the server mirrors its live text and edits land in the buffer, not on disk).
// Called by the language-model tools and the test hooks on the extension host.
import * as path from 'path';
import * as vscode from 'vscode';

const uriLike = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

export function resolveTarget(name: string): vscode.Uri {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('no path given');
  // An already open document, by URI, by path or by its untitled name ("Untitled-1").
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.toString() === trimmed || doc.uri.toString(true) === trimmed) return doc.uri;
    if (doc.uri.scheme === 'untitled' && doc.uri.path === trimmed) return doc.uri;
  }
  // Windows drive letters ("C:\x") look like a URI scheme; everything else with a scheme is a URI.
  if (uriLike.test(trimmed) && !/^[a-zA-Z]:[\\/]/.test(trimmed)) return vscode.Uri.parse(trimmed, true);
  if (path.isAbsolute(trimmed)) return vscode.Uri.file(path.normalize(trimmed));
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    throw new Error(`"${name}" is relative and no workspace folder is open; give an absolute path`);
  }
  // Several roots: a path may start with a folder's name ("frontend/src/a.ts").
  if (folders.length > 1) {
    const [head, ...rest] = trimmed.split(/[\\/]/);
    const named = folders.find((f) => f.name === head);
    if (named && rest.length) return vscode.Uri.joinPath(named.uri, ...rest);
  }
  for (const f of folders) {
    const candidate = vscode.Uri.joinPath(f.uri, trimmed);
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === candidate.toString())) return candidate;
  }
  return vscode.Uri.joinPath(folders[0].uri, trimmed);
}

// Loads the document into the editor (no tab is opened). Returns undefined when it cannot be
// loaded (a file that does not exist yet): the server then works on disk or creates it.
export async function ensureOpen(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open;
  try {
    return await vscode.workspace.openTextDocument(uri);
  } catch {
    return undefined;
  }
}

export function displayName(uri: vscode.Uri): string {
  if (uri.scheme === 'untitled') return uri.path;
  if (uri.scheme === 'file') return vscode.workspace.asRelativePath(uri, true);
  return uri.toString(true);
}
