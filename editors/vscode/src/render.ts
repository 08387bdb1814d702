// Turns server results into the plain text a model (language-model tools) or a user (commands)
// reads: anchored rows `ANCHOR→text`, applied/refused summaries with the fix for each error code.
// Pure functions over protocol.ts types; no vscode import.
import { EditOutcome, ReadLine, ReadResult, Refusal, isReadResult, isRefused } from './protocol';

// What a model should do next, per error code of the vocabulary (DESIGN §9).
const nextStep: Record<string, string> = {
  NOT_OBSERVED: 'Read the file with hashline_read, then send the edit again with anchors from that read.',
  STALE_VERSION: 'The document changed; read it again and redo the edit against the new text.',
  STALE_ANCHOR:
    'Those lines changed since you read them. Use the fresh anchors below (or read again), check the new text, then redo the edit.',
  AMBIGUOUS_ANCHOR: 'The anchor matches several places; read the region again and use the fresh anchors.',
  ANCHOR_UNKNOWN: 'That anchor was never issued for this file (miscopied?). Copy anchors exactly from the latest read.',
  MALFORMED_ANCHOR: 'Anchors look like `12:k3f:9qa` (line:digest:context). Copy them exactly from the latest read.',
  OUT_OF_RANGE: 'That line does not exist; read the file to see its current length.',
  NOT_FOUND: 'The text was not found; read the file and quote it exactly.',
  AMBIGUOUS: 'The text occurs several times; include more surrounding lines so it is unique.',
  OVERLAPPING_EDITS: 'Two edits touch the same lines; merge them into one edit.',
  NO_CHANGE: 'The file already reads like that; nothing to do.',
  NOT_TEXT: 'This file is not text (binary or invalid UTF-8); hashline will not edit it.',
  FILE_NOT_FOUND: 'No such file; check the path (relative paths are resolved against the workspace folder).',
  OUTSIDE_WORKSPACE: 'The path is outside the workspace folders; only files inside them can be edited.',
  PATCH_INVALID: 'The patch does not parse; fix its syntax.',
  EDITOR_REJECTED:
    'The editor refused the change: the user was typing, or declined it when asked to confirm. Read again; if the user declined, ask before sending it again.',
  EDITOR_TIMEOUT: 'The editor did not confirm the change. Read again to see whether it landed before retrying.',
  DESYNCED: 'The server lost track of the buffer; read the file again.',
  CONFLICT: 'A later change touched the same lines; nothing was changed.',
  IO_ERROR: 'The file could not be read or written; check permissions and disk space.',
  INVALID_PATTERN: 'Fix the search pattern (RE2 syntax), or search for the text as it is (literal).',
  SYMBOL_NOT_FOUND: 'List the file\'s symbols with the outline, then name one (Class.method).',
  NO_SYMBOLS: 'No language server gives this file\'s symbols; read it by lines instead.',
  // The CLI and MCP only (the editor is the sidecar's client, so it never sees it).
  SIDECAR_GONE:
    'The editor\'s hashline server is not answering; nothing was changed. Ask the user to restart it (hashline: Restart Server), then read again.',
};

export function nextStepFor(code: string): string | undefined {
  return nextStep[code];
}

export function anchoredRow(l: ReadLine): string {
  const anchor = l.anchor.startsWith(`${l.line}:`) ? l.anchor : `${l.line}:${l.anchor}`;
  return `${anchor}\u2192${l.text}`;
}

export function renderRead(name: string, r: ReadResult): string {
  const first = r.lines.length ? r.lines[0].line : 0;
  const last = r.lines.length ? r.lines[r.lines.length - 1].line : 0;
  const span = r.lines.length === r.lineCount ? 'all lines' : `lines ${first}-${last}`;
  const head = `${name} — version ${r.version}, ${r.lineCount} lines, tier ${r.tier}; ${span}:`;
  return [head, ...r.lines.map(anchoredRow)].join('\n');
}

