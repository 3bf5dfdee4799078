#include <stdlib.h>

#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "core/gate/baseline.hpp"
#include "core/gate/delta_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/gate/print.hpp"
#include "core/git/index_file.hpp"
#include "core/vault/generated_records.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace gate_delta_test {

// The gate over a staged index answers from its baseline (the state it checked last) and the
// entries that changed since. Over a long random history of vault edits it must give exactly
// the findings of checking the whole vault, and it must take the short way often enough for
// that comparison to mean something.

using gv::Finding;
using gv::test::MapSnapshot;
using gv::test::note;
using gv::test::regenerate;
namespace fs = std::filesystem;

namespace {

// A git index (version 2) listing `entries`: what `git add` leaves for these files.
std::string index_bytes(const std::vector<gv::SnapshotEntry>& entries) {
  const auto be32 = [](std::string& out, std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      out += static_cast<char>((value >> shift) & 0xffU);
    }
  };
  std::string out = "DIRC";
  be32(out, 2);
  be32(out, static_cast<std::uint32_t>(entries.size()));
  for (const gv::SnapshotEntry& entry : entries) {
    const std::size_t start = out.size();
    out.append(24, '\0');  // ctime, mtime, dev, ino
    be32(out, 0100644);
    out.append(12, '\0');  // uid, gid, size
    for (std::size_t i = 0; i < 40; i += 2) {
      out += static_cast<char>(std::stoi(entry.oid.substr(i, 2), nullptr, 16));
    }
    const auto length = static_cast<std::uint16_t>(std::min<std::size_t>(entry.path.size(), 0xfff));
    out += static_cast<char>(length >> 8);
    out += static_cast<char>(length & 0xff);
    out += entry.path;
    const std::size_t padded = (out.size() - start + 8) & ~std::size_t{7};
    out.append(padded - (out.size() - start), '\0');
  }
  out.append(20, '\0');  // the checksum, which the reader does not verify
  return out;
}

// The files of a MapSnapshot as a staged index lists them.
class IndexedSnapshot final : public gv::Snapshot {
 public:
  explicit IndexedSnapshot(const MapSnapshot& files) : m_files(files) {
    std::optional<gv::git::IndexFile> index =
        gv::git::IndexFile::parse(index_bytes(files.list("")));
    REQUIRE(index);
    m_index = std::make_shared<const gv::git::IndexFile>(std::move(*index));
  }
  [[nodiscard]] std::vector<gv::SnapshotEntry> list(std::string_view prefix) const override {
    return m_files.list(prefix);
  }
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    return m_files.read(path);
  }
  [[nodiscard]] std::string describe() const override { return "index"; }
  [[nodiscard]] std::shared_ptr<const gv::git::IndexFile> index_file() const override {
    return m_index;
  }

 private:
  const MapSnapshot& m_files;
  std::shared_ptr<const gv::git::IndexFile> m_index;
};

fs::path unique_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "gv-gate-delta-XXXXXX").string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string shown(const std::vector<Finding>& findings) {
  return gv::findings_json(findings).dump();
}

struct Spec {
  std::string title;
  std::string extra;  // frontmatter lines
  std::string body;
};

// A vault as memory specs plus notes, written into a MapSnapshot on demand.
struct Model {
  std::map<std::string, Spec> memories;      // id -> spec
  std::map<std::string, std::string> notes;  // path -> bytes
  std::map<std::string, std::string> raw;    // memory path -> bytes that are not a spec

  [[nodiscard]] MapSnapshot files() const {
    MapSnapshot snapshot(std::map<std::string, std::string>{
        {"CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n"}});
    for (const auto& [id, spec] : memories) {
      snapshot.set(gv::memory_path(id), note(spec.title, spec.extra, spec.body));
    }
    for (const auto& [path, bytes] : raw) {
      snapshot.set(path, bytes);
    }
    for (const auto& [path, bytes] : notes) {
      snapshot.set(path, bytes);
    }
    return snapshot;
  }
};

