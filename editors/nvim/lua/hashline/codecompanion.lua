-- codecompanion.nvim, wired with no configuration (:help hashline-codecompanion). When setup{}
-- runs (option `codecompanion`, default on) this installs two hooks that take effect whenever
-- codecompanion loads, before or after hashline:
--   * ACP agents: every ACP adapter's command is started as `hashline acp -- COMMAND...`, so the
--     agent's fs/read_text_file sees the live buffer and its fs/write_text_file becomes a
--     verified, merged, journaled hashline edit instead of codecompanion's whole-buffer replace
--     and save (hook: the ACP Connection's prepare_adapter, which computes the command it spawns);
--   * codecompanion's own chats (HTTP adapters): the tools hashline_read and hashline_edit
--     (codecompanion_tools.lua) and the group `hashline` with both, added to its tool config
--     after each codecompanion setup{}.
-- health() is the `codecompanion` part of :checkhealth hashline. Main loop only.
local config = require('hashline.config')

local M = {}

local ACP_MODULE = 'codecompanion.acp'
local CONFIG_MODULE = 'codecompanion.config'

local hooked = {} -- module name -> true once patched
local problems = {} -- module name -> why it could not be patched

-- Whether part `part` ('acp' or 'tools') is on: option codecompanion = true | false | {acp, tools}.
function M.enabled(part)
  local option = config.get().codecompanion
  if type(option) == 'table' then
    return option[part] ~= false
  end
  return option ~= false
end

-- The hashline binary the sidecar runs (the first word of `cmd` that names hashline, else the
-- first word).
function M.binary()
  local cmd = config.get().cmd
  if type(cmd) ~= 'table' then
    return 'hashline'
  end
  for _, word in ipairs(cmd) do
    if type(word) == 'string' and vim.fn.fnamemodify(word, ':t'):match('^hashline') then
      return word
    end
  end
  return cmd[1] or 'hashline'
end

-- Whether `command` (a list) already runs through `hashline acp`.
function M.is_wrapped(command)
  return type(command) == 'table' and type(command[1]) == 'string'
    and vim.fn.fnamemodify(command[1], ':t'):match('^hashline') ~= nil and command[2] == 'acp'
end

-- `command` started through the proxy: { BIN, 'acp', '--', command... }; unchanged when it is
-- not a list of strings or already wrapped.
function M.wrap(command)
  if type(command) ~= 'table' or #command == 0 or M.is_wrapped(command) then
    return command
  end
  local wrapped = { M.binary(), 'acp', '--' }
  for _, word in ipairs(command) do
    if type(word) ~= 'string' then
      return command
    end
    table.insert(wrapped, word)
  end
  return wrapped
end

local function patch_acp(Connection)
  if type(Connection) ~= 'table' or type(Connection.prepare_adapter) ~= 'function' then
    problems[ACP_MODULE] = 'codecompanion.acp has no Connection.prepare_adapter (another codecompanion version)'
    return
  end
  local prepare = Connection.prepare_adapter
  Connection.prepare_adapter = function(self, ...)
    local adapter = prepare(self, ...)
    if M.enabled('acp') and type(adapter) == 'table' then
      adapter.command = M.wrap(adapter.command)
    end
    return adapter
  end
  hooked[ACP_MODULE] = true
end

local function add_tools(cc_config)
  local ok, tools = pcall(function()
    return cc_config.interactions.chat.tools
  end)
  if not ok or type(tools) ~= 'table' then
    problems[CONFIG_MODULE] = 'codecompanion.config has no interactions.chat.tools (another codecompanion version)'
    return
  end
  problems[CONFIG_MODULE] = nil
  if not M.enabled('tools') then
    return
  end
  local definitions = require('hashline.codecompanion_tools')
  for name, definition in pairs(definitions.config_entries()) do
    if tools[name] == nil then -- the user's own entry of that name wins
      tools[name] = definition
    end
  end
  tools.groups = tools.groups or {}
  if tools.groups.hashline == nil then
    tools.groups.hashline = definitions.group()
  end
end

local function patch_config(cc_config)
  if type(cc_config) ~= 'table' or type(rawget(cc_config, 'setup')) ~= 'function' then
    problems[CONFIG_MODULE] = 'codecompanion.config has no setup function (another codecompanion version)'
    return
  end
  local setup = rawget(cc_config, 'setup')
  rawset(cc_config, 'setup', function(...)
    local results = { setup(...) }
    add_tools(cc_config)
    return unpack(results)
  end)
  add_tools(cc_config) -- codecompanion may be set up already
  hooked[CONFIG_MODULE] = true
end

-- Patches module `name` with `patch` now if it is loaded, else the moment it is first required
-- (a package.preload entry that loads it through the other searchers, lazy loaders included).
local function when_loaded(name, patch)
  if hooked[name] then
    return
  end
  local loaded = package.loaded[name]
  if type(loaded) == 'table' then
    return patch(loaded)
  end
  if package.preload[name] ~= nil then
    return
  end
  local searchers = package.loaders or package.searchers
  package.preload[name] = function(...)
    package.preload[name] = nil
    for i = 2, #searchers do
      local loader = searchers[i](name)
      if type(loader) == 'function' then
        local module = loader(...)
        if module == nil then
          module = package.loaded[name]
        end
        pcall(patch, module)
        return module
      end
    end
    error("module '" .. name .. "' not found", 2)
  end
end

-- Installs the hooks (idempotent); called by setup{}. The option is read when codecompanion
-- acts, so setup{ codecompanion = false } later turns the wrapping off again.
function M.enable()
  if config.get().codecompanion == false then
    return
  end
  when_loaded(ACP_MODULE, patch_acp)
  when_loaded(CONFIG_MODULE, patch_config)
end

local function present()
  return package.loaded['codecompanion'] ~= nil or #vim.api.nvim_get_runtime_file('lua/codecompanion/init.lua', false) > 0
end

-- The ACP adapter names codecompanion knows (its config's adapters.acp), sorted.
local function acp_adapters()
  local ok, names = pcall(function()
    local list = {}
    for name, value in pairs(require(CONFIG_MODULE).adapters.acp) do
      if name ~= 'opts' and name ~= 'extend' and value then
        table.insert(list, name)
      end
    end
    table.sort(list)
    return list
  end)
  return ok and names or {}
end

-- The :checkhealth part: what is wired, given the reporter `h` (compat.health()).
function M.health(h)
  if config.get().codecompanion == false then
    h.info('codecompanion.nvim: not wired (setup{ codecompanion = false })')
    return
  end
  if not present() then
    h.info('codecompanion.nvim: not installed (when it is, its ACP agents run through `hashline acp` and its chats get hashline_read/hashline_edit)')
    return
  end
  if not package.loaded[ACP_MODULE] and not package.loaded[CONFIG_MODULE] then
    h.info('codecompanion.nvim: installed, not loaded yet; the hooks are in place for when it loads')
    return
  end
  local bin = M.binary()
  if M.enabled('acp') then
    if hooked[ACP_MODULE] then
      local help = vim.fn.system({ bin, 'acp', '--help' })
      if vim.v.shell_error ~= 0 then
        h.warn("codecompanion.nvim ACP agents are wrapped, but '" .. bin .. " acp --help' failed: "
          .. vim.trim(help):sub(1, 200), { 'update hashline (the acp subcommand), or setup{ codecompanion = { acp = false } }' })
      else
        local names = acp_adapters()
        h.ok('codecompanion.nvim ACP agents start as `' .. bin .. ' acp -- AGENT...`'
          .. (#names > 0 and (': ' .. table.concat(names, ', ')) or ''))
      end
    elseif problems[ACP_MODULE] then
      h.warn('codecompanion.nvim ACP agents are NOT wrapped: ' .. problems[ACP_MODULE],
        { "set the adapter's commands to { 'hashline', 'acp', '--', ... } by hand" })
    else
      h.info('codecompanion.nvim ACP agents: wrapped when its ACP module loads')
    end
  else
    h.info('codecompanion.nvim ACP agents: not wrapped (codecompanion = { acp = false })')
  end
  if not M.enabled('tools') then
    h.info('codecompanion.nvim chat tools: not added (codecompanion = { tools = false })')
  elseif problems[CONFIG_MODULE] then
    h.warn('codecompanion.nvim chat tools not added: ' .. problems[CONFIG_MODULE])
  elseif hooked[CONFIG_MODULE] then
    h.ok('codecompanion.nvim chats offer hashline_read and hashline_edit (@{hashline} adds both)')
  end
end

return M
