-- Starting `hashline lsp` and attaching it to buffers: which buffers qualify, which workspace root
-- a file belongs to (one client per root), the client configuration (capabilities, encodings,
-- initializationOptions, the strict workspace/applyEdit handler). Called by init.lua's setup()
-- autocommands and by the API when a buffer is not attached yet. Main loop only.
local config = require('hashline.config')
local compat = require('hashline.compat')
local paths = require('hashline.paths')

local M = {}

M.client_name = 'hashline'

-- root directory -> client id of the running client for it
local client_by_root = {}
local warned_binary = false

local function notify(msg, level)
  vim.notify('hashline: ' .. msg, level or vim.log.levels.INFO)
end

local function is_dir(path)
  local stat = compat.uv.fs_stat(path)
  return stat ~= nil and stat.type == 'directory'
end

local function exists(path)
  return compat.uv.fs_stat(path) ~= nil
end

local function parent(dir)
  local up = vim.fn.fnamemodify(dir, ':h')
  if up == dir then
    return nil
  end
  return up
end

-- The workspace root of `path`: the user's root_dir function, else the nearest ancestor holding a
-- root marker, else the current directory if it holds the file, else the file's own directory.
function M.root_for(path)
  local cfg = config.get()
  if cfg.root_dir then
    local root = cfg.root_dir(path)
    if type(root) == 'string' and root ~= '' then
      return paths.strip_trailing(vim.fn.fnamemodify(root, ':p'))
    end
  end
  local start = vim.fn.fnamemodify(path, ':p:h')
  local dir = start
  while dir do
    for _, marker in ipairs(cfg.root_markers or {}) do
      if exists(paths.join(dir, marker)) then
        return dir
      end
    end
    dir = parent(dir)
  end
  local cwd = compat.uv.cwd()
  if cwd and paths.is_within(start, cwd) then
    return cwd
  end
  return start
end

-- Whether `bufnr` should get the sidecar: a loaded, normal, named, non-binary file buffer that the
-- filetype and size filters accept. Returns true or false plus the reason.
function M.eligible(bufnr)
  local cfg = config.get()
  if not vim.api.nvim_buf_is_valid(bufnr) or not vim.api.nvim_buf_is_loaded(bufnr) then
    return false, 'buffer is not loaded'
  end
  local bo = vim.bo[bufnr]
  if bo.buftype ~= '' then
    return false, "buftype is '" .. bo.buftype .. "' (only normal file buffers are mirrored)"
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return false, 'buffer has no file name (no URI to mirror it under)'
  end
  if name:match('^%a[%w+.-]*://') and not name:match('^file://') then
    return false, 'buffer is not a file (' .. name:match('^%a[%w+.-]*') .. '://)'
  end
  if is_dir(name) then
    return false, 'buffer is a directory'
  end
  if bo.binary then
    return false, "buffer has 'binary' set"
  end
  local ft = bo.filetype
  if cfg.filetypes and not vim.tbl_contains(cfg.filetypes, ft) then
    return false, "filetype '" .. ft .. "' is not in filetypes"
  end
  if vim.tbl_contains(cfg.exclude_filetypes or {}, ft) then
    return false, "filetype '" .. ft .. "' is excluded"
  end
  if cfg.max_filesize then
    local size = vim.fn.getfsize(name)
    if size > cfg.max_filesize then
      return false, 'file is larger than max_filesize'
    end
  end
  return true
end

local function buffer_for_uri(uri)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.uri_from_bufnr(bufnr) == uri then
      return bufnr
    end
  end
  return nil
end

local function is_null(value)
  return value == nil or value == vim.NIL
end

-- Closes the buffer's current undo block (setting 'undolevels', even to its own value, does that),
-- so an agent edit is one undo step of its own instead of joining the user's last change.
local function break_undo(bufnr)
  vim.api.nvim_buf_call(bufnr, function()
    if vim.bo.undolevels ~= -123456 then -- a buffer-local value is in use
      vim.cmd('let &l:undolevels = &l:undolevels')
    else
      vim.cmd('let &g:undolevels = &g:undolevels')
    end
  end)
