-- Loaded first (--cmd luafile) into every Neovim suite's headless nvim by nvim-env.sh: records,
-- into the file $HASHLINE_NVIM_DEPRECATIONS, every use of a deprecated API by the plugin, the
-- tests or Neovim's own runtime on their behalf — each vim.deprecate call (shown or not, with its
-- traceback), on versions that have vim.uv any use of the vim.loop alias, on 0.12+ the old
-- `buffer` key of nvim_*_autocmd(s) (renamed `buf`), and at exit every :messages line that
-- mentions a deprecation. The suite's run.sh fails when that file is not empty (nvim_guard_check).
local path = os.getenv('HASHLINE_NVIM_DEPRECATIONS')
if not path or path == '' then
  return
end

local seen = {}
local function record(text)
  if seen[text] then
    return
  end
  seen[text] = true
  local file = io.open(path, 'a')
  if file then
    file:write(text, '\n')
    file:close()
  end
end

local function where()
  return debug.traceback('', 3)
end

if type(vim.deprecate) == 'function' then
  local original = vim.deprecate
  vim.deprecate = function(name, alternative, version, plugin, ...)
    record(string.format('vim.deprecate: %s (use %s; removal in %s %s)%s', tostring(name), tostring(alternative),
      tostring(plugin or 'Nvim'), tostring(version), where()))
    return original(name, alternative, version, plugin, ...)
  end
end

-- vim.loop is vim.uv under its deprecated name (0.10+): a proxy that records each field read.
if vim.uv ~= nil then
  local uv = vim.uv
  vim.loop = setmetatable({}, {
    __index = function(_, key)
      record('vim.loop.' .. tostring(key) .. ' (use vim.uv)' .. where())
      return uv[key]
    end,
  })
end

if vim.fn.has('nvim-0.12') == 1 then
  for _, name in ipairs({ 'nvim_create_autocmd', 'nvim_exec_autocmds', 'nvim_get_autocmds', 'nvim_clear_autocmds' }) do
    local original = vim.api[name]
    vim.api[name] = function(...)
      local opts = select(select('#', ...), ...)
      if type(opts) == 'table' and opts.buffer ~= nil then
        record(name .. '{buffer=} (use buf=)' .. where())
      end
      return original(...)
    end
  end
end

vim.api.nvim_create_autocmd('VimLeavePre', {
  callback = function()
    local ok, messages = pcall(vim.fn.execute, 'messages')
    if ok then
      for _, line in ipairs(vim.split(messages, '\n', { plain = true })) do
        if line:lower():find('deprecat', 1, true) then
          record(':messages: ' .. line)
        end
      end
    end
  end,
})
