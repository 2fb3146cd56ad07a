"""A RoPE in numpy (adjacent pairs, any axes), served to posverify.

    posverify check --impl python:numpy_rope:NumpyRope --python-path examples/python
"""

import numpy as np

import posverify


class NumpyRope(posverify.Kernel):
    name = "numpy-rope"
    backend = "numpy"

    def rope(self, x, pos, cfg):
        if cfg.pairing != "adjacent":
            raise NotImplementedError("adjacent pairs only")
        out = np.empty_like(x)
        col = 0
        for a, dim in enumerate(cfg.axes_dim):
            k = np.arange(dim // 2, dtype=np.float64)
            w = cfg.theta ** (-2.0 * k / dim)
            ang = pos[:, a:a + 1] * w[None, :]  # float64 angles
            c, s = np.cos(ang).astype(x.dtype), np.sin(ang).astype(x.dtype)
            xa, xb = x[:, col:col + dim:2], x[:, col + 1:col + dim:2]
            out[:, col:col + dim:2] = xa * c - xb * s
            out[:, col + 1:col + dim:2] = xa * s + xb * c
            col += dim
        return out