end

-- Checks one TextDocumentEdit before anything is applied: returns the reason to refuse it, or
-- nil and the buffer it targets.
local function refuse_reason(index, doc, strict)
  local bufnr = buffer_for_uri(doc.uri)
  if not bufnr then
    return 'document ' .. tostring(doc.uri) .. ' is not open in Neovim'
  end
  if strict and not is_null(doc.version) then
    local have = compat.buf_version(bufnr)
    if have ~= doc.version then
      return string.format('version mismatch in documentChanges[%d]: edit is for version %s, buffer is at %s',
        index, tostring(doc.version), tostring(have))
    end
  end
  if not vim.bo[bufnr].modifiable then
    return 'buffer ' .. doc.uri .. " is not 'modifiable'"
  end
  local untracked = require('hashline.supervisor').untracked(bufnr)
  if untracked then -- the sidecar's mirror of it is stale: its positions would hit the wrong text
    return 'buffer ' .. doc.uri .. ' is not tracked: ' .. untracked
  end
  return nil, bufnr
end

-- The annotations of `edit` that need the user's confirmation (every id used must resolve).
local function needs_confirmation(edit)
  local annotations = type(edit) == 'table' and edit.changeAnnotations
  if type(annotations) ~= 'table' then
    return false
  end
  for _, annotation in pairs(annotations) do
    if type(annotation) == 'table' and annotation.needsConfirmation == true then
      return true
    end
  end
  return false
end

-- Asks the user about an edit that needs confirmation. Returns false when the user declined,
-- else the params to hand Neovim's handler. The prompt is confirm_prompt (a function, or true for
-- a confirm() dialog). When it is nil, Neovim before 0.12 applies annotated edits without asking,
-- and so does the plugin; 0.12+ would ask with its own dialog, but a "No" there skips the edit
-- and still answers applied=true, so the plugin asks with the same dialog itself and answers
-- applied=false on a "No". Once the user accepted, Neovim gets a copy with needsConfirmation
-- cleared, so 0.12 does not ask a second time.
local function confirmed(params)
  local prompt = config.get().confirm_prompt
  if not needs_confirmation(params.edit) then
    return params
  end
  if prompt == nil and not compat.has('0.12') then
    return params
  end
  if type(prompt) == 'function' then
    if prompt(params) == false then
      return false
    end
  else
    local lines = {}
    for _, annotation in pairs(params.edit.changeAnnotations) do
      table.insert(lines, tostring(annotation.description or annotation.label))
    end
    local text = 'hashline: apply ' .. tostring(params.label or 'the agent edit') .. '?\n' .. table.concat(lines, '\n')
    if vim.fn.confirm(text, '&Apply\n&Decline', 1) ~= 1 then
      return false
    end
  end
  params = vim.deepcopy(params)
  for _, annotation in pairs(params.edit.changeAnnotations) do
    if type(annotation) == 'table' then
      annotation.needsConfirmation = false
    end
  end
  return params
end

-- Neovim 0.10's vim.lsp.util.apply_text_edits appends an extra empty line when an edit inserts at
-- the very end of the buffer (a range starting at the line count: the past-the-end position a
-- file with a final newline has; 0.7 and 0.12 apply it right). Such an insert is rewritten, before
-- Neovim's handler sees it, into the same change expressed from the start of the last line —
-- replace (last, 0)-(count, 0) with the last line, a newline and the inserted text — which 0.10
-- applies right. Only when no other edit of that document touches the last line.
local eof_insert_bug = compat.has('0.10') and not compat.has('0.12')

