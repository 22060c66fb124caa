# SPDX-License-Identifier: GPL-2.0
"""The result files and their checkers: which checker reads which format
(checker_of), compare.json's check of the documents it holds, and
load(), the validated document of a file.
"""
import json
import os
import stat

from .common import BadInput, anything, array, fail, num, obj, string
from .pts import DEMAND_DOC, DEMAND_TESTS, DOC, FORMAT, FORMAT_VERSION
from .sweep import SWEEP_DOC, SWEEP_FORMAT, SWEEP_FORMAT_VERSION
from .curve import CURVE_DOC, CURVE_FORMAT, CURVE_FORMAT_VERSION
from .run import RUN_DOC, RUN_FORMAT, RUN_FORMAT_VERSION, run_doc
from .scale import SCALE_DOC, SCALE_FORMAT, SCALE_FORMAT_VERSION
from .latgrid import GRID_DOC, GRID_FORMAT, GRID_FORMAT_VERSION

COMPARE_FORMAT, COMPARE_FORMAT_VERSION = "ssdload-compare", 1

# compare.json: the kind of its runs, each run's document whole
COMPARE_KINDS = {"run": None, "sweep": (SWEEP_FORMAT, SWEEP_FORMAT_VERSION),
                 "curve": (CURVE_FORMAT, CURVE_FORMAT_VERSION),
                 "pts": (FORMAT, FORMAT_VERSION)}
COMPARE_MAX_RUNS = 16
COMPARE_FIELDS = obj({
    "format": string(null=False), "format_version": anything, "ssdload_version": string(),
    "command": string(), "created": string(), "kind": string(null=False), "test": string(),
    "percentiles": array(num(null=False, minimum=0, maximum=100)),
    "runs": array(obj({"label": string(null=False), "source": string(),
                       "document": anything}, required=("label", "source", "document"),
                      null=False), null=False),
}, required=("format", "format_version", "kind", "runs"), null=False)


def compare_doc(v, path):
    """compare.json: its fields, then every run's document by its kind."""
    COMPARE_FIELDS(v, path)
    kind, runs = v["kind"], v["runs"]
    if kind not in COMPARE_KINDS:
        fail(path + ".kind", "%s is not run, sweep, curve or pts" % json.dumps(kind)[:40])
    if kind == "pts" and not isinstance(v.get("test"), str):
        fail(path + ".test", "%s is not a string (the pts test)" % json.dumps(v.get("test")))
    if not 2 <= len(runs) <= COMPARE_MAX_RUNS:
        fail(path + ".runs", "has %d runs, not 2 to %d" % (len(runs), COMPARE_MAX_RUNS))
    for i, r in enumerate(runs):
        where = "%s.runs[%d]" % (path, i)
        if r["label"] in [x["label"] for x in runs[:i]]:
            fail(where + ".label", "%s is the label of an earlier run" %
                  json.dumps(r["label"])[:40])
        where += ".document"
        if kind == "run":
            RUN_DOC(r["document"], where)
            continue
        checker_of(r["document"], where, *COMPARE_KINDS[kind])(r["document"], where)
        if kind == "pts" and r["document"]["test"] != v["test"]:
            fail(where + ".test", "%s is not the comparison's test %s" % (
                json.dumps(r["document"]["test"])[:40], json.dumps(v["test"])[:40]))


# the result documents other than pts.json: format -> (version, checker)
COMMAND_FORMATS = {SWEEP_FORMAT: (SWEEP_FORMAT_VERSION, SWEEP_DOC),
                   CURVE_FORMAT: (CURVE_FORMAT_VERSION, CURVE_DOC),
                   COMPARE_FORMAT: (COMPARE_FORMAT_VERSION, compare_doc),
                   RUN_FORMAT: (RUN_FORMAT_VERSION, run_doc),
                   SCALE_FORMAT: (SCALE_FORMAT_VERSION, SCALE_DOC),
                   GRID_FORMAT: (GRID_FORMAT_VERSION, GRID_DOC)}


def _no_constant(name):
    raise BadInput("%s is not valid JSON (a number must be finite)" % name)


def checker_of(doc, where, fmt, version):
    """The checker of @doc, a document of format @fmt and @version (@where:
    its place in the messages); raises BadInput if it is not one."""
    if not isinstance(doc, dict):
        raise BadInput("%s: not a JSON object" % where)
    if fmt == RUN_FORMAT:		# fio's schema: no "format"
        return run_doc
    if doc.get("format") != fmt:
        raise BadInput("%s: \"format\" is %s, not \"%s\" (not an ssdload %s result)" % (
            where, json.dumps(doc.get("format"))[:40], fmt, fmt[len("ssdload-"):]))
    if doc.get("format_version") != version or isinstance(doc["format_version"], bool):
        raise BadInput("%s: unknown format_version %s (this renderer reads %d)" % (
            where, json.dumps(doc.get("format_version"))[:40], version))
    if fmt in COMMAND_FORMATS:
        return COMMAND_FORMATS[fmt][1]
    if doc.get("test") != "wsat" and "rounds" not in doc:
        raise BadInput("%s: pts.json: no key \"rounds\"" % where)
    return DEMAND_DOC if doc.get("test") in DEMAND_TESTS else DOC


JSON_MAX_BYTES = 1 << 30	# as the CLI's SSL_JSON_MAX_BYTES


def read_regular(path, max_bytes):
    """The bytes of @path, a regular file of at most @max_bytes: a FIFO or a
    device is refused (opened without blocking, then checked), as is a
    larger file; OSError otherwise."""
    import errno		# pylint: disable=import-outside-toplevel
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1
            raw = f.read(max_bytes + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(raw) > max_bytes:
        raise OSError(errno.EFBIG, "larger than %d bytes" % max_bytes)
    return raw


def load(path, fmt=FORMAT, version=FORMAT_VERSION):
    """The validated document of @path, of format @fmt (pts.json; sweep.json
    with SWEEP_FORMAT, curve.json with CURVE_FORMAT); raises BadInput."""
    try:
        raw = read_regular(path, JSON_MAX_BYTES)
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror or e)) from None
    try:
        doc = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise BadInput("%s: not UTF-8 text" % path) from None
    except ValueError as e:		# json.JSONDecodeError is one
        raise BadInput("%s: not JSON: %s" % (path, e)) from None
    except RecursionError:
        raise BadInput("%s: nested too deeply" % path) from None
    checker = checker_of(doc, path, fmt, version)
    try:
        checker(doc, os.path.basename(path))
    except RecursionError:
        raise BadInput("%s: nested too deeply" % path) from None
    except BadInput as e:
        raise BadInput("%s: %s" % (path, e)) from None
    return doc
