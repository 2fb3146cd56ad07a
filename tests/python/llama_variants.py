"""Variants of the Llama example (examples/python/llama_rope.py) that the tests
need and the example should not carry.

LlamaRopeLengthUndeclared: dynamic NTK read from each call's positions, as
transformers does, without its declaration: posverify judges it at
scaling.length and rejects it (the false alarm the declaration
"length_from_positions" removes), and says why.

LlamaRopeLlama3LengthDoubled: Llama 3.1's rule placed for twice the original
length (the pretraining context read from the wrong field): the diagnosis
names the length it uses.

LlamaRopeYarnNoTemperature: YaRN's blend of speeds without its attention
factor on cos and sin: caught, and the diagnosis names the factor left out.

LlamaRopeOffsetIgnored: declares "rotary_offset" but rotates the first R
components whatever cfg.rotary_offset says: caught, the diagnosis naming the
components it rotates."""

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


class LlamaRopeYarnNoTemperature(llama_rope.LlamaRope):
    name = "llama-rope-yarn-no-temperature"

    def attention_factor(self, cfg):
        return 1.0


class LlamaRopeOffsetIgnored(llama_rope.LlamaRope):
    name = "llama-rope-offset-ignored"

    def rope(self, x, pos, cfg):
        return super().rope(x, pos, dataclasses.replace(cfg, rotary_offset=0))