local function fix_eof_inserts(edits, bufnr)
  local count = vim.api.nvim_buf_line_count(bufnr)
  local at_end, others_touch_last = {}, false
  for _, text_edit in ipairs(edits) do
    local range = text_edit.range
    if range.start.line >= count and range['end'].line >= count then
      table.insert(at_end, text_edit)
    elseif range['end'].line >= count - 1 then
      others_touch_last = true
    end
  end
  if #at_end ~= 1 or others_touch_last then
    return
  end
  local text_edit = at_end[1]
  local last = vim.api.nvim_buf_get_lines(bufnr, count - 1, count, true)[1]
  text_edit.range = { start = { line = count - 1, character = 0 }, ['end'] = { line = count, character = 0 } }
  text_edit.newText = last .. '\n' .. text_edit.newText
end

-- workspace/applyEdit for the hashline client. With strict_versions, every TextDocumentEdit's
-- version must equal the buffer's before anything is applied: Neovim's own handler only refuses a
-- version older than the buffer's, only checks the first document, and answers applied=true for
-- an edit it skipped, while the server needs an honest applied=false to re-verify and retry.
-- Each touched buffer gets an undo break before and after, so `u` undoes exactly the agent's edit.
-- The edit itself is applied by Neovim's handler, unchanged.
function M.apply_edit_handler(err, params, ctx, handler_config)
  local edit = params and params.edit
  local changes = edit and edit.documentChanges
  local touched = {}
  if type(changes) == 'table' then
    local strict = config.get().strict_versions
    for index, change in ipairs(changes) do
      local doc = change.textDocument
      if is_null(change.kind) and type(doc) == 'table' then
        local reason, bufnr = refuse_reason(index, doc, strict)
        if reason then
          return { applied = false, failureReason = reason }
        end
        table.insert(touched, bufnr)
        if eof_insert_bug and type(change.edits) == 'table' then
          fix_eof_inserts(change.edits, bufnr)
        end
      end
    end
  end
  params = confirmed(params)
  if not params then
    return { applied = false, failureReason = 'the user declined the edit' }
  end
  for _, bufnr in ipairs(touched) do
    break_undo(bufnr)
  end
  local reply = vim.lsp.handlers['workspace/applyEdit'](err, params, ctx, handler_config)
  for _, bufnr in ipairs(touched) do
    if vim.api.nvim_buf_is_valid(bufnr) then
      break_undo(bufnr)
      require('hashline.review').schedule_refresh(bufnr, 20) -- the edit's hunks are pending now
    end
  end
  return reply
end

local valid_encodings = { ['utf-8'] = true, ['utf-16'] = true, ['utf-32'] = true }

