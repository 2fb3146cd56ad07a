"""The server side of docs/protocol.md for Python kernels.

``python3 -m posverify.server MODULE:OBJECT`` imports MODULE, takes OBJECT (a
:class:`posverify.Kernel` subclass, instantiated with the device of
``POSVERIFY_DEVICE``, or any object with ``attention``/``rope``/``sinusoid``/``attend``
methods), and answers requests on stdin with answers on stdout until stdin
ends. `posverify check --impl python:MODULE:OBJECT` starts it.

The requests are decoded from the table of operations posverify passes in
the environment variable POSVERIFY_OPERATIONS (one row per function of the
plugin interface: its fields, each with the protocol version that introduced
it, buffers and the arguments of the kernel's method of the same name), so an
operation or a field added to posverify needs no change here.

HELLO negotiates the version: the server answers the lower of posverify's
offer and PROTOCOL_VERSION (or of POSVERIFY_SERVER_PROTOCOL, which makes it
answer as an older server would, e.g. 1), and decodes requests with that
version's fields.
"""

import dataclasses
import faulthandler
import importlib
import io
import json
import math
import os
import struct
import sys
import traceback

from . import ATTEND_CAPS, EMPTY_ROWS, PROTOCOL_VERSION, ROPE_CAPS

HELLO = 1
OK, UNSUPPORTED, ERROR = 0, 1, 2
DTYPE_NAMES = {0: "float32", 1: "float64", 2: "float16", 3: "bfloat16"}
ELEM_SIZE = {0: 4, 1: 8, 2: 2, 3: 2}
_WIRE = {"u8": "B", "i32": "i", "i64": "q", "f64": "d"}


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

    def int64(self, buf, shape):
        torch = self.torch
        t = torch.frombuffer(buf, dtype=torch.int64).reshape(shape) if len(buf) else torch.empty(shape, dtype=torch.int64)
        return t.to(self.device) if self.device != "cpu" else t

    def strided(self, buf, code, shape, strides):
        """A view of the span `buf` with these outer strides (in elements; the last dimension contiguous)."""
        torch = self.torch
        dt = self.dtypes[code]
        if len(buf) == 0:
            return self.array(buf, code, shape)
        t = torch.frombuffer(buf, dtype=dt)
        if self.device != "cpu":  # the span, moved once, then viewed
            t = t.to(self.device)
        return t.as_strided(shape, tuple(strides) + (1,))

    def to_float64(self, t):
        return t.to(self.torch.float64) if t.is_floating_point() else None

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

    def int64(self, buf, shape):
        return self.np.frombuffer(buf, dtype=self.np.int64).reshape(shape)

    def strided(self, buf, code, shape, strides):
        np = self.np
        if len(buf) == 0:
            return np.empty(shape, dtype=self.dtype(code))
        flat = np.frombuffer(buf, dtype=self.dtype(code))
        return np.lib.stride_tricks.as_strided(flat, shape, tuple(s * flat.itemsize for s in tuple(strides) + (1,)))

    def to_float64(self, a):
        return a.astype(self.np.float64) if self.np.issubdtype(a.dtype, self.np.floating) else None

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


class Operation:
    """One row of posverify's table of operations (the JSON of the environment
    variable POSVERIFY_OPERATIONS, docs/protocol.md): how its request is laid
    out and how the kernel's method of the same name is called."""

    def __init__(self, row):
        self.name = row["name"]
        self.request = row["request"]
        self.bit = row["bit"]
        self.protocol = row.get("protocol", 1)
        self.all_fields = row["fields"]
        self.buffers = row["buffers"]
        self.python = row["python"]
        self._plans = {}

    def plan(self, version):
        """The decoding of a request of protocol `version`, worked out once."""
        if version not in self._plans:
            self._plans[version] = _Plan(self, version)
        return self._plans[version]


