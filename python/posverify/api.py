"""Run ``posverify check`` from Python and read its report (docs/python.md, "The Python API").

:func:`check` runs the ``posverify`` binary's ``check`` subcommand on a kernel
and returns a :class:`CheckResult` built from the JSON report the binary
writes; :func:`list_laws` returns the ids of the laws such a run would run
(``posverify check --list``). Every keyword maps onto one option of
``posverify check`` (``posverify check --help``). A failing or regressed law is
a result (``ok`` False, exit code 1); anything else that goes wrong -- bad
usage, a kernel that cannot be loaded (exit code 2), no binary, an unreadable
report -- raises :class:`PosverifyError`.
"""

import json
import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

__all__ = ["PosverifyError", "LawResult", "CheckResult", "Check", "check", "list_laws", "find_binary",
           "kernel_spec", "VERDICT_OUTCOMES"]

#: Every verdict a law of a check report can carry (src/blackbox/law_result.h,
#: src/core/verdict.cpp) and what it means for a test: "pass", "fail" or
#: "skip". A verdict not in this table is an error, never guessed.
VERDICT_OUTCOMES = {
    "passed": "pass",        # every evaluated case within its tolerance
    "failed": "fail",        # a case broke the law: finding, counterexample, replay
    "insufficient": "fail",  # too few cases evaluated (the kernel declined the rest, --min-cases)
    "unsupported": "skip",   # the kernel declined every case (a dtype or configuration it does not support)
    "not-run": "skip",       # not run: the kernel does not provide the operation, or no case was asked for
}

_INSTALL_HINT = ("install posverify (the Debian package, or `cmake --install build` of the source tree) so that "
                 "`posverify` is on PATH, or set POSVERIFY_BIN to the binary (e.g. build/posverify)")


class PosverifyError(Exception):
    """posverify could not check: bad usage or input, a kernel that cannot be
    loaded (exit code 2), no binary, an unreadable report, or a kernel object
    a separate process cannot import.

    ``message`` is posverify's own message (its stderr) where there is one;
    ``exit_code`` the binary's exit code (None when it did not run);
    ``command`` the command line, ``stdout`` and ``stderr`` its output."""

    def __init__(self, message, exit_code=None, command=None, stdout="", stderr=""):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.command = list(command) if command else None
        self.stdout = stdout
        self.stderr = stderr

    def __str__(self):
        if self.exit_code is None:
            return self.message
        return "%s (posverify exit code %d)" % (self.message, self.exit_code)


def _number(v):
    """A figure of the report as a float: JSON numbers, and the strings
    "inf" and "nan" the report keeps for what JSON cannot spell."""
    if v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        raise ValueError("%r is not a number" % (v,))


