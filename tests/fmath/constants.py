#!/usr/bin/env python3
"""tests/fmath/constants.py — derives every constant of engine/util/fmath.c.

Run: python3 tests/fmath/constants.py   (needs python3-mpmath)
It prints the C block that engine/util/fmath.c holds between its
"constants.py begin" and "constants.py end" lines; tests/fmath/check_constants.py
fails when the two differ.

Derivation, all with 2000-bit arithmetic (mpmath, mp.prec = 2000):
  - pi/2 cut into pieces: PIO2_1, PIO2_2, PIO2_3 hold 33 bits each (so k *
    piece is exact for |k| < 2^20), PIO2_4 the next 53 bits rounded;
  - 2/pi as 32-bit words after the binary point (Payne-Hanek reduction);
  - double-double (hi + lo, hi = round(v), lo = round(v - hi)) values of
    pi, pi/2, pi/4, 3pi/4, 1/ln(10), atan(k/8) for k = 0..8, 1/6, 2/3;
  - ln 2 in two pieces: LN2_HI with 42 bits (k * LN2_HI exact for
    |k| < 2^11), LN2_LO = round(ln 2 - LN2_HI);
  - Taylor coefficients, each the double nearest to:
      sin  (-1)^n / (2n+1)!   n = 2..8  (truncation < r^19/19! < 1e-19 at pi/4)
      cos  (-1)^n / (2n)!     n = 2..9  (truncation < r^20/20! < 4e-21)
      atan (-1)^n / (2n+1)    n = 1..6  (|u| <= 1/16 + 2^-50: < 2^-63 u)
      exp  1 / n!             n = 3..15 (|r| <= 0.35: < 3e-21)
      log  2 / (2n+1)         n = 2..11 (2 atanh s, |s| <= 0.1716: < 2^-62 s)
"""
import mpmath
from mpmath import mp, mpf

mp.prec = 2000


def hexd(x):
    """The double nearest to x, as a C hex literal."""
    return float(x).hex() if isinstance(x, float) else float(mpf(x)).hex()


def rnd(v):
    return float(mpmath.mpf(v))  # round to nearest double (mpmath rounds)


def dd(v):
    hi = rnd(v)
    lo = rnd(v - mpf(hi))
    return hi, lo


def cut(v, bits):
    """v's leading `bits` bits (truncated), v > 0."""
    e = int(mpmath.floor(mpmath.log(v, 2)))
    scale = mpf(2) ** (bits - 1 - e)
    return mpf(int(mpmath.floor(v * scale))) / scale


def main():
    pio2 = mp.pi / 2
    out = []
    p1 = cut(pio2, 33)
    p2 = cut(pio2 - p1, 33)
    p3 = cut(pio2 - p1 - p2, 33)
    p4 = rnd(pio2 - p1 - p2 - p3)
    for name, v in (("PIO2_1", p1), ("PIO2_2", p2), ("PIO2_3", p3), ("PIO2_4", p4)):
        assert mpf(rnd(v)) == mpf(v) or name == "PIO2_4"
        out.append("#define %s %s" % (name, float(v).hex()))
    out.append("#define INV_PIO2 %s" % hexd(2 / mp.pi))
    for name, v in (("PI", mp.pi), ("PIO2", pio2), ("PIO4", mp.pi / 4),
                    ("PI3O4", 3 * mp.pi / 4), ("INV_LN10", 1 / mp.log(10)),
                    ("SIN3", mpf(-1) / 6), ("LOG3", mpf(2) / 3)):
        h, l = dd(v)
        out.append("#define %s_H %s" % (name, h.hex()))
        out.append("#define %s_L %s" % (name, l.hex()))
    ln2 = mp.log(2)
    lh = cut(ln2, 42)
    out.append("#define LN2_HI %s" % float(lh).hex())
    out.append("#define LN2_LO %s" % hexd(ln2 - lh))
    out.append("#define INV_LN2 %s" % hexd(1 / ln2))
    # 2/pi = sum w[i] 2^(-32(i+1))
    nw = 40
    v = int(mpmath.floor((2 / mp.pi) * mpf(2) ** (32 * nw)))
    words = [(v >> (32 * (nw - 1 - i))) & 0xFFFFFFFF for i in range(nw)]
    out.append("static const uint32_t TWO_OVER_PI[%d] = {" % nw)
    for i in range(0, nw, 6):
        out.append("    " + ", ".join("0x%08X" % w for w in words[i:i + 6]) + ",")
    out.append("};")
    out.append("static const double ATAN_K8[9][2] = {")
    for k in range(9):
        h, l = dd(mpmath.atan(mpf(k) / 8))
        out.append("    {%s, %s}," % (h.hex(), l.hex()))
    out.append("};")

    def table(name, vals):
        out.append("static const double %s[%d] = {" % (name, len(vals)))
        for x in vals:
            out.append("    %s," % hexd(x))
        out.append("};")

    table("SIN_C", [mpf((-1) ** n) / mpmath.factorial(2 * n + 1) for n in range(2, 9)])
    table("COS_C", [mpf((-1) ** n) / mpmath.factorial(2 * n) for n in range(2, 10)])
    table("ATAN_C", [mpf((-1) ** n) / (2 * n + 1) for n in range(1, 7)])
    table("EXP_C", [1 / mpmath.factorial(n) for n in range(3, 16)])
    table("LOG_C", [mpf(2) / (2 * n + 1) for n in range(2, 12)])
    print("\n".join(out))


if __name__ == "__main__":
    main()
