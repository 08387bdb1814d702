-- The hashline plugin's public module: setup{} (options, autostart) and the Lua API for in-editor
-- agent plugins — read, edit, replace, headtail, range, draft, ed, patch, undo, rewind, log,
-- status, snapshot, and the review's pending, accept, reject — each a thin call of the sidecar command of the same name that returns the
-- server's result table unchanged.
-- Every call is synchronous (vim.wait, opts.timeout) unless opts.callback is given, in which case
-- it returns true and later calls callback(result, err). Main loop only.
local config = require('hashline.config')
local attach = require('hashline.attach')
local request = require('hashline.request')

local M = {}

M.did_setup = false

-- Configures the plugin (see :help hashline-options) and, with autostart, attaches the sidecar to
-- every loaded and future file buffer.
function M.setup(opts)
  config.setup(opts)
  M.did_setup = true
  require('hashline.reconcile').enable() -- no W12 prompt or reload over merged disk writes
  require('hashline.codecompanion').enable() -- its ACP agents through `hashline acp`, its chats our tools
  if config.get().autostart then
    attach.enable_autostart()
  else
    attach.disable_autostart()
  end
  return M
end

local function bufnr_of(bufnr)
  if bufnr == nil or bufnr == 0 then
    return vim.api.nvim_get_current_buf()
  end
  return bufnr
end

local function with_defaults(bufnr, params, opts)
  local cfg = config.get()
  params = vim.deepcopy(params or {})
  params.uri = params.uri or vim.uri_from_bufnr(bufnr)
  local session = (opts and opts.session) or cfg.session
  if params.session == nil and session ~= nil then
    params.session = session
  end
  -- caller identity and preview flags the server accepts on every command
  if opts then
    for _, key in ipairs({ 'agent', 'turn', 'dry_run', 'confirm' }) do
      if params[key] == nil and opts[key] ~= nil then
        params[key] = opts[key]
      end
    end
  end
  return params
end

-- Attaches the sidecar to `bufnr` (0 = current). Returns the client id, or nil and the reason.
function M.attach(bufnr)
  return attach.attach(bufnr_of(bufnr))
end

-- The hashline LSP client attached to `bufnr`, or nil.
function M.client(bufnr)
  return attach.client_of(bufnr_of(bufnr))
end

