#include "blackbox/rope_model.h"
#include "core/seeded.h"

#include <cctype>  // isdigit
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace pv::blackbox {
namespace {

/// A plain decimal (digits, '.', exponent): strtod also takes blanks, signs, hex and "inf".
bool plain_number(const std::string& s, double& v) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])) ||
      s.find_first_not_of("0123456789.eE+-") != std::string::npos)
    return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !*end && std::isfinite(v);
}

/// The arguments of NAME(a,b,...) as plain decimals; `bad` names the modifier and value.
template <class Bad>
std::vector<double> modifier_args(const std::string& m, const std::string& name, std::size_t n,
                                  const char* fields, Bad bad) {
  const std::string inner = m.substr(name.size() + 1, m.size() - name.size() - 2);
  std::vector<double> v;
  std::size_t i = 0;
  while (i <= inner.size()) {
    std::size_t c = inner.find(',', i);
    if (c == std::string::npos) c = inner.size();
    const std::string a = inner.substr(i, c - i);
    double x = 0;
    if (!plain_number(a, x) || x <= 0)
      throw bad(name + " argument '" + a + "' is not a positive number (" + name + "(" + fields + "))");
    v.push_back(x);
    i = c + 1;
  }
  if (n != 0 && v.size() != n)
    throw bad(name + " takes " + std::to_string(n) + " arguments (" + name + "(" + fields + ")), got " +
              std::to_string(v.size()));
  return v;
}

bool is_integer(double v) { return v == std::floor(v) && v < 1e9; }

const std::string kModifiers = "partial, last, mrope, freq_factors, linear, ntk, dynamic, yarn, llama3";

}  // namespace

