"""Attention as model code writes it by hand ("eager"), served to posverify's attend laws.

The shape of Hugging Face's eager attention: K/V heads repeated for grouped-query
attention (``repeat_kv``), a mask built from the cache positions of the queries,
logits scaled and soft-capped (Gemma 2), ALiBi slopes and an explicit additive mask
added (its -inf joining the mask), a sink logit per head
joined to the softmax and dropped after it (gpt-oss), the softmax in float32, then
the weighted sum of V. Each batch item reads only its first k_len keys, as a
variable-length kernel does (padded keys may hold anything, NaN included).
Items packed in one sequence (``cu_seqlens``, FlashAttention's varlen call, as
Hugging Face's flash path unpads a batch) are each attended over their own
tokens.

    posverify check --impl python:eager_attention:EagerAttention --python-path examples/python

``EagerAttention`` masks with -inf and returns zeros for a row with no visible key
(FlashAttention's convention); ``EagerFinfoMin`` adds ``finfo.min`` instead, as
Hugging Face's masks do, which turns such a row into the mean of V: it declares
that. The other classes are wrong in one way each, the ways of published bugs
(docs/check.md, "The attention call"): posverify must catch each and name it.
"""

import dataclasses

import torch

import posverify


def repeat_kv(x, n_rep):
    """[B, n, h_kv, d] -> [B, n, h_kv * n_rep, d], each KV head n_rep times in a row
    (query head h reads KV head h // n_rep)."""
    if n_rep == 1:
        return x
    b, n, h, d = x.shape
    return x[:, :, :, None, :].expand(b, n, h, n_rep, d).reshape(b, n, h * n_rep, d)


