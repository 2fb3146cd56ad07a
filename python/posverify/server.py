"""The server side of docs/protocol.md for Python kernels.

``python3 -m posverify.server MODULE:OBJECT`` imports MODULE, takes OBJECT (a
:class:`posverify.Kernel` subclass, instantiated with the device of
``POSVERIFY_DEVICE``, or any object with ``attention``/``rope``/``sinusoid``
methods), and answers requests on stdin with answers on stdout until stdin
ends. `posverify check --impl python:MODULE:OBJECT` starts it.
"""

import faulthandler
import importlib
import io
import os
import struct
import sys
import traceback

from . import PROTOCOL_VERSION, RopeConfig

HELLO, ATTENTION, ROPE, SINUSOID = 1, 2, 3, 4
OK, UNSUPPORTED, ERROR = 0, 1, 2
DTYPE_NAMES = {0: "float32", 1: "float64", 2: "float16", 3: "bfloat16"}
ELEM_SIZE = {0: 4, 1: 8, 2: 2, 3: 2}

_ATT = struct.Struct("<BBqqqq")
_ROPE = struct.Struct("<BBqii4idB")
_SIN = struct.Struct("<BBqqd")


class ProtocolError(Exception):
    """A request that does not follow docs/protocol.md."""


class _Torch:
    """Buffers as torch tensors on a device."""

    def __init__(self, device):
        import torch

        self.torch = torch
        self.device = device
        self.dtypes = {0: torch.float32, 1: torch.float64, 2: torch.float16, 3: torch.bfloat16}
        self.array_type = torch.Tensor

    def dtype(self, code):
        return self.dtypes[code]

    def array(self, buf, code, shape):
        torch = self.torch
        dt = self.dtypes[code]
        if len(buf) == 0:
            t = torch.empty(shape, dtype=dt)
        else:  # frombuffer shares the bytearray: no copy on the CPU
            t = torch.frombuffer(buf, dtype=dt).reshape(shape)
        return t.to(self.device) if self.device != "cpu" else t

    def float64(self, buf, shape):
        return self.array(buf, 1, shape)

    def to_bytes(self, t):
        t = t.detach().to("cpu").contiguous()
        if t.dtype in (self.torch.float16, self.torch.bfloat16):
            t = t.view(self.torch.int16)  # numpy has no bfloat16: send the bit patterns
        return t.numpy().tobytes()


class _Numpy:
    """Buffers as numpy arrays (no bfloat16: such calls are unsupported)."""

    def __init__(self, device):
        import numpy

        if device not in ("", "cpu"):
            raise ValueError("the numpy backend runs on the CPU only, not on device %r" % device)
        self.np = numpy
        self.dtypes = {0: numpy.float32, 1: numpy.float64, 2: numpy.float16}
        self.array_type = numpy.ndarray

    def dtype(self, code):
        if code not in self.dtypes:
            raise NotImplementedError("numpy has no %s" % DTYPE_NAMES[code])
        return self.np.dtype(self.dtypes[code])

    def array(self, buf, code, shape):
        return self.np.frombuffer(buf, dtype=self.dtype(code)).reshape(shape)

    def float64(self, buf, shape):
        return self.array(buf, 1, shape)

    def to_bytes(self, a):
        return self.np.ascontiguousarray(a).tobytes()


