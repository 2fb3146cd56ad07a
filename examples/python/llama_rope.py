"""Llama-style RoPE as transformer libraries compute it, served to posverify.

Split halves (i, i + d/2) with ``rotate_half``, an inverse-frequency table
computed in float32, angles ``pos * inv_freq`` in float32, cos/sin cast to the
model's dtype, then ``x * cos + rotate_half(x) * sin`` in that dtype (the
structure of Hugging Face transformers' LlamaRotaryEmbedding and
apply_rotary_pos_emb, written here from that description).

    posverify check --impl python:llama_rope:LlamaRope --python-path examples/python \
        --rope-config halves:500000:128
    posverify check --impl python:llama_rope:LlamaRope --python-path examples/python \
        --rope-preset llama-3.1-8b

It rotates R = sum(axes_dim) components (the first R, or from
``cfg.rotary_offset`` on, as MLA's rope part at the end of a head) and passes
the rest through (partial rotary, as transformers does for
``partial_rotary_factor``), and scales the inverse frequencies as transformers'
rope utilities (``modeling_rope_utils.py``: the default, linear, dynamic, yarn
and llama3 parameters) do for ``rope_type`` "linear", "dynamic", "yarn" and
"llama3", YaRN's attention factor multiplying cos and sin; per-pair frequency
factors divide the inverse frequencies (as LongRoPE's ``ext_factors`` do). It
declares all of it (``rope_caps``) so that posverify sends it those
configurations. Dynamic NTK runs as transformers' ``dynamic_rope_update`` runs it:
the length is 1 + the largest position id of the call, never
``scaling.length``; the table is rebuilt when that length passes the longest
one cached and restored when a call shorter than L0 follows a longer one. So it
declares "length_from_positions", and posverify sends each dynamic-NTK call a
row at the configured length's last position.

The wrong siblings below are the classic mistakes; each must be caught.
"""

import math

import torch

import posverify


def rotate_half(x):
    """(x1, x2) -> (-x2, x1) on the two halves of the last axis."""
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def llama3_inv_freq(inv_freq, s):
    """Llama 3.1's rule on a float32 ladder (after transformers'
    _compute_llama3_parameters, paraphrased): pairs whose wavelength
    2 pi / w exceeds L0/low are slowed by the factor, those below L0/high keep
    their speed, and between the two the speed blends w/factor and w by
    g = (L0/wavelength - low) / (high - low)."""
    wavelength = 2 * math.pi / inv_freq
    slowed = torch.where(wavelength > s.original_length / s.low, inv_freq / s.factor, inv_freq)
    g = (s.original_length / wavelength - s.low) / (s.high - s.low)
    blended = (1 - g) * slowed / s.factor + g * slowed
    between = (wavelength >= s.original_length / s.high) & (wavelength <= s.original_length / s.low)
    return torch.where(between, blended, slowed)