class _Plan:
    """How a request of one operation at one protocol version is decoded: the
    header's struct and fields, the range of each bounded field, and the
    fields of each configuration buffer, read from the operation's row once
    so that a call only looks values up (the server answers thousands of
    calls per check, each in tens of microseconds)."""

    def __init__(self, op, version):
        self.name = op.name
        self.fields = [f for f in op.all_fields if f.get("protocol", 1) <= version]
        self.header = struct.Struct("<BB" + "".join(_WIRE[f["wire"]] * f.get("count", 1) for f in self.fields))
        self.slots, at = [], 2  # (name, first index in the unpacked header, count)
        for f in self.fields:
            n = f.get("count", 1)
            self.slots.append((f["name"], at, n))
            at += n
        self.limits = [(f["name"], f.get("min"), f.get("max")) for f in self.fields if "min" in f or "max" in f]
        # per configuration buffer: (name, length field, names, bool, outer, inner, class) of its fields;
        # a dotted field ("scaling.kind") is member `inner` of the object `outer`
        self.configs = []
        for buf in op.buffers:
            if buf["elem"] != "config":
                continue
            specs = []
            for f in self.fields:
                if f.get("of") != buf["name"]:
                    continue
                outer, dot, inner = f["name"].partition(".")
                specs.append((f["name"], f.get("length"), f["names"].split("|") if "names" in f else None,
                              bool(f.get("bool")), outer, inner if dot else None, f.get("class")))
            self.configs.append((buf, specs))
        # the buffers a request carries, in their order on the wire
        self.sent = [buf for buf in op.buffers if buf["role"] != "out" and buf["elem"] != "config"]
        # the names of the inputs a kernel must not write, in the order the call lists them
        self.input_names = [buf["name"] for buf in op.buffers if buf["role"] == "in" and buf["elem"] != "config"]
        self.layouts = {}  # the header's bytes -> Server._layout of it

    def values(self, body):
        """The dtype code, the fields of a request by name (arrays as tuples)
        and the header's size."""
        header = self.header
        if len(body) < header.size:
            raise ProtocolError("%s request of %d bytes" % (self.name, len(body)))
        flat = header.unpack_from(body)
        vals = {name: flat[at] if n == 1 else tuple(flat[at:at + n]) for name, at, n in self.slots}
        for name, lo, hi in self.limits:
            v = vals[name]
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                raise ProtocolError("%s request with %s %s" % (self.name, name, v))
        return flat[1], vals, header.size


def operations_from_environment():
    """The rows posverify sends in POSVERIFY_OPERATIONS."""
    text = os.environ.get("POSVERIFY_OPERATIONS", "")
    if not text:
        raise RuntimeError("POSVERIFY_OPERATIONS is not set: posverify check starts this server and "
                           "describes its requests there (docs/protocol.md)")
    return [Operation(row) for row in json.loads(text)]


def _declared_bits(kernel, attr, default, table, what):
    """The bits of the names the kernel's ``attr`` lists (``default`` when it
    has none), each looked up in ``table``; a name that is not there is an
    error naming it, ``what`` saying what the table's names are."""
    known = ", ".join(table)
    names = getattr(kernel, attr, default)
    if isinstance(names, str):
        names = (names,)
    if not isinstance(names, (tuple, list, set, frozenset)):
        raise ValueError("%s must be a tuple of names (%s), not %r" % (attr, known, names))
    bits = 0
    for name in names:
        if name not in table:
            raise ValueError("%s names %r, which is no %s (%s)" % (attr, name, what, known))
        bits |= table[name]
    return bits


def _rope_caps(kernel):
    """The bits of the kernel's ``rope_caps`` (names of ROPE_CAPS)."""
    return _declared_bits(kernel, "rope_caps", ("partial",), dict(sorted(ROPE_CAPS.items())), "RoPE configuration")


def _attend_declarations(kernel):
    """(attend_caps bits, attend_empty_rows code) of the kernel's
    ``attend_caps`` (names of ATTEND_CAPS) and ``attend_empty_rows`` (a name
    of EMPTY_ROWS); an unknown name is an error naming it."""
    bits = _declared_bits(kernel, "attend_caps", (), ATTEND_CAPS, "attend capability")
    empty = getattr(kernel, "attend_empty_rows", "") or ""
    if empty not in EMPTY_ROWS:
        raise ValueError("attend_empty_rows is %r: one of %s" % (empty, ", ".join(repr(k) for k in EMPTY_ROWS)))
    return bits, EMPTY_ROWS[empty]


def _protocol_ceiling():
    """PROTOCOL_VERSION, or the version POSVERIFY_SERVER_PROTOCOL asks this
    server to answer at most (to serve as an older server would)."""
    text = os.environ.get("POSVERIFY_SERVER_PROTOCOL", "")
    if not text:
        return PROTOCOL_VERSION
    if not text.isdigit() or not 1 <= int(text) <= PROTOCOL_VERSION:
        raise ValueError("POSVERIFY_SERVER_PROTOCOL is %r: a protocol version from 1 to %d"
                         % (text, PROTOCOL_VERSION))
    return int(text)


