#include "core/distill/withhold.hpp"

#include <string>

#include "core/secrets/detector.hpp"

namespace gv::distill {

void withhold_secrets(nlohmann::ordered_json& value) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (secrets::contains_secret(text)) {
      value = secrets::withhold_secrets(text);
    }
  } else if (value.is_array() || value.is_object()) {
    for (auto& item : value) {
      withhold_secrets(item);
    }
  }
}

void withhold_secrets(events::Event& event) {
  if (secrets::contains_secret(event.message)) {
    event.message = secrets::withhold_secrets(event.message);
    if (event.raw.is_object() && event.raw.contains("message")) {
      event.raw["message"] = event.message;
    }
  }
  withhold_secrets(event.detail);
  if (event.raw.is_object() && event.raw.contains("detail")) {
    withhold_secrets(event.raw["detail"]);
  }
}

void withhold_secrets(events::Prompt& prompt) {
  if (secrets::contains_secret(prompt.display)) {
    prompt.display = secrets::withhold_secrets(prompt.display);
  }
}

}  // namespace gv::distill
