"""compile: compiles the Triton kernels of corpus/triton/*.py without a GPU, for each compute
capability given, through `triton.compile` with Triton's own ptxas command line (the
`ptxas` Triton runs is scripts/triton-ptxas-wrapper.sh, which records it and runs
ptx2sass). Writes <out>/<kernel>.sm_<CC>.{ptx,cmd,rc,stdout,stderr,cubin} (from the
wrapper) and <out>/<kernel>.sm_<CC>.outcome (Triton's verdict: `ok`, or the first line
of its error).

report: compares ptx2sass with ptxas on those PTX files (see scripts/triton-corpus.sh).
Both modes are run by scripts/triton-corpus.sh."""
import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
import tempfile
import traceback


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def compile_corpus(out_dir, caps, files):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    for path in sorted(files):
        for name, fn, signature, constexprs, options, *divisible in load(path).KERNELS:
            # Pointers 16-byte aligned, as Triton's launcher specialises them for
            # freshly allocated tensors; integers named in an entry's sixth item
            # divisible by 16, as the launcher specialises them when they are
            # (masked accesses then get vectorised too).
            divisible = set(divisible[0]) if divisible else set()
            attrs = {(i, ): [["tt.divisibility", 16]]
                     for i, arg in enumerate(fn.arg_names) if signature[arg].startswith("*") or arg in divisible}
            for cap in caps:
                tag = f"{name}.sm_{cap}"
                os.environ["TRITON_CORPUS_TAG"] = tag
                src = ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
                try:
                    # Triton prints the whole PTX when ptxas fails: not ours to show.
                    with contextlib.redirect_stdout(io.StringIO()):
                        triton.compile(src, target=GPUTarget("cuda", cap, 32), options=options)
                    outcome = "ok"
                except Exception as e:  # Triton's own error (PTXASError, or a front-end one)
                    lines = [l for l in str(e).splitlines() if l.strip()]
                    outcome = f"{type(e).__name__}: {lines[0] if lines else ''}"
                    if not os.path.exists(os.path.join(out_dir, tag + ".cmd")):
                        traceback.print_exc()
                with open(os.path.join(out_dir, tag + ".outcome"), "w") as f:
                    f.write(outcome + "\n")
                print(f"{tag}: {outcome}", flush=True)


def run(cmd, cwd=None):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def first_error(text):
    for line in text.splitlines():
        if "error" in line or "fatal" in line:
            return re.sub(r"^\S*\.ptx[:,] ?", "", line.strip())
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else ""


def verbose_fields(text):
    """The -v lines, names and numbers apart: numbers become N (the fields), and the numbers in order,
    but for the register count (our allocation's, checked against our cubin apart) and the compile time
    (a figure of the run, not of the cubin)."""
    lines = [l.strip() for l in text.splitlines()
             if l.startswith("ptxas info") or l.startswith("ptxas warning") or re.match(r"\s+\d+ bytes stack frame", l)]
    lines = [re.sub(r"^ptxas (info|warning)\s*:\s*", r"\1: ", l) for l in lines]
    facts = [re.sub(r"Used \d+ registers|Compile time = [\d.]+ ms", "", l) for l in lines]
    return [re.sub(r"\d+", "N", l) for l in lines], [re.findall(r"\d+", l) for l in facts]


def run_launch(sass, spec, cubin):
    """`sass run` of a cubin under a launch spec: its output lines, or None when it fails."""
    rc, out, err = run([sass, "run", "--launch", spec, "--hazards", "fail", cubin])
    return out if rc == 0 else None