@dataclass(frozen=True)
class LawResult:
    """One law on one dtype (and RoPE configuration): a row of ``laws`` of
    the check report (src/blackbox/law_result.h)."""

    id: str  #: "rope.reference[user-halves-128-theta500000/float32]"
    base_id: str  #: "rope.reference"
    dtype: str  #: "float32", "float64", "float16", "bfloat16"
    config: Optional[str]  #: the RoPE configuration ("user-halves-128-theta500000"), None for others
    verdict: str  #: a key of VERDICT_OUTCOMES
    statement: str  #: the law in one sentence ("law" in the report)
    tolerance: str
    cases: int  #: cases evaluated
    unsupported_cases: int  #: cases the kernel declined
    finding: Optional[str]  #: what went wrong (failed, insufficient), or a note on a pass
    counterexample: Optional[str]  #: the lossless inputs of the failing case (failed only)
    replay: Optional[str]  #: the command that reruns the failing case, as posverify wrote it (failed only)
    diagnosis: Optional[str]  #: what the kernel computes instead (some failures)
    worst_ratio: Optional[float]  #: the worst error / tolerance over the evaluated cases
    worst_replay: Optional[str]  #: the command that reruns the worst case
    regressions: Tuple[str, ...]  #: the baseline's complaints about this law (--baseline)
    raw: Dict[str, Any] = field(repr=False, compare=False)  #: the report's record as it is

    @property
    def outcome(self):
        """"pass", "fail" or "skip" (VERDICT_OUTCOMES); a regression fails a passed law."""
        return "fail" if self.regressions else VERDICT_OUTCOMES[self.verdict]

    @property
    def failed(self):
        return self.outcome == "fail"


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one ``posverify check`` run, built from its JSON report."""

    exit_code: int  #: 0 every law holds; 1 a law failed, is insufficient or regressed
    kernel: str  #: the --impl given ("python:llama_rope:LlamaRope", "./libk.so")
    name: str  #: the kernel's name in the report
    laws: Tuple[LawResult, ...]
    regressions: Tuple[str, ...]  #: every complaint of --baseline, attributed to a law or not
    json_path: str
    markdown_path: str
    html_path: str
    junit_path: Optional[str]
    command: Tuple[str, ...]  #: the command line that ran
    stdout: str = field(repr=False)
    stderr: str = field(repr=False)
    report: Dict[str, Any] = field(repr=False, compare=False)  #: the JSON report as it is

    @property
    def ok(self):
        return self.exit_code == 0

    @property
    def failures(self):
        """The laws that fail the run (failed, insufficient, regressed)."""
        return [law for law in self.laws if law.failed]

    def __getitem__(self, law_id):
        for law in self.laws:
            if law.id == law_id:
                return law
        raise KeyError("no law %r in the report %s" % (law_id, self.json_path))

    def get(self, law_id, default=None):
        try:
            return self[law_id]
        except KeyError:
            return default

    def __iter__(self):
        return iter(self.laws)

    def __len__(self):
        return len(self.laws)


# --- finding the binary and naming the kernel -------------------------------

def find_binary(binary=None):
    """The posverify binary: ``binary``, else $POSVERIFY_BIN, else ``posverify``
    on PATH; PosverifyError saying how to install it otherwise."""
    if binary:
        where = "binary=%r" % (binary,)
    elif os.environ.get("POSVERIFY_BIN"):
        binary = os.environ["POSVERIFY_BIN"]
        where = "POSVERIFY_BIN=%s" % binary
    else:
        found = shutil.which("posverify")
        if not found:
            raise PosverifyError("the posverify binary is not on PATH and POSVERIFY_BIN is not set: " + _INSTALL_HINT)
        return found
    path = binary if os.sep in binary else shutil.which(binary)
    if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise PosverifyError("%s is not an executable file: %s" % (where, _INSTALL_HINT))
    return path


_MODULE_OBJECT = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _system_dirs():
    """Directories every interpreter already imports from (stdlib, site-packages)."""
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.realpath(p))
    try:
        dirs.update(os.path.realpath(p) for p in site.getsitepackages())
    except AttributeError:  # an old virtualenv's site module
        pass
    return dirs


def _import_root(module, module_name):
    """The directory to put on PYTHONPATH so that ``import module_name``
    finds ``module`` (None when it has no file, or lies where every
    interpreter looks)."""
    f = getattr(module, "__file__", None)
    if not f:
        return None
    root = os.path.dirname(os.path.abspath(f))
    levels = module_name.count(".")
    if os.path.splitext(os.path.basename(f))[0] == "__init__":
        levels += 1
    for _ in range(levels):
        root = os.path.dirname(root)
    return None if os.path.realpath(root) in _system_dirs() else root


def _describe(obj):
    return "%s %r" % ("class" if isinstance(obj, type) else type(obj).__name__, getattr(obj, "__qualname__", obj))


def _binding_of(obj):
    """(module name, attribute) of a module-level name bound to ``obj``, an
    instance: its class's module first, then every module imported."""
    first = sys.modules.get(type(obj).__module__)
    for mod in [first] + [m for m in list(sys.modules.values()) if m is not first]:
        for name, value in list(getattr(mod, "__dict__", {}).items()):
            if value is obj and not name.startswith("__"):
                return mod.__name__, name
    return None


