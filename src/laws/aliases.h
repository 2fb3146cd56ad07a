// The ids a law carried before it got its current one. Reports saved by an
// older posverify (a `check --baseline OLD.json`, a replay command copied from
// one) still name laws by those ids; current_id() maps them to today's, so
// that a saved baseline compares with the law it measured instead of calling
// it absent. One row per retired id: {old, current}.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace pv::laws {

struct alias {
  const char* old_id;
  const char* current_id;
};

inline constexpr std::array aliases{
    // the black-box check's name of the sinusoid's linear shift law
    alias{"sinusoid.shift_map", "sinusoid.linear_shift"},
    // the black-box check's names of the RoPE and FLUX.1 laws the properties
    // already named (laws/rope/, laws/flux/)
    alias{"rope.attention_translation", "rope.attention_translation_invariance"},
    alias{"rope.flux.per_axis_shift", "flux.per_axis_shift"},
    alias{"rope.flux.same_row_col", "flux.same_row_col"},
    alias{"rope.flux.text_ids_identity", "flux.text_identity"},
    alias{"rope.flux.model_grid", "flux.model_grid"},
    alias{"rope.flux.nonsquare_grid", "flux.nonsquare_grid"},
};

/// The current id of `id`: a retired id, or one with a qualifier
/// ("sinusoid.shift_map[float32]"), mapped to today's with the qualifier
/// kept; any other id unchanged.
inline std::string current_id(std::string_view id) {
  for (const alias& a : aliases) {
    const std::string_view old = a.old_id;
    if (id.size() >= old.size() && id.substr(0, old.size()) == old &&
        (id.size() == old.size() || id[old.size()] == '['))
      return std::string(a.current_id) + std::string(id.substr(old.size()));
  }
  return std::string(id);
}

}  // namespace pv::laws