-- hashline.read {uri, from?, to?, tier?, session?} ->
--   {uri, version, tier, lineCount, lines = {{line, anchor, text}, ...}, text}
function M.read(bufnr, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  local params = with_defaults(bufnr, { from = opts.from, to = opts.to, tier = opts.tier or config.get().tier }, opts)
  return request.command(bufnr, 'hashline.read', params, opts)
end

-- hashline.edit {uri, session?, edits = {{op, anchor, end?, content}, ...}} ->
--   {status = 'applied', version, rebased, anchors, diff} or {status = 'refused', error = {...}}
function M.edit(bufnr, edits, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.edit', with_defaults(bufnr, { edits = edits }, opts), opts)
end

-- hashline.replace: old/new edits ({{old, new, replace_all?}, ...}) on the buffer.
function M.replace(bufnr, edits, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.replace', with_defaults(bufnr, { edits = edits }, opts), opts)
end

-- hashline.headtail: {{head, tail, new}, ...} — the span from a unique head to the next tail.
function M.headtail(bufnr, edits, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.headtail', with_defaults(bufnr, { edits = edits }, opts), opts)
end

-- hashline.range: {{start, end, content}, ...} line ranges at opts.version (rebased by the server).
function M.range(bufnr, edits, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.range', with_defaults(bufnr, { edits = edits, version = opts.version }, opts),
    opts)
end

-- hashline.draft: the new text of a region with `... existing code ...` elision lines.
function M.draft(bufnr, draft, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.draft', with_defaults(bufnr, { draft = draft }, opts), opts)
end

-- hashline.ed: an ed script (a, i, c, d, m, t, s) addressed by anchors, or by lines at opts.version.
function M.ed(bufnr, script, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.ed', with_defaults(bufnr, { script = script, version = opts.version }, opts),
    opts)
end

-- hashline.patch: an apply_patch text (*** Begin Patch ...) for the workspace of `bufnr`.
function M.patch(bufnr, patch, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  local params = with_defaults(bufnr, { patch = patch }, opts)
  params.uri = nil -- a patch names its own files
  return request.command(bufnr, 'hashline.patch', params, opts)
end

-- The newest op in `log_result` (oldest first) that is still in effect and is agent work (not
-- one of hashline's own reversals), or nil.
local function last_agent_op(log_result)
  local ops = type(log_result) == 'table' and log_result.ops or {}
  for i = #ops, 1, -1 do
    local op = ops[i]
    if op.inEffect ~= false and op.reverts == nil then
      return op
    end
  end
  return nil
end

-- hashline.undo: undo an agent edit. opts.op = an op id; without it, the newest agent edit still
-- in effect on this buffer (found through hashline.log). When there is none the result is a
-- refusal shaped like the server's: {status = 'refused', error = {code = 'NOT_FOUND', ...}}.
function M.undo(bufnr, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  if opts.op ~= nil then
    return request.command(bufnr, 'hashline.undo', with_defaults(bufnr, { op = opts.op }, opts), opts)
  end
  local function chain(done)
    local log_opts = { timeout = opts.timeout, callback = function(log_result, err)
      if not log_result then
        return done(nil, err)
      end
      if log_result.status == 'refused' then
        return done(log_result, nil)
      end
      local op = last_agent_op(log_result)
      if not op then
        return done({ status = 'refused', error = { code = 'NOT_FOUND',
          message = 'no agent edit in effect on ' .. vim.api.nvim_buf_get_name(bufnr),
          hint = 'see :HashlineLog', data = vim.NIL } }, nil)
      end
      local params = with_defaults(bufnr, { op = op.op }, opts)
      params.uri = nil
      request.command(bufnr, 'hashline.undo', params, { timeout = opts.timeout, callback = done })
    end }
    -- every session's edits on this buffer: the user undoes whichever agent edited last
    request.command(bufnr, 'hashline.log', { uri = vim.uri_from_bufnr(bufnr) }, log_opts)
  end
  return request.await(chain, opts)
end

-- hashline.rewind: undo a whole agent turn (opts.turn).
function M.rewind(bufnr, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.rewind', with_defaults(bufnr, { turn = opts.turn }, opts), opts)
end

-- hashline.log: the journal of agent edits (opts.all = whole workspace instead of this buffer).
function M.log(bufnr, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  local params = with_defaults(bufnr, { limit = opts.limit }, opts)
  if opts.all then
    params.uri = nil
  end
  return request.command(bufnr, 'hashline.log', params, opts)
end

-- hashline.status: what the sidecar knows about this buffer and itself.
function M.status(bufnr, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, 'hashline.status', with_defaults(bufnr, {}, opts), opts)
end

-- hashline.pending: the pending (unreviewed) agent hunks of the current buffer (opts.bufnr), or of
-- the whole workspace with opts.all; opts.session / opts.turn narrow them.
--   -> {status = 'ok', count, files = {{name, uri, path?, hunks = {{id, op, line, lines, ...}}}}}
function M.pending(opts)
  return require('hashline.review').pending(opts)
end

-- hashline.accept: marks a hunk ('op#k') or a whole op ('op') reviewed; id defaults to the hunk
-- under the cursor (or the review list's entry under it).
function M.accept(id, opts)
  return require('hashline.review').accept(id, opts)
end

-- hashline.reject: reverses a hunk ('op#k') or a whole op in the buffer, keeping the user's own
-- edits (CONFLICT when the user changed the hunk's lines); id defaults as for accept.
function M.reject(id, opts)
  return require('hashline.review').reject(id, opts)
end

-- Any other sidecar command: command(bufnr, 'hashline.x', params, opts); uri/session filled in.
function M.command(bufnr, name, params, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.command(bufnr, name, with_defaults(bufnr, params, opts), opts)
end

-- hashline/snapshot -> {version, lineCount, sha256} of the server's mirror of `bufnr`.
function M.snapshot(bufnr, opts)
  opts = opts or {}
  bufnr = bufnr_of(bufnr)
  return request.run(bufnr, 'hashline/snapshot', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, opts)
end

return M