def kernel_spec(kernel):
    """(``--impl`` value, the directory of its module or None, whether it is
    Python) for a kernel as :func:`check` takes it."""
    if isinstance(kernel, os.PathLike):
        return os.fspath(kernel), None, False
    if isinstance(kernel, str):
        if kernel.startswith("python:"):
            return kernel, None, True
        base = os.path.basename(kernel)
        if os.path.exists(kernel) or base.endswith(".so") or ".so." in base:
            return kernel, None, False
        if _MODULE_OBJECT.fullmatch(kernel):
            return "python:" + kernel, None, True
        raise PosverifyError("kernel %r: expected the path of a plugin (.so), 'python:MODULE:OBJECT', "
                             "'MODULE:OBJECT', or a Python class or object" % kernel)
    # a Python object: the server, a separate process, imports it by name
    if isinstance(kernel, type):
        module_name, qualname = kernel.__module__, kernel.__qualname__
    else:
        bound = _binding_of(kernel)
        if bound is None:
            raise PosverifyError(
                "%s is not bound to a module-level name, so posverify's server (a separate process) cannot "
                "import it: pass its class (the server creates the object) or 'MODULE:OBJECT'" % _describe(kernel))
        module_name, qualname = bound
    module = sys.modules.get(module_name)
    if module_name == "__main__":
        spec = getattr(module, "__spec__", None)
        if spec is None or not spec.name or spec.name == "__main__":
            raise PosverifyError(
                "%s is defined in __main__ (the script being run): posverify's server, a separate process, "
                "cannot import it. Move it into a module (e.g. my_kernels.py) and import it from there, or pass "
                "'MODULE:OBJECT'" % _describe(kernel))
        module_name = spec.name  # run as `python -m pkg.mod`: the child imports pkg.mod
    if "<locals>" in qualname:
        raise PosverifyError(
            "%s is defined inside a function (%s.%s), so posverify's server, a separate process, cannot import "
            "it: define it at module level" % (_describe(kernel), module_name, qualname))
    target = module
    for part in qualname.split("."):
        target = getattr(target, part, None)
    if target is not kernel:
        raise PosverifyError(
            "%s: %s:%s does not name it (created at run time, or the name was rebound), so posverify's server, "
            "a separate process, cannot import it: define it at module level" % (_describe(kernel), module_name,
                                                                                  qualname))
    return "python:%s:%s" % (module_name, qualname), _import_root(module, module_name), True


# --- the command line --------------------------------------------------------

def _many(v):
    if v is None:
        return []
    if isinstance(v, (str, os.PathLike)):
        return [os.fspath(v)]
    return [os.fspath(x) if isinstance(x, os.PathLike) else str(x) for x in v]


# keyword -> option of `posverify check`, each taking one value; the
# repeatable ones take a string or a list
_SINGLE = [("accuracy", "--accuracy"), ("profile", "--profile"), ("cases", "--cases"), ("seed", "--seed"),
           ("max_position", "--max-position"), ("timeout_ms", "--timeout-ms"), ("memory_limit", "--memory-limit"),
           ("min_cases", "--min-cases"), ("precision_bits", "--precision-bits"), ("baseline", "--baseline"),
           ("case", "--case"), ("device", "--device"), ("start_timeout_ms", "--start-timeout-ms")]
_REPEATED = [("rope_config", "--rope-config"), ("rope_preset", "--rope-preset"), ("shapes", "--shape"),
             ("laws", "--law")]
#: the keywords of check() and list_laws() that are options of the run (Check takes them too)
RUN_OPTIONS = tuple(k for k, _ in _SINGLE + _REPEATED) + ("python", "python_path", "extra_args", "binary", "env",
                                                          "timeout")


