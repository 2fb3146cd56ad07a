"""Serve attention (plain and as models ship it), RoPE and sinusoid kernels written in Python to `posverify check`.

Subclass :class:`Kernel`, define the methods you have, and run::

    posverify check --impl python:my_module:MyKernel --python-path DIR

The methods take and return torch tensors (``backend = "torch"``, the default)
or numpy arrays (``backend = "numpy"``) of the call's dtype; raise
``NotImplementedError`` for a dtype or configuration you do not support.
To check a kernel from Python, :func:`check` runs ``posverify check`` and
returns its result (:class:`CheckResult`); :func:`list_laws` lists the laws it
would run. The pytest plugin (``posverify.pytest_plugin``, entry point
``posverify``) turns each law into a test of a module declaring
:class:`Check` objects.

See docs/python.md; the wire protocol is docs/protocol.md.
"""

import math
from dataclasses import dataclass, field
from typing import Any, Tuple

__all__ = ["Kernel", "RopeConfig", "RopeScaling", "ROPE_CAPS", "AttentionProblem", "ATTEND_CAPS", "EMPTY_ROWS",
           "PROTOCOL_VERSION", "check", "list_laws", "Check",
           "CheckResult", "LawResult", "PosverifyError"]

#: the highest version of docs/protocol.md this package speaks (it answers
#: posverify's HELLO with the lower of this and the version offered)
PROTOCOL_VERSION = 6

#: the RoPE configurations a kernel may declare in ``rope_caps`` and their
#: bits (PV_ROPE_* of posverify/impl.h); "length_from_positions": dynamic NTK
#: takes L from the call's positions (1 + the largest), not from
#: ``scaling.length`` (docs/rope-configs.md, "The sequence length of dynamic NTK");
#: from protocol 3, "rotary_offset" (the rotated block elsewhere than the first R
#: components) and "freq_factors" (per-pair frequency factors)
ROPE_CAPS = {"partial": 1, "mrope": 2, "scaled": 4, "length_from_positions": 8, "rotary_offset": 16,
             "freq_factors": 32}

#: from protocol 4, what ``attend`` may be called with beyond plain
#: multi-head attention (PV_ATTEND_* of posverify/impl.h): a call needing
#: another is "unsupported" without a call. "fixed_schedule" is a
#: declaration, not a configuration: a row's schedule depends only on its own
#: problem, never on the batch size or the other items, so a row has the same
#: bits in any call (attend.batch_invariance is bitwise for such a kernel).
#: "bias" (protocol 5): an explicit additive bias or keep-mask; "varlen"
#: (protocol 6): packed variable-length items (``cu_seqlens_q``, below)
ATTEND_CAPS = {"causal": 1, "window": 2, "padding": 4, "gqa": 8, "softcap": 16, "sinks": 32, "alibi": 64,
               "lse": 128, "fixed_schedule": 256, "bias": 512, "varlen": 1024}

#: what an empty row of ``attend`` (no visible key, no sink) holds
#: (pv_empty_rows): "" undeclared (no call with an empty row is made), the
#: zeros, NaN, or the mean of the item's valid values V[b, :k_len[b]]
EMPTY_ROWS = {"": 0, "zeros": 1, "nan": 2, "mean": 3}


@dataclass(frozen=True)
class RopeScaling:
    """How the speeds are scaled (pv_rope_scaling of posverify/impl.h; the
    formulas: docs/rope-configs.md). R is the number of rotated components."""

    kind: str = "none"  # "none", "linear", "ntk", "dynamic_ntk", "yarn" or "llama3"
    factor: float = 0.0  # the scale factor S (> 1)
    low: float = 0.0  # yarn: beta_slow; llama3: low_freq_factor
    high: float = 0.0  # yarn: beta_fast; llama3: high_freq_factor
    original_length: float = 0.0  # L0, original_max_position_embeddings
    length: float = 0.0  # dynamic_ntk: the current sequence length L
    attention_factor: float = 0.0  # yarn: the rotated components times this


