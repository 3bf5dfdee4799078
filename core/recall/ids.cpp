#include "core/recall/ids.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "core/error.hpp"
#include "core/recall/gate.hpp"
#include "core/util/text.hpp"

namespace gv::recall {
namespace {

constexpr std::size_t k_id_bytes = 5;
// Collisions among 40-bit ids are practically impossible; this many in a row means the random
// source is broken, and looping forever would hide that.
constexpr int k_max_attempts = 1000;

using util::trim_right_blanks;

}  // namespace

RandomSource content_random_source(const std::vector<ParsedFile>& files,
                                   std::string_view metadata_bytes) {
  // FNV-1a over every byte, with a separator between the parts so that moving bytes from one
  // file to the next changes the hash.
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto add = [&hash](std::string_view bytes) {
    for (const char c : bytes) {
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    hash = (hash ^ 0xffU) * 0x100000001b3ULL;
  };
  add(metadata_bytes);
  for (const ParsedFile& parsed : files) {
    add(parsed.file.path);
    add(parsed.bytes);
  }
  // splitmix64: each draw a well-mixed function of the seed and a counter.
  auto state = std::make_shared<std::uint64_t>(hash);
  return [state](std::span<unsigned char> out) {
    for (unsigned char& byte : out) {
      *state += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = *state;
      z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
      byte = static_cast<unsigned char>((z ^ (z >> 31U)) & 0xFFU);
    }
  };
}

std::string generate_id(const RandomSource& random, std::set<std::string>& taken) {
  constexpr std::string_view k_hex = "0123456789abcdef";
  for (int attempt = 0; attempt < k_max_attempts; ++attempt) {
    std::array<unsigned char, k_id_bytes> bytes{};
    random(bytes);
    std::string id = "tr";
    for (const unsigned char byte : bytes) {
      id += k_hex[byte >> 4];
      id += k_hex[byte & 0x0Fu];
    }
    if (taken.insert(id).second) {
      return id;
    }
  }
  throw Error("could not generate a new id: {} random ids in a row were already taken",
              k_max_attempts);
}

InitIdsPlan plan_init_ids(const std::vector<ParsedFile>& files,
                          const std::set<std::string>& metadata_ids, const RandomSource& random) {
  InitIdsPlan plan;
  plan.files_scanned = static_cast<int>(files.size());

  std::set<std::string> taken = metadata_ids;
  for (const ParsedFile& parsed : files) {
    for (std::string& id : find_id_tokens(parsed.bytes)) {
      taken.insert(std::move(id));
    }
  }

  for (const ParsedFile& parsed : files) {
    std::string out;
    std::size_t copied = 0;
    int tagged_here = 0;
    for (const Entry& entry : parsed.entries) {
      switch (entry.state) {
        case EntryState::tagged:
          ++plan.already_tagged;
          plan.inline_ids.push_back({entry.id, parsed.file.tier});
          continue;
        case EntryState::malformed:
          ++plan.malformed;
          plan.findings.push_back(malformed_id_finding(parsed.file, entry, Severity::warning));
          continue;
        case EntryState::untagged:
          break;
      }
      const std::string id = generate_id(random, taken);
      const std::string_view kept = trim_right_blanks(entry.raw);
      TaggedLine line{parsed.file.path, parsed.file.display_path,     entry.line, id,
                      entry.raw,        std::string{kept} + " ^" + id};
      // Everything up to the end of the kept content is copied unchanged, then the id, then
      // the original terminator (and whatever follows) on the next copy.
      out.append(parsed.bytes, copied, entry.begin + kept.size() - copied);
      out += " ^";
      out += id;
      copied = entry.content_end;
      plan.inline_ids.push_back({id, parsed.file.tier});
      plan.tagged.push_back(std::move(line));
      ++tagged_here;
    }
    for (const Finding& finding : parsed.findings) {
      plan.findings.push_back(finding);
    }
    if (tagged_here > 0) {
      out.append(parsed.bytes, copied, std::string::npos);
      plan.rewrites.push_back(
          FileRewrite{parsed.file.path, parsed.file.display_path, std::move(out), tagged_here});
    }
  }
  return plan;
}

std::vector<TaggedLine> preview_examples(const InitIdsPlan& plan, std::size_t limit) {
  // Group by file, keeping scan order both across and within files.
  std::vector<std::vector<const TaggedLine*>> by_file;
  for (const TaggedLine& line : plan.tagged) {
    if (by_file.empty() || by_file.back().front()->path != line.path) {
      by_file.emplace_back();
    }
    by_file.back().push_back(&line);
  }
  std::vector<TaggedLine> examples;
  for (std::size_t round = 0; examples.size() < limit; ++round) {
    bool any = false;
    for (const auto& lines : by_file) {
      if (round < lines.size() && examples.size() < limit) {
        examples.push_back(*lines[round]);
        any = true;
      }
    }
    if (!any) {
      break;
    }
  }
  return examples;
}

}  // namespace gv::recall