def _command(kernel, options):
    impl, root, is_python = kernel_spec(kernel)
    cmd = [find_binary(options.get("binary")), "check", "--impl", impl]
    if is_python:
        python = options.get("python")
        cmd += ["--python", python or sys.executable]
        paths = _many(options.get("python_path"))
        if root and root not in paths:
            paths.append(root)
        if paths:
            cmd += ["--python-path", os.pathsep.join(paths)]
    elif options.get("python_path") or options.get("python"):
        raise PosverifyError("python= and python_path= are for Python kernels; %r is a plugin" % impl)
    for key, flag in _SINGLE:
        v = options.get(key)
        if v is not None:
            cmd += [flag, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
    for key, flag in _REPEATED:
        for v in _many(options.get(key)):
            cmd += [flag, v]
    return cmd, impl


def _run(cmd, options):
    env = None
    if options.get("env"):
        env = dict(os.environ)
        env.update(options["env"])
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                           env=env, timeout=options.get("timeout"))
    except OSError as e:
        raise PosverifyError("cannot run %s: %s (%s)" % (cmd[0], e.strerror or e, _INSTALL_HINT), command=cmd)
    except subprocess.TimeoutExpired as e:
        raise PosverifyError("posverify check did not finish within timeout=%s s" % options.get("timeout"),
                             command=cmd, stdout=e.stdout or "", stderr=e.stderr or "")
    if r.returncode not in (0, 1):
        # posverify's message; the usage text it adds after a usage error stays in .stderr
        msg = r.stderr.split("\n\nusage: ", 1)[0].strip() or r.stdout.strip()[-2000:] or "no message"
        if r.returncode < 0:
            msg = "posverify was killed by signal %d: %s" % (-r.returncode, msg)
        raise PosverifyError(msg, exit_code=r.returncode, command=cmd, stdout=r.stdout, stderr=r.stderr)
    return r


def _check_keywords(options):
    unknown = sorted(set(options) - set(RUN_OPTIONS))
    if unknown:
        raise TypeError("unknown option(s) %s; the options are %s" % (", ".join(unknown), ", ".join(RUN_OPTIONS)))


def list_laws(kernel, **options):
    """The full ids of the laws ``check(kernel, **options)`` would run
    (``LAW[dtype]`` or ``LAW[config/dtype]``), from ``posverify check --list``:
    nothing runs and nothing is written. Takes the keywords of :func:`check`
    but those naming outputs (out, save_baseline, junit); ``baseline`` is
    not passed on (it changes the seed, cases and range, never the laws)."""
    _check_keywords(options)
    # a baseline changes the seed, cases and range of a run, never its laws
    cmd, _ = _command(kernel, dict(options, baseline=None))
    cmd.insert(2, "--list")
    cmd += _many(options.get("extra_args"))
    r = _run(cmd, options)
    if r.returncode != 0:
        raise PosverifyError("posverify check --list exited %d: %s" % (r.returncode, r.stderr.strip() or r.stdout),
                             exit_code=r.returncode, command=cmd, stdout=r.stdout, stderr=r.stderr)
    ids = []
    for line in r.stdout.splitlines():
        line = line.strip()
        if not line:
            continue
        if re.search(r"\s", line):
            raise PosverifyError("posverify check --list printed %r, which is not a law id (the ids one per line "
                                 "were expected)" % line, exit_code=0, command=cmd, stdout=r.stdout, stderr=r.stderr)
        ids.append(line)
    return ids


def _attribute(regression, ids):
    """The law id a regression of --baseline names (its leading `ID`), or None."""
    m = re.match(r"`([^`]+)`", regression)
    return m.group(1) if m and m.group(1) in ids else None


