"""Serve attention, RoPE and sinusoid kernels written in Python to `posverify check`.

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

from dataclasses import dataclass
from typing import Tuple

__all__ = ["Kernel", "RopeConfig", "PROTOCOL_VERSION", "check", "list_laws", "Check", "CheckResult", "LawResult",
           "PosverifyError"]

PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class RopeConfig:
    """The RoPE configuration of a call (pv_rope_config of posverify/impl.h)."""

    head_dim: int  # components per head
    n_axes: int  # 1 for text, 3 for FLUX.1
    axes_dim: Tuple[int, ...]  # components per axis, summing to head_dim
    theta: float  # base of each axis's speed ladder theta^(-2k/axes_dim[a])
    pairing: str  # "adjacent": (2i, 2i+1); "halves": (i, i + dim/2) within each axis


class Kernel:
    """Base class of an implementation served to posverify.

    Define any of

    * ``attention(q, k, v)`` -> out: q [n_q, d], k [n_k, d], v [n_k, d_v];
      out [n_q, d_v] = softmax(q k^T / sqrt(d)) v, no mask;
    * ``rope(x, pos, cfg)`` -> rotated x: x [n, head_dim], pos float64
      [n, n_axes], cfg a :class:`RopeConfig`; return the result, or None after
      rotating ``x`` in place;
    * ``sinusoid(pos, d, base, dtype)`` -> out [n, d]: adjacent (sin, cos)
      pairs with speeds base^(-2i/d), pos float64 [n];

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

    def __init__(self, device: str = "cpu"):
        #: where the tensors go: "cpu", "cuda", "cuda:1", ... (``--device`` of posverify check)
        self.device = device


from .api import Check, CheckResult, LawResult, PosverifyError, check, list_laws  # noqa: E402