rope_cfg parse_rope_config(const std::string& spec) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("--rope-config '" + spec + "': " + why +
                                 " (expected PAIRING:THETA:DIMS[:MODIFIERS], e.g. halves:500000:128, "
                                 "adjacent:10000:16,56,56 or halves:500000:128:llama3(8,1,4,8192); "
                                 "docs/rope-configs.md)");
  };
  std::size_t c1 = spec.find(':'), c2 = c1 == std::string::npos ? c1 : spec.find(':', c1 + 1);
  if (c2 == std::string::npos) throw bad("needs three fields separated by ':'");
  const std::size_t c3 = spec.find(':', c2 + 1);
  const std::string pairing = spec.substr(0, c1), theta_s = spec.substr(c1 + 1, c2 - c1 - 1),
                    dims_s = spec.substr(c2 + 1, c3 == std::string::npos ? std::string::npos : c3 - c2 - 1);
  rope_cfg r;
  r.spec = spec;
  if (pairing == "adjacent") r.c.pairing = PV_PAIRS_ADJACENT;
  else if (pairing == "halves") r.c.pairing = PV_PAIRS_HALVES;
  else throw bad("pairing '" + pairing + "' is neither adjacent nor halves");
  if (!plain_number(theta_s, r.c.theta) || r.c.theta <= 1)
    throw bad("theta '" + theta_s + "' is not a number greater than 1");
  std::size_t i = 0;
  int sum = 0;
  r.c.n_axes = 0;
  std::string dims_name;
  while (i <= dims_s.size()) {
    std::size_t c = dims_s.find(',', i);
    if (c == std::string::npos) c = dims_s.size();
    const std::string d = dims_s.substr(i, c - i);
    char* end = nullptr;
    long v = d.size() > 4 || d.find_first_not_of("0123456789") != std::string::npos ? 0 : std::strtol(d.c_str(), &end, 10);
    if (d.empty() || v <= 0 || v % 2 || v > 4096)
      throw bad("axis dimension '" + d + "' is not an even number in [2, 4096]");
    if (r.c.n_axes == 4) throw bad("at most 4 axes");
    r.c.axes_dim[r.c.n_axes++] = static_cast<int>(v);
    sum += static_cast<int>(v);
    dims_name += (dims_name.empty() ? "" : "-") + d;
    i = c + 1;
  }
  if (sum > 4096) throw bad("head_dim " + std::to_string(sum) + " exceeds 4096");
  r.c.head_dim = sum;
  r.name = "user-" + pairing + "-" + dims_name + "-theta" + theta_s;
  if (c3 == std::string::npos) return r;
  // modifiers, joined by '+': partial(R), mrope(T,H,W[,E]) (both: M-RoPE over
  // the first R components), and at most one scaling
  const std::string mods = spec.substr(c3 + 1);
  bool scaled = false;
  double partial_R = 0;         // partial(R) or last(R), when given
  std::vector<double> sections;  // mrope(...), when given
  std::vector<double> factors;   // freq_factors(...), when given
  i = 0;
  while (i <= mods.size()) {
    std::size_t c = mods.find('+', i);
    if (c == std::string::npos) c = mods.size();
    const std::string m = mods.substr(i, c - i);
    i = c + 1;
    const std::size_t open = m.find('(');
    if (open == std::string::npos || m.back() != ')')
      throw bad("modifier '" + m + "' is not NAME(ARGS) (" + kModifiers + ")");
    const std::string name = m.substr(0, open);
    std::string tag = m;
    for (char& ch : tag)
      if (ch == '(' || ch == ',') ch = '-';
    tag.pop_back();
    if (name == "freq_factors") {  // up to 128 values: a digest of them names the configuration
      char h[9];
      std::snprintf(h, sizeof h, "%08llx", static_cast<unsigned long long>(fnv1a(m) & 0xffffffffu));
      tag = "freq_factors-" + std::string(h);
    }
    r.name += "-" + tag;
    auto& s = r.c.scaling;
    auto set_scaling = [&](pv_rope_scaling_kind k) {
      if (scaled) throw bad("modifier '" + m + "': at most one scaling (linear, ntk, dynamic, yarn, llama3)");
      scaled = true;
      s.kind = k;
    };
    auto factor_ok = [&](double f) {
      if (f <= 1 || f > 1e6) throw bad(name + " factor '" + to_decimal(f) + "' is not in (1, 1e6]");
    };
    auto length_ok = [&](double L, const char* what) {
      if (!is_integer(L) || L < 2) throw bad(name + " " + what + " '" + to_decimal(L) + "' is not a whole number >= 2");
    };
    if (name == "partial" || name == "last" || name == "mrope") {
      if (name == "mrope" ? !sections.empty() : partial_R > 0)
        throw bad("modifier '" + m + "': " + (name == "mrope" ? name : std::string("partial or last")) + " twice");
      if (r.c.n_axes != 1) throw bad(name + " needs one head dimension in DIMS, got '" + dims_s + "'");
      const int D = r.c.head_dim;
      if (name != "mrope") {
        const double R = modifier_args(m, name, 1, "R", bad)[0];
        if (!is_integer(R) || int(R) % 2 || R > D || R < 2)
          throw bad(std::string(name == "last" ? "rotary" : "partial rotary") + " dimension '" + to_decimal(R) +
                    "' is not an even number in [2, " + std::to_string(D) + "]");
        partial_R = R;
        // last(R): the last R components rotate (MLA's rope part after the no-position part)
        if (name == "last") r.c.rotary_offset = D - int(R);
      } else {
        // three sections (Qwen2-VL: temporal, height, width), or four (ggml's
        // M-RoPE has a fourth, "e")
        const bool four = std::count(m.begin(), m.end(), ',') == 3;
        sections = modifier_args(m, name, four ? 4 : 3, "T,H,W[,E]", bad);
        for (double v : sections)
          if (!is_integer(v) || v < 1) throw bad("mrope section '" + to_decimal(v) + "' is not a whole number of pairs >= 1");
      }
    } else if (name == "linear" || name == "ntk") {
      const double f = modifier_args(m, name, 1, "FACTOR", bad)[0];
      factor_ok(f);
      set_scaling(name == "linear" ? PV_SCALE_LINEAR : PV_SCALE_NTK);
      s.factor = f;
    } else if (name == "dynamic") {
      auto a = modifier_args(m, name, 3, "FACTOR,ORIGINAL_LENGTH,LENGTH", bad);
      factor_ok(a[0]);
      length_ok(a[1], "original length");
      length_ok(a[2], "length");
      set_scaling(PV_SCALE_DYNAMIC_NTK);
      s.factor = a[0];
      s.original_length = a[1];
      s.length = a[2];
    } else if (name == "yarn") {
      // an optional fifth argument sets the attention factor a (default 0.1 ln S + 1)
      const bool given_a = std::count(m.begin(), m.end(), ',') == 4;
      auto a = modifier_args(m, name, given_a ? 5 : 4, "FACTOR,BETA_FAST,BETA_SLOW,ORIGINAL_LENGTH[,ATTENTION_FACTOR]", bad);
      factor_ok(a[0]);
      if (!(a[1] > a[2])) throw bad("yarn beta_fast '" + to_decimal(a[1]) + "' is not above beta_slow '" + to_decimal(a[2]) + "'");
      length_ok(a[3], "original length");
      set_scaling(PV_SCALE_YARN);
      s.factor = a[0];
      s.high = a[1];
      s.low = a[2];
      s.original_length = a[3];
      s.attention_factor = given_a ? a[4] : 0.1 * std::log(a[0]) + 1;
      if (given_a && a[4] > 16)
        throw bad("yarn attention factor '" + to_decimal(a[4]) + "' is not in (0, 16]");
    } else if (name == "llama3") {
      auto a = modifier_args(m, name, 4, "FACTOR,LOW_FREQ_FACTOR,HIGH_FREQ_FACTOR,ORIGINAL_LENGTH", bad);
      factor_ok(a[0]);
      if (!(a[2] > a[1]))
        throw bad("llama3 high_freq_factor '" + to_decimal(a[2]) + "' is not above low_freq_factor '" + to_decimal(a[1]) + "'");
      length_ok(a[3], "original length");
      set_scaling(PV_SCALE_LLAMA3);
      s.factor = a[0];
      s.low = a[1];
      s.high = a[2];
      s.original_length = a[3];
    } else if (name == "freq_factors") {
      if (!factors.empty()) throw bad("modifier 'freq_factors': twice");
      factors = modifier_args(m, name, 0, "F0,F1,...: one per rotated pair", bad);
      for (double f : factors)
        if (f > 1e6) throw bad("freq_factors value '" + to_decimal(f) + "' is not in (0, 1e6]");
    } else {
      throw bad("modifier '" + name + "' is not one of " + kModifiers);
    }
  }
  if (partial_R > 0) r.c.axes_dim[0] = int(partial_R);
  if (!sections.empty()) {  // the sections cover the rotated components: head_dim, or R with partial(R)
    const int R = r.c.axes_dim[0];
    double total = 0;
    for (double v : sections) total += v;
    if (total * 2 != R)
      throw bad("mrope sections (pairs) sum to " + to_decimal(total) + ", not " +
                (partial_R > 0 ? "R/2 = " : "head_dim/2 = ") + std::to_string(R / 2));
    r.c.n_axes = int(sections.size());
    for (std::size_t a = 0; a < sections.size(); ++a) r.c.axes_dim[a] = int(2 * sections[a]);
    r.c.mrope = 1;
  }
  if (!factors.empty()) {  // one per pair of the R rotated components (llama.cpp's rope_freqs, LongRoPE)
    const std::size_t pairs = rotary_dim(r.c) / 2;
    if (factors.size() != pairs)
      throw bad("freq_factors has " + std::to_string(factors.size()) + " values, the configuration rotates " +
                std::to_string(pairs) + " pairs (R/2)");
    if (pairs > PV_MAX_FREQ_FACTORS)
      throw bad("freq_factors: at most " + std::to_string(PV_MAX_FREQ_FACTORS) + " pairs, the configuration rotates " +
                std::to_string(pairs));
    r.c.n_freq_factors = int(pairs);
    for (std::size_t k = 0; k < pairs; ++k) r.c.freq_factors[k] = factors[k];
  }
  // theta' = theta b^(R/(R-2)) needs R >= 4
  if ((r.c.scaling.kind == PV_SCALE_NTK || r.c.scaling.kind == PV_SCALE_DYNAMIC_NTK) && rotary_dim(r.c) < 4)
    throw bad("ntk and dynamic need at least 4 rotated components, got " + std::to_string(rotary_dim(r.c)));
  for (const auto& p : reference_layout(r.c).pairs)
    if (const double w = convert<double>(p.speed); !std::isfinite(w) || !(w >= 0x1p-1022))
      throw bad("theta '" + theta_s + "' with '" + mods + "' gives a speed outside the normal doubles");
  return r;
}

std::vector<std::pair<std::string, std::string>> rope_presets() {
  return {{"llama-3.1-8b", "halves:500000:128:llama3(8,1,4,8192)"},
          {"qwen2-vl", "halves:1000000:128:mrope(16,24,24)"},
          {"flux.1", "adjacent:10000:16,56,56"},
          {"phi-2", "halves:10000:80:partial(32)"},
          {"gpt-neox-20b", "halves:10000:96:partial(24)"},
          // MLA: a query head of 128 components without position, then 64 rotated by
          // YaRN (factor 40 from 4096), its mscale moved into the softmax scale (a = 1)
          {"deepseek-v2-lite", "adjacent:10000:192:last(64)+yarn(40,32,1,4096,1)"}};
}

rope_cfg parse_rope_preset(const std::string& name) {
  std::string known;
  for (const auto& [n, spec] : rope_presets()) {
    if (n == name) {
      rope_cfg r = parse_rope_config(spec);
      r.name = n;
      return r;
    }
    known += (known.empty() ? "" : ", ") + n;
  }
  throw std::invalid_argument("--rope-preset '" + name + "' is not a known model (" + known + ")");
}

}  // namespace pv::blackbox
