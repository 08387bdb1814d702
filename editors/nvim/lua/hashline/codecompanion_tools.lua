-- The tools hashline gives codecompanion.nvim's own chats (its HTTP adapters, whose model calls
-- tools inside Neovim): hashline_read and hashline_edit, the same contract as `hashline mcp`'s
-- tools of those names, run through the plugin's Lua API (init.lua) on the live buffer — unsaved
-- typing included — or, for a file no buffer holds, on the disk through the sidecar of its
-- project. Edits are verified against the chat's own reads, sent as versioned edits, journaled
-- under agent `codecompanion` and the chat's session, and undoable with :HashlineUndo.
-- Registered by codecompanion.lua; tool shape as codecompanion's built-in tools (cmds, schema,
-- output). Main loop only.
local M = {}

local AGENT = 'codecompanion'

local path_schema = {
  type = 'string',
  description = 'File path, absolute or relative to the current working directory.',
}

local edit_schema = {
  type = 'object',
  properties = {
    op = {
      type = 'string',
      enum = { 'replace', 'insert_after', 'insert_before', 'delete', 'write' },
      description = 'replace: lines anchor..end (end optional) become content. insert_after / insert_before: '
        .. 'content goes after/before the anchor line (insert_after also takes "0" for the top and "EOF" '
        .. 'for the end). delete: remove lines anchor..end. write: the whole file becomes content.',
    },
    anchor = { type = 'string', description = 'Anchor of the first line, copied from a read, e.g. "12:c3d:rst".' },
    ['end'] = { type = 'string', description = 'Anchor of the last line (inclusive); omit for one line.' },
    content = { type = 'string', description = 'The new lines joined by \\n, without the `LINE:LLL:BBB→` prefixes.' },
  },
  required = { 'op' },
}

-- `path` made absolute (relative to the current directory; `~` expanded, nothing else).
local function absolute(path)
  return vim.fn.fnamemodify(path, ':p')
end

-- The loaded buffer whose name is exactly `file` (bufnr() would match a pattern), or nil.
local function loaded_buffer(file)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.api.nvim_buf_get_name(bufnr) == file then
      return bufnr
    end
  end
end

-- Where a request for `path` goes: { bufnr, uri }. A loaded buffer of that file, else any buffer
-- attached to a hashline client whose root holds the file (the sidecar reads it from disk), else
-- nil and why.
function M.target(path)
  local file = absolute(path)
  local bufnr = loaded_buffer(file)
  if bufnr then
    return { bufnr = bufnr, uri = vim.uri_from_bufnr(bufnr) }
  end
  local compat = require('hashline.compat')
  for _, client in ipairs(compat.get_clients({ name = 'hashline' })) do
    local root = client.config and client.config.root_dir
    if root and vim.startswith(file, root:gsub('/$', '') .. '/') then
      for attached in pairs(client.attached_buffers or {}) do
        if vim.api.nvim_buf_is_loaded(attached) then
          return { bufnr = attached, uri = vim.uri_from_fname(file) }
        end
      end
    end
  end
  return nil, 'no hashline sidecar serves ' .. file .. ': open a file of its project in Neovim first'
end

-- One session per chat: its edits are checked against its own reads.
local function session_of(tools)
  local chat = tools and tools.chat
  return AGENT .. '-' .. tostring(chat and (chat.id or chat.bufnr) or 0)
end

local function rows(lines)
  local out = {}
  for _, row in ipairs(lines or {}) do
    table.insert(out, tostring(row.anchor) .. '→' .. tostring(row.text))
  end
  return table.concat(out, '\n')
end

-- A refusal or client failure as the model should see it: code, message, hint, current lines.
local function refusal_text(err)
  err = type(err) == 'table' and err or { message = tostring(err) }
  local parts = { tostring(err.code or 'ERROR') .. ': ' .. tostring(err.message or '') }
  if type(err.hint) == 'string' and err.hint ~= '' then
    table.insert(parts, 'hint: ' .. err.hint)
  end
  if type(err.data) == 'table' and err.data ~= vim.NIL then
    local data = err.data.lines and rows(err.data.lines) or vim.json.encode(err.data)
    table.insert(parts, data)
  end
  return table.concat(parts, '\n')
end

local function read_text(path, result)
  local first = result.lines and result.lines[1] and result.lines[1].line or 1
  local last = result.lines and #result.lines > 0 and result.lines[#result.lines].line or 0
  return string.format('%s (version %s, lines %d-%d of %d)\n%s', path, tostring(result.version), first, last,
    result.lineCount or 0, rows(result.lines))
