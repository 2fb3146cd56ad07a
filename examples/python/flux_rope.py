"""FLUX-style 3-axis RoPE built from 2 x 2 rotation matrices, served to posverify.

Positions (text ids, image rows, image columns) drive axes of 16, 56 and 56
components; each axis has its own speed ladder theta^(-2k/dim) computed in
float64, the per-pair 2 x 2 matrices [[cos, -sin], [sin, cos]] are built in
float64 and cast to float32, and they act on adjacent pairs (2i, 2i+1) of x in
float32 (the structure of the FLUX.1 reference code's EmbedND, rope and
apply_rope, written here from that description).

    posverify check --impl python:flux_rope:FluxRope --python-path examples/python \
        --rope-config adjacent:10000:16,56,56
"""

import torch

import posverify


def axis_matrices(pos, dim, theta):
    """[n, dim/2, 2, 2] rotation matrices of one axis (float64)."""
    omega = 1.0 / theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    ang = pos.to(torch.float64)[:, None] * omega[None, :]
    c, s = torch.cos(ang), torch.sin(ang)
    return torch.stack((torch.stack((c, -s), -1), torch.stack((s, c), -1)), -2)


class FluxRope(posverify.Kernel):
    name = "flux-rope"
    axis_order = (0, 1, 2)

    def rope(self, x, pos, cfg):
        if cfg.n_axes != 3 or cfg.pairing != "adjacent" or cfg.axes_dim != (16, 56, 56):
            raise NotImplementedError("FLUX.1 axes 16/56/56 with adjacent pairs only")
        if x.dtype == torch.float64:  # the matrices are cast to float32
            raise NotImplementedError("float64: the rotation matrices are float32")
        mats = torch.cat([axis_matrices(pos[:, a], dim, cfg.theta)
                          for a, dim in zip(self.axis_order, cfg.axes_dim)], dim=1).float()
        pairs = x.float().reshape(x.shape[0], -1, 1, 2)  # row vectors (x_2i, x_2i+1)
        out = (mats * pairs).sum(-1)  # each pair times its matrix
        return out.reshape(x.shape).to(x.dtype)


class FluxRopeRowsColumnsSwapped(FluxRope):
    """Wrong: the image rows drive the column axis and the columns the row axis."""

    name = "flux-rope-rows-columns-swapped"
    axis_order = (0, 2, 1)