def report(out_dir, ours, ref_bin, sass, launch_dir):
    ptxas, nvdisasm = os.path.join(ref_bin, "ptxas"), os.path.join(ref_bin, "nvdisasm")
    rows = []
    tags = sorted(f[:-4] for f in os.listdir(out_dir) if f.endswith(".ptx"))
    if not tags:
        sys.exit("triton-corpus: no PTX in %s; run scripts/triton-corpus.sh first" % out_dir)
    with tempfile.TemporaryDirectory() as tmp:
        for tag in tags:
            ptx = os.path.join(out_dir, tag + ".ptx")
            text = open(ptx).read()
            target = re.search(r"^\s*\.target\s+sm_(\w+)", text, re.M).group(1)
            virtual = f"-arch=compute_{target}"
            cmd = open(os.path.join(out_dir, tag + ".cmd")).read().split()

            def triton_cmd(tool, out):
                return [tool] + [ptx if a == "X.ptx" else out if a == "X.ptx.o" else a for a in cmd[1:]]

            ref_parse = run([ptxas, virtual, ptx], cwd=tmp)[0]
            our_parse, _, our_parse_err = run([ours, virtual, ptx], cwd=tmp)
            ref_rc, ref_out, ref_err = run(triton_cmd(ptxas, os.path.join(tmp, "ref.o")), cwd=tmp)
            rc, out, err = run(triton_cmd(ours, os.path.join(tmp, "a.o")), cwd=tmp)
            row = {"tag": tag, "sm": "sm_" + target, "parse_same": (ref_parse == 0) == (our_parse == 0),
                   "ptxas_parse": ref_parse, "ours_parse": our_parse, "ptxas_rc": ref_rc, "ours_rc": rc,
                   "nvdisasm": "", "identical": "", "v_fields": "", "v_values": "", "outputs": "", "regs_as_cubin": "", "error": ""}
            if rc == 0:
                run(triton_cmd(ours, os.path.join(tmp, "b.o")), cwd=tmp)
                a, b = open(os.path.join(tmp, "a.o"), "rb").read(), open(os.path.join(tmp, "b.o"), "rb").read()
                row["identical"] = a == b
                row["nvdisasm"] = run([nvdisasm, "-c", os.path.join(tmp, "a.o")])[0] == 0
                # cuobjdump reads the cubin too, and its register count is the
                # one -v reported.
                rc_c, usage, _ = run([os.path.join(ref_bin, "cuobjdump"), "-res-usage", os.path.join(tmp, "a.o")])
                said = re.findall(r"Used (\d+) registers", err)
                row["regs_as_cubin"] = rc_c == 0 and said == re.findall(r"REG:(\d+)", usage)
                if ref_rc == 0:
                    (rf, rv), (of, ov) = verbose_fields(ref_out + ref_err), verbose_fields(out + err)
                    row["v_fields"], row["v_values"] = rf == of, rv == ov
                    # Outputs of both cubins in the SASS interpreter, where the
                    # kernel has a launch spec.
                    spec = os.path.join(launch_dir, tag.split(".")[0] + ".json")
                    if os.path.exists(spec):
                        mine = run_launch(sass, spec, os.path.join(tmp, "a.o"))
                        theirs = run_launch(sass, spec, os.path.join(tmp, "ref.o"))
                        row["outputs"] = "same" if mine is not None and mine == theirs else \
                            "ours fails" if mine is None else "ptxas fails" if theirs is None else "differ"
                        if row["outputs"] == "ptxas fails":
                            # ptxas's code uses what the SASS interpreter does not
                            # model: compare ours with the PTX interpreter instead.
                            rc_p, interp, _ = run([ours, virtual.replace("compute_", "sm_"), "--run", spec, ptx], cwd=tmp)
                            if rc_p == 0:
                                row["outputs"] = "same as PTX interpreter" if interp == mine else "differs from PTX interpreter"
            else:
                row["error"] = first_error(err if our_parse == 0 else our_parse_err)
            rows.append(row)
    cols = ["tag", "sm", "parse_same", "ptxas_parse", "ours_parse", "ptxas_rc", "ours_rc", "nvdisasm", "identical",
            "v_fields", "v_values", "regs_as_cubin", "outputs", "error"]
    with open(os.path.join(out_dir, "report.tsv"), "w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(str(r[c]) for c in cols) + "\n")
    for sm in sorted({r["sm"] for r in rows}, key=lambda s: int(re.sub(r"\D", "", s))):
        rs = [r for r in rows if r["sm"] == sm]
        ok = [r for r in rs if r["ours_rc"] == 0]
        print(f"{sm}: {len(rs)} files; parse-only verdict as ptxas {sum(r['parse_same'] for r in rs)}/{len(rs)}; "
              f"ptxas compiles {sum(r['ptxas_rc'] == 0 for r in rs)}, ptx2sass {len(ok)}; "
              f"nvdisasm reads {sum(r['nvdisasm'] is True for r in ok)}/{len(ok)}; "
              f"cuobjdump reads and -v's register count is the cubin's {sum(r['regs_as_cubin'] is True for r in ok)}/{len(ok)}; "
              f"byte-identical reruns {sum(r['identical'] is True for r in ok)}/{len(ok)}; "
              f"-v fields as ptxas {sum(r['v_fields'] is True for r in ok)}, values (registers and compile time apart) {sum(r['v_values'] is True for r in ok)}; "
              f"outputs as ptxas's in the SASS interpreter {sum(r['outputs'] == 'same' for r in ok)}"
              f" (else as the PTX interpreter's {sum(r['outputs'] == 'same as PTX interpreter' for r in ok)})"
              f"/{sum(r['outputs'] != '' for r in ok)} with a launch spec")
    reasons = {}
    for r in rows:
        if r["ours_rc"] != 0:
            reasons.setdefault(re.sub(r"line \d+|\d+:\d+", "L", r["error"]), []).append(r["tag"])
    for reason, tags in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(tags):3} {reason}  [{', '.join(tags[:4])}{', ...' if len(tags) > 4 else ''}]")


if __name__ == "__main__":
    if sys.argv[1] == "compile":
        compile_corpus(sys.argv[2], [int(c) for c in sys.argv[3].split(",")], sys.argv[4:])
    else:
        report(*sys.argv[2:7])