class EagerAttention(posverify.Kernel):
    name = "eager-attention"
    attend_caps = ("causal", "window", "padding", "gqa", "softcap", "sinks", "alibi", "lse", "bias", "varlen")
    attend_empty_rows = "zeros"
    #: the additive value of a masked logit
    masked = float("-inf")
    #: the explicit bias goes into ``scores`` whole, its -inf included
    bias_in_cap = False

    # --- the parts a sibling gets wrong --------------------------------------

    def query_positions(self, p, b):
        """The cache position of each query of item b."""
        return p.q_start[b] + torch.arange(p.n_q, device=p.q_start.device)

    def window(self, p):
        return p.window_left, p.window_right

    def repeat(self, x, n_rep):
        return repeat_kv(x, n_rep)

    def capped(self, s, p):
        return p.softcap * torch.tanh(s / p.softcap) if p.softcap else s

    def scores(self, raw, bias, p):
        """The logits from the scaled q.k and the explicit bias: capped, then biased."""
        return self.capped(raw, p) + bias

    def key_offsets(self, p):
        """Where each packed item's keys start (cu_seqlens_k)."""
        return p.cu_seqlens_k

    # --- the computation ------------------------------------------------------

    def keep(self, p, b, n):
        """[n_q, n] bool: which of item b's first n keys each query sees."""
        pos = self.query_positions(p, b)[:, None]
        j = torch.arange(n, device=pos.device)[None, :]
        keep = torch.ones(p.n_q, n, dtype=torch.bool, device=pos.device)
        left, right = self.window(p)
        if p.causal:
            keep &= j <= pos
        if left >= 0:
            keep &= j >= pos - left
        if right >= 0:
            keep &= j <= pos + right
        return keep, pos, j

    def packed(self, q, k, v, p):
        """Items packed in one sequence: each item alone, a batch of one over its tokens."""
        cq, ck = p.cu_seqlens_q.tolist(), self.key_offsets(p).tolist()
        parts = []
        for b in range(p.batch):
            a, z = cq[b], cq[b + 1]
            ka, kz = min(ck[b], p.n_k), min(ck[b + 1], p.n_k)
            if z > a:
                item = dataclasses.replace(p, batch=1, n_q=z - a, n_k=kz - ka, q_start=p.q_start[b:b + 1],
                                           k_len=p.k_len[b:b + 1].clamp(max=kz - ka), cu_seqlens_q=None,
                                           cu_seqlens_k=None)
                parts.append(self.attend(q[:, a:z], k[:, ka:kz], v[:, ka:kz], item))
        if not p.lse:
            return torch.cat(parts, dim=1)
        # the log-sum-exp of each item [1, h_q, n]: joined along the tokens
        return torch.cat([o for o, _ in parts], dim=1), torch.cat([l for _, l in parts], dim=2)

    def attend(self, q, k, v, p):
        if q.dtype not in (torch.float32, torch.float64, torch.bfloat16, torch.float16):
            raise NotImplementedError(str(q.dtype))
        if p.cu_seqlens_q is not None:
            return self.packed(q, k, v, p)
        acc = torch.float64 if q.dtype == torch.float64 else torch.float32
        outs, lses = [], []
        for b in range(p.batch):
            n = int(p.k_len[b])  # keys from k_len on are not read
            qb = q[b].to(acc).transpose(0, 1)  # [h_q, n_q, d]
            kb = self.repeat(k[b:b + 1, :n], p.h_q // p.h_kv)[0].to(acc).transpose(0, 1)  # [h_q, n, d]
            vb = self.repeat(v[b:b + 1, :n], p.h_q // p.h_kv)[0].to(acc).transpose(0, 1)
            raw = torch.matmul(qb, kb.transpose(1, 2)) * p.softmax_scale  # [h_q, n_q, n]
            keep, pos, j = self.keep(p, b, n)
            bias = torch.zeros(p.n_q, n, dtype=acc, device=raw.device)
            if p.bias is not None:  # its -inf joins the mask, its other values the logits
                given = p.bias[b if p.bias_batch > 1 else 0][:, :n].to(acc)
                bias = given if self.bias_in_cap else torch.where(torch.isinf(given), bias, given)
                keep = keep if self.bias_in_cap else keep & ~torch.isinf(given)
            s = self.scores(raw, bias[None], p)
            if p.alibi is not None:
                s = s + p.alibi.to(acc)[:, None, None] * (j - pos).to(acc)[None]
            s = s + torch.where(keep, 0.0, self.masked).to(acc)[None]
            if p.sink is not None:  # a column that joins the softmax and is dropped after it
                s = torch.cat([s, p.sink.to(acc)[:, None, None].expand(p.h_q, p.n_q, 1)], dim=-1)
            m = s.amax(dim=-1, keepdim=True) if s.shape[-1] else s.new_zeros(p.h_q, p.n_q, 1)
            m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
            e = torch.exp(s - m)
            z = e.sum(dim=-1, keepdim=True)
            w = (e / torch.where(z > 0, z, torch.ones_like(z)))[..., :n]
            outs.append(torch.matmul(w, vb).transpose(0, 1))  # [n_q, h_q, d_v]
            lses.append((torch.log(z) + m)[..., 0])  # [h_q, n_q]; -inf for an empty row
        out = torch.stack(outs).to(q.dtype)
        return (out, torch.stack(lses)) if p.lse else out


class EagerFinfoMin(EagerAttention):
    """Masked logits get the dtype's lowest value added, as Hugging Face's
    masks do: a row with no visible key then weighs its keys alike."""

    name = "eager-attention-finfo-min"
    attend_caps = ("causal", "window", "padding", "gqa", "softcap", "alibi", "bias")
    attend_empty_rows = "mean"
    masked = torch.finfo(torch.float32).min


class EagerTopLeftCausal(EagerAttention):
    """The mask counts query i at position i, whatever the cache holds
    (SDPA's is_causal with a KV cache, pytorch#144858)."""

    def query_positions(self, p, b):
        return torch.arange(p.n_q, device=p.q_start.device)


class EagerGqaTile(EagerAttention):
    """K/V heads tiled (head h reads KV head h mod h_kv) instead of repeated."""

    def repeat(self, x, n_rep):
        return x.repeat(1, 1, n_rep, 1)


class EagerSoftcapIgnored(EagerAttention):
    """Declares softcap and never applies it (flash-attention PR 2402)."""

    def capped(self, s, p):
        return s


class EagerWindowPlusOne(EagerAttention):
    """Sees W + 1 keys on the left of a window of W (transformers#39408, vllm#3385)."""

    def window(self, p):
        return (p.window_left + 1 if p.window_left >= 0 else -1), p.window_right


class EagerVarlenKeysFromQueryOffsets(EagerAttention):
    """Cuts the packed keys with the queries' offsets, one cu_seqlens built from
    the query lengths serving both (vllm-project/vllm-omni PR 3525)."""

    def key_offsets(self, p):
        return p.cu_seqlens_q


class EagerMaskBeforeSoftcap(EagerAttention):
    """Adds the explicit mask before the softcap, c tanh((s + mask)/c): a key
    masked by -inf gets the logit -c and a weight (onnx/onnx#7865)."""

    bias_in_cap = True

    def scores(self, raw, bias, p):
        return self.capped(raw + bias, p) if p.softcap else raw + bias
