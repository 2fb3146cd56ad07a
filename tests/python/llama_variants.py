"""Variants of the Llama example (examples/python/llama_rope.py) that the tests
need and the example should not carry.

LlamaRopeLengthUndeclared: dynamic NTK read from each call's positions, as
transformers does, without its declaration: posverify judges it at
scaling.length and rejects it (the false alarm the declaration
"length_from_positions" removes), and says why.

LlamaRopeLlama3LengthDoubled: Llama 3.1's rule placed for twice the original
length (the pretraining context read from the wrong field): the diagnosis
names the length it uses."""

import dataclasses

import llama_rope


class LlamaRopeLengthUndeclared(llama_rope.LlamaRope):
    name = "llama-rope-length-undeclared"
    rope_caps = ("partial", "scaled")


class LlamaRopeLlama3LengthDoubled(llama_rope.LlamaRope):
    name = "llama-rope-llama3-length-doubled"

    def inv_freq(self, cfg, length):
        s = cfg.scaling
        if s.kind != "llama3":
            return super().inv_freq(cfg, length)
        doubled = dataclasses.replace(s, original_length=2 * s.original_length)
        return llama_rope.llama3_inv_freq(self.ladder(cfg.theta, sum(cfg.axes_dim)), doubled)
