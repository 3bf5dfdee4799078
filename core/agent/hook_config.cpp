#include "core/agent/hook_config.hpp"

#include <algorithm>
#include <iterator>
#include <variant>

#include "core/error.hpp"
#include "core/json/layout.hpp"
#include "core/json/parse.hpp"

namespace gv::agent {
namespace {

using Json = nlohmann::ordered_json;
using json_text::Node;

constexpr std::string_view k_again = "git vault init --agent";

bool ours(const Json& handler) {
  if (!handler.is_object()) {
    return false;
  }
  const auto command = handler.find("command");
  return command != handler.end() && command->is_string() &&
         command->get_ref<const std::string&>().starts_with(k_agent_hook_command);
}

// The `hooks` object of a settings document, checked; nullptr when there is none.
const Json* hooks_of(std::string_view path, const Json& document) {
  const auto hooks = document.find("hooks");
  if (hooks == document.end()) {
    return nullptr;
  }
  if (!hooks->is_object()) {
    throw Error("{}: `hooks` is not an object; fix it, then run `{}` again", path, k_again);
  }
  return &*hooks;
}

bool runs_command(const Json& list, const std::string& command) {
  for (const Json& group : list) {
    const auto handlers = group.is_object() ? group.find("hooks") : group.end();
    if (handlers == group.end() || !handlers->is_array()) {
      continue;
    }
    for (const Json& handler : *handlers) {
      if (handler.is_object() && handler.value("command", std::string()) == command) {
        return true;
      }
    }
  }
  return false;
}

Json group_of(const HookEntry& entry) {
  Json group = Json::object();
  if (entry.matcher) {
    group["matcher"] = *entry.matcher;
  }
  group["hooks"] = Json::array({entry.handler});
  return group;
}

std::string compact(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// One of git-vault's handlers, where it sits: event list `event`, group `group`, handler
// `handler` in the group's `hooks`.
struct OurHandler {
  std::size_t event = 0;
  std::size_t group = 0;
  std::size_t handler = 0;
  std::size_t handlers = 0;  // how many the group has
};

std::optional<OurHandler> find_ours(const Json& hooks) {
  std::size_t event_index = 0;
  for (const auto& [event, list] : hooks.items()) {
    if (list.is_array()) {
      for (std::size_t g = 0; g < list.size(); ++g) {
        const auto handlers = list[g].is_object() ? list[g].find("hooks") : list[g].end();
        if (handlers == list[g].end() || !handlers->is_array()) {
          continue;
        }
        for (std::size_t h = 0; h < handlers->size(); ++h) {
          if (ours((*handlers)[h])) {
            return OurHandler{event_index, g, h, handlers->size()};
          }
        }
      }
    }
    ++event_index;
  }
  return std::nullopt;
}

}  // namespace

Json read_settings(std::string_view path, std::string_view text, std::string_view again) {
  auto parsed = json_text::parse<Json>(text);
  if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
    throw Error("{}:{}: not valid JSON ({}); fix or remove it, then run `{}` again", path,
                failure->line, failure->reason, again);
  }
  Json document = std::move(std::get<Json>(parsed));
  if (!document.is_object()) {
    throw Error("{}: not a JSON object; fix or remove it, then run `{}` again", path, again);
  }
  return document;
}

HookEdit add_hooks(std::string_view path, std::optional<std::string_view> existing,
                   const std::vector<HookEntry>& entries) {
  HookEdit edit;
  edit.text = existing ? std::string(*existing) : std::string("{}\n");
  for (const HookEntry& entry : entries) {
    const Json document = read_settings(path, edit.text, k_again);
    const Json* hooks = hooks_of(path, document);
    const std::string command = entry.handler.value("command", std::string());
    const Node root = json_text::read_layout(edit.text);
    if (hooks == nullptr) {
      edit.text = json_text::add_member(
          edit.text, root, "hooks", compact(Json{{entry.event, Json::array({group_of(entry)})}}));
    } else if (!hooks->contains(entry.event)) {
      edit.text = json_text::add_member(edit.text, *root.member("hooks"), entry.event,
                                        compact(Json::array({group_of(entry)})));
    } else {
      const Json& list = hooks->at(entry.event);
      if (!list.is_array()) {
        throw Error("{}: `hooks.{}` is not a list; fix it, then run `{}` again", path, entry.event,
                    k_again);
      }
      if (runs_command(list, command)) {
        continue;
      }
      edit.text = json_text::add_element(edit.text, *root.member("hooks")->member(entry.event),
                                         compact(group_of(entry)));
    }
    edit.events.push_back(entry.event);
  }
  return edit;
}

HookEdit remove_hooks(std::string_view path, std::string_view existing) {
  HookEdit edit;
  edit.text = std::string(existing);
  while (true) {
    const Json document = read_settings(path, edit.text, "git vault init --no-agent");
    const Json* hooks = hooks_of(path, document);
    if (hooks == nullptr) {
      return edit;
    }
    const std::optional<OurHandler> found = find_ours(*hooks);
    if (!found) {
      return edit;
    }
    const Node root = json_text::read_layout(edit.text);
    const Node& hooks_node = *root.member("hooks");
    const Node& list = hooks_node.children[found->event];
    const std::string event = hooks_node.keys[found->event];
    if (found->handlers > 1) {
      // Someone put other handlers beside ours: only ours goes.
      const Node& group = list.children[found->group];
      const Node& handlers = *group.member("hooks");
      edit.text = json_text::remove_child(edit.text, handlers, found->handler);
      edit.events.push_back(event);
      continue;
    }
    if (list.children.size() > 1) {
      edit.text = json_text::remove_child(edit.text, list, found->group);
    } else if (hooks_node.children.size() > 1) {
      edit.text = json_text::remove_child(edit.text, hooks_node, found->event);
    } else {
      const auto at = std::find(root.keys.begin(), root.keys.end(), "hooks");
      edit.text = json_text::remove_child(
          edit.text, root, static_cast<std::size_t>(std::distance(root.keys.begin(), at)));
    }
    edit.events.push_back(event);
  }
}

std::vector<std::string> hooked_events(std::string_view existing) {
  std::vector<std::string> events;
  const auto parsed = json_text::parse_object<Json>(existing);
  if (!parsed) {
    return events;
  }
  const auto hooks = parsed->find("hooks");
  if (hooks == parsed->end() || !hooks->is_object()) {
    return events;
  }
  for (const auto& [event, list] : hooks->items()) {
    if (!list.is_array()) {
      continue;
    }
    for (const Json& group : list) {
      const auto handlers = group.is_object() ? group.find("hooks") : group.end();
      if (handlers != group.end() && handlers->is_array() &&
          std::any_of(handlers->begin(), handlers->end(), ours)) {
        events.push_back(event);
        break;
      }
    }
  }
  return events;
}

bool empty_document(std::string_view text) {
  const auto parsed = json_text::parse_object<Json>(text);
  return parsed && parsed->empty();
}

}  // namespace gv::agent