def _law(rec, where, regressions):
    def text(key, required=True):
        v = rec.get(key)
        if v is None and not required:
            return None
        if not isinstance(v, str):
            raise ValueError("%s.%s: expected a string, got %r" % (where, key, v))
        return v

    verdict = text("verdict")
    if verdict not in VERDICT_OUTCOMES:
        raise ValueError("%s.verdict: %r is not a verdict this package knows (%s); update the posverify Python "
                         "package to match the binary" % (where, verdict, ", ".join(VERDICT_OUTCOMES)))
    worst = rec.get("worst") or {}
    if not isinstance(worst, dict):
        raise ValueError("%s.worst: expected an object or null" % where)
    law_id = text("id")
    return LawResult(
        id=law_id, base_id=text("base_id"), dtype=text("dtype"), config=text("config", False) or None,
        verdict=verdict, statement=text("law"), tolerance=text("tolerance"), cases=int(rec.get("cases", 0)),
        unsupported_cases=int(rec.get("unsupported_cases", 0)), finding=text("finding", False),
        counterexample=text("counterexample", False), replay=text("replay", False),
        diagnosis=text("diagnosis", False), worst_ratio=_number(worst.get("ratio")),
        worst_replay=worst.get("replay") or None, regressions=tuple(regressions.get(law_id, ())), raw=rec)


def _read_report(path, cmd, r):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        raise PosverifyError("cannot read the report %s: %s" % (path, e), exit_code=r.returncode, command=cmd,
                             stdout=r.stdout, stderr=r.stderr)
    try:
        if not isinstance(report, dict) or not isinstance(report.get("laws"), list):
            raise ValueError("no list \"laws\": not a posverify check report")
        recs = report["laws"]
        ids = {rec.get("id") for rec in recs if isinstance(rec, dict)}
        regs = report.get("regressions") or []
        by_law = {}
        for reg in regs:
            law_id = _attribute(reg, ids)
            if law_id:
                by_law.setdefault(law_id, []).append(reg)
        laws = []
        for i, rec in enumerate(recs):
            if not isinstance(rec, dict):
                raise ValueError("laws[%d]: expected an object" % i)
            laws.append(_law(rec, "laws[%d]" % i, by_law))
    except (ValueError, TypeError) as e:
        raise PosverifyError("the report %s: %s" % (path, e), exit_code=r.returncode, command=cmd, stdout=r.stdout,
                             stderr=r.stderr)
    return report, tuple(laws), tuple(regs)