local function capabilities()
  local cfg = config.get()
  local caps = vim.lsp.protocol.make_client_capabilities()
  -- Neovim < 0.10 offers no positionEncodings; offer ours on every version, and on_init below
  -- adopts whatever the server picked (0.7-0.9 would otherwise ignore the server's answer).
  caps.general = caps.general or {}
  caps.general.positionEncodings = cfg.position_encoding == 'utf-8' and { 'utf-8', 'utf-16' } or { 'utf-16' }
  -- Neovim applies versioned documentChanges but older releases do not say so.
  caps.workspace = caps.workspace or {}
  caps.workspace.workspaceEdit = caps.workspace.workspaceEdit or {}
  caps.workspace.workspaceEdit.documentChanges = true
  -- Annotated edits apply like plain ones here (0.12+ prompts; older ones see confirm_prompt), so
  -- the server may send edits that need confirmation with their annotations.
  caps.workspace.workspaceEdit.changeAnnotationSupport = caps.workspace.workspaceEdit.changeAnnotationSupport
    or { groupsOnLabel = false }
  return caps
end

-- The encoding the server chose in its initialize result (3.17 positionEncoding, or clangd's
-- offsetEncoding); utf-16 when it says nothing, as the spec requires.
function M.negotiated_encoding(result)
  local caps = result and result.capabilities or {}
  local encoding = caps.positionEncoding
  if is_null(encoding) then
    encoding = result and result.offsetEncoding
  end
  if type(encoding) ~= 'string' or not valid_encodings[encoding] then
    encoding = 'utf-16'
  end
  return encoding
end

local function client_config(root, cmd)
  local cfg = config.get()
  local init_options = vim.tbl_extend('force', { agentSocket = cfg.agent_socket }, cfg.init_options or {})
  if cfg.tier then
    init_options.tier = init_options.tier or cfg.tier
  end
  if cfg.confirm_edits and init_options.confirmEdits == nil then
    init_options.confirmEdits = true
  end
  if init_options.reconcile == nil then
    init_options.reconcile = cfg.reconcile
  end
  if init_options.claudeIde == nil and cfg.claude_ide then
    init_options.claudeIde = true
  end
  local handlers = {
    ['workspace/applyEdit'] = function(...)
      return M.apply_edit_handler(...) -- looked up per call, so it can be wrapped
    end,
    ['hashline/reconciled'] = function(...)
      return require('hashline.reconcile').on_reconciled(...)
    end,
    ['hashline/documentSymbol'] = function(...)
      return require('hashline.symbols').on_document_symbol(...)
    end,
    ['window/showDocument'] = function(...)
      return require('hashline.editor_requests').show_document(...)
    end,
    ['hashline/saveDocument'] = function(...)
      return require('hashline.editor_requests').save_document(...)
    end,
    ['hashline/claudeIde'] = function(...)
      return require('hashline.claude_ide').on_state(...)
    end,
  }
  return {
    name = M.client_name,
    cmd = cmd or cfg.cmd,
    cmd_env = cfg.cmd_env,
    cmd_cwd = root,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    capabilities = capabilities(),
    init_options = init_options,
    handlers = handlers,
    flags = { debounce_text_changes = cfg.debounce, allow_incremental_sync = true },
    on_init = function(client, result)
      -- Before any didOpen is sent: make Neovim count columns the way the server does.
      client.offset_encoding = M.negotiated_encoding(result)
    end,
    on_attach = function(client, bufnr)
      require('hashline.supervisor').watch(bufnr) -- notes a change made with no client attached
      require('hashline.review').watch(bufnr)
      require('hashline.diagnostics').watch(bufnr) -- vim.diagnostic → hashline/diagnostics
      require('hashline.context').watch(bufnr) -- selection, visible windows → hashline/context
      if cfg.on_attach then
        cfg.on_attach(client, bufnr)
      end
    end,
    on_exit = function(code, signal, client_id)
      for root_dir, id in pairs(client_by_root) do
        if id == client_id then
          client_by_root[root_dir] = nil
        end
      end
      require('hashline.supervisor').on_exit(code, signal, client_id) -- a crash: start it again
    end,
  }
end

local function alive(client_id)
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  return client ~= nil and not compat.is_stopped(client)
end

-- The hashline client attached to `bufnr`, or nil.
function M.client_of(bufnr)
  local clients = compat.get_clients({ bufnr = bufnr, name = M.client_name })
  return clients[1]
end

-- Attaches the sidecar of the buffer's root to `bufnr`, starting it if needed (with opts.cmd
-- instead of the configured command: the supervisor restarts a sidecar with the command it ran).
-- Returns the client id, or nil and the reason.
function M.attach(bufnr, opts)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local attached = M.client_of(bufnr)
  if attached then
    return attached.id
  end
  local ok, reason = M.eligible(bufnr)
  if not ok then
    return nil, reason
  end
  local untracked = require('hashline.supervisor').untracked(bufnr)
  if untracked then
    return nil, 'not attached: ' .. untracked
  end
  local cfg = config.get()
  local root = M.root_for(vim.api.nvim_buf_get_name(bufnr))
  local client_id = client_by_root[root]
  if not alive(client_id) then -- one started for this root by vim.lsp.enable('hashline')?
    for _, client in ipairs(compat.get_clients({ name = M.client_name })) do
      if client.config and client.config.root_dir == root and not compat.is_stopped(client) then
        client_id = client.id
      end
    end
  end
  if alive(client_id) then
    vim.lsp.buf_attach_client(bufnr, client_id)
    return client_id
  end
  local refusal = require('hashline.supervisor').refusal(root)
  if refusal then
    return nil, refusal
  end
  local cmd = opts and opts.cmd or cfg.cmd
  if vim.fn.executable(cmd[1]) ~= 1 then
    return nil, "cannot run '" .. tostring(cmd[1]) .. "' (set cmd in require('hashline').setup{})"
  end
  local conf = client_config(root, cmd)
  if vim.lsp.start then -- 0.8+
    client_id = vim.lsp.start(conf, {
      bufnr = bufnr,
      reuse_client = function(client, c)
        return client.name == c.name and client.config.root_dir == c.root_dir
      end,
    })
  else
    client_id = vim.lsp.start_client(conf)
    if client_id then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end
  if not client_id then
    return nil, 'the language client did not start'
  end
  require('hashline.supervisor').started_ids[client_id] = true
  client_by_root[root] = client_id
  return client_id
