-- Answers the sidecar's `hashline/documentSymbol` request (:help hashline-symbols) from the
-- language servers attached to the buffer — clangd, pyright, lua-language-server, whichever has
-- documentSymbolProvider — so `hashline outline` and `read --symbol` work on the live buffer while
-- hashline itself never starts a language server. Answers {symbols, server} with the server's own
-- answer (DocumentSymbol[] or SymbolInformation[]), or {symbols = null, reason}. Main loop only
-- (the request waits for the language server, at most `timeout` ms).
local compat = require('hashline.compat')

local M = {}

local timeout = 4000 -- ms: under the sidecar's own 5 s

local function unavailable(reason)
  return { symbols = vim.NIL, reason = reason }
end

-- The handler of hashline/documentSymbol (server → client request).
function M.on_document_symbol(_, params)
  local uri = type(params) == 'table' and type(params.textDocument) == 'table' and params.textDocument.uri
  if type(uri) ~= 'string' then
    return nil, { code = -32602, message = 'hashline/documentSymbol: params.textDocument.uri expected' }
  end
  local bufnr = vim.uri_to_bufnr(uri)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return unavailable('the file is not loaded in Neovim')
  end
  local own = require('hashline.attach').client_name
  local others, failures = {}, {}
  for _, client in ipairs(compat.get_clients({ bufnr = bufnr })) do
    if client.name ~= own and not compat.is_stopped(client) then
      table.insert(others, client.name)
      local caps = client.server_capabilities or {}
      if caps.documentSymbolProvider then
        local response, why = compat.request_sync(client, 'textDocument/documentSymbol',
          { textDocument = { uri = uri } }, timeout, bufnr)
        if response and response.err == nil and type(response.result) == 'table' then
          return { symbols = response.result, server = client.name }
        end
        local problem = response and response.err and (response.err.message or vim.inspect(response.err))
          or why or 'no answer'
        table.insert(failures, client.name .. ': ' .. tostring(problem))
      end
    end
  end
  if #failures > 0 then
    return unavailable('the language server did not give the symbols (' .. table.concat(failures, '; ') .. ')')
  end
  if #others == 0 then
    return unavailable('no language server is attached to this buffer in Neovim (filetype '
      .. (vim.bo[bufnr].filetype ~= '' and vim.bo[bufnr].filetype or 'none') .. ')')
  end
  return unavailable('no language server attached to this buffer provides document symbols ('
    .. table.concat(others, ', ') .. ')')
end

return M