@dataclass(frozen=True)
class RopeConfig:
    """The RoPE configuration of a call (pv_rope_config of posverify/impl.h).

    ``mrope`` and ``scaling`` are sent only to a kernel declaring them in
    ``Kernel.rope_caps`` ("mrope", "scaled"); partial rotary (``axes_dim``
    summing to R < head_dim) only to one declaring "partial"; a rotary offset
    and frequency factors only to one declaring "rotary_offset" and
    "freq_factors"."""

    head_dim: int  # components per head
    n_axes: int  # 1 for text, 3 for FLUX.1 and M-RoPE
    axes_dim: Tuple[int, ...]  # components per axis, summing to R <= head_dim (the rest pass through)
    theta: float  # base of each axis's speed ladder theta^(-2k/axes_dim[a])
    pairing: str  # "adjacent": (2i, 2i+1); "halves": (i, i + dim/2) within each axis
    #: M-RoPE (Qwen2-VL): ONE ladder theta^(-2k/R) over the R rotated components,
    #: pair k driven by axis a when 2k falls in the a-th section (axes_dim[a] components)
    mrope: bool = False
    scaling: RopeScaling = field(default_factory=RopeScaling)
    #: protocol 3, sent only to a kernel declaring "rotary_offset": the R rotated
    #: components are rotary_offset .. rotary_offset + R - 1 (head_dim - R: the
    #: last R, as MLA's rope part); the others pass through
    rotary_offset: int = 0
    #: protocol 3, sent only to a kernel declaring "freq_factors": R/2 factors,
    #: pair k turning at w_k / freq_factors[k] after the scaling (llama.cpp's
    #: rope_freqs, LongRoPE's factors); () when none
    n_freq_factors: int = 0
    freq_factors: Tuple[float, ...] = ()


@dataclass(frozen=True)
class AttentionProblem:
    """What one ``attend`` call computes (pv_attention_problem of
    posverify/impl.h; docs/check.md, "The attention call").

    Query i of batch item b sits at position p = q_start[b] + i, key j at j.
    Key j is visible to it when j < k_len[b], and j <= p if ``causal``, and
    p - window_left <= j (window_left >= 0), and j <= p + window_right
    (window_right >= 0). Query head h reads KV head h * h_kv // h_q. A
    visible key's logit is x = scale * q.k (scale 0: 1/sqrt(d)), then
    softcap c > 0: c * tanh(x / c), then ALiBi: + alibi[h] * (j - p), then
    the explicit bias (``bias`` not None): + bias[b or 0, i, j], the same for
    every head, -inf masking the key; sink[h] adds exp(sink[h]) to the
    softmax's denominator only."""

    batch: int
    h_q: int
    h_kv: int
    n_q: int
    n_k: int
    d: int
    d_v: int
    causal: bool = False
    window_left: int = -1  # inclusive; negative: unbounded
    window_right: int = -1
    scale: float = 0.0  # 0: 1/sqrt(d)
    softcap: float = 0.0  # 0: off
    #: int64 [batch] tensors (arrays for the numpy backend) on the kernel's device
    q_start: Any = None
    k_len: Any = None
    #: float64 [h_q] tensors, or None when the call has none
    sink: Any = None
    alibi: Any = None
    #: whether the call asks for the log-sum-exp: then ``attend`` returns (out, lse)
    lse: bool = False
    #: protocol 5, capability "bias": a float64 [bias_batch, n_q, n_k] tensor
    #: added to the logits after the softcap and ALiBi (-inf: the key masked),
    #: one per item, or one for every item when bias_batch is 1; None without
    bias: Any = None
    bias_batch: int = 0
    #: protocol 6, capability "varlen": the items packed end to end
    #: (FlashAttention's cu_seqlens), int64 [batch + 1] token offsets, None
    #: without. q, k, v and out are then one sequence, shape [1, n_q or n_k,
    #: heads, dim]: item b's query i is token cu_seqlens_q[b] + i, its key j
    #: token cu_seqlens_k[b] + j, k_len[b] its number of keys; q_start, the
    #: masks and the rule above take the item's own i and j, and a key of
    #: another item is never visible; the log-sum-exp is [1, h_q, n_q].
    #: Never with a bias.
    cu_seqlens_q: Any = None
    cu_seqlens_k: Any = None
    #: the strides of the C call the tensors were laid out with (elements of
    #: (batch, token, head)); the tensors already carry them
    q_stride: Tuple[int, ...] = ()
    k_stride: Tuple[int, ...] = ()
    v_stride: Tuple[int, ...] = ()
    out_stride: Tuple[int, ...] = ()

    @property
    def softmax_scale(self) -> float:
        """The scale of the logits: ``scale``, or 1/sqrt(d) when it is 0."""
        return self.scale if self.scale else 1.0 / math.sqrt(self.d)


