-- What each hashline client's sidecar said about its Claude Code IDE server (the notification
-- `hashline/claudeIde`: {enabled, port, lockFile, clients = {{name, version, pid}}}), sent after
-- `initialized` and whenever a Claude Code connects or leaves. Read by :checkhealth.
local M = {}

local states = {} -- client id → the latest state

function M.on_state(_, result, ctx)
  if ctx and ctx.client_id and type(result) == 'table' then
    states[ctx.client_id] = result
  end
end

-- The latest state the client `client_id` was told, or nil (the server is off or older).
function M.state(client_id)
  return states[client_id]
end

-- "Claude Code 2.1.332 (pid 42), …" for the connected clients of a state; '' when none.
function M.describe_clients(state)
  local names = {}
  for _, client in ipairs(type(state) == 'table' and type(state.clients) == 'table' and state.clients or {}) do
    local name = 'Claude Code'
    if type(client.version) == 'string' and client.version ~= '' then
      name = name .. ' ' .. client.version
    end
    if type(client.pid) == 'number' then
      name = name .. ' (pid ' .. client.pid .. ')'
    end
    table.insert(names, name)
  end
  return table.concat(names, ', ')
end

return M