end

local function edit_text(path, result)
  local parts = { string.format('%s: applied, version %s', path, tostring(result.version)) }
  if type(result.diff) == 'string' and result.diff ~= '' then
    table.insert(parts, result.diff)
  end
  if type(result.anchors) == 'table' and #result.anchors > 0 then
    table.insert(parts, 'fresh anchors:\n' .. rows(result.anchors))
  end
  return table.concat(parts, '\n')
end

-- Runs `call(hashline, target, opts)` for the tool's path and hands `render(result)` (or the
-- refusal) to codecompanion's output_cb.
local function run(tools, args, cb_opts, call, render)
  local output = vim.schedule_wrap(cb_opts.output_cb)
  local target, why = M.target(args.path or '')
  if not target then
    return output({ status = 'error', data = why })
  end
  local opts = {
    agent = AGENT,
    session = session_of(tools),
    callback = function(result, err)
      if not result then
        return output({ status = 'error', data = refusal_text(err) })
      end
      if result.status == 'refused' then
        return output({ status = 'error', data = refusal_text(result.error) })
      end
      output({ status = 'success', data = render(args.path, result) })
    end,
  }
  call(require('hashline'), target, opts)
end

local function tool_output()
  return {
    success = function(self, stdout, meta)
      meta.tools.chat:add_tool_output(self, vim.iter(stdout):flatten():join('\n'))
    end,
    error = function(self, stderr, meta)
      meta.tools.chat:add_tool_output(self, vim.iter(stderr):flatten():join('\n'))
    end,
  }
end

M.read = {
  name = 'hashline_read',
  cmds = {
    function(self, args, opts)
      run(self, args, opts, function(hashline, target, call_opts)
        hashline.command(target.bufnr, 'hashline.read', { uri = target.uri, from = tonumber(args.from),
          to = tonumber(args.to) }, call_opts)
      end, read_text)
    end,
  },
  schema = {
    type = 'function',
    ['function'] = {
      name = 'hashline_read',
      description = 'Read a file (or lines from..to) as anchored rows `LINE:LLL:BBB→text`, as the editor holds it '
        .. '(unsaved changes included). Read before you edit: edits are verified against what you read. '
        .. 'The part before → (e.g. `12:c3d:rst`) is the line\'s anchor; copy anchors exactly.',
      parameters = {
        type = 'object',
        properties = {
          path = path_schema,
          from = { type = 'integer', description = 'First line (1-based).' },
          to = { type = 'integer', description = 'Last line (inclusive).' },
        },
        required = { 'path' },
      },
    },
  },
  output = tool_output(),
}

M.edit = {
  name = 'hashline_edit',
  cmds = {
    function(self, args, opts)
      run(self, args, opts, function(hashline, target, call_opts)
        hashline.command(target.bufnr, 'hashline.edit', { uri = target.uri, edits = args.edits }, call_opts)
      end, edit_text)
    end,
  },
  schema = {
    type = 'function',
    ['function'] = {
      name = 'hashline_edit',
      description = 'Edit a file by anchors from your latest hashline_read; all edits of one change in one call '
        .. '(numbering of the read, verified and applied together or not at all). The edit goes into the '
        .. "editor's buffer without touching the user's unsaved typing; a refusal starts with an error code "
        .. '(STALE_ANCHOR: read again). The result shows the diff and fresh anchors.',
      parameters = {
        type = 'object',
        properties = {
          path = path_schema,
          edits = { type = 'array', minItems = 1, items = edit_schema },
        },
        required = { 'path', 'edits' },
      },
    },
  },
  output = tool_output(),
}

-- The entries for codecompanion's interactions.chat.tools.
function M.config_entries()
  return {
    hashline_read = {
      callback = function()
        return M.read
      end,
      description = 'Read a file with hashline line anchors (the live buffer, unsaved typing included)',
      opts = { require_approval_before = false },
    },
    hashline_edit = {
      callback = function()
        return M.edit
      end,
      description = "Edit a file by hashline anchors: verified, merged with the user's typing, undoable",
      opts = { require_approval_before = false },
    },
  }
end

-- The group `hashline` (@{hashline} in a chat adds both tools).
function M.group()
  return {
    description = 'hashline: read files with line anchors and edit them by anchor, verified against the live buffer',
    tools = { 'hashline_read', 'hashline_edit' },
    opts = { collapse_tools = true },
  }
end

return M
