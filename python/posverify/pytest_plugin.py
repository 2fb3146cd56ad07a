"""pytest plugin: each law of ``posverify check`` on a declared kernel is one test.

A test module declares its kernels as module-level :class:`posverify.Check`
objects (alone or in a list)::

    import posverify
    from my_kernels import MyRope

    posverify_checks = [posverify.Check(MyRope, rope_config="halves:500000:128")]

At collection, ``posverify check --list`` names the laws of each kernel (no
case runs): one item per law, dtype and configuration, named by the law's id
(``rope.reference[user-halves-128-theta500000/float32]``) under the kernel's
name, marked with its operation (attention, attend, rope, sinusoid) and dtype
(float32, float64, float16, bfloat16), so ``-k`` and ``-m`` select. The first
item of a kernel that runs runs ``posverify check`` once for every selected item
of that kernel (``--law ID`` for each when only some are selected); each item
then passes, fails (the finding, the counterexample and the replay command of
the report) or is skipped (the kernel declined the law's dtype or
configuration, or does not provide its operation). With ``baseline=``, an item
``baseline`` fails on the baseline's complaints about laws this run no
longer has.

Registered through the entry point ``pytest11``/``posverify``; in a source tree,
``PYTHONPATH=python pytest -p posverify.pytest_plugin`` (docs/python.md).
"""

import os
import re
import tempfile

import pytest

from .api import VERDICT_OUTCOMES, Check, PosverifyError

#: the operation marker of a law, by the first part of its id
_OPERATION = {"attention": "attention", "attend": "attend", "rope": "rope", "flux": "rope", "sinusoid": "sinusoid"}
_DTYPES = ("float32", "float64", "float16", "bfloat16")

#: why a law of each verdict that skips is skipped (every verdict of
#: VERDICT_OUTCOMES that maps to "skip" has its line)
_SKIP_WHY = {
    "unsupported": "the kernel declined all {law.unsupported_cases} cases "
                   "(a dtype or configuration it does not support)",
    "not-run": "not run: the kernel does not provide this law's operation, or no case was asked for",
}
if {v for v, o in VERDICT_OUTCOMES.items() if o == "skip"} != set(_SKIP_WHY):
    raise ImportError("posverify.pytest_plugin: _SKIP_WHY does not cover the skipping verdicts of VERDICT_OUTCOMES")

_RUNS = pytest.StashKey()


def pytest_addoption(parser):
    group = parser.getgroup("posverify", "posverify check (posverify.Check declared in test modules)")
    group.addoption("--posverify-out", metavar="DIR", default=None,
                    help="where posverify check writes its reports, one directory per kernel "
                         "(default: a new temporary directory, named at the end of the run)")


def pytest_configure(config):
    config.addinivalue_line("markers", "posverify: a law of posverify check on a kernel declared by posverify.Check")
    for op in sorted(set(_OPERATION.values())):
        config.addinivalue_line("markers", "%s: a posverify law of the %s operation" % (op, op))
    for dt in _DTYPES:
        config.addinivalue_line("markers", "%s: a posverify law on %s" % (dt, dt))
    config.stash[_RUNS] = _Runs(config)


def _checks_of(obj):
    if isinstance(obj, Check):
        return [obj]
    if isinstance(obj, (list, tuple)) and obj and all(isinstance(c, Check) for c in obj):
        return list(obj)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    checks = _checks_of(obj)
    if checks is None:
        return None
    return [KernelCollector.from_parent(collector, name=c.name, spec=c) for c in checks]


def pytest_collection_modifyitems(session, config, items):
    seen = {}
    for item in items:
        if isinstance(item, LawItem):
            kernel = item.parent
            other = seen.setdefault(kernel.nodeid, kernel)
            if other is not kernel:
                raise pytest.UsageError("two posverify.Check of the same name %r in %s: give one of them name=..."
                                        % (kernel.name, kernel.parent.nodeid))


def pytest_terminal_summary(terminalreporter):
    runs = terminalreporter.config.stash.get(_RUNS, None)
    if not runs or not runs.results:
        return
    terminalreporter.section("posverify")
    for kernel, res in runs.results.items():
        if isinstance(res, PosverifyError):
            terminalreporter.write_line("%s: posverify check could not run: %s" % (kernel.nodeid, res))
        else:
            terminalreporter.write_line("%s: %d laws run, posverify exit code %d, report %s" % (
                kernel.nodeid, len(res.laws), res.exit_code, res.markdown_path))