def load(spec, device):
    """The object named MODULE:OBJECT, instantiated when it is a class."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError("expected MODULE:OBJECT, got %r" % spec)
    obj = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    if isinstance(obj, type):
        try:
            obj = obj(device=device)
        except TypeError:
            obj = obj()
    elif hasattr(obj, "device") and device:
        obj.device = device
    return obj


class Server:
    def __init__(self, kernel, device):
        self.kernel = kernel
        backend = getattr(kernel, "backend", "torch")
        if backend == "torch":
            self.b = _Torch(device)
        elif backend == "numpy":
            self.b = _Numpy(device)
        else:
            raise ValueError("backend must be 'torch' or 'numpy', not %r" % backend)
        self.fns = {n: getattr(kernel, n, None) for n in ("attention", "rope", "sinusoid")}

    def provides(self):
        return sum(1 << i for i, n in enumerate(("attention", "rope", "sinusoid")) if callable(self.fns[n]))

    def _check_out(self, what, out, code, shape):
        b = self.b
        if not isinstance(out, b.array_type):
            raise TypeError("%s returned %s, not a %s" % (what, type(out).__name__, b.array_type.__name__))
        if out.dtype != b.dtype(code):
            raise TypeError("%s returned dtype %s for a %s call" % (what, out.dtype, DTYPE_NAMES[code]))
        if tuple(out.shape) != tuple(shape):
            raise ValueError("%s returned shape %s, expected %s" % (what, tuple(out.shape), tuple(shape)))
        return b.to_bytes(out)

    def _written(self, pairs):
        """Bit j set when input j no longer holds its original bytes."""
        mask = 0
        for j, (arr, orig) in enumerate(pairs):
            if self.b.to_bytes(arr) != orig:
                mask |= 1 << j
        return mask

    def call(self, body):
        """(status, written, text, payload) of one call request."""
        kind = body[0]
        mv = memoryview(body)
        b = self.b
        if kind == ATTENTION:
            if len(body) < _ATT.size:
                raise ProtocolError("attention request of %d bytes" % len(body))
            _, code, n_q, n_k, d, d_v = _ATT.unpack_from(body)
            es = self._elem(code)
            sizes = [n_q * d * es, n_k * d * es, n_k * d_v * es]
            bufs = self._split(mv[_ATT.size:], sizes)
            fn = self.fns["attention"]
            q, k, v = (b.array(x, code, s) for x, s in zip(bufs, [(n_q, d), (n_k, d), (n_k, d_v)]))
            origs = [bytes(x) for x in bufs]
            out = fn(q, k, v)
            written = self._written(zip((q, k, v), origs))
            return OK, written, "", self._check_out("attention", out, code, (n_q, d_v))
        if kind == ROPE:
            if len(body) < _ROPE.size:
                raise ProtocolError("rope request of %d bytes" % len(body))
            _, code, n, head_dim, n_axes, a0, a1, a2, a3, theta, pairing = _ROPE.unpack_from(body)
            es = self._elem(code)
            if not 1 <= n_axes <= 4 or pairing not in (0, 1):
                raise ProtocolError("rope request with n_axes %d, pairing %d" % (n_axes, pairing))
            cfg = RopeConfig(head_dim, n_axes, (a0, a1, a2, a3)[:n_axes], theta,
                             "adjacent" if pairing == 0 else "halves")
            pbuf, xbuf = self._split(mv[_ROPE.size:], [n * n_axes * 8, n * head_dim * es])
            pos = b.float64(pbuf, (n, n_axes))
            porig = bytes(pbuf)
            x = b.array(xbuf, code, (n, head_dim))
            out = self.fns["rope"](x, pos, cfg)
            written = self._written([(pos, porig)])
            return OK, written, "", self._check_out("rope", x if out is None else out, code, (n, head_dim))
        if kind == SINUSOID:
            if len(body) < _SIN.size:
                raise ProtocolError("sinusoid request of %d bytes" % len(body))
            _, code, n, d, base = _SIN.unpack_from(body)
            self._elem(code)
            (pbuf,) = self._split(mv[_SIN.size:], [n * 8])
            pos = b.float64(pbuf, (n,))
            porig = bytes(pbuf)
            out = self.fns["sinusoid"](pos, d, base, b.dtype(code))
            written = self._written([(pos, porig)])
            return OK, written, "", self._check_out("sinusoid", out, code, (n, d))
        raise ProtocolError("unknown request type %d" % kind)

    @staticmethod
    def _elem(code):
        if code not in ELEM_SIZE:
            raise ProtocolError("unknown dtype code %d" % code)
        return ELEM_SIZE[code]

    @staticmethod
    def _split(mv, sizes):
        if any(s < 0 for s in sizes) or sum(sizes) != len(mv):
            raise ProtocolError("request carries %d bytes of buffers, its sizes say %d" % (len(mv), sum(sizes)))
        out, at = [], 0
        for s in sizes:
            out.append(bytearray(mv[at:at + s]))  # a writable copy per input
            at += s
        return out


def _read_exact(f, n):
    buf = bytearray(n)
    mv = memoryview(buf)
    got = 0
    while got < n:
        k = f.readinto(mv[got:])
        if not k:
            return None
        got += k
    return buf


def _answer(f, status, written=0, text="", payload=b""):
    t = text.encode("utf-8", "replace")
    head = struct.pack("<IBBI", 6 + len(t) + len(payload), status, written, len(t))
    f.write(head + t + payload)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python3 -m posverify.server MODULE:OBJECT", file=sys.stderr)
        return 2
    # the protocol keeps stdin and stdout; print() and C writes to fd 1 go to stderr
    fin = io.FileIO(os.dup(0), "rb")
    fout = io.FileIO(os.dup(1), "wb")
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    faulthandler.enable(file=sys.stderr)  # a crash leaves its Python traceback in the finding
    device = os.environ.get("POSVERIFY_DEVICE", "") or "cpu"
    server, load_error = None, ""
    try:
        kernel = load(argv[0], device)
        server = Server(kernel, device)
    except BaseException:
        load_error = "cannot load %s:\n%s" % (argv[0], traceback.format_exc())
    while True:
        head = _read_exact(fin, 4)
        if head is None:
            return 0
        (n,) = struct.unpack("<I", head)
        body = _read_exact(fin, n)
        if body is None or n == 0:
            return 0
        if body[0] == HELLO:
            if server is None:
                _answer(fout, ERROR, text=load_error)
                continue
            kernel = server.kernel
            name = (getattr(kernel, "name", "") or type(kernel).__name__).encode()
            acc = (getattr(kernel, "accuracy", "") or "").encode()
            payload = struct.pack("<IBI", PROTOCOL_VERSION, server.provides(), len(name)) + name
            payload += struct.pack("<I", len(acc)) + acc
            _answer(fout, OK, payload=payload)
            continue
        try:
            if server is None:
                raise RuntimeError(load_error)
            _answer(fout, *server.call(body))
        except NotImplementedError as e:
            _answer(fout, UNSUPPORTED, text=(str(e) + "\n") if str(e) else "")
        except ProtocolError as e:
            _answer(fout, ERROR, text="posverify.server: malformed request: %s\n" % e)
        except Exception:
            _answer(fout, ERROR, text=traceback.format_exc())


if __name__ == "__main__":
    sys.exit(main())