class Kernel:
    """Base class of an implementation served to posverify.

    Define any of

    * ``attention(q, k, v)`` -> out: q [n_q, d], k [n_k, d], v [n_k, d_v];
      out [n_q, d_v] = softmax(q k^T / sqrt(d)) v, no mask;
    * ``rope(x, pos, cfg)`` -> rotated x: x [n, head_dim], pos float64
      [n, n_axes] (int64 with ``position_dtype = "int64"``), cfg a
      :class:`RopeConfig`; return the result, or None after rotating ``x`` in
      place;
    * ``sinusoid(pos, d, base, dtype)`` -> out [n, d]: adjacent (sin, cos)
      pairs with speeds base^(-2i/d), pos float64 [n];
    * ``attend(q, k, v, problem)`` -> out, or (out, lse) when ``problem.lse``:
      q [B, n_q, h_q, d], k [B, n_k, h_kv, d], v [B, n_k, h_kv, d_v] (strided
      views), problem an :class:`AttentionProblem`; out [B, n_q, h_q, d_v] in
      the call's dtype, lse [B, h_q, n_q] the natural log of each row's
      softmax denominator (any float dtype; -inf for an empty row). Keys past
      k_len[b] must not be read (they may hold NaN). Declare what it takes in
      ``attend_caps`` and ``attend_empty_rows``;

    Inputs other than x must not be written (posverify reports it). The
    result must have the call's dtype and shape. ``dtype`` arguments and
    tensors are torch dtypes (or numpy dtypes for the numpy backend).
    """

    #: name in the reports (default: the class name)
    name: str = ""
    #: "torch" or "numpy"
    backend: str = "torch"
    #: "" (the dtype's own), "float16", "bfloat16", "float16-pv-accumulation" or "float16-accumulation":
    #: the kernel's arithmetic is coarser than its interface (docs/check.md, section 5)
    accuracy: str = ""
    #: the RoPE configurations beyond plain ones ``rope`` is called with, names of
    #: :data:`ROPE_CAPS`: "partial" (axes_dim summing to less than head_dim),
    #: "mrope" (cfg.mrope), "scaled" (cfg.scaling.kind != "none"); the others
    #: are "unsupported" without a call
    rope_caps: Tuple[str, ...] = ("partial",)
    #: "float64" (default) or "int64": positions arrive as int64 when every
    #: position of the call is a whole number, else the call is declined
    position_dtype: str = "float64"
    #: what ``attend`` is called with beyond plain multi-head attention, names
    #: of :data:`ATTEND_CAPS`; the others are "unsupported" without a call
    #: ("fixed_schedule" declares batch invariance, no configuration)
    attend_caps: Tuple[str, ...] = ()
    #: what ``attend`` returns for a row with no visible key: a name of
    #: :data:`EMPTY_ROWS` ("" undeclared: no call with such a row is made)
    attend_empty_rows: str = ""

    def __init__(self, device: str = "cpu"):
        #: where the tensors go: "cpu", "cuda", "cuda:1", ... (``--device`` of posverify check)
        self.device = device


from .api import Check, CheckResult, LawResult, PosverifyError, check, list_laws  # noqa: E402