// The model's vault regenerated and recorded, as `git vault index` leaves it, then checked from
// the baseline: the findings must be the whole vault's.
void check_from_baseline(const Model& model, gv::GeneratedRecords& records,
                         const gv::GateOptions& options) {
  MapSnapshot files = model.files();
  regenerate(files);
  if (const std::optional<gv::GeneratedRecord> record =
          gv::generated_record_of(files.list(".memory/"))) {
    records.add(*record);
  }
  const IndexedSnapshot staged(files);
  CHECK(shown(gv::run_gate(staged, options)) == shown(gv::run_gate(files, {})));
}

}  // namespace

TEST_CASE("the gate from its baseline gives the whole vault's findings through random edits",
          "[gate][delta]") {
  const fs::path dir = unique_temp_dir();
  const fs::path baseline_file = dir / "gate-baseline";
  std::mt19937 random(20261202);
  const auto pick = [&](std::size_t n) {
    return static_cast<std::size_t>(std::uniform_int_distribution<std::size_t>(0, n - 1)(random));
  };

  Model model;
  for (int i = 0; i < 10; ++i) {
    model.memories["MEM-m" + std::to_string(i)] = {"Memory " + std::to_string(i), "", ""};
  }
  model.memories["MEM-m1"].body = "See [[MEM-m2]] and [[MEM-ghost]].\n";
  model.memories["MEM-m3"].extra = "status: tombstoned\ntombstoned_at: 2026-02-01\n";
  model.memories["MEM-m4"].body = "Old: [[MEM-m3]]. Index: [[20-Indices/index]].\n";
  model.notes[".memory/00-Inbox/idea.md"] = "# An idea\n";

  gv::GeneratedRecords records;
  bool regenerated_last = true;
  std::map<gv::VaultAnswer, int> answers;
  const fs::path entries_file = dir / "gate-baseline.entries";
  int journaled = 0;
  int rewritten = 0;
  const std::vector<std::string> targets = {"MEM-m0",   "MEM-m2", "MEM-m3",    "MEM-ghost",
                                            "MEM-new0", "idea",   "MEM-m5.md", "x/MEM-m6"};
  for (int step = 0; step < 400; ++step) {
    std::vector<std::string> ids;
    for (const auto& [id, spec] : model.memories) {
      ids.push_back(id);
    }
    const std::string id = ids.empty() ? "MEM-m0" : ids[pick(ids.size())];
    switch (pick(11)) {
      case 0:
        if (model.memories.contains(id)) {
          model.memories[id].body += "More text " + std::to_string(step) + ".\n";
        }
        break;
      case 1:
        if (model.memories.contains(id)) {
          model.memories[id].body += "Link [[" + targets[pick(targets.size())] + "]].\n";
        }
        break;
      case 2:
        if (model.memories.contains(id)) {
          model.memories[id].extra = "status: tombstoned\ntombstoned_at: 2026-02-01\n";
        }
        break;
      case 3:
        if (model.memories.contains(id)) {
          model.memories[id].extra.clear();
        }
        break;
      case 4:
        if (model.memories.size() > 3) {
          model.memories.erase(id);
        }
        break;
      case 5: {
        const std::string fresh = pick(3) == 0 ? "MEM-ghost" : "MEM-new" + std::to_string(pick(4));
        model.memories[fresh] = {"Fresh " + fresh, "", pick(2) == 0 ? "[[MEM-m2]]\n" : ""};
        break;
      }
      case 6: {
        // Broken frontmatter (no `created`), or mended again.
        const std::string path = gv::memory_path(id);
        if (model.raw.contains(path)) {
          model.raw.erase(path);
        } else if (model.memories.contains(id)) {
          model.raw[path] = "---\ntitle: \"Broken\"\n---\n\n# Broken [[MEM-m0]]\n";
          model.memories.erase(id);
        }
        break;
      }
      case 7: {
        // A note, sometimes under a stem links already name (dangling, or a note's again).
        const std::array<const char*, 4> names = {"MEM-ghost", "idea", "draft", "MEM-ghost1"};
        model.notes[".memory/00-Inbox/" + std::string(names[pick(names.size())]) + ".md"] =
            "# Draft\n";
        break;
      }
      case 8:
        if (!model.notes.empty()) {
          auto it = model.notes.begin();
          std::advance(it, static_cast<long>(pick(model.notes.size())));
          model.notes.erase(it);
        }
        break;
      case 9:
        model.memories["MEM-M" + std::to_string(pick(3))] = {"Upper", "", ""};
        break;
      default:
        break;  // nothing changes: the baseline's own state
    }
    MapSnapshot files = model.files();
    // Mostly regenerated and recorded, as `git vault index` leaves a vault; sometimes stale.
    regenerated_last = pick(5) != 0;
    if (regenerated_last) {
      regenerate(files);
      if (const std::optional<gv::GeneratedRecord> record =
              gv::generated_record_of(files.list(".memory/"))) {
        records.add(*record);
      }
    }
    const IndexedSnapshot staged(files);
    const std::vector<Finding> whole = gv::run_gate(files, {});
    gv::GateOptions options;
    options.baseline_file = baseline_file;
    options.generated = &records;
    gv::GateRunInfo info;
    options.info = &info;
    const std::string entries_before = read_file(entries_file);
    const std::vector<Finding> from_baseline = gv::run_gate(staged, options);
    INFO("step " << step);
    REQUIRE(shown(from_baseline) == shown(whole));
    ++answers[info.answered];
    if (info.answered == gv::VaultAnswer::delta) {
      ++(read_file(entries_file) == entries_before ? journaled : rewritten);
    }
  }
  // Most answers from the baseline only added to its journal (folding it into a new entries
  // file is the next test's).
  CHECK(journaled > 50);
  CHECK(journaled > rewritten);
  // Each way of answering happened, the short one most of all.
  CHECK(answers[gv::VaultAnswer::delta] > 100);
  CHECK(answers[gv::VaultAnswer::baseline] > 10);
  CHECK(answers[gv::VaultAnswer::full] > 10);
  fs::remove_all(dir);
}