def check(kernel, *, rope_config=None, rope_preset=None, accuracy=None, profile=None, shapes=None, cases=None,
          seed=None, max_position=None, timeout_ms=None, memory_limit=None, min_cases=None, precision_bits=None,
          baseline=None, save_baseline=None, out=None, laws=None, case=None, junit=None, device=None, python=None,
          python_path=None, start_timeout_ms=None, extra_args=None, binary=None, env=None, timeout=None):
    """Run ``posverify check`` on ``kernel`` and return its :class:`CheckResult`.

    ``kernel``: the path of a plugin (.so); ``"python:MODULE:OBJECT"`` or
    ``"MODULE:OBJECT"``; or a Python class or object (a :class:`posverify.Kernel`
    subclass or instance, or any object with the methods), named to the server
    as MODULE:QUALNAME, its module's directory added to ``--python-path``.

    Options (``posverify check --help``): ``rope_config`` (--rope-config),
    ``rope_preset`` (--rope-preset), ``shapes`` (--shape) and ``laws`` (--law)
    take a string or a list; ``accuracy``, ``profile``, ``cases``, ``seed``,
    ``max_position``, ``timeout_ms``, ``memory_limit``, ``min_cases``,
    ``precision_bits``, ``baseline``, ``save_baseline``, ``case``, ``junit``,
    ``device``, ``start_timeout_ms`` one value each; ``python`` the server's
    interpreter (default ``sys.executable``), ``python_path`` a directory or a
    list of them; ``out`` the report directory (default: a new temporary
    directory, kept); ``extra_args`` further arguments as a list.
    ``binary`` the posverify binary (default $POSVERIFY_BIN, else PATH),
    ``env`` variables added to the environment, ``timeout`` seconds for the
    whole run.

    Exit code 1 (a law failed, is insufficient or regressed) is a result with
    ``ok`` False; exit code 2 and every other failure to check raise
    :class:`PosverifyError` with posverify's message and exit code.
    """
    options = dict(rope_config=rope_config, rope_preset=rope_preset, accuracy=accuracy, profile=profile,
                   shapes=shapes, cases=cases, seed=seed, max_position=max_position, timeout_ms=timeout_ms,
                   memory_limit=memory_limit, min_cases=min_cases, precision_bits=precision_bits, baseline=baseline,
                   laws=laws, case=case, device=device, python=python, python_path=python_path,
                   start_timeout_ms=start_timeout_ms, binary=binary, env=env, timeout=timeout)
    cmd, impl = _command(kernel, options)
    out = os.fspath(out) if out is not None else tempfile.mkdtemp(prefix="posverify-")
    cmd += ["--out", out]
    if save_baseline is not None:
        cmd += ["--save-baseline", os.fspath(save_baseline)]
    if junit is not None:
        cmd += ["--junit", os.fspath(junit)]
    cmd += _many(extra_args)
    r = _run(cmd, options)
    # the binary names its report: "wrote OUT/NAME.md, .json and .html ..."
    stem = None
    prefix = "wrote " + out.rstrip("/") + "/"
    for line in r.stdout.splitlines():
        if line.startswith(prefix) and ".md, .json and .html" in line:
            stem = line[len("wrote "):line.index(".md, .json and .html")]
    if stem is None:
        raise PosverifyError("posverify check exited %d without naming its report (no line \"%s...\" in its "
                             "output)" % (r.returncode, prefix), exit_code=r.returncode, command=cmd,
                             stdout=r.stdout, stderr=r.stderr)
    report, law_results, regressions = _read_report(stem + ".json", cmd, r)
    name = (report.get("implementation") or {}).get("name", "")
    return CheckResult(exit_code=r.returncode, kernel=impl, name=name, laws=law_results, regressions=regressions,
                       json_path=stem + ".json", markdown_path=stem + ".md", html_path=stem + ".html",
                       junit_path=os.fspath(junit) if junit is not None else None, command=tuple(cmd),
                       stdout=r.stdout, stderr=r.stderr, report=report)


class Check:
    """A kernel and the options of its check, declared in a test module for
    the pytest plugin (posverify.pytest_plugin): each law of
    ``list_laws(kernel, **options)`` becomes one test, run by one
    ``check(kernel, **options)`` per session.

    ``name``: the name of the group of tests (default: the kernel's, e.g.
    ``llama_rope.LlamaRope`` or the plugin's file name); ``out`` where the
    report goes (default: the session's report directory)."""

    def __init__(self, kernel, *, name=None, out=None, **options):
        _check_keywords(options)
        self.kernel = kernel
        self.options = options
        self.out = out
        self.name = name or self.default_name()

    def default_name(self):
        k = self.kernel
        if isinstance(k, (str, os.PathLike)):
            s = os.fspath(k)
            if s.startswith("python:"):
                s = s[len("python:"):]
            if _MODULE_OBJECT.fullmatch(s):
                return s.replace(":", ".")
            return os.path.basename(s)
        obj = k if isinstance(k, type) else type(k)
        return "%s.%s" % (obj.__module__, obj.__qualname__)

    def list_laws(self):
        return list_laws(self.kernel, **self.options)

    def run(self, out, laws=None):
        options = dict(self.options)
        if laws is not None:
            options["laws"] = laws
        return check(self.kernel, out=self.out or out, **options)

    def __repr__(self):
        return "posverify.Check(%r, %s)" % (self.kernel, ", ".join("%s=%r" % kv for kv in sorted(self.options.items())))
