// Owns the `hashline lsp` process: starts it through vscode-languageclient for every file and
// untitled buffer, restarts it when its settings change or it crashed (crashRestart.ts: the
// client re-opens every document in the new process; onDidStart fires again), and gives the rest of the extension one
// way to call it (executeCommand, hashline/snapshot, notifications) and to answer the server's
// own requests and notifications (handleRequest, handleNotification: installed on every client
// it starts). Runs on the extension host's event loop.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { CrashRestart } from './crashRestart';
import { ReconciledNotification, ReconciledParams, SnapshotRequest, SnapshotResult } from './protocol';
import { initializationOptions, readSettings, serverArguments } from './settings';

// Every document VS Code can hand us text for: files on disk and unsaved new buffers.
export const documentSelector = [
  { scheme: 'file' },
  { scheme: 'untitled' },
];

// The documents the sidecar works on and hears about from us (diagnostics, context): untitled
// buffers and files inside a workspace folder (it refuses paths outside its roots).
export function sharedWithServer(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme === 'untitled') return true;
  return doc.uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(doc.uri) !== undefined;
}

export class HashlineServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient> | undefined;
  private readonly stateChanged = new vscode.EventEmitter<void>();
  // Fires when the server starts, stops or fails (for the language status item).
  readonly onDidChangeState = this.stateChanged.event;
  private readonly reconciled = new vscode.EventEmitter<ReconciledParams>();
  // Fires on every `hashline/reconciled` notification (a foreign disk write met an open buffer).
  readonly onDidReconcile = this.reconciled.event;
  private readonly started = new vscode.EventEmitter<void>();
  // Fires each time a client finished `initialize` (first start and every restart).
  readonly onDidStart = this.started.event;
  // Server → client requests we answer, installed on each new client before it starts.
  private readonly requestHandlers = new Map<string, (params: unknown) => Promise<unknown>>();
  // Server notifications we listen to, installed the same way.
  private readonly notificationHandlers = new Map<string, (params: unknown) => void>();
  // Restarts after a crash, and when it gave up (shared by every client: the count survives them).
  readonly crashRestart: CrashRestart;

  constructor(
    private readonly log: vscode.OutputChannel,
    private readonly trace: vscode.OutputChannel,
    readonly session: string,
  ) {
    this.crashRestart = new CrashRestart((line) => this.log.appendLine(line));
  }

  // Starts the server if it is not running; resolves once `initialize` has completed.
  start(): Promise<LanguageClient> {
    if (this.client && this.client.state === State.Running) return Promise.resolve(this.client);
    // The client is restarting the server after a crash: wait for it instead of starting another.
    if (this.client && this.client.state === State.Starting && !this.starting) return this.whenRunning(this.client);
    if (!this.starting) {
      this.starting = (async () => {
        // A client that gave up (crashed too often) or failed is replaced, never reused.
        if (this.client) await this.stop();
        return this.launch();
      })().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  async restart(): Promise<LanguageClient> {
    // The old sidecar keeps its discovery record through the gap (as after a crash), so an agent
    // call before the new one is up is SIDECAR_GONE, never a disk write behind the open buffers;
    // the new sidecar replaces the record. Awaited: it must reach the server before `shutdown`.
    const client = this.client;
    if (client && client.state === State.Running) {
      await client.sendNotification('hashline/restarting', {}).catch((e) => {
        this.log.appendLine(`[hashline] sending hashline/restarting failed: ${errorText(e)}`);
      });
    }
    await this.stop();
    this.crashRestart.reset();
    return this.start();
  }

  // Resolves when `client` runs again; rejects when it stops instead (it gave up).
  private whenRunning(client: LanguageClient): Promise<LanguageClient> {
    return new Promise((resolve, reject) => {
      const listener = client.onDidChangeState((e) => {
        if (e.newState === State.Running) {
          listener.dispose();
          resolve(client);
        } else if (e.newState === State.Stopped) {
          listener.dispose();
          reject(new Error(`the hashline server stopped while restarting${this.crashRestart.gaveUp ? ` (${this.crashRestart.gaveUp})` : ''}`));
        }
      });
    });
  }

  // Between a crash and the client's restart being up (for the status item).
  get restarting(): boolean {
    return this.client?.state === State.Starting && this.crashRestart.restarts > 0 && !this.starting;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.stateChanged.fire();
    if (client) {
      try {
        await client.stop(5000);
      } catch (e) {
        this.log.appendLine(`[hashline] stopping the server failed: ${String(e)}`);
      }
      // The output channels are ours (passed in), so the client leaves them open.
    }
  }

  get serverInfo(): { name: string; version?: string } | undefined {
    return this.client?.initializeResult?.serverInfo;
  }

  // The commands the server advertised (executeCommandProvider.commands).
  get serverCommands(): string[] {
    return this.client?.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  }

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  // workspace/executeCommand with one argument object, as every hashline command takes.
  async executeCommand<T>(command: string, argument: object): Promise<T> {
    const client = await this.start();
    return (await client.sendRequest(ExecuteCommandRequest.type, {
      command,
      arguments: [argument],
    })) as T;
  }

  // A notification to the running server; dropped (false) when it is not running: the callers
  // send their state again on onDidStart.
  notify(method: string, params: object): boolean {
    const client = this.client;
    if (!client || client.state !== State.Running) return false;
    client.sendNotification(method, params).catch((e) => {
      this.log.appendLine(`[hashline] sending ${method} failed: ${errorText(e)}`);
    });
    return true;
  }

  // Answers the server's request `method` on this and every later client.
  handleRequest(method: string, handler: (params: unknown) => Promise<unknown>): vscode.Disposable {
    return this.install(this.requestHandlers, method, handler, (client) => client.onRequest(method, handler));
  }

  // Listens to the server's notification `method` on this and every later client.
  handleNotification(method: string, handler: (params: unknown) => void): vscode.Disposable {
    return this.install(this.notificationHandlers, method, handler, (client) => client.onNotification(method, handler));
  }

  // Keeps `handler` for the clients launch() starts and installs it on the running one.
  private install<H>(
    handlers: Map<string, H>,
    method: string,
    handler: H,
    onClient: (client: LanguageClient) => vscode.Disposable,
  ): vscode.Disposable {
    handlers.set(method, handler);
    const current = this.client ? onClient(this.client) : undefined;
    return {
      dispose: () => {
        handlers.delete(method);
        current?.dispose();
      },
    };
  }

  async snapshot(uri: vscode.Uri): Promise<SnapshotResult> {
    const client = await this.start();
    return client.sendRequest<SnapshotResult>(SnapshotRequest, {
      textDocument: { uri: client.code2ProtocolConverter.asUri(uri) },
    });
  }

  // The URI string the server knows a document by (the client's own conversion).
  protocolUri(uri: vscode.Uri): string {
    return this.client ? this.client.code2ProtocolConverter.asUri(uri) : uri.toString();
  }

  // The VS Code URI of a URI string the server sent (the client's own conversion).
  codeUri(uri: string): vscode.Uri {
    return this.client ? this.client.protocol2CodeConverter.asUri(uri) : vscode.Uri.parse(uri);
  }

  private async launch(): Promise<LanguageClient> {
    const settings = readSettings();
    const args = serverArguments(settings);
    const serverOptions: ServerOptions = {
      command: settings.binaryPath,
      args,
      transport: TransportKind.stdio,
      options: { env: { ...process.env } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector,
      outputChannel: this.log,
      traceOutputChannel: this.trace,
      initializationOptions: initializationOptions(settings, this.session),
      // The server's own log goes to stderr → the output channel; do not pop it up on every line.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      errorHandler: this.crashRestart,
    };
    this.log.appendLine(
      `[hashline] starting ${settings.binaryPath} ${args.join(' ')} (tier ${settings.tier}, ` +
        `log ${settings.logLevel}, agent socket ${settings.agentSocket ? 'on' : 'off'})`,
    );
    const client = new LanguageClient('hashline', 'hashline', serverOptions, clientOptions);
    this.client = client;
    let launched = false;
    client.onDidChangeState((e) => {
      this.stateChanged.fire();
      // Running again after a crash: the client re-opened the documents; the others send their state.
      if (launched && e.newState === State.Running && this.client === client) {
        this.log.appendLine(`[hashline] server restarted after a crash (${this.crashRestart.restarts} so far)`);
        this.started.fire();
      }
    });
    client.onNotification(ReconciledNotification, (p: ReconciledParams) => this.reconciled.fire(p));
    for (const [method, handler] of this.requestHandlers) client.onRequest(method, handler);
    for (const [method, handler] of this.notificationHandlers) client.onNotification(method, handler);
    try {
      await client.start();
    } catch (e) {
      this.client = undefined;
      this.stateChanged.fire();
      throw new Error(`could not start "${settings.binaryPath} ${args.join(' ')}": ${errorText(e)}`);
    }
    launched = true;
    const info = client.initializeResult?.serverInfo;
    this.log.appendLine(
      `[hashline] server ready${info ? `: ${info.name} ${info.version ?? ''}` : ''}` +
        ` (position encoding ${client.initializeResult?.capabilities.positionEncoding ?? 'utf-16'})`,
    );
    this.started.fire();
    return client;
  }

  dispose(): void {
    void this.stop();
    this.stateChanged.dispose();
    this.reconciled.dispose();
    this.started.dispose();
  }
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}