function isRowList(value: unknown): value is ReadLine[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((v) => typeof v === 'object' && v !== null && 'anchor' in v && 'line' in v)
  );
}

// Anchored rows found in a result's or refusal's data (fresh anchors around a stale line, …).
function rowsIn(data: unknown): string[] {
  if (isReadResult(data)) return data.lines.map(anchoredRow);
  if (typeof data !== 'object' || data === null) return [];
  return Object.values(data as Record<string, unknown>).flatMap((v) => (isRowList(v) ? v.map(anchoredRow) : []));
}

export function renderRefusal(e: Refusal): string {
  const out = [`REFUSED (${e.code}): ${e.message}`, 'Nothing was changed.'];
  if (e.hint) out.push(`Hint: ${e.hint}`);
  const step = nextStepFor(e.code);
  if (step && step !== e.hint) out.push(`Next: ${step}`);
  const rows = rowsIn(e.data);
  if (rows.length) out.push('Current text with fresh anchors:', ...rows);
  else if (e.data !== undefined && e.data !== null) out.push(`Details: ${JSON.stringify(e.data)}`);
  return out.join('\n');
}

interface PatchFile {
  path?: string;
  uri?: string;
  kind?: string;
  version?: number;
  backend?: string;
  anchors?: ReadLine[];
}

// A patch result names each file it touched: `files: [{path, kind, version, backend, anchors}]`.
function renderPatchFiles(files: PatchFile[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const where = f.path ?? f.uri ?? '?';
    const facts = [f.kind, f.version !== undefined ? `now version ${f.version}` : undefined,
      f.backend === 'buffer' ? 'in the editor buffer, unsaved' : f.backend === 'disk' ? 'written to disk' : f.backend]
      .filter(Boolean).join(', ');
    out.push(`- ${where}${facts ? ` (${facts})` : ''}`);
  }
  for (const f of files) {
    if (isRowList(f.anchors)) out.push(`Fresh anchors for ${f.path ?? f.uri}:`, ...f.anchors.map(anchoredRow));
  }
  return out;
}

export function renderOutcome(name: string, r: EditOutcome): string {
  if (isRefused(r)) return renderRefusal(r.error);
  const { files, ...withoutFiles } = r;
  if (Array.isArray(files)) {
    const { status, diff } = withoutFiles;
    const out = [`${status === 'applied' ? 'Applied' : `Status ${status}:`} the patch to ${files.length} file${files.length === 1 ? '' : 's'}:`,
      ...renderPatchFiles(files as PatchFile[])];
    if (typeof diff === 'string' && diff.trim()) out.push('Diff:', diff.trimEnd());
    return out.join('\n');
  }
  const { status, version, uri: _uri, path: _path, diff, rebased, confirmation, ...rest } = r;
  const out = [`${status === 'applied' ? 'Applied' : `Status ${status}`} to ${name}` +
    (version !== undefined ? ` (now version ${version}).` : '.')];
  if (status === 'applied' && confirmation === 'requested') out.push('The user reviewed and applied it in the editor.');
  if (status === 'applied') {
    out.push('The change is in the editor buffer (unsaved). Anchors of the changed lines are now stale; read again before editing them.');
  }
  if (Array.isArray(rebased) && rebased.length) {
    const moves = (rebased as { from?: number; to?: number }[]).map((m) => `${m.from}\u2192${m.to}`);
    out.push(`Lines moved since your read (your line → current line): ${moves.join(', ')}`);
  }
  const rows = rowsIn(rest);
  if (rows.length) out.push('Fresh anchors:', ...rows);
  if (typeof diff === 'string' && diff.trim()) out.push('Diff:', diff.trimEnd());
  const extra = Object.keys(rest).filter((k) => !isRowList(rest[k]) && !(Array.isArray(rest[k]) && (rest[k] as unknown[]).length === 0));
  if (extra.length) out.push(`Details: ${JSON.stringify(Object.fromEntries(extra.map((k) => [k, rest[k]])))}`);
  return out.join('\n');
}
