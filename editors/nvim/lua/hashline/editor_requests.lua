-- Answers the sidecar's requests to do something in the editor on an agent's behalf (Claude
-- Code's IDE tools, :help hashline-claude): `window/showDocument` (openFile: show the file, put
-- the cursor on the selection's start; Neovim 0.7 has no handler of its own) and
-- `hashline/saveDocument` (saveDocument: write the buffer as the user's own `:write`, so the
-- plugin's save announcement runs). Main loop only.
local M = {}

local function window_of(bufnr)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == bufnr then
      return win
    end
  end
end

-- window/showDocument {uri, takeFocus?, selection?} → {success}
function M.show_document(_, params)
  if type(params) ~= 'table' or type(params.uri) ~= 'string' then
    return nil, { code = -32602, message = 'window/showDocument: params.uri expected' }
  end
  if params.external then
    return { success = false }
  end
  local path = vim.uri_to_fname(params.uri)
  local ok = pcall(function()
    local bufnr = vim.fn.bufadd(path)
    vim.fn.bufload(bufnr)
    local win = window_of(bufnr)
    if win then
      vim.api.nvim_set_current_win(win)
    elseif vim.bo.modified and not vim.o.hidden then
      vim.cmd('split ' .. vim.fn.fnameescape(path)) -- never abandon unsaved typing
    else
      vim.cmd('buffer ' .. bufnr)
    end
    local selection = params.selection
    if type(selection) == 'table' and type(selection.start) == 'table' then
      local last = vim.api.nvim_buf_line_count(bufnr)
      vim.api.nvim_win_set_cursor(0, { math.min(selection.start.line + 1, last), 0 })
    end
  end)
  return { success = ok }
end

-- hashline/saveDocument {textDocument: {uri}} → {saved, reason?}
function M.save_document(_, params)
  local uri = type(params) == 'table' and type(params.textDocument) == 'table' and params.textDocument.uri
  if type(uri) ~= 'string' then
    return nil, { code = -32602, message = 'hashline/saveDocument: params.textDocument.uri expected' }
  end
  local bufnr = vim.uri_to_bufnr(uri)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return { saved = false, reason = 'the file is not loaded in Neovim' }
  end
  local ok, why = pcall(vim.api.nvim_buf_call, bufnr, function()
    vim.cmd('silent write')
  end)
  if not ok then
    return { saved = false, reason = tostring(why) }
  end
  return { saved = true }
end

return M
