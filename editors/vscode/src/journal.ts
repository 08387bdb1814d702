// The journal as `hashline.log` returns it ({status, ops: [...]}, oldest first) and the choice of
// the op "Undo Last Agent Edit" reverts. Pure; used by commands.ts, tested by test/journal.test.ts.

export interface JournalOpSummary {
  op: string | number;
  method?: string;
  inEffect?: boolean;
  reverts?: unknown[];
}

export interface JournalLog {
  ops?: JournalOpSummary[];
}

const revertMethods = new Set(['undo', 'reject', 'rewind']);

// The newest op (the log lists oldest first) that an "undo last agent edit" should revert.
export function lastUndoableOp(log: JournalLog | undefined): JournalOpSummary | undefined {
  const ops = Array.isArray(log?.ops) ? log!.ops : [];
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i];
    if (op.inEffect === false) continue;
    if (op.method && revertMethods.has(op.method)) continue;
    if (Array.isArray(op.reverts) && op.reverts.length > 0) continue;
    return op;
  }
  return undefined;
}

