// The shapes of hashline's LSP extensions as this extension uses them: the executeCommand
// commands (hashline.read / hashline.edit / hashline.status / …) and the hashline/snapshot request.
// Pure types and guards; no vscode import, so tests and every other module can share them.

export const Commands = {
  read: 'hashline.read',
  edit: 'hashline.edit',
  replace: 'hashline.replace',
  patch: 'hashline.patch',
  undo: 'hashline.undo',
  rewind: 'hashline.rewind',
  log: 'hashline.log',
  pending: 'hashline.pending',
  accept: 'hashline.accept',
  reject: 'hashline.reject',
  status: 'hashline.status',
  conflicts: 'hashline.conflicts',
  resolve: 'hashline.resolve',
} as const;

export const SnapshotRequest = 'hashline/snapshot';

export interface ReadParams {
  uri: string;
  from?: number;
  to?: number;
  tier?: string;
  session?: string;
}

export interface ReadLine {
  line: number;
  anchor: string;
  text: string;
}

export interface ReadResult {
  uri: string;
  version: number;
  tier: string;
  lineCount: number;
  lines: ReadLine[];
  text?: string;
}

export type EditOp = 'replace' | 'insert_after' | 'insert_before' | 'delete' | 'write';

export interface AnchoredEdit {
  op: EditOp | string;
  anchor?: string;
  end?: string;
  content?: string;
}

export interface EditParams {
  uri: string;
  session?: string;
  edits: AnchoredEdit[];
}

export interface Refusal {
  code: string;
  message: string;
  hint?: string;
  data?: unknown;
}

// An edit (or undo/rewind) result: applied, or refused with one error of the vocabulary.
export interface EditOutcome {
  status: 'applied' | 'refused' | string;
  version?: number;
  error?: Refusal;
  [key: string]: unknown;
}

export interface SnapshotResult {
  version: number;
  lineCount: number;
  sha256: string;
}

export function isRefused(x: unknown): x is EditOutcome & { error: Refusal } {
  return (
    typeof x === 'object' &&
    x !== null &&
    (x as EditOutcome).status === 'refused' &&
    typeof (x as EditOutcome).error === 'object'
  );
}

export function isReadResult(x: unknown): x is ReadResult {
  return typeof x === 'object' && x !== null && Array.isArray((x as ReadResult).lines);
}

// Server → client notification after a foreign disk write was reconciled (docs/reconcile.md).
export const ReconciledNotification = 'hashline/reconciled';

export interface ReconcileConflict {
  id: string;
  line: number;
  endLine: number;
  ours: string;
  theirs: string;
  uri?: string;
  path?: string;
}

export interface ReconciledParams {
  uri: string;
  path: string;
  kind: 'merged' | 'conflict' | 'deleted';
  version?: number;
  op?: number;
  agent?: string;
  hunks?: number;
  conflicts?: ReconcileConflict[];
  bufferMatchesDisk?: boolean;
}