def yarn_inv_freq(inv_freq, s, theta, r):
    """YaRN's blend (after transformers' _compute_yarn_parameters, paraphrased):
    pairs below the correction dimension of beta_fast keep w, those above the
    one of beta_slow take w / factor, and a linear ramp blends them between
    (correction dimensions floored and ceiled, clamped to [0, r - 1])."""
    def dim_at(rotations):
        return r * math.log(s.original_length / (rotations * 2 * math.pi)) / (2 * math.log(theta))

    lo, hi = max(math.floor(dim_at(s.high)), 0), min(math.ceil(dim_at(s.low)), r - 1)
    if lo == hi:
        hi += 0.001
    ramp = ((torch.arange(r // 2, dtype=torch.float32) - lo) / (hi - lo)).clamp(0, 1)
    return inv_freq / s.factor * ramp + inv_freq * (1 - ramp)


class LlamaRope(posverify.Kernel):
    name = "llama-rope"
    rope_caps = ("partial", "scaled", "length_from_positions", "rotary_offset", "freq_factors")

    def __init__(self):
        super().__init__()
        self.dynamic = None  # dynamic NTK's cache: (configuration key, longest length, inverse frequencies)

    def dynamic_inv_freq(self, cfg, length):
        """Dynamic NTK's table for a call of `length` positions, through the
        cache (after transformers' dynamic_rope_update, paraphrased): grown
        when the length passes the longest cached, reset to the original
        table when a shorter call than L0 follows a longer one."""
        r, s = sum(cfg.axes_dim), cfg.scaling
        key = (cfg.theta, r, s.factor, s.original_length)
        if self.dynamic is None or self.dynamic[0] != key:
            self.dynamic = (key, s.original_length, self.ladder(cfg.theta, r))
        _, cached, table = self.dynamic
        if length > cached:  # growth
            base = cfg.theta * (s.factor * length / s.original_length - (s.factor - 1)) ** (r / (r - 2))
            cached, table = length, self.ladder(base, r)
        if self.resets and length < s.original_length and cached > s.original_length:  # reset
            cached, table = s.original_length, self.ladder(cfg.theta, r)
        self.dynamic = (key, cached, table)
        return table

    resets = True

    def ladder(self, theta, dim):
        """The plain inverse frequencies theta^(-2k/dim), in float32."""
        return 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))

    def inv_freq(self, cfg, length):
        r, s, theta = sum(cfg.axes_dim), cfg.scaling, cfg.theta
        if s.kind == "ntk":  # the base grows (computed in double, as a Python float)
            theta = theta * s.factor ** (r / (r - 2))
        elif s.kind == "dynamic_ntk":  # the same with the factor of the call's length, from L0 on
            return self.dynamic_inv_freq(cfg, length)
        elif s.kind not in ("none", "linear", "llama3", "yarn"):
            raise NotImplementedError("RoPE scaling %r" % s.kind)
        inv_freq = self.ladder(theta, r)
        if s.kind == "linear":  # position interpolation: every speed divided by the factor
            inv_freq = inv_freq / s.factor
        elif s.kind == "llama3":
            inv_freq = llama3_inv_freq(inv_freq, s)
        elif s.kind == "yarn":
            inv_freq = yarn_inv_freq(inv_freq, s, theta, r)
        return inv_freq

    def attention_factor(self, cfg):
        """YaRN's factor on cos and sin (the configuration gives it), else 1."""
        return cfg.scaling.attention_factor if cfg.scaling.kind == "yarn" else 1.0

    def positions(self, pos):
        return pos[:, 0].float()

    def rotate(self, x):
        return rotate_half(x)

    def rope(self, x, pos, cfg):
        if cfg.n_axes != 1 or cfg.pairing != "halves":
            raise NotImplementedError("text RoPE with split halves only")
        if x.dtype == torch.float64:  # the float32 table and angles make it a float32 kernel
            raise NotImplementedError("float64: the tables are float32")
        r, off = sum(cfg.axes_dim), cfg.rotary_offset
        x_before, x_rot, x_after = x[:, :off], x[:, off:off + r], x[:, off + r:]
        length = int(pos[:, 0].max().item()) + 1  # the sequence's length, from its position ids
        inv_freq = self.inv_freq(cfg, length)
        if cfg.n_freq_factors:  # per-pair factors divide the inverse frequencies
            inv_freq = inv_freq / torch.tensor(cfg.freq_factors, dtype=torch.float32)
        freqs = torch.outer(self.positions(pos), inv_freq.to(x.device))
        emb = torch.cat((freqs, freqs), dim=-1)
        a = self.attention_factor(cfg)
        cos, sin = (emb.cos() * a).to(x.dtype), (emb.sin() * a).to(x.dtype)
        return torch.cat((x_before, x_rot * cos + self.rotate(x_rot) * sin, x_after), dim=-1)


class LlamaRopeExponentOverD(LlamaRope):
    """Wrong: speeds theta^(-i/d) (exponent i/d instead of 2i/d)."""

    name = "llama-rope-exponent-i-over-d"

    def ladder(self, theta, dim):
        return 1.0 / (theta ** (torch.arange(0, dim // 2, dtype=torch.int64).float() / dim))


class LlamaRopeIgnoresScaling(LlamaRope):
    """Wrong: declares scaled configurations but turns by the plain ladder
    whatever cfg.scaling says (a RoPE written before rope_scaling existed)."""

    name = "llama-rope-ignores-scaling"

    def inv_freq(self, cfg, length):
        return self.ladder(cfg.theta, sum(cfg.axes_dim))


class LlamaRopeRotateHalfSign(LlamaRope):
    """Wrong: rotate_half returns (x2, -x1), the rotation turns backwards."""

    name = "llama-rope-rotate-half-sign"

    def rotate(self, x):
        return -rotate_half(x)


class LlamaRopePositionsBf16(LlamaRope):
    """Wrong: the position ids pass through bfloat16 (257 becomes 256)."""

    name = "llama-rope-positions-bf16"

    def positions(self, pos):
        return pos[:, 0].to(torch.bfloat16).float()


class LlamaRopeDynamicNeverResets(LlamaRope):
    """Wrong: dynamic NTK's cache only grows (transformers' dynamic rotary
    embedding before the reset was added): after one long call, a sequence
    shorter than L0 still turns by the long one's base, so its output depends
    on what ran before."""

    name = "llama-rope-dynamic-never-resets"
    resets = False
