-- Forwards the diagnostics Neovim holds for a buffer (vim.diagnostic: every language server's,
-- unsaved text included) to the buffer's hashline sidecar as the `hashline/diagnostics`
-- notification, so edit results can say what an agent's edit introduced or removed (:help
-- hashline-diagnostics). The set is tagged with the newest buffer version a language server said
-- its diagnostics are for (publishDiagnostics' `version`: Neovim's clients share one version
-- counter per buffer, so it is the sidecar's too), else the buffer's version now — a server
-- that names no version can be reporting on older text.
-- On DiagnosticChanged (coalesced per buffer for `delay` ms) and once when the client attaches.
-- Off with setup{ diagnostics = false }. Main loop only.
local compat = require('hashline.compat')
local config = require('hashline.config')

local M = {}

local delay = 10 -- ms: DiagnosticChanged fires once per namespace; send the buffer's set once
local scheduled = {} -- bufnr -> true while a send is pending
local published = {} -- bufnr -> the newest version a server published diagnostics for
local group

-- Notes the version of each publishDiagnostics before Neovim's handler stores it (and fires
-- DiagnosticChanged). Wraps the global handler once; clients with their own handler are not seen.
local function note_published_versions()
  local method = 'textDocument/publishDiagnostics'
  local original = vim.lsp.handlers[method]
  vim.lsp.handlers[method] = function(err, result, ctx, handler_config)
    if type(result) == 'table' and type(result.uri) == 'string' and type(result.version) == 'number' then
      local bufnr = vim.uri_to_bufnr(result.uri)
      published[bufnr] = math.max(published[bufnr] or result.version, result.version)
    end
    return original(err, result, ctx, handler_config)
  end
end

local function hashline_client(bufnr)
  return require('hashline.attach').client_of(bufnr)
end

-- The LSP shape of one vim.diagnostic entry: the language server's own range when Neovim kept
-- it (user_data.lsp), else the 0-based line and byte column Neovim stores.
local function to_lsp(d)
  local lsp = d.user_data and d.user_data.lsp
  local range = lsp and lsp.range
  if type(range) ~= 'table' or type(range.start) ~= 'table' then
    range = {
      start = { line = d.lnum, character = d.col or 0 },
      ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col or 0 },
    }
  end
  local code = d.code
  if code == nil and lsp then
    code = lsp.code
  end
  if type(code) ~= 'string' and type(code) ~= 'number' then
    code = nil
  end
  return { range = range, severity = d.severity, source = d.source, code = code, message = d.message }
end

-- Sends `bufnr`'s current diagnostics to its hashline client, if it has one.
function M.send(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local client = hashline_client(bufnr)
  if not client then
    return
  end
  local items = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(items, to_lsp(d))
  end
  local params = { uri = vim.uri_from_bufnr(bufnr), diagnostics = items }
  local version = published[bufnr] or compat.buf_version(bufnr)
  if type(version) == 'number' then
    params.version = version
  end
  compat.notify(client, 'hashline/diagnostics', params)
end

local function schedule(bufnr)
  if scheduled[bufnr] then
    return
  end
  scheduled[bufnr] = true
  vim.defer_fn(function()
    scheduled[bufnr] = nil
    M.send(bufnr)
  end, delay)
end

-- Called when the hashline client attaches to `bufnr`: starts forwarding (once per session) and
-- sends what the buffer has already, if another language server reported on it.
function M.watch(bufnr)
  if config.get().diagnostics == false then
    return
  end
  if not group then
    note_published_versions()
    group = vim.api.nvim_create_augroup('hashline_diagnostics', { clear = true })
    vim.api.nvim_create_autocmd('DiagnosticChanged', {
      group = group,
      callback = function(args)
        if args.buf and args.buf > 0 then
          schedule(args.buf)
        end
      end,
    })
  end
  local others = vim.tbl_filter(function(c)
    return c.name ~= require('hashline.attach').client_name
  end, compat.get_clients({ bufnr = bufnr }))
  if #others > 0 or #vim.diagnostic.get(bufnr) > 0 then
    schedule(bufnr)
  end
end

return M
