// rope.attention_translation_invariance (chapter "rope.relative", FLUX
// "flux.separate-offsets"): RoPE attention sees positions only through their
// differences, so shifting every position by the same s (per axis for
// multi-axis RoPE) leaves the whole self-attention output unchanged.
#include "properties/property.h"
#include "laws/rope/attention_translation_invariance.h"

namespace {
namespace attention_translation_invariance_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;
namespace law = pv::laws::attention_translation_invariance;

/// Checks the law in T; returns false when the case tests nothing in T: every
/// entry's bound covers the whole spread of its value column (both outputs are
/// convex combinations of the values, so any two agree within that spread).
template <class T>
bool check_layout(const rope_layout<T>& L, const matrix<double>& X0,
                  const std::vector<std::vector<double>>& pos,
                  const std::vector<std::vector<double>>& shifted) {
  const auto X = convert_matrix<T>(X0);
  const auto R1 = rope_apply(L, X, pos), R2 = rope_apply(L, X, shifted);
  const auto A1 = rope_self_attention(L, X, pos), A2 = rope_self_attention(L, X, shifted);
  // Exact outputs are equal; each computed one is within its forward bound.
  const matrix<hp> none;
  auto B = attention_forward_bound(R1, R1, X, rope_apply_error(L, X, pos),
                                   rope_apply_error(L, X, pos), none);
  const auto B2 = attention_forward_bound(R2, R2, X, rope_apply_error(L, X, shifted),
                                          rope_apply_error(L, X, shifted), none);
  for (std::size_t i = 0; i < B.a.size(); ++i) B.a[i] += B2.a[i];
  prop::expect_within<T>("RoPE attention at positions p vs p + s", A1, A2, B);
  for (std::size_t c = 0; c < X0.cols; ++c) {
    double lo = X0(0, c), hi = X0(0, c);
    for (std::size_t j = 1; j < X0.rows; ++j) lo = std::min(lo, X0(j, c)), hi = std::max(hi, X0(j, c));
    for (std::size_t i = 0; i < B.rows; ++i)
      if (B(i, c) < hp(hi - lo)) return true;
  }
  return false;
}

/// How many times a case whose float32 bound covers the values' range is
/// redrawn: such a case tests nothing in float32 (its hp and float64 checks
/// still run and count). After this many redraws the last case is kept and
/// tagged, so the report shows how often even that did not help.
constexpr int kMaxRedraws = 4;

/// A drawn case: whether its float32 and float64 checks could fail, and its kind.
struct drawn {
  bool f32 = false, f64 = false;
  const char* kind = "";
};

/// Tags what the kept case tests, and how many draws it took.
void tag_case(bool f32, bool f64, int redraws) {
  RC_CLASSIFY(redraws > 0, "redrawn: an earlier draw's float32 bound covered the values' range");
  RC_CLASSIFY(!f32, "float32 bound covers the values' range (tests nothing in float32)");
  RC_CLASSIFY(!f64, "float64 bound covers the values' range (tests nothing in float64)");
}

std::string show_positions(const std::vector<std::vector<double>>& p) {
  std::string s = "[";
  for (std::size_t i = 0; i < p.size(); ++i) {
    s += i ? ", (" : "(";
    for (std::size_t a = 0; a < p[i].size(); ++a) s += (a ? ", " : "") + to_decimal(p[i][a]);
    s += ")";
  }
  return s + "]";
}


PV_PROPERTY(law::id, law::property_statement(), law::forward_tolerance_rule(),
            [] {
              // one draw, checked in hp, float64 and float32
              const auto draw = []() -> drawn {
              if (*rc::gen::arbitrary<bool>()) {
                const auto spec = *gen::rope_1d(2, 16);
                const auto X0 = *gen::tokens({2, 8, spec.d, spec.d, true, true});
                const auto p = *rc::gen::container<std::vector<std::int64_t>>(
                    X0.rows, gen::position_int());
                const auto s = *gen::shift_int();
                std::vector<std::vector<double>> pos, sh;
                for (auto v : p) pos.push_back({double(v)}), sh.push_back({double(v + s)});
                check_layout(gen::layout<hp>(spec), X0, pos, sh);
                const bool f64 = check_layout(gen::layout<double>(spec), X0, pos, sh);
                return {check_layout(gen::layout<float>(spec), X0, pos, sh), f64, "1-D"};
              } else {
                const auto f = *gen::flux_config(false);
                const auto g = *gen::flux_grid(4);
                const std::size_t d = f.axes_dim[0] + f.axes_dim[1] + f.axes_dim[2];
                auto pos = flux_grid_ids(g.h, g.w, double(*pv::gen::uniform(0, 3)));
                const bool text = *rc::gen::arbitrary<bool>();
                if (text) pos.insert(pos.begin(), std::vector<double>{0, 0, 0});  // a text token
                const auto X0 = *gen::tokens({pos.size(), pos.size(), d, d, true, true});
                const auto s = *rc::gen::container<std::vector<std::int64_t>>(3, gen::shift_int());
                auto sh = pos;
                for (auto& q : sh)
                  for (std::size_t a = 0; a < 3; ++a) q[a] += double(s[a]);
                RC_LOG() << "positions " << show_positions(pos) << "\n";
                check_layout(gen::layout<hp>(f), X0, pos, sh);
                const bool f64 = check_layout(gen::layout<double>(f), X0, pos, sh);
                return {check_layout(gen::layout<float>(f), X0, pos, sh), f64, "FLUX grid"};
              }
              };
              int redraws = 0;
              drawn c = draw();
              while (!c.f32 && redraws < kMaxRedraws) ++redraws, c = draw();
              RC_TAG(std::string(c.kind));
              tag_case(c.f32, c.f64, redraws);
            });

}  // namespace attention_translation_invariance_property
}  // namespace
