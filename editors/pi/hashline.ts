// hashline's pi extension: pi has no MCP, so `hashline setup pi` lists this file in pi's
// settings.json `extensions`, and it registers the tools hashline_read and hashline_edit, each
// running the `hashline` CLI ($HASHLINE_BIN, else `hashline` on PATH) in pi's working directory.
// With an editor running `hashline lsp` on the project the edits land in its open buffers.
// No fallback of its own: when the editor's sidecar is gone the CLI refuses edits with
// SIDECAR_GONE (the tool fails with that text) and answers reads from the disk with a warning on
// stderr, which is put first in the tool's text so the model sees it before the rows.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import { execFile } from "node:child_process";

const session = process.env.HASHLINE_SESSION || `pi-${process.pid}`;

function hashline(args: string[], cwd: string, signal?: AbortSignal) {
  const bin = process.env.HASHLINE_BIN || "hashline";
  return new Promise<{ text: string; failed: boolean }>((resolve) => {
    execFile(bin, [...args, "--session", session, "--agent", "pi"],
      { cwd, signal, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const text = stderr + (stdout ? (stderr ? "\n" : "") + stdout : "");
        resolve({ text: text || String(error ?? ""), failed: Boolean(error) });
      });
  });
}

function result(outcome: { text: string; failed: boolean }) {
  if (outcome.failed) throw new Error(outcome.text.trim() || "hashline failed");
  return { content: [{ type: "text" as const, text: outcome.text }], details: {} };
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "hashline_read",
    label: "hashline read",
    description:
      "Read a file as anchored rows LINE:LLL:BBB→text (the editor's unsaved buffer when one is " +
      "open). Copy anchors from these rows into hashline_edit.",
    parameters: Type.Object({
      path: Type.String({ description: "file path" }),
      from: Type.Optional(Type.Integer({ description: "first line (1-based)" })),
      to: Type.Optional(Type.Integer({ description: "last line" })),
    }),
    async execute(_id, params, signal, _onUpdate, ctx) {
      const args = ["read", params.path];
      if (params.from !== undefined) args.push("--from", String(params.from));
      if (params.to !== undefined) args.push("--to", String(params.to));
      return result(await hashline(args, ctx.cwd, signal));
    },
  });
  pi.registerTool({
    name: "hashline_edit",
    label: "hashline edit",
    description:
      "Apply anchored edits to a file read with hashline_read, verified against that read. edits " +
      'is an array of {"op":"replace","anchor":"12:c3d:rst","end":"14:abc:rst","content":"..."}, ' +
      '{"op":"insert_after"|"insert_before","anchor":...,"content":...}, ' +
      '{"op":"delete","anchor":...,"end":...} or {"op":"write","content":...}.',
    parameters: Type.Object({
      path: Type.String({ description: "file path" }),
      edits: Type.Array(Type.Object({}, { additionalProperties: true }), {
        description: "the edits, applied as one batch",
      }),
    }),
    async execute(_id, params, signal, _onUpdate, ctx) {
      const edits = JSON.stringify(params.edits);
      return result(await hashline(["edit", params.path, "--edits", edits], ctx.cwd, signal));
    },
  });
}
