// VS Code's values in the LSP shapes the sidecar reads: diagnostics for `hashline/diagnostics`,
// selections and visible ranges for `hashline/context`, document symbols for the
// `hashline/documentSymbol` answer. Positions stay 0-based lines and UTF-16 characters (the
// client's position encoding); VS Code's 0-based enums become LSP's 1-based numbers.
// Pure functions over structural types (no vscode import), so the unit tests can call them.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

// vscode.Diagnostic as far as it is read here.
export interface CodeDiagnostic {
  range: Range;
  severity?: number; // vscode.DiagnosticSeverity: Error 0, Warning 1, Information 2, Hint 3
  source?: string;
  code?: string | number | { value: string | number; target?: unknown };
  message: string;
}

export interface LspDiagnostic {
  range: Range;
  severity?: 1 | 2 | 3 | 4;
  source?: string;
  code?: string | number;
  message: string;
}

// At most this many diagnostics per document (errors first), messages cut at maxMessageChars:
// the sidecar keeps fewer still; this only bounds the notification's size.
export const maxDiagnostics = 1000;
export const maxMessageChars = 1024;

export function lspRange(r: Range): Range {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

// vscode.DiagnosticSeverity (0-based) → LSP DiagnosticSeverity (1 error … 4 hint).
export function lspSeverity(severity: number | undefined): 1 | 2 | 3 | 4 | undefined {
  if (severity === undefined || !Number.isInteger(severity) || severity < 0 || severity > 3) return undefined;
  return (severity + 1) as 1 | 2 | 3 | 4;
}

// A diagnostic's code: a string or number as is, VS Code's {value, target} as its value.
export function lspCode(code: CodeDiagnostic['code']): string | number | undefined {
  if (typeof code === 'string' || typeof code === 'number') return code;
  if (typeof code === 'object' && code !== null && (typeof code.value === 'string' || typeof code.value === 'number')) {
    return code.value;
  }
  return undefined;
}

export function lspDiagnostic(d: CodeDiagnostic): LspDiagnostic {
  const out: LspDiagnostic = { range: lspRange(d.range), message: d.message.slice(0, maxMessageChars) };
  const severity = lspSeverity(d.severity);
  if (severity !== undefined) out.severity = severity;
  if (d.source) out.source = d.source;
  const code = lspCode(d.code);
  if (code !== undefined) out.code = code;
  return out;
}

const before = (a: Position, b: Position) => a.line - b.line || a.character - b.character;

// A document's diagnostics, most severe first then by position, bounded (maxDiagnostics).
export function lspDiagnostics(items: readonly CodeDiagnostic[]): LspDiagnostic[] {
  return items
    .filter((d) => typeof d.message === 'string' && d.message.length > 0)
    .map(lspDiagnostic)
    .sort((a, b) => (a.severity ?? 1) - (b.severity ?? 1) || before(a.range.start, b.range.start))
    .slice(0, maxDiagnostics);
}

// --- hashline/context ------------------------------------------------------------------------

export interface ContextDocument {
  uri: string;
  version: number;
}

export interface ContextParams {
  active: (ContextDocument & { selections: Range[] }) | null;
  visible: (ContextDocument & { ranges: Range[] })[];
  /** false: the user turned sharing off; the sidecar forgets what it was told. */
  shared?: boolean;
}

// As lsp/context/editor_context.h bounds them (the rest would be dropped there).
export const maxVisible = 32;
export const maxRanges = 16;

// The params of `hashline/context`: the active editor's selections (the primary one first, as
// VS Code's editor.selections has it; an empty range is the cursor) and each visible editor's
// visible ranges. Selections are sent start ≤ end, whichever way the user dragged.
export function contextParams(
  active: (ContextDocument & { selections: readonly Range[] }) | undefined,
  visible: readonly (ContextDocument & { ranges: readonly Range[] })[],
): ContextParams {
  return {
    active: active
      ? { uri: active.uri, version: active.version, selections: active.selections.slice(0, maxRanges).map(ordered) }
      : null,
    visible: visible
      .slice(0, maxVisible)
      .map((v) => ({ uri: v.uri, version: v.version, ranges: v.ranges.slice(0, maxRanges).map(ordered) })),
  };
}

function ordered(r: Range): Range {
  return before(r.end, r.start) < 0 ? lspRange({ start: r.end, end: r.start }) : lspRange(r);
}

// --- hashline/documentSymbol -----------------------------------------------------------------

// What vscode.executeDocumentSymbolProvider resolves to: DocumentSymbols (VS Code hands them out
// merged with SymbolInformation: both sets of fields) or, from an older provider, SymbolInformation.
export interface CodeSymbol {
  name: string;
  detail?: string;
  kind: number; // vscode.SymbolKind: File 0 … TypeParameter 25
  tags?: readonly number[];
  range?: Range;
  selectionRange?: Range;
  children?: readonly CodeSymbol[];
  location?: { range: Range };
}

export interface LspDocumentSymbol {
  name: string;
  detail?: string;
  kind: number; // LSP SymbolKind: File 1 … TypeParameter 26
  tags?: number[];
  range: Range;
  selectionRange: Range;
  children: LspDocumentSymbol[];
}

// Deeper than this the children are left out (a provider's tree is never that deep in practice).
export const maxSymbolDepth = 32;

// vscode.SymbolKind (0-based) → LSP SymbolKind (1-based); an unknown kind reads as Variable (13).
export function lspSymbolKind(kind: number): number {
  return Number.isInteger(kind) && kind >= 0 && kind <= 25 ? kind + 1 : 13;
}

export function lspDocumentSymbol(s: CodeSymbol, depth = 0): LspDocumentSymbol | undefined {
  const range = s.range ?? s.location?.range;
  if (!range || typeof s.name !== 'string') return undefined;
  const out: LspDocumentSymbol = {
    name: s.name,
    kind: lspSymbolKind(s.kind),
    range: lspRange(range),
    selectionRange: lspRange(s.selectionRange ?? range),
    children: [],
  };
  if (s.detail) out.detail = s.detail;
  if (s.tags && s.tags.length) out.tags = [...s.tags];
  if (depth < maxSymbolDepth) {
    for (const child of s.children ?? []) {
      const c = lspDocumentSymbol(child, depth + 1);
      if (c) out.children.push(c);
    }
  }
  return out;
}

export function lspDocumentSymbols(symbols: readonly CodeSymbol[]): LspDocumentSymbol[] {
  return symbols.map((s) => lspDocumentSymbol(s)).filter((s): s is LspDocumentSymbol => s !== undefined);
}
