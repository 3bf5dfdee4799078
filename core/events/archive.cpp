#include "core/events/archive.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/memory/lines.hpp"

namespace gv::events {
namespace {

using Json = nlohmann::ordered_json;

Json parse_record(std::string_view path, std::string_view text) {
  Json document;
  try {
    document = Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw Error("{}:{}: not valid JSON ({})", path,
                line_of_offset(text, e.byte > 0 ? e.byte - 1 : 0), e.what());
  }
  if (!document.is_object()) {
    throw Error("{}:1: expected a JSON object", path);
  }
  return document;
}

std::optional<std::string> string_field(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::string folder_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash));
}

}  // namespace

bool is_archive_record_path(std::string_view path) {
  if (path == k_archive_state_path) {
    return true;
  }
  constexpr std::string_view prefix = "specs/vault/";
  constexpr std::string_view suffix = "/state.json";
  if (!path.starts_with(prefix) || !path.ends_with(suffix) ||
      path.size() <= prefix.size() + suffix.size()) {
    return false;
  }
  const std::string_view name =
      path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
  return name.find('/') == std::string_view::npos;
}

std::vector<const MemoryCandidate*> ArchivedTask::unharvested() const {
  std::vector<const MemoryCandidate*> out;
  if (harvested) {
    return out;
  }
  for (const MemoryCandidate& candidate : candidates) {
    if (!candidate.harvested_at) {
      out.push_back(&candidate);
    }
  }
  return out;
}

std::vector<ArchivedTask> parse_archived_tasks(std::string_view path, std::string_view text) {
  const Json document = parse_record(path, text);
  std::vector<ArchivedTask> tasks;
  const auto projects = document.find("completed_projects");
  if (projects == document.end() || !projects->is_array()) {
    return tasks;
  }
  for (std::size_t i = 0; i < projects->size(); ++i) {
    const Json& item = (*projects)[i];
    if (!item.is_object() || !item.contains("project_number") ||
        !item["project_number"].is_number_integer()) {
      continue;
    }
    ArchivedTask task;
    task.number = item["project_number"].get<std::int64_t>();
    task.name = string_field(item, "project_name").value_or("");
    task.title = string_field(item, "title").value_or("");
    if (task.title.empty()) {
      task.title = task.name;
      std::replace(task.title.begin(), task.title.end(), '_', ' ');
    }
    task.archived_at = string_field(item, "archived_at");
    task.completed_at = string_field(item, "last_updated");
    task.record_path = std::string(path);
    task.record_index = i;
    task.harvested = item.contains("memory_candidates_harvested") &&
                     item["memory_candidates_harvested"].is_boolean() &&
                     item["memory_candidates_harvested"].get<bool>();
    const auto candidates = item.find("memory_candidates");
    if (candidates != item.end() && candidates->is_array()) {
      for (std::size_t c = 0; c < candidates->size(); ++c) {
        const Json& raw = (*candidates)[c];
        if (!raw.is_object()) {
          continue;
        }
        MemoryCandidate candidate;
        candidate.index = c;
        candidate.content = string_field(raw, "content").value_or("");
        if (candidate.content.empty()) {
          continue;
        }
        candidate.category = string_field(raw, "category").value_or("");
        candidate.source_artifact = string_field(raw, "source_artifact").value_or("");
        if (raw.contains("confidence") && raw["confidence"].is_number()) {
          candidate.confidence = raw["confidence"].get<double>();
        }
        if (raw.contains("suggested_keywords") && raw["suggested_keywords"].is_array()) {
          for (const Json& keyword : raw["suggested_keywords"]) {
            if (keyword.is_string()) {
              candidate.suggested_keywords.push_back(keyword.get<std::string>());
            }
          }
        }
        candidate.harvested_at = string_field(raw, "harvested_at");
        candidate.harvested_as = string_field(raw, "harvested_as");
        task.candidates.push_back(std::move(candidate));
      }
    }
    tasks.push_back(std::move(task));
  }
  return tasks;
}

std::string task_folder(const ArchivedTask& task, const std::vector<std::string>& paths) {
  const std::string base = folder_of(task.record_path);
  const std::vector<std::string> prefixes{
      fmt::format("{}/{:03}_", base, task.number),
      fmt::format("{}/{}_", base, task.number),
  };
  for (const std::string& prefix : prefixes) {
    for (const std::string& path : paths) {
      if (!path.starts_with(prefix)) {
        continue;
      }
      const std::size_t slash = path.find('/', prefix.size());
      if (slash != std::string::npos) {
        return path.substr(0, slash);
      }
    }
  }
  return {};
}

std::vector<std::string> task_artifacts(const ArchivedTask& task,
                                        const std::vector<std::string>& paths) {
  const std::string folder = task_folder(task, paths);
  std::vector<std::string> artifacts;
  if (folder.empty()) {
    return artifacts;
  }
  for (const std::string& path : paths) {
    if (path.starts_with(folder + "/") && path.ends_with(".md")) {
      artifacts.push_back(path);
    }
  }
  std::sort(artifacts.begin(), artifacts.end());
  return artifacts;
}

std::string mark_harvested(std::string_view path, std::string_view text,
                           const std::vector<HarvestMark>& marks, std::string_view now) {
  Json document = parse_record(path, text);
  Json& projects = document["completed_projects"];
  for (const HarvestMark& mark : marks) {
    if (!projects.is_array() || mark.record_index >= projects.size()) {
      throw Error("{}: no task at position {}", path, mark.record_index);
    }
    Json& candidates = projects[mark.record_index]["memory_candidates"];
    if (!candidates.is_array() || mark.candidate_index >= candidates.size() ||
        !candidates[mark.candidate_index].is_object()) {
      throw Error("{}: task at position {} has no memory candidate {}", path, mark.record_index,
                  mark.candidate_index);
    }
    Json& candidate = candidates[mark.candidate_index];
    candidate["harvested_at"] = std::string(now);
    candidate["harvested_as"] = mark.memory_id;
  }
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gv::events
