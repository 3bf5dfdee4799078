#include <utility>

#include "core/distill/sub_mode.hpp"

namespace gv::distill {

// Each sub-mode lives in core/distill/<name>.cpp and exports its factory here.
std::unique_ptr<SubMode> make_purge();
std::unique_ptr<SubMode> make_refine();
std::unique_ptr<SubMode> make_auto();  // core/distill/auto_mode.cpp
std::unique_ptr<SubMode> make_gc();
std::unique_ptr<SubMode> make_merge();
std::unique_ptr<SubMode> make_compress();

namespace {

struct Factory {
  std::string_view name;
  std::unique_ptr<SubMode> (*make)();
};

constexpr Factory k_factories[] = {
    {"purge", make_purge}, {"refine", make_refine}, {"auto", make_auto},
    {"gc", make_gc},       {"merge", make_merge},   {"compress", make_compress},
};

}  // namespace

std::unique_ptr<SubMode> make_sub_mode(std::string_view name) {
  for (const Factory& factory : k_factories) {
    if (factory.name == name) {
      return factory.make();
    }
  }
  return nullptr;
}

}  // namespace gv::distill
