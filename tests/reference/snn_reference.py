#!/usr/bin/env python3
"""Bit-exact reference for the Q1.14 spiking network, in plain Python integers.

Runs the C++ dump program (tests/reference/snn_dump.cpp), re-implements the
generator, the weight draw and every step from the specification in
include/irithyll/nn/snn/*.hpp, and fails unless every output, spike count and
final weight, eligibility, drive and membrane matches exactly.
Usage: snn_reference.py PATH_TO_snn_dump
"""
import json
import subprocess
import sys

M64 = (1 << 64) - 1


class Xorshift64:
    def __init__(self, seed):
        self.s = seed if seed != 0 else 0x9E3779B97F4A7C15

    def next(self):
        x = self.s
        x ^= (x << 13) & M64
        x ^= x >> 7
        x ^= (x << 17) & M64
        self.s = x
        return x


def sat16(x):
    return max(-32768, min(32767, x))


def sat32(x):
    return max(-(1 << 31), min((1 << 31) - 1, x))


def mul(a, b):  # Q14 product, round half up; Python >> floors like C++20's arithmetic shift
    return (a * b + 8192) >> 14


def surrogate(v, thr, gamma):
    dist = v - thr if v >= thr else thr - v
    if dist >= thr:
        return 0
    return (gamma * (thr - dist)) // thr


class Net:
    def __init__(self, c):
        self.c = c
        n_in, h, o = c["n_input"], c["n_hidden"], c["n_output"]
        ch = 2 * n_in
        self.h, self.o, self.ch = h, o, ch
        rng = Xorshift64(c["seed"])
        r = c["init_range"]

        def draw(n):
            return [rng.next() % (2 * r + 1) - r for _ in range(n)]

        self.w_in = draw(ch * h)
        self.w_rec = draw(h * h)
        self.w_out = draw(o * h)
        self.B = draw(h * o)
        self.e_in = [0] * (ch * h)
        self.e_rec = [0] * (h * h)
        self.tr_in = [0] * ch
        self.tr_hid = [0] * h
        self.v = [0] * h
        self.rate = [c["target_rate"]] * h
        self.drive = [0] * h
        self.z = [0] * h
        self.ref = [0] * n_in
        self.primed = False
        self.spikes = set()
        self.prev = set()
        self.enc = set()
        self.m = [0] * o
        self.bias = [0] * o

    def step(self, x):
        c, h = self.c, self.h
        thr = c["threshold"]
        self.enc = set()
        if not self.primed:
            self.ref = list(x)
            self.primed = True
        else:
            for f, xf in enumerate(x):
                d = xf - self.ref[f]
                if d > c["encoder_threshold"] or d < -c["encoder_threshold"]:
                    self.enc.add(2 * f + (1 if d < 0 else 0))
                    self.ref[f] = xf
        self.prev = self.spikes
        cur = list(self.drive)
        for chn in self.enc:
            for j in range(h):
                cur[j] += self.w_in[chn * h + j]
        for i in self.prev:
            for j in range(h):
                cur[j] += self.w_rec[i * h + j]
        self.spikes = set()
        psi = [0] * h
        ko = c["kappa_out"]
        shift = c["rate_shift"]
        for j in range(h):
            vp = mul(self.v[j], c["alpha"]) + cur[j]
            spike = vp >= thr
            self.v[j] = sat16(vp - thr if spike else vp)
            psi[j] = surrogate(sat16(vp), thr, c["gamma"])
            if spike:
                self.spikes.add(j)
            r = self.rate[j]
            target = 16384 if spike else 0
            self.rate[j] = sat16(r + ((target - r + (1 << (shift - 1))) >> shift))
            if c["target_rate"] != 0:
                d = self.drive[j] + mul(c["target_rate"] - self.rate[j], c["gain"])
                self.drive[j] = max(-thr, min(thr, d))
            self.z[j] = sat16(mul(self.z[j], ko) + ((16384 - ko) if spike else 0))
        for k in range(self.o):
            s = sum(self.w_out[k * h + j] for j in self.spikes)
            self.m[k] = sat32(mul(self.m[k], ko) + mul(16384 - ko, s))
        return psi

    def output(self, k):
        return sat16(self.m[k] + self.bias[k])

    def eprop_row(self, e, w, base, psi, L, tr):
        c = self.c
        kappa, eta = c["kappa"], c["eta"]
        for j in range(self.h):
            ej = mul(e[base + j], kappa) + mul(16384 - kappa, mul(psi[j], tr))
            e[base + j] = sat16(ej)
            g = sat16(mul(e[base + j], L[j]))
            w[base + j] = sat16(w[base + j] + mul(eta, g))

    def train(self, x, y):
        c, h, o = self.c, self.h, self.o
        psi = self.step(x)
        err = [sat16(y[k] - self.output(k)) for k in range(o)]
        L = [sat16(sum(mul(self.B[j * o + k], err[k]) for k in range(o))) for j in range(h)]
        for chn in range(self.ch):
            self.tr_in[chn] = sat16(mul(self.tr_in[chn], c["alpha"]) + (16384 if chn in self.enc else 0))
            self.eprop_row(self.e_in, self.w_in, chn * h, psi, L, self.tr_in[chn])
        for i in range(h):
            self.tr_hid[i] = sat16(mul(self.tr_hid[i], c["alpha"]) + (16384 if i in self.prev else 0))
            self.eprop_row(self.e_rec, self.w_rec, i * h, psi, L, self.tr_hid[i])
        for k in range(o):
            self.bias[k] = sat16(self.bias[k] + mul(c["eta_bias"], err[k]))
            for j in range(h):
                idx = k * h + j
                self.w_out[idx] = sat16(self.w_out[idx] + mul(c["eta_out"], sat16(mul(err[k], self.z[j]))))


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    dump = json.loads(subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout)
    net = Net(dump["config"])
    for t, s in enumerate(dump["steps"]):
        if s["train"]:
            net.train(s["x"], s["y"])
        else:
            net.step(s["x"])
        got = [net.output(k) for k in range(net.o)]
        if got != s["out"] or len(net.spikes) != s["spikes"]:
            print(f"step {t}: C++ out {s['out']} spikes {s['spikes']}, Python out {got} spikes {len(net.spikes)}")
            return 1
    for name, ours in (("w_in", net.w_in), ("e_in", net.e_in), ("w_rec", net.w_rec), ("e_rec", net.e_rec),
                       ("w_out", net.w_out), ("drive", net.drive), ("v", net.v)):
        if ours != dump[name]:
            bad = next(i for i in range(len(ours)) if ours[i] != dump[name][i])
            print(f"{name}[{bad}]: C++ {dump[name][bad]}, Python {ours[bad]}")
            return 1
    moved = sum(1 for a, b in zip(net.w_rec, Net(dump["config"]).w_rec) if a != b)
    if moved == 0:
        print("hidden weights never moved: the check would not exercise e-prop")
        return 1
    print(f"snn reference: {len(dump['steps'])} steps bit-exact, {moved} recurrent weights moved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
