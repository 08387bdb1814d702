// MethodRegistry tables.
#include "lsp/server/method_registry.h"

namespace hashline::lsp {

namespace {
template <class Map, class Handler>
void put(Map& map, const std::string& name, Handler handler, const char* what) {
  if (map.count(name)) log::error("duplicate registration of ", what, " ", name, "; replacing it");
  map[name] = std::move(handler);
}
template <class Map> auto findIn(const Map& map, const std::string& name) {
  auto it = map.find(name);
  return it == map.end() ? nullptr : &it->second;
}
template <class Map> std::vector<std::string> namesOf(const Map& map) {
  std::vector<std::string> out;
  for (const auto& [name, handler] : map)
    out.push_back(name);
  return out;
}
} // namespace

void MethodRegistry::addRequest(const std::string& method, RequestHandler handler) {
  put(requests_, method, std::move(handler), "request");
}
void MethodRegistry::addNotification(const std::string& method, NotificationHandler handler) {
  put(notifications_, method, std::move(handler), "notification");
}
void MethodRegistry::addCommand(const std::string& command, CommandHandler handler) {
  put(commands_, command, std::move(handler), "command");
}

const MethodRegistry::RequestHandler* MethodRegistry::findRequest(const std::string& method) const {
  return findIn(requests_, method);
}
const MethodRegistry::NotificationHandler*
MethodRegistry::findNotification(const std::string& method) const {
  return findIn(notifications_, method);
}
const MethodRegistry::CommandHandler*
MethodRegistry::findCommand(const std::string& command) const {
  return findIn(commands_, command);
}

std::vector<std::string> MethodRegistry::requestNames() const {
  return namesOf(requests_);
}
std::vector<std::string> MethodRegistry::commandNames() const {
  return namesOf(commands_);
}

} // namespace hashline::lsp