TEST_CASE("a damaged baseline file is ignored and replaced", "[gate][delta]") {
  const fs::path dir = unique_temp_dir();
  const fs::path baseline_file = dir / "gate-baseline";
  MapSnapshot files(std::map<std::string, std::string>{
      {".memory/10-Memories/MEM-a.md", note("A", "", "[[MEM-gone]]\n")}});
  regenerate(files);
  gv::GateOptions options;
  options.baseline_file = baseline_file;
  gv::GateRunInfo info;
  options.info = &info;
  const IndexedSnapshot staged(files);
  const std::vector<Finding> first = gv::run_gate(staged, options);
  CHECK(info.answered == gv::VaultAnswer::full);
  REQUIRE(first.size() == 1);
  CHECK(first[0].check == "dangling-link");
  CHECK(gv::run_gate(staged, options).size() == 1);
  CHECK(info.answered == gv::VaultAnswer::baseline);

  // Flipped bytes fail the checksum; a file cut short fails the size.
  std::string bytes;
  {
    std::ifstream in(baseline_file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE(bytes.size() > 64);
  for (const std::string& damaged :
       {bytes.substr(0, bytes.size() - 5), bytes.substr(0, 40) + "x" + bytes.substr(41)}) {
    {
      std::ofstream out(baseline_file, std::ios::binary | std::ios::trunc);
      out << damaged;
    }
    CHECK_FALSE(
        gv::GateBaseline::load(baseline_file, gv::check_set_key(gv::builtin_gate_checks())));
    CHECK(shown(gv::run_gate(staged, options)) == shown(first));
    CHECK(info.answered == gv::VaultAnswer::full);
  }
  fs::remove_all(dir);
}

TEST_CASE(
    "a missing or foreign entries file makes the gate check in full; damage changes no finding",
    "[gate][delta]") {
  const fs::path dir = unique_temp_dir();
  const fs::path baseline_file = dir / "gate-baseline";
  const fs::path entries_file = dir / "gate-baseline.entries";
  Model model;
  for (int i = 0; i < 6; ++i) {
    model.memories["MEM-m" + std::to_string(i)] = {"Memory " + std::to_string(i), "", ""};
  }
  model.memories["MEM-m1"].body = "See [[MEM-ghost]].\n";
  gv::GeneratedRecords records;
  gv::GateRunInfo info;
  gv::GateOptions options;
  options.baseline_file = baseline_file;
  options.generated = &records;
  options.info = &info;
  const auto check = [&](int step) {
    INFO("step " << step);
    check_from_baseline(model, records, options);
  };

  check(0);
  CHECK(info.answered == gv::VaultAnswer::full);
  REQUIRE(fs::exists(entries_file));
  model.memories["MEM-m2"].body = "Edited.\n";
  check(1);
  CHECK(info.answered == gv::VaultAnswer::delta);

  fs::remove(entries_file);
  model.memories["MEM-m3"].body = "Edited with [[MEM-ghost2]].\n";
  check(2);
  CHECK(info.answered == gv::VaultAnswer::full);
  REQUIRE(fs::exists(entries_file));

  // Another entries file (its header records another checksum) is not used.
  std::string bytes = read_file(entries_file);
  REQUIRE(bytes.size() > 40);
  bytes[24] ^= 1;
  {
    std::ofstream out(entries_file, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  model.memories.erase("MEM-m4");
  check(3);
  CHECK(info.answered == gv::VaultAnswer::full);
  model.memories["MEM-m5"].body = "Edited again.\n";
  check(4);
  CHECK(info.answered == gv::VaultAnswer::delta);

  // Damage inside the entries file, which is not hashed again when read, at every byte in
  // turn: the damaged entry reads as changed and is checked again, or the entries no longer
  // parse and the gate checks in full. The findings are exact either way.
  const std::string good_baseline = read_file(baseline_file);
  const std::string good_entries = read_file(entries_file);
  model.memories["MEM-m0"].body = "Now links [[MEM-ghost3]].\n";
  std::map<gv::VaultAnswer, int> answers;
  for (std::size_t at = 32; at < good_entries.size(); ++at) {
    for (const auto& [file, content] :
         {std::pair{baseline_file, good_baseline}, std::pair{entries_file, good_entries}}) {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << (file == entries_file ? content.substr(0, at) + static_cast<char>(content[at] ^ 0x21) +
                                         content.substr(at + 1)
                                   : content);
    }
    check(static_cast<int>(1000 + at));
    ++answers[info.answered];
  }
  CHECK(answers[gv::VaultAnswer::delta] > 0);
  CHECK(answers[gv::VaultAnswer::full] > 0);
  fs::remove_all(dir);
}

TEST_CASE("the journal of changed entries is folded into a new entries file as it grows",
          "[gate][delta]") {
  const fs::path dir = unique_temp_dir();
  const fs::path entries_file = dir / "gate-baseline.entries";
  Model model;
  for (int i = 0; i < 60; ++i) {
    model.memories["MEM-m" + std::to_string(100 + i)] = {"Memory " + std::to_string(i), "", ""};
    // Files that do not read as memories: no link can count on them, so removing one is
    // followed from the baseline (removing a memory is checked in full).
    model.raw[gv::memory_path("MEM-b" + std::to_string(100 + i))] = "no frontmatter\n";
  }
  gv::GeneratedRecords records;
  gv::GateRunInfo info;
  gv::GateOptions options;
  options.baseline_file = dir / "gate-baseline";
  options.generated = &records;
  options.info = &info;
  int journaled = 0;
  int rewritten = 0;
  // Each step edits one more memory, adds one or removes a file: the journal holds more paths
  // each time.
  for (int step = 0; step < 60; ++step) {
    const std::string id = "MEM-m" + std::to_string(100 + step);
    if (step % 7 == 3) {
      model.raw.erase(gv::memory_path("MEM-b" + std::to_string(100 + step)));
    } else if (step % 7 == 5) {
      model.memories["MEM-n" + std::to_string(step)] = {"New", "", ""};
    } else {
      model.memories[id].body = "Edited at step " + std::to_string(step) + ".\n";
    }
    const std::string entries_before = read_file(entries_file);
    INFO("step " << step);
    check_from_baseline(model, records, options);
    if (step == 0) {
      CHECK(info.answered == gv::VaultAnswer::full);
      continue;
    }
    CHECK(info.answered == gv::VaultAnswer::delta);
    ++(read_file(entries_file) == entries_before ? journaled : rewritten);
  }
  CHECK(journaled > 20);
  CHECK(rewritten >= 2);
  fs::remove_all(dir);
}

TEST_CASE("comparing staged entries as blocks finds what comparing them one by one finds",
          "[gate][delta]") {
  const fs::path dir = unique_temp_dir();
  const fs::path file = dir / "gate-baseline";
  std::mt19937 random(20261204);
  const auto pick = [&](std::size_t n) {
    return static_cast<std::size_t>(std::uniform_int_distribution<std::size_t>(0, n - 1)(random));
  };
  const auto oid = [&] {
    std::string out;
    for (int i = 0; i < 40; ++i) {
      out += "0123456789abcdef"[pick(16)];
    }
    return out;
  };
  // A difference as a line: path, and the blob ids before and after (- for none).
  const auto lines = [](const std::vector<gv::GateBaseline::Difference>& differences) {
    std::vector<std::string> out;
    for (const gv::GateBaseline::Difference& d : differences) {
      out.push_back(std::string(d.path) + " " + (d.before ? d.before->oid_hex() : "-") + " " +
                    (d.after ? d.after->oid_hex() : "-"));
    }
    return out;
  };
  const auto parse = [](const std::map<std::string, std::string>& files) {
    std::vector<gv::SnapshotEntry> entries;
    for (const auto& [path, id] : files) {
      entries.push_back({path, id});
    }
    std::optional<gv::git::IndexFile> index = gv::git::IndexFile::parse(index_bytes(entries));
    REQUIRE(index);
    return std::move(*index);
  };
  for (int trial = 0; trial < 150; ++trial) {
    INFO("trial " << trial);
    std::map<std::string, std::string> before;
    const std::size_t count = 1 + pick(120);
    for (std::size_t i = 0; i < count; ++i) {
      before[gv::memory_path("MEM-" + std::to_string(pick(400)))] = oid();
    }
    before[".memory/00-Inbox/note.md"] = oid();
    // The staged state: some blobs changed, some files removed, some added; sometimes none.
    std::map<std::string, std::string> after = before;
    const std::size_t edits = pick(5);
    for (std::size_t e = 0; e < edits; ++e) {
      auto it = std::next(after.begin(), static_cast<std::ptrdiff_t>(pick(after.size())));
      switch (pick(3)) {
        case 0:
          it->second = oid();
          break;
        case 1:
          if (after.size() > 1) {
            after.erase(it);
          }
          break;
        default:
          after[gv::memory_path("MEM-" + std::to_string(pick(400)))] = oid();
      }
    }
    const gv::git::IndexFile base_index = parse(before);
    const gv::git::IndexFile staged_index = parse(after);
    gv::GateBaseline::Contents contents;
    contents.check_set_key = 1;
    contents.index_version = 2;
    contents.entry_bytes = *base_index.entry_bytes(base_index.with_prefix(".memory/"));
    REQUIRE(gv::GateBaseline::save(file, contents));
    const std::vector<const gv::git::IndexFile::Entry*> staged =
        gv::committed_vault_entries(staged_index);
    const std::string_view staged_bytes =
        *staged_index.entry_bytes(staged_index.with_prefix(".memory/"));

    std::optional<gv::GateBaseline> one_by_one = gv::GateBaseline::load(file, 1);
    std::optional<gv::GateBaseline> as_blocks = gv::GateBaseline::load(file, 1);
    REQUIRE(one_by_one);
    REQUIRE(as_blocks);
    const auto* slow = one_by_one->differences(staged, 2);
    const auto* fast = as_blocks->differences(staged, 2, staged_bytes);
    REQUIRE(slow);
    REQUIRE(fast);
    std::vector<std::string> expected;
    for (const auto& [path, id] : before) {
      const auto now = after.find(path);
      if (now == after.end()) {
        expected.push_back(path + " " + id + " -");
      } else if (now->second != id) {
        expected.push_back(path + " " + id + " " + now->second);
      }
    }
    for (const auto& [path, id] : after) {
      if (!before.contains(path)) {
        expected.push_back(path + " - " + id);
      }
    }
    std::sort(expected.begin(), expected.end());
    CHECK(lines(*slow) == expected);
    CHECK(lines(*fast) == expected);
  }
  fs::remove_all(dir);
}

}  // namespace gate_delta_test