class _Runs:
    """The check of each kernel, run once per session for its selected items."""

    def __init__(self, config):
        self.config = config
        self.results = {}
        self._out = None

    def out(self, kernel):
        if self._out is None:
            self._out = self.config.getoption("posverify_out") or tempfile.mkdtemp(prefix="posverify-pytest-")
        return os.path.join(self._out, re.sub(r"[^\w.-]", "_", kernel.name))

    def result(self, kernel):
        if kernel not in self.results:
            selected = [it.law_id for it in kernel.session.items
                        if isinstance(it, LawItem) and it.parent is kernel and it.law_id is not None]
            laws = None if not selected or set(selected) == set(kernel.law_ids) else selected
            try:
                self.results[kernel] = kernel.spec.run(self.out(kernel), laws=laws)
            except PosverifyError as e:
                self.results[kernel] = e
        return self.results[kernel]


class KernelCollector(pytest.Collector):
    """The laws of one declared kernel (posverify check --list)."""

    def __init__(self, *, spec, **kw):
        super().__init__(**kw)
        self.spec = spec
        self.law_ids = []

    def collect(self):
        try:
            self.law_ids = self.spec.list_laws()
        except PosverifyError as e:
            raise self.CollectError("posverify check --list on %s: %s" % (self.name, e))
        if not self.law_ids:
            raise self.CollectError("posverify check --list names no law for %s: the kernel provides no operation "
                                    "posverify checks" % self.name)
        items = [LawItem.from_parent(self, name=law_id, law_id=law_id) for law_id in self.law_ids]
        if self.spec.options.get("baseline") is not None:
            items.append(LawItem.from_parent(self, name="baseline", law_id=None))
        return items

    def reportinfo(self):
        return self.path, None, self.name


class LawFailure(Exception):
    """A law failed (or is insufficient, or regressed): the text is the report."""


class LawItem(pytest.Item):
    """One law on one dtype (and configuration) of a declared kernel; law_id
    None: the baseline's complaints about laws this run does not have."""

    def __init__(self, *, law_id, **kw):
        super().__init__(**kw)
        self.law_id = law_id
        self.add_marker("posverify")
        if law_id is not None:
            op = _OPERATION.get(law_id.split(".", 1)[0])
            if op:
                self.add_marker(op)
            dtype = re.search(r"[\[/]([^\[/\]]+)\]$", law_id)
            if dtype and dtype.group(1) in _DTYPES:
                self.add_marker(dtype.group(1))

    def runtest(self):
        res = self.config.stash[_RUNS].result(self.parent)
        if isinstance(res, PosverifyError):
            raise LawFailure("posverify check could not run on %s: %s" % (self.parent.name, res))
        self.user_properties.append(("posverify_report", res.json_path))
        if self.law_id is None:
            listed = set(self.parent.law_ids)
            stray = [r for r in res.regressions if not any(r.startswith("`%s`" % i) for i in listed)]
            if stray:
                raise LawFailure("the baseline %s names laws this run does not have:\n%s\nreport: %s" % (
                    self.parent.spec.options["baseline"], "\n".join("REGRESSION  " + r for r in stray),
                    res.markdown_path))
            return
        law = res.get(self.law_id)
        if law is None:
            raise LawFailure("%s was listed by posverify check --list but is not in the report %s" % (
                self.law_id, res.json_path))
        outcome = law.outcome
        if outcome == "skip":
            pytest.skip("%s: %s" % (law.verdict, _SKIP_WHY[law.verdict].format(law=law)))
        if outcome == "fail":
            raise LawFailure(self._failure_text(law, res))
        assert outcome == "pass" and law.verdict == "passed", (outcome, law.verdict)
        if law.finding:  # a pass with a note (e.g. shapes where only finiteness was checked)
            self.user_properties.append(("posverify_note", law.finding))

    @staticmethod
    def _failure_text(law, res):
        lines = ["%s: %s (%d cases evaluated, %d declined)" % (law.id, law.verdict, law.cases,
                                                                law.unsupported_cases)]
        if law.finding:
            lines.append("finding: " + law.finding)
        if law.diagnosis:
            lines.append("diagnosis: " + law.diagnosis)
        for r in law.regressions:
            lines.append("REGRESSION  " + r)
        if law.counterexample:
            lines.append("counterexample:")
            lines += ["    " + x for x in law.counterexample.splitlines()]
        if law.replay:
            lines.append("replay: " + law.replay)
        lines.append("report: " + res.markdown_path)
        return "\n".join(lines)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, LawFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        # not a suffix of the node id: pytest would turn the dots of the law id into "::"
        return self.path, None, "%s: %s" % (self.parent.name, self.name)

