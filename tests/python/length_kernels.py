"""The Llama example's dynamic NTK (examples/python/llama_rope.py), which reads
the sequence length from each call's positions as transformers does, without
its declaration: posverify judges it at scaling.length and rejects it (the
false alarm the declaration "length_from_positions" removes), and says why."""

import llama_rope


class LlamaRopeLengthUndeclared(llama_rope.LlamaRope):
    name = "llama-rope-length-undeclared"
    rope_caps = ("partial", "scaled")
