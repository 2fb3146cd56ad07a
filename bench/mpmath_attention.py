"""mpmath peer of the benchmark: the same attention, softmax(q k^T / sqrt(d)) v
max-subtracted, at a given binary precision (default 113 bits).

Run with Debian's interpreter (/usr/bin/python3, package python3-mpmath).
Prints one line: "<ns per multiply-add> <seconds> <multiply-adds> <CPU ns per multiply-add>".
Usage: mpmath_attention.py N_Q N_K D D_V [BITS] [SEED]
"""
import random
import sys
import time

import mpmath


def main():
    n_q, n_k, d, d_v = (int(a) for a in sys.argv[1:5])
    bits = int(sys.argv[5]) if len(sys.argv) > 5 else 113
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    mpmath.mp.prec = bits
    rng = random.Random(seed)
    mat = lambda r, c: [[mpmath.mpf(rng.uniform(-1, 1)) for _ in range(c)] for _ in range(r)]
    q, k, v = mat(n_q, d), mat(n_k, d), mat(n_k, d_v)
    scale = 1 / mpmath.sqrt(d)
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(n_q):
        s = [mpmath.fdot(q[i], k[j]) * scale for j in range(n_k)]
        m = max(s)
        e = [mpmath.exp(x - m) for x in s]
        z = mpmath.fsum(e)
        _ = [mpmath.fdot(e, [v[j][c] for j in range(n_k)]) / z for c in range(d_v)]
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    mads = n_q * n_k * (d + d_v)
    print(f"{seconds * 1e9 / mads:.6g} {seconds:.6g} {mads} {cpu * 1e9 / mads:.6g}")


if __name__ == "__main__":
    main()
