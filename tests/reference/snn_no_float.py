#!/usr/bin/env python3
"""Checks that the spiking network's step is integer-only.

Disassembles the spiking-network library (objdump -d -C) and fails if any
function of the step (SpikeNet::step / forward / forward_into / train_step,
eprop_row*, accumulate_row*) contains an x87, SSE or AVX floating-point
instruction: arithmetic, compares, conversions, FMA, or scalar float moves
(movss/movsd on xmm). Packed moves and bitwise ops (vmovdqu, vpxor, even
movaps used as a plain copy) carry no float semantics and are allowed.

As a negative control it also disassembles SpikeNetCore::predict_one (the
machinery behind SpikeNetLearner), which converts Q14 to double on purpose,
and fails if *that* is not flagged: the check proves on every run that it can
see a float instruction.
Exit 77 when objdump is missing.
Usage: snn_no_float.py ANY_BINARY PATH_TO_libirithyll_nn_snn.a
"""
import re
import shutil
import subprocess
import sys

from missing_tool import missing_tool

STEP = re.compile(r"irithyll::nn::(SpikeNet::(step|forward|forward_into|train_step)\(|"
                  r"eprop_row|accumulate_row|\(anonymous namespace\)::(eprop_row|accumulate_row))")
CONTROL = re.compile(r"irithyll::nn::SpikeNetCore::predict_one\(")

FLOAT_OPS = [
    re.compile(r"^f(ld|st|ild|ist|add|sub|mul|div|com|ucom|chs|abs|sqrt|xch|rnd|prem|scale|sin|cos|yl2x|2xm1)"),
    re.compile(r"^v?(add|sub|mul|div|min|max|sqrt|rcp|rsqrt|cmp\w*|round|hadd|hsub|dp|addsub|andn?|or|xor)(ss|sd|ps|pd)$"),
    re.compile(r"^v?u?comis[sd]$"),
    re.compile(r"^v?cvt\w+$"),
    re.compile(r"^vf(n)?m(add|sub|addsub|subadd)\w+$"),
    re.compile(r"^v?(movss|movsd)$"),
]
BITWISE_OK = re.compile(r"^v?(and|andn|or|xor)(ps|pd)$")  # register zeroing / copies: no float semantics
# vblendv[ps|pd] (a bit select on the sign bit, which compilers use for integer
# saturation) and shuffles are data movement, so they are not in FLOAT_OPS.


def functions(disasm):
    """Yields (name, [(mnemonic, operands)]) per function."""
    name, body = None, []
    for line in disasm.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            if name is not None:
                yield name, body
            name, body = m.group(1), []
            continue
        parts = line.split("\t")
        if name is not None and len(parts) >= 2 and re.match(r"^\s*[0-9a-f]+:$", parts[0]):
            ins = parts[-1].strip().split(None, 1)
            if ins:
                body.append((ins[0], ins[1] if len(ins) > 1 else ""))
    if name is not None:
        yield name, body


def float_instructions(body):
    bad = []
    for mnem, ops in body:
        if BITWISE_OK.match(mnem):
            continue
        if mnem in ("movsd", "movss", "vmovsd", "vmovss") and "xmm" not in ops:
            continue  # string move (rep movsd), not SSE
        if any(p.match(mnem) for p in FLOAT_OPS):
            bad.append(f"{mnem} {ops}")
    return bad


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    if shutil.which("objdump") is None:
        missing_tool("objdump", "binutils")
    disasm = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", sys.argv[2]], check=True,
                            capture_output=True, text=True).stdout
    checked, control_seen, failures = [], False, []
    for name, body in functions(disasm):
        if CONTROL.search(name):
            control_seen = True
            if not float_instructions(body):
                failures.append(f"negative control {name} shows no float instruction: the detector is broken")
        elif STEP.search(name):
            checked.append(name)
            bad = float_instructions(body)
            if bad:
                failures.append(f"{name}: {len(bad)} float instruction(s), e.g. {bad[:3]}")
    if not control_seen:
        failures.append("negative control SpikeNetCore::predict_one not found")
    needed = ["SpikeNet::step(", "SpikeNet::train_step(", "eprop_row"]
    for n in needed:
        if not any(n in c for c in checked):
            failures.append(f"step function {n} not found in the disassembly")
    if failures:
        print("\n".join(failures))
        return 1
    print(f"integer-only: {len(checked)} step functions checked: " + ", ".join(sorted(set(c.split('(')[0] for c in checked))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