class Server:
    def __init__(self, kernel, device, operations=None):
        self.kernel = kernel
        backend = getattr(kernel, "backend", "torch")
        if backend == "torch":
            self.b = _Torch(device)
        elif backend == "numpy":
            self.b = _Numpy(device)
        else:
            raise ValueError("backend must be 'torch' or 'numpy', not %r" % backend)
        self.rope_caps = _rope_caps(kernel)
        self.attend_caps, self.attend_empty_rows = _attend_declarations(kernel)
        position_dtype = getattr(kernel, "position_dtype", "float64")
        if not isinstance(position_dtype, str) or position_dtype not in ("float64", "int64"):
            raise ValueError("position_dtype must be 'float64' or 'int64', not %r" % (position_dtype,))
        self.int_positions = position_dtype == "int64"
        self.ceiling = _protocol_ceiling()
        self.version = self.ceiling  # until HELLO says otherwise
        self.ops = operations if operations is not None else operations_from_environment()
        self.by_request = {op.request: op for op in self.ops}
        self.fns = {op.name: getattr(kernel, op.name, None) for op in self.ops}

    def provides(self):
        return sum(1 << op.bit for op in self.ops if callable(self.fns[op.name]) and op.protocol <= self.version)

    def hello(self, offered):
        """The payload of the answer to a HELLO offering protocol `offered`:
        the version both use from now on (the lower of the offer and this
        server's), then what it provides, its name, its accuracy class and, from
        version 2, the RoPE configurations it declares."""
        if offered < 1:
            raise ProtocolError("HELLO offers protocol version %d" % offered)
        self.version = min(offered, self.ceiling)
        kernel = self.kernel
        name = (getattr(kernel, "name", "") or type(kernel).__name__).encode()
        acc = (getattr(kernel, "accuracy", "") or "").encode()
        payload = struct.pack("<IBI", self.version, self.provides(), len(name)) + name
        payload += struct.pack("<I", len(acc)) + acc
        if self.version >= 2:
            payload += struct.pack("<I", self.rope_caps)
        if self.version >= 4:
            payload += struct.pack("<II", self.attend_caps, self.attend_empty_rows)
        return payload

    def _check_out(self, what, out, code, shape):
        b = self.b
        if not isinstance(out, b.array_type):
            raise TypeError("%s returned %s, not a %s" % (what, type(out).__name__, b.array_type.__name__))
        if out.dtype != b.dtype(code):
            raise TypeError("%s returned dtype %s for a %s call" % (what, out.dtype, DTYPE_NAMES[code]))
        if tuple(out.shape) != tuple(shape):
            raise ValueError("%s returned shape %s, expected %s" % (what, tuple(out.shape), tuple(shape)))
        return b.to_bytes(out)

    def _written(self, pairs, names):
        """Bit j set when input j no longer holds its original bytes; the answer's
        mask has 8 bits, so a write into a later input (attend's cu_seqlens_q,
        cu_seqlens_k) is an error that names it."""
        mask = 0
        for j, (arr, orig) in enumerate(pairs):
            if self.b.to_bytes(arr) != orig:
                if j >= 8:
                    raise ValueError("the kernel modified its input %s, which it must not write" % names[j])
                mask |= 1 << j
        return mask

    _made = {}  # (class name, field names) -> the plain record class made for them

    @classmethod
    def _record(cls, class_name, kw):
        """An object of class `class_name` of package posverify (RopeConfig),
        else a plain record of those fields."""
        record = getattr(sys.modules[__package__], class_name or "", None)
        if record is None:
            key = (class_name or "Config", tuple(kw))
            record = cls._made.get(key)
            if record is None:
                record = cls._made[key] = dataclasses.make_dataclass(key[0], list(kw), frozen=True)
        return record(**kw)

    @classmethod
    def _config(cls, buf, specs, vals, members=None):
        """The fields of a configuration buffer as one object: the class of
        package posverify the row names (RopeConfig), else a plain record. A
        dotted field ("scaling.kind") is a member of an object ("scaling") of
        the field's class (RopeScaling); a field the request's version does
        not carry keeps the class's default. `specs`: _Plan.configs."""
        kw, parts, part_class = {}, {}, {}
        for name, length, names, is_bool, outer, inner, class_name in specs:
            v = vals[name]
            if length is not None:
                v = v[:vals[length]]
            if names is not None:
                v = names[v]
            if is_bool:
                v = bool(v)
            if inner is not None:
                parts.setdefault(outer, {})[inner] = v
                part_class[outer] = class_name
            else:
                kw[name] = v
        for outer, inner in parts.items():
            kw[outer] = cls._record(part_class[outer], inner)
        kw.update(members or {})  # buffers that are members of it (attend's q_start, k_len, ...)
        return cls._record(buf.get("class"), kw)

    def _positions(self, arr):
        """A positions buffer as int64 (``position_dtype = "int64"``), or
        NotImplementedError when one is not a whole number in range."""
        b = self.b
        if hasattr(b, "torch"):
            torch = b.torch
            cpu = arr.to("cpu")
            whole = bool(torch.all(torch.isfinite(cpu) & (cpu == torch.trunc(cpu)) & (cpu.abs() < 2.0 ** 63)))
            bad = cpu[~(torch.isfinite(cpu) & (cpu == torch.trunc(cpu)))].flatten()[:1].tolist()
            out = cpu.to(torch.int64).to(arr.device) if whole else None
        else:
            np = b.np
            ok = np.isfinite(arr) & (arr == np.trunc(arr))
            whole = bool(np.all(ok & (np.abs(arr) < 2.0 ** 63)))
            bad = arr[~ok].ravel()[:1].tolist()
            out = arr.astype(np.int64) if whole else None
        if out is None:
            raise NotImplementedError("the kernel takes int64 positions (position_dtype = \"int64\") and this call has "
                                      "a position that is not a whole number in range%s"
                                      % (" (%r)" % bad[0] if bad else ""))
        return out

    def _layout(self, op, plan, body):
        """What a request's header fixes, worked out once per distinct header
        (Server.call): the dtype code, the fields by name, the size on the
        wire of each buffer it carries, how each buffer becomes an argument,
        and the configuration objects (one without members is made once)."""
        code, vals, header_size = plan.values(body)
        es = self._elem(code)
        shapes = {}

        def shape(buf, key="shape"):
            # a field of a later protocol than the conversation's is absent: none of that buffer
            k = (buf["name"], key)
            dims = shapes.get(k)
            if dims is None:
                one = bool(buf.get("sequence") and vals.get(buf["sequence"]))  # items packed in one sequence
                dims = shapes[k] = tuple(min(vals.get(d, 0), 1) if one and d == "batch" else vals.get(d, 0)
                                         for d in buf.get(key) or buf["shape"])
            return dims

        def count(buf):
            return math.prod(shape(buf))

        def size(buf):
            """Bytes on the wire: a strided input is the span its strides reach."""
            n = 8 if buf["elem"] in ("f64", "i64") else es
            dims = shape(buf)
            if buf.get("strides") and buf["role"] == "in":
                if any(x <= 0 for x in dims):
                    return 0
                st = vals[buf["strides"]]
                return n * (1 + sum((x - 1) * y for x, y in zip(dims[:-1], st)) + dims[-1] - 1)
            return n * max(count(buf), 0)

        sizes = [size(buf) for buf in plan.sent]
        # per buffer the request carries: (buf, kind, shape, count, strides); per member of a
        # configuration (in the buffers' order), whether an output is asked for (an input's array
        # takes its place in each call)
        steps, outputs, member_flags = [], [], {}
        for buf in op.buffers:
            if buf["elem"] == "config":
                continue
            if buf["role"] != "in":
                outputs.append((buf, shape(buf), count(buf), shape(buf, "python_shape")))
            if buf.get("member"):  # an output: whether the call asks for it; an input: its array, per call
                member_flags.setdefault(buf["member"], {})[buf["name"]] = count(buf) > 0 if buf["role"] == "out" else None
            if buf["role"] == "out":
                continue
            kind = ("f64" if buf["elem"] == "f64" else "i64" if buf["elem"] == "i64"
                    else "strided" if buf.get("strides") else "array")
            steps.append((buf, kind, shape(buf), count(buf), vals[buf["strides"]] if kind == "strided" else None))
        configs = []  # (name, made object or None, specs, buf)
        for buf, specs in plan.configs:
            made = None
            if not any(b.get("member") == buf["name"] for b in op.buffers):
                made = self._config(buf, specs, vals, member_flags.get(buf["name"], {}))
            configs.append((buf["name"], made, specs, buf))
        return code, vals, header_size, sizes, steps, outputs, member_flags, configs

    _LAYOUTS = 256  # distinct headers remembered per operation and version (then forgotten, all at once)

    def call(self, body):
        """(status, written, text, payload) of one call request, decoded from
        its operation's row."""
        op = self.by_request.get(body[0])
        if op is None or op.protocol > self.version:
            raise ProtocolError("unknown request type %d" % body[0])
        plan = op.plan(self.version)
        # a check sends thousands of calls with a few distinct headers: decoded once each
        key = bytes(body[:plan.header.size])
        layout = plan.layouts.get(key)
        if layout is None:
            layout = self._layout(op, plan, body)
            if len(plan.layouts) >= self._LAYOUTS:
                plan.layouts.clear()
            plan.layouts[key] = layout
        code, vals, header_size, sizes, steps, outputs, member_flags, configs = layout
        b = self.b
        raw = self._split(memoryview(body)[header_size:], sizes)
        args, members, inputs = {}, {name: dict(flags) for name, flags in member_flags.items()}, []
        for (buf, kind, dims, n, strides), x in zip(steps, raw):
            original = bytes(x)
            if kind == "f64":
                arr = b.float64(x, dims)
            elif kind == "i64":
                arr = b.int64(x, dims)
            elif kind == "strided":
                arr = b.strided(x, code, dims, strides)
                original = b.to_bytes(arr)  # its elements, not the gaps between strides
            else:
                arr = b.array(x, code, dims)
            if buf.get("positions") and self.int_positions:
                arr = self._positions(arr)
                original = b.to_bytes(arr)
            if buf["role"] == "in":
                inputs.append((arr, original))
            if buf.get("member"):
                members.setdefault(buf["member"], {})[buf["name"]] = arr if n > 0 else None
            else:
                args[buf["name"]] = arr
        for name, made, specs, buf in configs:
            args[name] = made if made is not None else self._config(buf, specs, vals, members.get(name, {}))

        def arg(name):
            if name == "dtype":
                return b.dtype(code)
            return args[name] if name in args else vals[name]
        result = self.fns[op.name](*[arg(n) for n in op.python])
        written = self._written(inputs, plan.input_names)
        if len(outputs) == 1:
            buf, dims = outputs[0][0], outputs[0][1]
            if result is None and buf["role"] == "inout":  # rotated in place
                result = args[buf["name"]]
            return OK, written, "", self._check_out(op.name, result, code, dims)
        # several outputs (attend: out, lse): a tuple in their order; one the
        # call does not ask for (no element) may be left out or None
        got = list(result) if isinstance(result, (tuple, list)) else [result]
        payload = b""
        for j, (buf, dims, n, python_dims) in enumerate(outputs):
            what = "%s's %s" % (op.name, buf["name"])
            value = got[j] if j < len(got) else None
            if n == 0:
                if value is not None and j > 0:
                    raise ValueError("%s returned %s, which this call does not ask for (problem.%s is False)"
                                     % (op.name, buf["name"], buf["name"]))
                continue
            if value is None:
                raise ValueError("%s returned no %s, which this call asks for%s"
                                 % (op.name, buf["name"],
                                    " (problem.%s is True: return (out, %s))" % (buf["name"], buf["name"])
                                    if buf.get("member") else ""))
            if buf["elem"] == "f64":  # any float dtype, sent as float64
                if not isinstance(value, b.array_type) or b.to_float64(value) is None:
                    raise TypeError("%s is %s, not a floating-point %s" % (what, type(value).__name__,
                                                                         b.array_type.__name__))
                if tuple(value.shape) != python_dims:
                    raise ValueError("%s has shape %s, expected %s" % (what, tuple(value.shape), python_dims))
                payload += b.to_bytes(b.to_float64(value))
            else:
                payload += self._check_out(what, value, code, dims)
        return OK, written, "", payload

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
            try:
                if len(body) < 5:
                    raise ProtocolError("HELLO of %d bytes" % len(body))
                (offered,) = struct.unpack_from("<I", body, 1)
                _answer(fout, OK, payload=server.hello(offered))
            except ProtocolError as e:
                _answer(fout, ERROR, text="posverify.server: malformed HELLO: %s\n" % e)
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
