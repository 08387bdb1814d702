// Which languages have a language server in this window, as far as VS Code lets an extension
// tell: an installed extension with code that activates on `onLanguage:<id>` or contributes the
// language (the language servers do; grammar-only extensions have no code). VS Code has no API
// that lists the diagnostics or symbol providers themselves. Used to decide whether an empty
// diagnostics set means "checked, clean" (sent) or "nobody checks this" (not sent), and to wake
// a language's extensions before asking for its symbols. Runs on the extension host.
import * as vscode from 'vscode';

const ownId = 'hashline.hashline';

interface Manifest {
  main?: string;
  browser?: string;
  activationEvents?: string[];
  contributes?: { languages?: { id?: string }[] };
}

function serves(ext: vscode.Extension<unknown>, languageId: string): boolean {
  if (ext.id.toLowerCase() === ownId) return false;
  const m = ext.packageJSON as Manifest;
  if (!m.main && !m.browser) return false;
  if ((m.activationEvents ?? []).includes(`onLanguage:${languageId}`)) return true;
  return (m.contributes?.languages ?? []).some((l) => l.id === languageId);
}

// The extensions that serve `languageId`.
export function languageExtensions(languageId: string): vscode.Extension<unknown>[] {
  return vscode.extensions.all.filter((e) => serves(e, languageId));
}

export function hasLanguageServer(languageId: string): boolean {
  return languageExtensions(languageId).length > 0;
}

// Activates the extensions that serve `languageId` (VS Code does so itself when such a document
// opens, but not before we ask on the sidecar's behalf); true if one had not been active.
export async function wakeLanguageExtensions(languageId: string): Promise<boolean> {
  const asleep = languageExtensions(languageId).filter((e) => !e.isActive);
  await Promise.all(asleep.map((e) => Promise.resolve(e.activate()).catch(() => undefined)));
  return asleep.length > 0;
}