end

-- A new client for `root` running `cmd`, never reusing a running one (the supervisor's restart:
-- the old client may still be listed), attached to each of `buffers` at once — before it is
-- initialized, so no buffer is ever left without a client. Returns the client id and how many
-- buffers it holds, or nil and the reason.
function M.start_new(root, buffers, cmd)
  local conf = client_config(root, cmd)
  local client_id = compat.start_client(conf)
  if not client_id then
    return nil, 0, "the language client did not start ('" .. tostring(cmd[1]) .. "')"
  end
  local count = 0
  for _, bufnr in ipairs(buffers) do
    if vim.lsp.buf_attach_client(bufnr, client_id) ~= false then
      count = count + 1
    end
  end
  client_by_root[root] = client_id
  return client_id, count
end

-- The configuration lsp/hashline.lua hands Neovim 0.11+'s vim.lsp.config, so that
-- vim.lsp.enable('hashline') starts the same client as the plugin's autostart: the same server
-- command, capabilities, handlers and init options (from require('hashline').setup{} when it ran
-- before, else the defaults), root_dir a function that attaches only the buffers M.eligible
-- accepts, at the root M.root_for finds. The plugin's W12/reload handling (hashline.reconcile)
-- is installed on the first attach when setup{} did not install it.
function M.lsp_config()
  local conf = client_config(vim.fn.getcwd())
  conf.cmd_cwd = nil
  conf.workspace_folders = nil -- derived from root_dir by Neovim
  conf.root_dir = function(bufnr, on_dir)
    if M.eligible(bufnr) then
      on_dir(M.root_for(vim.api.nvim_buf_get_name(bufnr)))
    end
  end
  conf.filetypes = config.get().filetypes
  local on_attach = conf.on_attach
  conf.on_attach = function(client, bufnr)
    if not require('hashline').did_setup and not M.reconcile_enabled then
      M.reconcile_enabled = true
      require('hashline.reconcile').enable()
    end
    return on_attach(client, bufnr)
  end
  return conf
end

-- True once the client is initialized and has sent didOpen for `bufnr`.
function M.ready(client_id, bufnr)
  local client = vim.lsp.get_client_by_id(client_id)
  return client ~= nil and client.initialized == true and compat.attached(client, bufnr)
end

-- setup() hook: attach on read/new/filetype/rename, deferred one tick so the filetype is known.
function M.enable_autostart()
  local group = vim.api.nvim_create_augroup('hashline_attach', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile', 'FileType', 'BufFilePost' }, {
    group = group,
    callback = function(args)
      local bufnr = args.buf
      vim.schedule(function()
        if vim.api.nvim_buf_is_valid(bufnr) and config.get().autostart then
          local client_id, reason = M.attach(bufnr)
          if not client_id and reason and reason:find('cannot run', 1, true) and not warned_binary then
            warned_binary = true -- once per session, not once per buffer
            notify(reason, vim.log.levels.WARN)
          end
        end
      end)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      M.attach(bufnr)
    end
  end
end

function M.disable_autostart()
  pcall(vim.api.nvim_del_augroup_by_name, 'hashline_attach')
end

M.notify = notify

return M
